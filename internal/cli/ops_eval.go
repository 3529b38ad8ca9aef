package cli

import "github.com/superagent-harness/harness/internal/ops"

// EvalCmd groups `harness eval append` and `harness eval amend`.
type EvalCmd struct {
	Append EvalAppendCmd `cmd:"" help:"Append one entry to .harness/eval_log.jsonl (timestamp and sprint_id filled in)."`
	Amend  EvalAmendCmd  `cmd:"" help:"Append a 补录 correction of eval_log line N (supersedes_line: N)."`
}

// EvalAppendCmd is `harness eval append`.
type EvalAppendCmd struct {
	Feature           string `name:"feature" placeholder:"FID" help:"feature_id (absent for sprint-level entries)."`
	Phase             int    `name:"phase" placeholder:"N" help:"phase 1..4."`
	Event             string `name:"event" placeholder:"TYPE" help:"event_type: phase_evaluation, checkpoint, retry, fail, yolo_enter, yolo_abort, reset."`
	Result            string `name:"result" placeholder:"R" help:"result: pass, retry, fail."`
	Reason            string `name:"reason" placeholder:"TEXT" help:"Concrete reason citing acceptance ids (phase_evaluation: ≥ 20 bytes)."`
	Commit            string `name:"commit" placeholder:"HASH" help:"Phase-4 commit hash."`
	CheckpointID      string `name:"checkpoint-id" placeholder:"CP" help:"checkpoint_id of a checkpoint entry."`
	Decision          string `name:"decision" placeholder:"D" help:"decision of a checkpoint entry."`
	AcceptanceResults string `name:"acceptance-results" placeholder:"FILE|-" help:"JSON array of {id, criteria, status, evidence} (criteria filled from acceptance when omitted)."`
	Entry             string `name:"entry" placeholder:"FILE|-" help:"A whole entry as one JSON object; flags override its fields."`
	Dir               string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *EvalAppendCmd) Help() string {
	return `Appends one entry (docs/protocol.md §3.6, §4.7) with timestamp = now (UTC, whole seconds) and sprint_id =
feature_list.sprint. Refuses (exit 1, nothing written) what validate would reject (testdata/sprints/README.md §5):
schema enums, a missing or lazy reason, a phase_evaluation reason under 20 bytes, a phase-3 pass without
acceptance_results matching feature.acceptance one-to-one (verbatim criteria, non-empty non-lazy evidence),
an unknown feature, and any other finding the new line would add. Pre-existing findings print as warnings.
The timestamp is always now. In a Generator session (FEATURE_ID set) only the session's own
phase_evaluation of its current phase or a retry entry may be appended, without checkpoint/decision
fields: a Generator never approves or judges (docs/protocol.md §1). Resolutions followed: §13 #35 (sprint_id
always written; the 20-byte minimum only for phase_evaluation), #41 (one or two entries per phase, the
last is the verdict), #49 (testdata/sprints/README.md lazy list and thresholds are canonical).`
}

// Run performs the command.
func (c *EvalAppendCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	entry, err := e.readArg("--entry", c.Entry)
	if err != nil {
		return err
	}
	ar, err := e.readArg("--acceptance-results", c.AcceptanceResults)
	if err != nil {
		return err
	}
	if len(entry) == 0 && c.Event == "" {
		return usage("eval append needs --event TYPE (or --entry FILE)")
	}
	rep, err := ops.EvalAppend(env, ops.EvalAppendInput{
		Entry: entry, Feature: c.Feature, Phase: c.Phase, Event: c.Event, Result: c.Result, Reason: c.Reason,
		Commit: c.Commit, AcceptanceResults: ar, CheckpointID: c.CheckpointID, Decision: c.Decision,
	})
	return e.opsResult(rep, err)
}

// EvalAmendCmd is `harness eval amend --line N --reason '补录: …'`.
type EvalAmendCmd struct {
	Line   int    `name:"line" required:"" placeholder:"N" help:"The eval_log line (1-based) being corrected."`
	Reason string `name:"reason" required:"" placeholder:"TEXT" help:"The corrected reason; must start with '补录:'."`
	Event  string `name:"event" placeholder:"TYPE" help:"event_type, only when line N is not JSON."`
	Dir    string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *EvalAmendCmd) Help() string {
	return `eval_log is never rewritten (docs/protocol.md §13 #39): this appends a correction with supersedes_line N
that copies line N's event_type, feature_id, phase and checkpoint_id. validate and finalize then report
line N's findings as info (testdata/sprints/README.md eval.superseded, D33) and Stop reads the corrected reason.`
}

// Run performs the command.
func (c *EvalAmendCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.EvalAmend(env, c.Line, c.Reason, c.Event)
	return e.opsResult(rep, err)
}
