package cli

import (
	"strings"

	"github.com/alecthomas/kong"

	"github.com/superagent-harness/harness/internal/roles"
)

// generatorGate refuses (exit 1) a command that a Generator session may not
// run (internal/roles, docs/protocol.md §1.1): in a session marked by
// FEATURE_ID or CLAUDECODE=1 only the read-only commands, eval append and
// phase complete run. The hook's harness_admin family refuses the same
// commands when it can see them in a Bash command; this check holds when it
// cannot (a copied or renamed binary, a wrapper the guard does not know),
// because it is the program itself that refuses.
func generatorGate(root *CLI, ctx *kong.Context, vars map[string]string) error {
	gen, who := roles.GeneratorSession(vars)
	if !gen || ctx == nil || ctx.Selected() == nil {
		return nil
	}
	words := commandWords(ctx.Selected())
	if len(words) == 0 {
		return nil
	}
	switch words[0] {
	case "allow":
		if root.Allow.List {
			words = append(words, "--list")
		}
	case "finalize":
		if root.Finalize.Check {
			words = append(words, "--check")
		}
	}
	if roles.GeneratorMayRun(words) {
		return nil
	}
	return refused("refused: `harness %s` is reserved for Hermes or the user, and this is a Generator session (%s); a Generator may run only validate, finalize --check, explain, status, next, checkpoint render, allow --list, eval append and phase complete (docs/protocol.md §1.1)",
		strings.Join(commandWords(ctx.Selected()), " "), who)
}

// commandWords returns the names of the command nodes from the root down to n
// ("checkpoint", "reply").
func commandWords(n *kong.Node) []string {
	var out []string
	for ; n != nil; n = n.Parent {
		if n.Type == kong.CommandNode {
			out = append([]string{n.Name}, out...)
		}
	}
	return out
}
