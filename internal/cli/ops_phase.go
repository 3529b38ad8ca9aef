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
	return `Run by Hermes after a passing verdict: moves the feature from phase P to P+1, or after phase 4
marks it completed (with its commit) and lists the features that can start now. Refused (exit 1)
unless phase P was marked done, its last phase_evaluation is a pass written after any rollback,
every gate of the phase is approved, and tooling is locked before phase 2.

Examples:
  harness phase advance f001
  harness phase advance f003 --commit 4f2c9e1       # phase 4 entry without a commit`
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
	return `Sends a feature back to an earlier phase after a retry or fail verdict or a rejected checkpoint:
the feature, its phases from Q on and its session go back to phase Q, and --reason becomes the
hint the next session reads. The verdict is recorded in eval_log once: if the feature's last
entry already is that rollback, no second entry is written.

Examples:
  harness phase retry f001 --to 2 --reason "A3 fails: empty input crashes the parser; validate before parsing"
  harness phase retry f002 --to 1 --reason "plan rejected at checkpoint cp-f002-1: split the API change out"`
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
