package hook

import (
	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/lazy"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// guardAdminCommands are the harness subcommands that configure the guard
// of an ordinary project, with the options that make them read-only.
var guardAdminCommands = lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"allow":     {"--list"},
		"install":   {"--dry-run"},
		"uninstall": {"--dry-run"},
	}
}}

// guardAdmin blocks, outside a sprint, an invocation of the harness CLI
// (by name, or by identity for a copy: shell.HarnessCLI) that would add an
// allow-once authorisation or change the hook wiring (rule
// hook.guard-admin, docs/protocol.md §14.4): the path guard sees only the
// command's arguments, not the files the harness process writes, so the
// agent could otherwise authorise its own blocked command or unwire its
// guard. `--help`/`-h` and the read-only forms stay allowed; an argument
// that is not literal could be any subcommand, so it blocks. It applies to
// a Claude Code session outside a sprint (CLAUDE_PROJECT_DIR set) and to a
// hook wired for an ordinary project (--preset); a call with neither is not
// a guarded agent's (the corpus models Hermes so, testdata/corpus/README.md
// §5, whose `harness allow` is allowed).
func guardAdmin(res bashguard.Result) bashguard.Result {
	for i, inv := range res.Invocations {
		if inv.Program != shell.HarnessCLI {
			continue
		}
		sub, readOnly, unknown := "", false, false
		for _, a := range inv.Args {
			if !a.Known {
				unknown = true
				continue
			}
			if a.Value == "--help" || a.Value == "-h" {
				readOnly = true
			}
			if _, ok := guardAdminCommands.Get()[a.Value]; ok && sub == "" {
				sub = a.Value
			}
		}
		if sub != "" {
			for _, a := range inv.Args {
				for _, ro := range guardAdminCommands.Get()[sub] {
					if a.Known && a.Value == ro {
						readOnly = true
					}
				}
			}
		}
		if readOnly || (sub == "" && !unknown) {
			continue
		}
		what := "harness " + sub
		if sub == "" {
			what = "a harness command whose arguments are not literal"
		}
		d := verdict.Decision{Action: verdict.Block, Rule: ruleid.HookGuardAdmin, Family: "harness_admin", Subject: inv.Program,
			Message: what + " configures the guard of this project (allow-once authorisations, hook wiring); the agent may not run it",
			Hint:    "ask the user to run it in their own terminal"}
		res.Matches = append(res.Matches, bashguard.Match{Rule: d.Rule, Family: d.Family, Invocation: i, Action: verdict.Block, Why: d.Message})
		res.Decision = verdict.Max(res.Decision, d)
	}
	return res
}
