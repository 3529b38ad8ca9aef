package hook

import (
	"fmt"
	"strings"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/verdict"
)

// preBash decides a Bash call with the command policy (bashguard.Decide,
// corpus README §2) and, inside a workspace, the path guard for Bash writes
// (§3.3). A block may be turned into an allow by an exact-match allow-once
// authorisation of the running feature (allowonce.Consume), which is logged
// with its reason. An empty or blank command is allowed.
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
	ctx := bashguard.Context{Feature: c.scope.Feature, Cwd: cwdOf(c), Vars: knownVars(c.env)}
	if c.scope.Root != "" {
		// the root the hook resolved (flag > env > discovery) is what
		// $HARNESS_ROOT means for every use: cd, targets, variables
		if ctx.Vars == nil {
			ctx.Vars = map[string]string{}
		}
		ctx.Vars["HARNESS_ROOT"] = c.scope.Root
	}
	if c.scope.Root != "" {
		g, err := r.pathGuard(c)
		if err != nil {
			return r.failure(c, ruleInternalError, err)
		}
		ctx.Paths = g
		ov, err := bashguard.LoadOverrides(c.scope.Root)
		if err != nil {
			// An invalid rules.yaml never weakens the built-in policy.
			c.rec.Errors = append(c.rec.Errors, "rules.yaml: "+err.Error())
		}
		ctx.Overrides = ov
	}
	res := bashguard.Decide(cmd, ctx)
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
	out := r.answer(c, d, "this Bash command")
	if d.Action == verdict.Block && c.scope.Root != "" && c.scope.Feature != "" && out.HookSpecificOutput != nil {
		out.HookSpecificOutput.PermissionDecisionReason += fmt.Sprintf(
			" If the user approves this exact command, they can authorise it once: harness allow --feature %s --once '<the command>' --reason '…'.", c.scope.Feature)
		c.rec.Reason = out.HookSpecificOutput.PermissionDecisionReason
	}
	return out
}

// knownVars are the harness variables the Generator's Bash tool inherits
// from the session environment (protocol.md §4.6 STEP 3.3), so that
// `rm -rf "$HARNESS_ROOT/.harness"` is judged with its real value.
func knownVars(env map[string]string) map[string]string {
	var vars map[string]string
	for _, k := range []string{"HARNESS_ROOT", "FEATURE_ID", "SPRINT_ID", "HOME"} {
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
// targets with it (corpus README §3.3, bash tilde expansion).
func homeDir(env map[string]string) string {
	if h := env["HOME"]; h != "" {
		return h
	}
	return env["USERPROFILE"]
}
