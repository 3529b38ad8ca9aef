package bashguard

import (
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
)

// call is the normalised view of one invocation the matchers work on.
type call struct {
	inv   *shell.Invocation
	index int
	prog  string
	args  []string // word values
	known []bool
}

func newCall(inv *shell.Invocation, index int) *call {
	// inv.Program is the program's identity (case-folded, .exe dropped:
	// shell.Identity)
	c := &call{inv: inv, index: index, prog: inv.Program, args: make([]string, len(inv.Args)), known: make([]bool, len(inv.Args))}
	for i, a := range inv.Args {
		c.args[i] = a.Value
		c.known[i] = a.Known
	}
	return c
}

// subject renders an invocation for messages: program and raw words.
func subject(inv *shell.Invocation) string {
	var b strings.Builder
	b.WriteString(inv.Program)
	for _, a := range inv.Args {
		b.WriteByte(' ')
		if a.Raw != "" {
			b.WriteString(a.Raw)
		} else {
			b.WriteString(a.Value)
		}
		if b.Len() > 200 {
			b.WriteString(" …")
			break
		}
	}
	return b.String()
}
