package cli

import (
	"fmt"
	"io"

	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/validate"
)

// Finding is one validate/finalize finding (testdata/sprints/README.md §3); String
// formats it as `path[:line][#/json/pointer]: message [rule-id]`, with an
// "info: " prefix for info findings.
type Finding = validate.Finding

// Report is the outcome of validate or finalize --check.
type Report struct {
	Valid    bool      `json:"valid"`
	Findings []Finding `json:"findings"`
}

// counts returns the number of error and info findings.
func (r Report) counts() (errs, infos int) {
	for _, f := range r.Findings {
		if f.Severity == "info" {
			infos++
		} else {
			errs++
		}
	}
	return errs, infos
}

// answer replies with r (findings lines plus a summary, or the envelope
// data {valid, findings}) and returns nil when valid, exit 1 otherwise.
func (r Report) answer(e *Env, what string) error {
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	errs, infos := r.counts()
	e.reply(r, func(w io.Writer) {
		for _, f := range r.Findings {
			fmt.Fprintln(w, f.String())
		}
		if r.Valid {
			fmt.Fprintf(w, "%s: ok (%d info)\n", what, infos)
		} else {
			fmt.Fprintf(w, "%s: %d error(s), %d info\n", what, errs, infos)
		}
	})
	if r.Valid {
		return nil
	}
	return silent(ExitFindings, "%s: %d error(s), %d info", what, errs, infos)
}

// ValidateCmd is `harness validate`.
type ValidateCmd struct {
	Dir string `arg:"" optional:"" name:"DIR" help:"Sprint root (same as --root)."`
}

// Help is shown under the command's usage line.
func (c *ValidateCmd) Help() string {
	return `Checks every state file against the embedded schemas and the protocol's rules, and prints one finding
per line: path[:line][#/json/pointer]: message [rule-id] (info findings are marked and do not fail).
--json prints the envelope with data {"valid": bool, "findings": [{"file","line","pointer","rule","severity","message"}]}.
Never modifies the workspace. Exit 0 valid, 1 findings, 2 usage or internal error.`
}

// Run performs the command.
func (c *ValidateCmd) Run(e *Env) error {
	root, err := e.rootFor(c.Dir)
	if err != nil {
		return err
	}
	r, err := engineValidate(root)
	if err != nil {
		return fmt.Errorf("validate %s: %w", root, err)
	}
	return r.answer(e, "validate")
}

// FinalizeCmd is `harness finalize --check`.
type FinalizeCmd struct {
	Check   bool     `name:"check" help:"Run the finalizer checklist without changing anything (the default)."`
	Close   bool     `name:"close" help:"STEP 5: ask the user (no choice given), or close the sprint with --sink ID or --archive."`
	Sink    string   `name:"sink" placeholder:"ID" help:"With --close: the user chose a, sink into pipeline ID (see pipeline sink)."`
	Archive bool     `name:"archive" help:"With --close: the user chose b, archive only (status closed)."`
	Change  string   `name:"change" enum:",patch,minor,major" default:"" help:"With --sink: make a new version (see pipeline sink)."`
	Home    string   `name:"home" placeholder:"DIR" help:"With --sink: Hermes home (default $$HERMES_HOME, else ~/.hermes)."`
	Vars    []string `name:"var" placeholder:"NAME=VALUE" help:"With --sink: de-name VALUE as {NAME} (repeatable)."`
	Dir     string   `arg:"" optional:"" name:"DIR" help:"Sprint root (same as --root)."`
}

// Help is shown under the command's usage line.
func (c *FinalizeCmd) Help() string {
	return `--check (the default) runs the finalizer checklist (docs/protocol.md §9.2, testdata/sprints/README.md §6):
tooling sections and reasons, feature states, four phase sections per completed feature, commits, eval
reasons, checkpoint decisions, no pending eval or checkpoints. Output and exit codes as for validate.

--close is STEP 5 (every feature completed or cancelled, nothing pending). Without a choice it sets the
contract to finalizing and prints the 【Sprint finalizing】 message (the check totals; a sink, b archive only,
c show the draft first, which is 'harness pipeline sink --id ID --dry-run'); asked again 72 h after the
first time without an answer, it applies b. --sink ID (the rules of 'pipeline sink': the check must pass,
a sprint is counted once) or --archive then close the sprint: contract sunk or closed, runtime_state idle
with current_sprint null, the session pool cleared, and the 【Sprint 完成】 message.

Exit 1 when findings remain (--check) or the close is refused; exit 2 on usage errors.

Examples:
  harness finalize
  harness finalize --close
  harness finalize --close --sink link-check --var project=linkcheck
  harness finalize --close --archive --json`
}

// Run performs the command.
func (c *FinalizeCmd) Run(e *Env) error {
	if !c.Close {
		if c.Sink != "" || c.Archive || c.Change != "" || c.Home != "" || len(c.Vars) > 0 {
			return usage("--sink, --archive, --change, --home and --var go with --close")
		}
		root, err := e.rootFor(c.Dir)
		if err != nil {
			return err
		}
		r, err := engineFinalize(root)
		if err != nil {
			return fmt.Errorf("finalize --check %s: %w", root, err)
		}
		return r.answer(e, "finalize --check")
	}
	if c.Check {
		return usage("give --check or --close, not both")
	}
	if c.Sink == "" && (c.Change != "" || c.Home != "" || len(c.Vars) > 0) {
		return usage("--change, --home and --var go with --sink")
	}
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	env.Finalize = ops.EngineFinalize
	in := ops.CloseInput{Archive: c.Archive}
	if c.Sink != "" {
		vars, err := ops.ParseVars(c.Vars)
		if err != nil {
			return e.opsResult(nil, err)
		}
		in.Sink = &ops.SinkInput{ID: c.Sink, Change: c.Change, Home: c.Home, Vars: vars}
	}
	res, rep, err := ops.FinalizeClose(env, in)
	if err != nil {
		return e.opsResult(rep, err)
	}
	rep.Data = res
	return e.opsResult(rep, nil)
}

// PhaseCmd groups the phase subcommands.
type PhaseCmd struct {
	Complete PhaseCompleteCmd `cmd:"" help:"Mark the current phase of a feature done after checking its records (Generator, §4.7)."`
	Advance  PhaseAdvanceCmd  `cmd:"" help:"Move a feature to its next phase after a passing verdict (Hermes, §4.7)."`
	Retry    PhaseRetryCmd    `cmd:"" help:"Send a feature back to phase Q after a retry/fail verdict or a rejected checkpoint (§4.7)."`
}

// PhaseCompleteCmd is `harness phase complete FID`.
type PhaseCompleteCmd struct {
	Feature string `arg:"" name:"FID" help:"Feature id (f001)."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (same as --root)."`
}

// Help is shown under the command's usage line.
func (c *PhaseCompleteCmd) Help() string {
	return `Runs the Stop hook's record checks for the feature's current phase (generator_log section with
关键决策, phase_evaluation entry with a concrete reason, acceptance_results at phase 3) and, only if they
pass, sets next_phases[phase==P].done = true. Never changes phase, current or status.
With FEATURE_ID set (a Generator session) only that feature can be completed.
Exit 0 done, 1 records missing (each listed), 2 usage or internal error.`
}

// phaseCompleteResult is the envelope data of phase complete.
type phaseCompleteResult struct {
	Feature string   `json:"feature"`
	Phase   int      `json:"phase"`
	Done    bool     `json:"done"`
	Missing []string `json:"missing"`
	// Ignored names eval_log lines left out for lack of provenance.
	Ignored []string `json:"ignored_eval_lines,omitempty"`
	// label is records.Report.PhaseLabel: "phase=P", or why it is unknown.
	label string
}

// Run performs the command.
func (c *PhaseCompleteCmd) Run(e *Env) error {
	// A Generator session carries FEATURE_ID (docs/protocol.md §4.6 STEP 3.3): it
	// may complete only its own feature's phase. The hook blocks the call
	// too; this is the second line.
	if own := e.Vars["FEATURE_ID"]; own != "" && own != c.Feature {
		return refused("this session is feature %s (FEATURE_ID); it cannot complete a phase of %s", own, c.Feature)
	}
	root, err := e.rootFor(c.Dir)
	if err != nil {
		return err
	}
	res, err := engineCompletePhase(root, c.Feature)
	if err != nil {
		return err
	}
	if res.Missing == nil {
		res.Missing = []string{}
	}
	e.reply(res, func(w io.Writer) {
		for _, l := range res.Ignored {
			fmt.Fprintf(w, "ignored (no Hermes-side record, not a Generator's entry): %s\n", l)
		}
		if res.Done {
			fmt.Fprintf(w, "%s phase=%d marked done; stop now and wait for the verdict\n", res.Feature, res.Phase)
			return
		}
		fmt.Fprintf(w, "%s %s is not complete; missing:\n", res.Feature, res.label)
		for i, m := range res.Missing {
			fmt.Fprintf(w, "  %d. %s\n", i+1, m)
		}
	})
	if !res.Done {
		return silent(ExitFindings, "%s %s is not complete: %d record(s) missing", res.Feature, res.label, len(res.Missing))
	}
	return nil
}
