package cli

import "github.com/superagent-harness/harness/internal/ops"

// EvalCmd groups `harness eval append` and `harness eval amend`.
type EvalCmd struct {
	Append EvalAppendCmd `cmd:"" help:"Append one entry to .harness/eval_log.jsonl (timestamp and sprint_id filled in)."`
	Amend  EvalAmendCmd  `cmd:"" help:"Append a correction (补录) of eval_log line N."`
}

// Help is the long help of the command group.
func (c *EvalCmd) Help() string {
	return `eval_log.jsonl is the sprint's audit trail of verdicts and checkpoint decisions: entries are
only ever appended, and a wrong line is corrected by a new one.

Examples:
  harness eval append --feature f001 --phase 1 --event phase_evaluation --result pass --reason "A1-A3 planned"
  harness eval amend --line 12 --reason '补录: corrected reason'`
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
	return `Appends one entry to .harness/eval_log.jsonl, with the timestamp (now, UTC) and the sprint id
filled in. Refused (exit 1, nothing written) when validate would reject the new line: an unknown
value, a missing or vague reason (a phase_evaluation reason needs 20 bytes or more), a phase-3
pass without one acceptance result per criterion, an unknown feature. Findings that were already
in the log print as warnings.

In a Generator session (FEATURE_ID set) only the session's own phase_evaluation of its current
phase, or a retry entry, may be appended, without checkpoint or decision fields: a Generator
never approves or judges.

Examples:
  harness eval append --feature f001 --phase 1 --event phase_evaluation --result pass --reason "A1-A3 planned; API split agreed in cp-f001-1"
  harness eval append --feature f001 --phase 3 --event phase_evaluation --result pass --reason "A1-A4 verified by go test ./..." --acceptance-results results.json
  harness eval append --entry entry.json`
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
	return `eval_log is never rewritten: this appends a correction of line N (supersedes_line N) that copies
its event type, feature, phase and checkpoint. validate and finalize then report line N's
findings as info, and the Stop hook reads the corrected reason. The reason must start with
'补录:' (the protocol's marker of a late correction).

Examples:
  harness eval amend --line 12 --reason '补录: A2 was verified by TestParseEmpty, not by hand'
  harness eval amend --line 7 --event phase_evaluation --reason '补录: line 7 was cut off; the verdict was pass'   # line 7 is not JSON`
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
