package bashguard

import (
	"fmt"
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
)

// Explain renders the result for `harness explain`: the verdict, every
// invocation found (with its nesting path, working directory and
// environment) and every rule that matched, one per line.
func (r Result) Explain() string {
	var b strings.Builder
	d := r.Decision
	fmt.Fprintf(&b, "verdict: %s", d.Action)
	if d.Rule != "" {
		fmt.Fprintf(&b, " [%s]", d.Rule)
	}
	b.WriteByte('\n')
	if d.Message != "" {
		fmt.Fprintf(&b, "reason: %s\n", d.Message)
	}
	if d.Hint != "" {
		fmt.Fprintf(&b, "hint: %s\n", d.Hint)
	}
	if r.ParseError != nil {
		fmt.Fprintf(&b, "parse error: %v (token scan used)\n", r.ParseError)
	}
	for _, e := range r.Errors {
		if r.ParseError != nil && strings.HasPrefix(e, "parse: ") {
			continue
		}
		fmt.Fprintf(&b, "note: %s\n", e)
	}
	fmt.Fprintf(&b, "invocations: %d\n", len(r.Invocations))
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		fmt.Fprintf(&b, "  [%d] %s", i, subject(inv))
		if inv.Program == "" && len(inv.Redirects) > 0 {
			b.WriteString("(redirections only)")
		}
		if len(inv.Via) > 0 {
			fmt.Fprintf(&b, "  via %s", strings.Join(inv.Via, " › "))
		}
		if inv.Dir != "" || len(inv.AltDirs) > 0 {
			b.WriteString("  dir " + dirName(inv.Dir))
			for _, a := range inv.AltDirs {
				b.WriteString(" or " + dirName(a.Dir)) // an earlier cd may have failed
			}
		}
		b.WriteByte('\n')
		for _, m := range r.Matches {
			if m.Invocation == i {
				fmt.Fprintf(&b, "      %s %s: %s\n", m.Action, m.Rule, m.Why)
			}
		}
	}
	for _, m := range r.Matches {
		if m.Invocation < 0 {
			fmt.Fprintf(&b, "  (whole command) %s %s: %s\n", m.Action, m.Rule, m.Why)
		}
	}
	return b.String()
}

// dirName is an Invocation.Dir for explain: "." for the hook's cwd, "?" for
// an undeterminable directory.
func dirName(dir string) string {
	switch dir {
	case "":
		return "."
	case shell.DirUnknown:
		return "?"
	}
	return dir
}
