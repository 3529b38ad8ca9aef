package cli

// opsCommands is embedded in CLI and holds the protocol operations
// (eval append/amend, phase advance/retry, session, checkpoint, yolo, reset,
// pipeline, task, next, status, preflight). The protocol-operations engineer
// adds one field per command group here, each implemented in an ops_*.go file
// with a Run(e *Env) error method, e.g.
//
//	Eval EvalCmd `cmd:"" help:"Append to or amend eval_log.jsonl."`
//
// Phase subcommands go into PhaseCmd (phase.go) instead, next to `complete`.
type opsCommands struct {
	Plan       PlanCmd       `cmd:"" help:"Write the features, checkpoints, contract and tooling.md from one plan file."`
	Eval       EvalCmd       `cmd:"" help:"Append to or correct the sprint's audit trail .harness/eval_log.jsonl."`
	Session    SessionCmd    `cmd:"" help:"Session pool: start, end, reset a feature's Generator session."`
	Checkpoint CheckpointCmd `cmd:"" help:"Checkpoints (questions to the user): open, render, reply, reply-all, due."`
	Next       NextCmd       `cmd:"" help:"Which features may start now, and why the others wait."`
	Status     StatusCmd     `cmd:"" help:"Sprint overview: features, checkpoints, sessions, Resets, hook denials; --mermaid DAG."`
	Watch      WatchCmd      `cmd:"" help:"Events for Hermes' scheduler: Resets due/overdue/under way, stale sessions."`
	Task       TaskCmd       `cmd:"" help:"Task queue: add, next, done, fail, list."`
	Preflight  PreflightCmd  `cmd:"" help:"Hard checks before and after a feature's Generator session starts."`
	Launch     LaunchCmd     `cmd:"" help:"Start a feature's Generator session in Claude Code's sandbox, with proof that its hooks run."`
	Yolo       YoloCmd       `cmd:"" help:"Pipeline YOLO (checkpoints pass on their own): check, abort."`
	Reset      ResetCmd      `cmd:"" help:"Hermes Reset: write the handoff, resume from it."`
	Pipeline   PipelineCmd   `cmd:"" help:"Pipelines: sink the finished sprint into one, list them, show one."`
}
