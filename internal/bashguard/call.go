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
	// git is the parsed git invocation, computed once (nil until then).
	git     *gitCall
	gitDone bool
}

func newCall(inv *shell.Invocation, index int) *call {
	// Program names compare case-insensitively: on case-insensitive file
	// systems (macOS) `RM` runs rm.
	prog := strings.ToLower(inv.Program)
	prog = strings.TrimSuffix(prog, ".exe")
	c := &call{inv: inv, index: index, prog: prog, args: make([]string, len(inv.Args)), known: make([]bool, len(inv.Args))}
	for i, a := range inv.Args {
		c.args[i] = a.Value
		c.known[i] = a.Known
	}
	return c
}

// optTable is a program's (or git subcommand's) option table: which short
// letters and long names take a value, and every long name (for GNU
// getopt_long / git parse-options abbreviation rules, testdata/corpus/README.md §2.2).
type optTable struct {
	shortVal string
	long     []string
	longVal  []string
}

// parsed is the result of parsing arguments against an optTable. Options are
// recognised anywhere before "--" (GNU permutation, git parse-options).
type parsed struct {
	short    map[byte]bool
	shortVal map[byte]string
	long     map[string]string // resolved long name → value ("" when none)
	operands []string          // operands before "--"
	opIdx    []int             // their indexes in args
	after    []string          // operands after "--"
	dashdash bool
	unknown  []string // long options that did not resolve (ambiguous or unknown)
}

// resolveLong resolves a possibly abbreviated long option name: an exact
// name wins, otherwise a unique prefix; "" when ambiguous or unknown.
func resolveLong(name string, table []string) string {
	found := ""
	for _, l := range table {
		if l == name {
			return l
		}
		if strings.HasPrefix(l, name) {
			if found != "" {
				return ""
			}
			found = l
		}
	}
	return found
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func (t optTable) parse(args []string) parsed {
	p := parsed{short: map[byte]bool{}, shortVal: map[byte]string{}, long: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if p.dashdash {
			p.after = append(p.after, a)
			continue
		}
		if a == "--" {
			p.dashdash = true
			continue
		}
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			name, val, hasVal := strings.Cut(a[2:], "=")
			r := resolveLong(name, t.long)
			if r == "" {
				p.unknown = append(p.unknown, name)
				continue
			}
			if !hasVal && contains(t.longVal, r) && i+1 < len(args) {
				val = args[i+1]
				i++
			}
			p.long[r] = val
			continue
		}
		if len(a) > 1 && a[0] == '-' {
			for k := 1; k < len(a); k++ {
				ch := a[k]
				p.short[ch] = true
				if strings.IndexByte(t.shortVal, ch) >= 0 {
					if k+1 < len(a) {
						p.shortVal[ch] = a[k+1:]
					} else if i+1 < len(args) {
						p.shortVal[ch] = args[i+1]
						i++
					}
					break
				}
			}
			continue
		}
		p.operands = append(p.operands, a)
		p.opIdx = append(p.opIdx, i)
	}
	return p
}

func (p parsed) has(short byte, long ...string) bool {
	if short != 0 && p.short[short] {
		return true
	}
	for _, l := range long {
		if _, ok := p.long[l]; ok {
			return true
		}
	}
	return false
}

// allOperands returns operands before and after "--".
func (p parsed) allOperands() []string {
	if len(p.after) == 0 {
		return p.operands
	}
	out := make([]string, 0, len(p.operands)+len(p.after))
	out = append(out, p.operands...)
	return append(out, p.after...)
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
