package cli

import "github.com/superagent-harness/harness/internal/ops"

// PhaseAdvanceCmd is `harness phase advance FID`.
type PhaseAdvanceCmd struct {
	Feature string `arg:"" name:"FID" help:"Feature id."`
	Commit  string `name:"commit" placeholder:"HASH" help:"Phase-4 commit when the passing phase-4 entry has none."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *PhaseAdvanceCmd) Help() string {
	return `Hermes, after a passing verdict (docs/protocol.md §4.7, §13 #42). Requires next_phases[phase==P].done (set by
'harness phase complete'), a last phase_evaluation for P with result pass written after any rollback,
every gate of phase P approved (Z5), and tooling_locked before phase 2. P<4: phase P+1, current on P+1,
pool current_phase and last_activity. P=4: status completed, completed_at, commit (from the phase-4 entry
or --commit), pool entry removed (Z16), and the features this unblocks listed. Exit 1 = refused.`
}

// Run performs the command.
func (c *PhaseAdvanceCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.PhaseAdvance(env, c.Feature, c.Commit)
	return e.opsResult(rep, err)
}

// PhaseRetryCmd is `harness phase retry FID --to Q --reason R`.
type PhaseRetryCmd struct {
	Feature string `arg:"" name:"FID" help:"Feature id."`
	To      int    `name:"to" required:"" placeholder:"Q" help:"Phase to return to (e.g. 2 after a phase-3 retry, 1 after a rejected plan)."`
	Reason  string `name:"reason" placeholder:"TEXT" help:"Failing item, cause and fix direction (becomes retry_hint)."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *PhaseRetryCmd) Help() string {
	return `Sends a feature back (docs/protocol.md §4.7, §13 #45): phase Q, done=false on every next_phases entry ≥ Q,
current on Q, pool current_phase Q, retry_hint and contract.iteration_history. The verdict is recorded in
eval_log as a phase_evaluation with result retry, unless the feature's last entry already is that
rollback (a retry/fail verdict or a rejected checkpoint), so a retry is never counted twice (§13 #44).`
}

// Run performs the command.
func (c *PhaseRetryCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.PhaseRetry(env, c.Feature, c.To, c.Reason)
	return e.opsResult(rep, err)
}
