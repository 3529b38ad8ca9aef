package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/binid"
	"github.com/superagent-harness/harness/internal/demo"
	"github.com/superagent-harness/harness/internal/hook"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/ruleid"
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
	if root == "" && !filepath.IsAbs(session["CLAUDE_PROJECT_DIR"]) && filepath.IsAbs(cwd) {
		// the project the hook would read: the directory Claude Code is
		// started in (CLAUDE_PROJECT_DIR), here the nearest one with .claude/
		session["CLAUDE_PROJECT_DIR"] = projectDirFrom(cwd, homeDir(session))
	}
	// the harness binaries by identity (internal/binid), as the hook
	// judges them: this binary is the CLI whatever its file is called
	res, err := hook.BashDecision(cmd, hook.BashScope{Root: root, Feature: feature, Cwd: cwd, Env: session, Preset: preset,
		Executable: os.Executable, Self: binid.CLI})
	if err != nil {
		return out, err
	}
	cs := hook.NewConfigScope(session, cwd)
	if root == "" {
		for _, f := range cs.OverrideFiles() {
			st := "applied"
			if ov, err := bashguard.LoadOverridesFile(f.Path, f.Base); err != nil {
				st = "invalid: " + err.Error()
			} else if ov == nil {
				st = "absent"
			}
			out.OverrideFiles = append(out.OverrideFiles, explainOverrideFile{Level: f.Level, File: f.Path, Status: st})
		}
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
		if msg, ok := strings.CutPrefix(n, "harness.yaml: "); ok {
			n = "override files ignored, the preset applies unchanged: " + msg
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
			Message: m.Why, Subject: subj, Override: m.Override})
	}
	out.DecidedBy = decidedBy(res, root, preset)
	if d.Action == verdict.Block {
		want := allowonce.Normalise(cmd)
		open := func(path, feature, where string) bool {
			list, err := allowonce.ListFile(path)
			if err != nil {
				return false
			}
			for _, en := range list {
				if !en.Consumed && en.Feature == feature && en.Command == want {
					out.AllowOnce = en.ID + ": " + en.Reason
					if where != "" {
						out.AllowOnce = en.ID + " in " + where + ": " + en.Reason
					}
					return true
				}
			}
			return false
		}
		switch {
		case root != "" && feature != "":
			open(allowonce.Path(root), feature, "")
		case root == "":
			for _, f := range cs.AllowOnceFiles() {
				if open(f.Path, "", f.Path) {
					break
				}
			}
		}
	}
	return out, nil
}

// decidedBy says what decided res: the built-in rule (and the preset),
// the preset's own rule, or the override file and entry (outside a sprint
// .claude/harness.yaml or ~/.claude/harness.yaml, inside one rules.yaml).
func decidedBy(res bashguard.Result, root, preset string) string {
	d := res.Decision
	policy := "the sprint policy"
	if root == "" {
		policy = "preset " + preset
	}
	if d.Rule != "" {
		if d.Family == "preset" || d.Rule == ruleid.NetPipeToShell {
			return fmt.Sprintf("%s: its rule %s", policy, d.Rule)
		}
		for _, m := range res.Matches {
			if m.Rule == d.Rule && m.Action == d.Action && m.Override != "" {
				if m.Family == "project" {
					return fmt.Sprintf("the rule %s of %s", d.Rule, m.Override)
				}
				return fmt.Sprintf("%s, changed by %s", d.Rule, m.Override)
			}
		}
		return fmt.Sprintf("the built-in rule %s (%s)", d.Rule, policy)
	}
	for _, m := range res.Matches {
		if m.Action == verdict.Allow && m.Override != "" {
			return fmt.Sprintf("%s, which lets %s through", m.Override, m.Rule)
		}
	}
	return "no rule matched (" + policy + ")"
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
