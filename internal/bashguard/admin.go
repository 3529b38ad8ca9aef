package bashguard

import (
	"slices"
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
)

// Self-authorisation through the harness CLI in a Generator session (testdata/corpus/README.md
// §2.4 harness_admin). The CLI restricts a Generator's `eval append`
// by FEATURE_ID / CLAUDECODE from its environment, so a command that
// removes or overrides them makes it act as Hermes; an entry whose feature
// or event the guard cannot see (--entry, a computed --feature) cannot be
// checked; Hermes-only fields and events are never a Generator's.

// sessionEnvVars are the variables the CLI reads to know it runs in a
// Generator session, which root it works on and what time it is.
var sessionEnvVars = []string{"FEATURE_ID", "CLAUDECODE", "HARNESS_ROOT", "HARNESS_NOW"}

// writesState reports whether a harness invocation runs one of the two
// state-changing subcommands a Generator may run: `eval append` and `phase
// complete`. The session environment matters only for them: the read-only
// commands (validate, status, explain, …) cannot act as Hermes whatever
// their environment, and every other subcommand is blocked by
// harness.admin-command anyway.
func writesState(cmd *shell.Command) bool {
	return (cmd.Is("eval", "append") || cmd.Is("phase", "complete")) && !harnessHelp(cmd)
}

func matchHarnessSessionEnv(m *evalCtx, c *call) (bool, string) {
	if m.ctx.Feature == "" || c.prog != "harness" || !writesState(c.inv.Cmd) {
		return false, ""
	}
	// an env wrapper that cleared the environment or removed a session
	// variable (the model records it on the wrapped invocation)
	for _, u := range c.inv.Unset {
		if u == "*" {
			return true, "env -i clears the session's environment before harness runs"
		}
		if slices.Contains(sessionEnvVars, u) {
			return true, "env -u " + u + " removes a session variable before harness runs"
		}
	}
	for _, k := range sessionEnvVars {
		if _, ok := c.inv.Env[k]; ok {
			return true, "harness runs with " + k + " set by the command"
		}
	}
	// an earlier `unset X` / `export -n X` in the same command
	for i := 0; i < c.index && i < len(m.res.Invocations); i++ {
		inv := &m.res.Invocations[i]
		if inv.Program != "unset" && inv.Program != "export" && inv.Program != "declare" && inv.Program != "typeset" {
			continue
		}
		removes := inv.Program == "unset"
		for _, a := range inv.Args {
			if a.Value == "-n" || a.Value == "+x" {
				removes = true
			}
		}
		if !removes {
			continue
		}
		for _, a := range inv.Args {
			if slices.Contains(sessionEnvVars, a.Value) {
				return true, inv.Program + " " + a.Value + " before harness removes a session variable"
			}
		}
	}
	return false, ""
}

// generatorForbiddenFlags are eval append options that set fields only
// Hermes writes (internal/ops generatorForbidden).
var generatorForbiddenFlags = []string{"decision", "checkpoint-id", "checkpoint-type", "blockers-resolved", "user-reply-raw",
	"supersedes-line", "yolo-context", "revoked-from", "revoke-reason", "task-id"}

// generatorEvents are the events a Generator's eval append may carry
// (phase_evaluation, retry; "pass" as the corpus allows it, b1285).
var generatorEvents = []string{"phase_evaluation", "retry", "pass"}

func matchHarnessGeneratorEntry(m *evalCtx, c *call) (bool, string) {
	if m.ctx.Feature == "" || c.prog != "harness" || !writesState(c.inv.Cmd) {
		return false, ""
	}
	cmd := c.inv.Cmd
	what := strings.Join(cmd.Sub, " ")
	// an unexpanded $FEATURE_ID is the session's own feature (the session
	// environment, which harness.session-env keeps unchanged)
	literal := func(i int) bool {
		if i < 0 || i >= len(c.known) || c.known[i] {
			return true
		}
		switch strings.Trim(c.inv.Args[i].Raw, `"`) {
		case "$FEATURE_ID", "${FEATURE_ID}":
			return true
		}
		return false
	}
	// every option of every level, parsed by the table's harness rows
	var reason string
	cmd.AllOpts(func(_ *shell.ParsedOpts, o *shell.Opt) bool {
		if !o.Long {
			return true
		}
		switch {
		case o.Name == "entry" && cmd.Is("eval", "append"):
			reason = "eval append --entry: the entry's feature and fields cannot be checked"
		case slices.Contains(generatorForbiddenFlags, o.Name) && cmd.Is("eval", "append"):
			reason = "eval append --" + o.Name + " sets a field only Hermes writes"
		case o.Name == "event" && cmd.Is("eval", "append") && o.HasValue:
			if !literal(o.ValArg) {
				reason = "the event of eval append is not written literally"
			} else if !slices.Contains(generatorEvents, o.Value) {
				reason = "eval append --event " + o.Value + " is Hermes's (a Generator appends phase_evaluation or retry)"
			}
		case o.Name == "feature" && o.HasValue && !literal(o.ValArg):
			reason = "the feature of harness " + what + " is not written literally"
		}
		return reason == ""
	})
	if reason != "" {
		return true, reason
	}
	if cmd.Is("phase", "complete") {
		// phase complete FID: the feature is its operand
		if ops := cmd.Operands; len(ops) > 0 && !literal(ops[0]) {
			return true, "the feature of phase complete is not written literally"
		}
	}
	return false, ""
}

// matchHarnessBinaryCopy: copying, linking or renaming a harness binary
// in a Generator session (testdata/corpus/README.md §9.1; the walker finds the copy,
// shell.Invocation.CopiesBinary).
func matchHarnessBinaryCopy(m *evalCtx, c *call) (bool, string) {
	if m.ctx.Feature == "" || c.inv.CopiesBinary == "" {
		return false, ""
	}
	return true, c.prog + " copies, links or renames the " + c.inv.CopiesBinary + " binary"
}
