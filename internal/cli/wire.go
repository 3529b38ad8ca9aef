package cli

import (
	"errors"

	"github.com/superagent-harness/harness/internal/demo"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/validate"
	"github.com/superagent-harness/harness/internal/workspace"
)

// errNotWired is returned by an engine whose package has not landed yet.
var errNotWired = errors.New("not available in this build (engine not wired yet)")

// engineValidate runs the `harness validate` rules on root (internal/validate).
func engineValidate(root string) (Report, error) { return fromValidate(validate.Validate(root)) }

// engineFinalize runs the finalize --check rules on root (internal/validate).
func engineFinalize(root string) (Report, error) { return fromValidate(validate.FinalizeCheck(root)) }

// fromValidate converts a validate.Report into the CLI's Report.
func fromValidate(r *validate.Report, err error) (Report, error) {
	if err != nil {
		return Report{}, err
	}
	out := Report{Valid: r.Valid(), Findings: make([]Finding, 0, len(r.Findings))}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, Finding{File: f.File, Line: f.Line, Pointer: f.Pointer,
			Rule: f.Rule, Severity: f.Severity, Message: f.Message})
	}
	return out, nil
}

// engineCompletePhase runs records.CompletePhase for feature in root. A
// record failure is a result (Done false, Missing listed), not an error.
func engineCompletePhase(root, feature string) (phaseCompleteResult, error) {
	res := phaseCompleteResult{Feature: feature}
	ws, err := workspace.Open(root)
	if err != nil {
		return res, usage("%v", err)
	}
	r, err := records.CompletePhase(ws, feature)
	res.Phase = r.Phase
	for _, f := range r.Failures {
		res.Missing = append(res.Missing, f.String())
	}
	switch {
	case errors.Is(err, records.ErrIncomplete):
		return res, nil
	case err != nil && r.Skipped:
		return res, refused("%s: %v", feature, err)
	case err != nil:
		return res, err
	}
	res.Done = true
	return res, nil
}

// engineExplain runs bashguard.Decide for cmd as the hook would.
func engineExplain(cmd, root, feature, cwd string, env map[string]string) (explainOutput, error) {
	return explainOutput{}, errNotWired
}

// engineDemo runs the demo driver (internal/demo) with the command's
// environment; --keep sets HARNESS_DEMO_KEEP for it.
func engineDemo(e *Env, keep bool) error {
	env := make(map[string]string, len(e.Vars)+1)
	for k, v := range e.Vars {
		env[k] = v
	}
	if keep {
		env["HARNESS_DEMO_KEEP"] = "1"
	}
	if code := demo.Run(e.Stdout, env); code != 0 {
		return silent(code)
	}
	return nil
}
