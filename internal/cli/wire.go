package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/demo"
	"github.com/superagent-harness/harness/internal/hook"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/validate"
	"github.com/superagent-harness/harness/internal/verdict"
	"github.com/superagent-harness/harness/internal/workspace"
)

// engineValidate runs the `harness validate` rules on root (internal/validate).
// It reads the workspace under the shared lock (one consistent snapshot).
func engineValidate(root string) (Report, error) {
	return fromValidate(validate.ValidateWith(root, false, validate.Options{SharedLock: true}))
}

// engineFinalize runs the finalize --check rules on root (internal/validate).
// It reads the workspace under the shared lock.
func engineFinalize(root string) (Report, error) {
	return fromValidate(validate.ValidateWith(root, true, validate.Options{SharedLock: true}))
}

// fromValidate converts a validate.Report into the CLI's Report.
func fromValidate(r *validate.Report, err error) (Report, error) {
	if err != nil {
		return Report{}, err
	}
	return Report{Valid: r.Valid(), Findings: append([]Finding{}, r.Findings...)}, nil
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
	res.Phase, res.label, res.Ignored = r.Phase, r.PhaseLabel(), r.Ignored
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

// engineExplain judges cmd with hook.BashDecision, the function the
// PreToolUse hook calls, in the session explain models: the feature's
// Generator (FEATURE_ID = feature) in root, with the rest of env as the
// session environment. Allow-once authorisations are reported, never
// consumed.
func engineExplain(cmd, root, feature, cwd, preset string, env map[string]string) (explainOutput, error) {
	out := explainOutput{Command: cmd, Feature: feature, Root: root}
	session := make(map[string]string, len(env)+1)
	for k, v := range env {
		session[k] = v
	}
	if feature != "" {
		session["FEATURE_ID"] = feature
	}
	res, err := hook.BashDecision(cmd, hook.BashScope{Root: root, Feature: feature, Cwd: cwd, Env: session, Preset: preset})
	if err != nil {
		return out, err
	}
	d := res.Decision
	out.Verdict, out.Rule, out.Family = d.Action.String(), d.Rule, d.Family
	out.Message, out.Hint, out.Subject = d.Message, d.Hint, d.Subject
	if res.ParseError != nil {
		out.ParseError = res.ParseError.Error()
	}
	for _, n := range res.Errors {
		if res.ParseError != nil && n == "parse: "+res.ParseError.Error() {
			continue // already in ParseError
		}
		if msg, ok := strings.CutPrefix(n, "rules.yaml: "); ok {
			n = "rules.yaml ignored, the built-in policy applies: " + msg
		}
		out.Notes = append(out.Notes, n)
	}
	for _, inv := range res.Invocations {
		ei := explainInvoc{Program: inv.Program, Args: make([]string, 0, len(inv.Args)), Dir: inv.Dir, Via: inv.Via}
		if ei.Dir == shell.DirUnknown {
			ei.Dir = "(unknown: cd to a computed path)"
		}
		for _, a := range inv.Args {
			ei.Args = append(ei.Args, a.Value)
		}
		for _, r := range inv.Redirects {
			ei.Redirects = append(ei.Redirects, r.Fd+r.Op+" "+r.Target.Value)
		}
		out.Invocations = append(out.Invocations, ei)
	}
	for _, m := range res.Matches {
		subj := "(whole command)"
		if m.Invocation >= 0 && m.Invocation < len(res.Invocations) {
			subj = fmt.Sprintf("invocation %d (%s)", m.Invocation+1, res.Invocations[m.Invocation].Program)
		}
		out.Matches = append(out.Matches, explainMatched{Verdict: m.Action.String(), Rule: m.Rule, Family: m.Family,
			Message: m.Why, Subject: subj})
	}
	if d.Action == verdict.Block && root != "" && feature != "" {
		list, err := allowonce.List(root)
		if err == nil {
			want := strings.TrimSpace(cmd)
			for _, en := range list {
				if !en.Consumed && en.Feature == feature && en.Command == want {
					out.AllowOnce = en.ID + ": " + en.Reason
					break
				}
			}
		}
	}
	return out, nil
}

// engineDemo runs the demo driver (internal/demo) with the command's
// environment; --keep sets HARNESS_DEMO_KEEP for it. With --json the
// transcript is the envelope's data and no text is printed.
func engineDemo(e *Env, keep bool) error {
	env := make(map[string]string, len(e.Vars)+1)
	for k, v := range e.Vars {
		env[k] = v
	}
	if keep {
		env["HARNESS_DEMO_KEEP"] = "1"
	}
	out := e.Stdout
	if e.JSON {
		out = io.Discard
	}
	tr, code := demo.RunTranscript(out, env)
	if tr != nil {
		e.reply(tr, nil)
	}
	switch {
	case code == ExitOK:
		return nil
	case tr == nil:
		return &exitError{code: code, msg: "demo: the demo sprint could not be built", quiet: !e.JSON}
	default:
		return silent(code, "demo: %d of %d checks did not behave as expected", tr.Failed, tr.Checks)
	}
}
