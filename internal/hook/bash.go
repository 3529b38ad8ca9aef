package hook

import (
	"fmt"
	"github.com/superagent-harness/harness/internal/binid"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/verdict"
)

// preBash decides a Bash call with the command policy (bashguard.Decide,
// testdata/corpus/README.md §2) and, inside a workspace, the path guard for Bash writes
// (§3.3). A block may be turned into an allow by an exact-match allow-once
// authorisation (logged with its reason): of the running feature inside a
// sprint (allowonce.Consume), of the project and then the user outside one
// (ConfigScope.AllowOnceFiles). An empty or blank command is allowed.
func (r runner) preBash(c *call) Output {
	var in bashInput
	if err := decodeToolInput(c.in.ToolInput, &in); err != nil {
		return r.failure(c, ruleInputInvalid, err)
	}
	if cause, bad := missingCommand(c.in.ToolInput); bad {
		return r.answer(c, badInputDecision(cause), "this Bash call")
	}
	cmd := in.Command
	c.rec.Command = cmd
	if strings.TrimSpace(cmd) == "" {
		c.rec.Reason = "empty command"
		return Output{}
	}
	if d, bad := commandProblem(cmd); bad {
		return r.answer(c, d, "this Bash command")
	}
	res, err := decideBash(cmd, r.bashScope(c))
	if err != nil {
		return r.failure(c, ruleInternalError, err)
	}
	d := res.Decision
	c.rec.Errors = append(c.rec.Errors, res.Errors...)
	if d.Action == verdict.Block && c.scope.Root != "" && c.scope.Feature != "" {
		ok, why, err := allowonce.Consume(c.scope.Root, c.scope.Feature, cmd)
		if err != nil {
			c.rec.Errors = append(c.rec.Errors, "allow-once: "+err.Error())
		}
		if ok {
			c.rec.Verdict, c.rec.Rule, c.rec.AllowOnce = "allow", d.Rule, why
			c.rec.Reason = "blocked by " + d.Rule + " but allowed once by an authorisation: " + why
			return Output{}
		}
	}
	if d.Action == verdict.Block && c.scope.Root == "" {
		// outside a sprint: the project's authorisations, then the user's
		for _, f := range NewConfigScope(c.env, cwdOf(c)).AllowOnceFiles() {
			ok, why, err := allowonce.ConsumeFile(f.Path, "", cmd)
			if err != nil {
				c.rec.Errors = append(c.rec.Errors, "allow-once "+f.Path+": "+err.Error())
			}
			if ok {
				c.rec.Verdict, c.rec.Rule, c.rec.AllowOnce = "allow", d.Rule, why
				c.rec.Reason = "blocked by " + d.Rule + " but allowed once by an authorisation in " + f.Path + ": " + why
				return Output{}
			}
		}
	}
	out := r.answer(c, d, "this Bash command")
	if d.Action == verdict.Block && c.scope.Root == "" && out.HookSpecificOutput != nil {
		out.HookSpecificOutput.PermissionDecisionReason += " If the user approves this exact command, they can authorise it once: harness allow --once '<the command>' --reason '…' (in the project; --user for every project)."
		c.rec.Reason = out.HookSpecificOutput.PermissionDecisionReason
	}
	if d.Action == verdict.Block && c.scope.Root != "" && c.scope.Feature != "" && out.HookSpecificOutput != nil {
		out.HookSpecificOutput.PermissionDecisionReason += fmt.Sprintf(
			" If the user approves this exact command, they can authorise it once: harness allow --feature %s --once '<the command>' --reason '…'.", c.scope.Feature)
		c.rec.Reason = out.HookSpecificOutput.PermissionDecisionReason
	}
	return out
}

// BashScope is where a Bash command is judged: the sprint workspace and
// session of a PreToolUse call (testdata/corpus/README.md §3.0), or what `harness
// explain` models.
type BashScope struct {
	// Root is the absolute sprint root; "" outside any workspace (the
	// command policy applies, the path guard and rules.yaml do not).
	Root string
	// Feature is the running feature (a Generator session); "" when none.
	Feature string
	// Cwd is the command's working directory (the payload's cwd).
	Cwd string
	// Env is the session environment the Bash tool inherits: HARNESS_ROOT,
	// FEATURE_ID, SPRINT_ID and HOME give variables their values
	// (knownVars), HOME/USERPROFILE and CLAUDE_CONFIG_DIR locate the hook
	// wiring the path guard protects (rule path.hook-wiring).
	Env map[string]string
	// Executable returns the running harness-hook binary (os.Executable),
	// also protected as hook wiring; nil when not known.
	Executable func() (string, error)
	// Self is the harness binary Executable is (binid.CLI for `harness
	// explain`); "" = harness-hook, or by the file's name.
	Self string
	// Preset is the policy outside a sprint workspace (PresetStrict or ""
	// = the sprint policy, PresetStandard; rules/presets/presets.yaml).
	// Inside a workspace the sprint policy always applies.
	Preset string
}

// BashDecision judges cmd as the PreToolUse Bash handler does before an
// allow-once authorisation is consulted: a command with a NUL byte or over
// maxCommandBytes is blocked (hook.command-nul, hook.command-too-large),
// otherwise bashguard.Decide runs with the hook's context (feature, cwd,
// session variables with $HARNESS_ROOT = s.Root, and inside a workspace the
// path guard and the project's .harness/rules.yaml overrides; an invalid
// rules.yaml is reported in Result.Errors as "rules.yaml: …" and the
// built-in policy applies). The hook and `harness explain` both call it, so
// they cannot drift. The error is a path guard that could not be built
// (the hook answers hook.internal-error).
func BashDecision(cmd string, s BashScope) (bashguard.Result, error) {
	if d, bad := commandProblem(cmd); bad {
		return bashguard.Result{Decision: d}, nil
	}
	return decideBash(cmd, s)
}

// bashScope is the BashScope of one hook call.
func (r runner) bashScope(c *call) BashScope {
	return BashScope{Root: c.scope.Root, Feature: c.scope.Feature, Cwd: cwdOf(c), Env: c.env, Executable: r.executable, Preset: c.flags.preset}
}

// decideBash is BashDecision after the command's size and bytes were checked.
func decideBash(cmd string, s BashScope) (bashguard.Result, error) {
	ctx := bashguard.Context{Feature: s.Feature, Cwd: s.Cwd, Vars: knownVars(s.Env)}
	if s.Feature != "" || s.Root == "" {
		// the harness binaries by identity (§9.1): the harness_admin rules
		// of a Generator session ask, and outside a sprint guardAdmin
		ctx.Identify = binid.NewAs(s.Self, s.Executable, s.Env["PATH"]).Identify
	}
	if s.Root == "" {
		// no sprint: the command families, the preset, and the hook wiring
		g, err := newPathGuard(s)
		if err != nil {
			return bashguard.Result{}, err
		}
		ctx.Paths = g
		ov, _, ovErr := NewConfigScope(s.Env, s.Cwd).LoadConfig()
		ctx.Overrides = ov
		res := applyPreset(s.Preset, cmd, bashguard.Decide(cmd, ctx), s.Cwd, ctx.Vars)
		if s.Preset != "" || filepath.IsAbs(s.Env["CLAUDE_PROJECT_DIR"]) {
			// a Claude Code session (which exports CLAUDE_PROJECT_DIR to
			// every hook, docs/hooks.md §1) or a hook wired for an
			// ordinary project (harness install always writes --preset)
			res = guardAdmin(res)
		}
		if ovErr != nil {
			// An invalid override file never weakens the preset.
			res.Errors = append([]string{"harness.yaml: " + ovErr.Error()}, res.Errors...)
		}
		return res, nil
	}
	// the root the hook resolved (flag > env > discovery) is what
	// $HARNESS_ROOT means for every use: cd, targets, variables
	if ctx.Vars == nil {
		ctx.Vars = map[string]string{}
	}
	ctx.Vars["HARNESS_ROOT"] = s.Root
	g, err := newPathGuard(s)
	if err != nil {
		return bashguard.Result{}, err
	}
	ctx.Paths = g
	ov, ovErr := bashguard.LoadOverrides(s.Root)
	ctx.Overrides = ov
	res := bashguard.Decide(cmd, ctx)
	if ovErr != nil {
		// An invalid rules.yaml never weakens the built-in policy.
		res.Errors = append([]string{"rules.yaml: " + ovErr.Error()}, res.Errors...)
	}
	return res, nil
}

// knownVars are the harness variables the Generator's Bash tool inherits
// from the session environment (docs/protocol.md §4.6 STEP 3.3), so that
// `rm -rf "$HARNESS_ROOT/.harness"` is judged with its real value.
func knownVars(env map[string]string) map[string]string {
	var vars map[string]string
	// TMPDIR: where $(mktemp) creates; CLAUDE_CONFIG_DIR: Claude Code's
	// config directory, whose skills and settings the path guard protects
	for _, k := range []string{"HARNESS_ROOT", "FEATURE_ID", "SPRINT_ID", "HOME", "TMPDIR", "CLAUDE_CONFIG_DIR"} {
		if v, ok := env[k]; ok && v != "" {
			if vars == nil {
				vars = map[string]string{}
			}
			vars[k] = v
		}
	}
	return vars
}

// homeDir is the home directory from the hook's environment (HOME, else
// Windows' USERPROFILE): the path guard expands a leading "~" in Bash write
// targets with it (testdata/corpus/README.md §3.3, bash tilde expansion).
func homeDir(env map[string]string) string {
	if h := env["HOME"]; h != "" {
		return h
	}
	return env["USERPROFILE"]
}
