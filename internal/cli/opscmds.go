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
	Eval       EvalCmd       `cmd:"" help:"Append to or amend .harness/eval_log.jsonl (docs/protocol.md §3.6)."`
	Session    SessionCmd    `cmd:"" help:"Session pool: start, end, reset (docs/protocol.md §4.6, §8.1)."`
	Checkpoint CheckpointCmd `cmd:"" help:"Checkpoints: open, render, reply, reply-all, due (docs/protocol.md §5)."`
	Next       NextCmd       `cmd:"" help:"Which features may start now, and why the others wait (docs/protocol.md §7)."`
	Status     StatusCmd     `cmd:"" help:"Sprint overview: features, checkpoints, sessions, Resets, hook denials; --mermaid DAG."`
	Watch      WatchCmd      `cmd:"" help:"Events for Hermes' scheduler: Resets due/overdue/under way, stale sessions (docs/protocol.md §8)."`
	Task       TaskCmd       `cmd:"" help:"Task queue: add, next, done, fail, list (docs/protocol.md §10)."`
	Preflight  PreflightCmd  `cmd:"" help:"STEP 2.5 hard checks before/after a feature start (docs/protocol.md §4.5)."`
	Launch     LaunchCmd     `cmd:"" help:"Start a feature's Generator session in Claude Code's sandbox, with proof that its hooks run (STEP 3.3-3.4)."`
	Yolo       YoloCmd       `cmd:"" help:"Pipeline YOLO: check eligibility, abort (docs/protocol.md §6)."`
	Reset      ResetCmd      `cmd:"" help:"Hermes in-process Reset: hermes, resume (docs/protocol.md §8.2)."`
	Pipeline   PipelineCmd   `cmd:"" help:"Sink the finished sprint into a pipeline (docs/protocol.md §9.3)."`
}
