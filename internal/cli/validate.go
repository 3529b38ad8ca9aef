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

// answer replies with r (findings lines plus a summary, GitHub
// annotations or a JUnit report as format says, or the envelope data
// {valid, findings}) and returns nil when valid, exit 1 otherwise. root
// locates the findings' files for the CI formats.
func (r Report) answer(e *Env, what, root, format string) error {
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	if e.JSON && format != "" && format != "text" {
		return usage("--json and --format %s are two outputs: pick one", format)
	}
	errs, infos := r.counts()
	summary := fmt.Sprintf("%s: ok (%d info)", what, infos)
	if !r.Valid {
		summary = fmt.Sprintf("%s: %d error(s), %d info", what, errs, infos)
	}
	e.reply(r, func(w io.Writer) {
		switch format {
		case "github":
			writeGitHub(w, r, newLocator(root, e.Cwd), summary)
		case "junit":
			writeJUnit(w, r, newLocator(root, e.Cwd), what)
		default:
			for _, f := range r.Findings {
				fmt.Fprintln(w, f.String())
			}
			fmt.Fprintln(w, summary)
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
	ciFormat
}

// Help is shown under the command's usage line.
func (c *ValidateCmd) Help() string {
	return `Checks every state file and record of a sprint workspace against the schemas and the protocol's
rules and prints one finding per line: file[:line][#/json/pointer]: message [rule-id]. Info
findings are marked and do not fail. Never changes the workspace.

For CI, --format github prints one GitHub Actions annotation per finding (::error
file=…,line=…::…, pointing at the file and line of the value at fault) and --format junit a JUnit
XML report. --json prints the envelope with data {"valid", "findings": [{"file",
"line", "pointer", "rule", "severity", "message"}]}. Exit 0 valid, 1 findings, 2 usage or
internal error.

Examples:
  harness validate
  harness validate ~/sprints/sprint_20260421_1 --json
  harness validate --format github            # in a GitHub Actions step
  harness validate --format junit > validate.xml`
}

// Run performs the command.
func (c *ValidateCmd) Run(e *Env) error {
	root, err := e.workspaceFor(c.Dir)
	if err != nil {
		return err
	}
	r, err := engineValidate(root)
	if err != nil {
		return fmt.Errorf("validate %s: %w", root, err)
	}
	return r.answer(e, "validate", root, c.Format)
}

// FinalizeCmd is `harness finalize --check`.
type FinalizeCmd struct {
	Check   bool     `name:"check" help:"Run the finalizer checklist without changing anything (the default)."`
	Close   bool     `name:"close" help:"Close the sprint (Hermes): ask the user (no choice given), or close the sprint with --sink ID or --archive."`
	Sink    string   `name:"sink" placeholder:"ID" help:"With --close: the user chose a, sink into pipeline ID (see pipeline sink)."`
	Archive bool     `name:"archive" help:"With --close: the user chose b, archive only (status closed)."`
	Change  string   `name:"change" enum:",patch,minor,major" default:"" help:"With --sink: make a new version (see pipeline sink)."`
	Home    string   `name:"home" placeholder:"DIR" help:"With --sink: Hermes home (default $$HERMES_HOME, else ~/.hermes)."`
	Vars    []string `name:"var" placeholder:"NAME=VALUE" help:"With --sink: de-name VALUE as {NAME} (repeatable)."`
	Dir     string   `arg:"" optional:"" name:"DIR" help:"Sprint root (same as --root)."`
	ciFormat
}

// Help is shown under the command's usage line.
func (c *FinalizeCmd) Help() string {
	return `Without --close (or with --check) runs the checklist a sprint must pass before it is closed:
every tooling section has a reason, every feature is completed with its four phase sections and a
commit, every eval entry has a reason, every checkpoint is decided, and nothing is pending. That
check never changes anything; its output (--format text, github or junit; --json) and exit codes are
those of validate.

--close closes the sprint (Hermes only; every feature completed or cancelled, nothing pending).
Without a choice it sets the contract to finalizing and prints the 【Sprint finalizing】 message (the
check totals; a sink, b archive only, c show the draft first, which is 'harness pipeline sink --id ID
--dry-run'); asked again 72 h after the first time without an answer, it applies b. --sink ID (the
rules of 'pipeline sink') or --archive then close the sprint: contract sunk or closed, runtime_state
idle with current_sprint null, the session pool cleared, and the 【Sprint 完成】 message.

Exit 1 when findings remain or the close is refused; exit 2 on usage errors.

Examples:
  harness finalize
  harness finalize ~/sprints/sprint_20260421_1 --json
  harness finalize --format github
  harness finalize --check                    # the same as without flags
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
		root, err := e.workspaceFor(c.Dir)
		if err != nil {
			return err
		}
		r, err := engineFinalize(root)
		if err != nil {
			return fmt.Errorf("finalize --check %s: %w", root, err)
		}
		return r.answer(e, "finalize --check", root, c.Format)
	}
	if c.Check {
		return usage("give --check or --close, not both")
	}
	if c.Format != "text" {
		return usage("--format goes with --check, not --close")
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
	Complete PhaseCompleteCmd `cmd:"" help:"Mark the current phase of a feature done after checking its records (Generator)."`
	Advance  PhaseAdvanceCmd  `cmd:"" help:"Move a feature to its next phase after a passing verdict (Hermes)."`
	Retry    PhaseRetryCmd    `cmd:"" help:"Send a feature back to phase Q after a retry or fail verdict or a rejected checkpoint."`
}

// Help is the long help of the command group.
func (c *PhaseCmd) Help() string {
	return `A feature goes through four phases. The Generator marks a phase done ('phase complete'); Hermes
moves the feature on after a passing verdict ('phase advance') or sends it back ('phase retry').

Examples:
  harness phase complete f001
  harness phase advance f001
  harness phase retry f001 --to 2 --reason "A3 fails on empty input"`
}

// PhaseCompleteCmd is `harness phase complete FID`.
type PhaseCompleteCmd struct {
	Feature string `arg:"" name:"FID" help:"Feature id (f001)."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (same as --root)."`
}

// Help is shown under the command's usage line.
func (c *PhaseCompleteCmd) Help() string {
	return `Run by the Generator when it has finished the current phase of its feature: checks the phase's
records (a generator_log section with its key decisions, a phase_evaluation entry with a
concrete reason, the acceptance results in phase 3) and, only if they are all there, marks the
phase done. It never moves the feature to another phase. In a Generator session (FEATURE_ID set)
only that feature can be completed. Exit 0 done, 1 records missing (each listed), 2 usage or
internal error.

Examples:
  harness phase complete f001
  FEATURE_ID=f001 harness phase complete f001 --json`
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
	root, err := e.workspaceFor(c.Dir)
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
