package pathguard

import (
	"strings"
)

// argSpec describes a program's options for a getopt-like scan.
type argSpec struct {
	// shortVal are short options that take a value (attached or next word).
	shortVal string
	// shortOpt are short options with an optional attached value only
	// (`sed -i.bak`): the rest of the cluster is their value.
	shortOpt string
	// longVal are long options (without "--") that take a value (`--x v`
	// or `--x=v`); other long options take a value only with "=".
	longVal []string
	// stopAtOperand stops option parsing at the first operand (POSIX order)
	// instead of permuting like GNU getopt_long.
	stopAtOperand bool
}

// opt is one option found: its name ("i", "in-place") and value.
type opt struct {
	name  string
	value string
	long  bool
	has   bool // value present
}

// parsed is the result of scanning argv.
type parsed struct {
	opts     []opt
	operands []int // indexes into the argument list
}

func (p parsed) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// values returns the values of every option named one of names, in order.
// A long option also matches as an abbreviation of at least 3 letters
// (`sort --out=F`, GNU getopt_long).
func (p parsed) values(names ...string) []string {
	var vs []string
	for _, o := range p.opts {
		if !o.has {
			continue
		}
		for _, n := range names {
			if o.name == n || (o.long && len(n) > 1 && len(o.name) >= 3 && strings.HasPrefix(n, o.name)) {
				vs = append(vs, o.value)
				break
			}
		}
	}
	return vs
}

// last returns the value of the last option named one of names.
func (p parsed) last(names ...string) (string, bool) {
	vs := p.values(names...)
	if len(vs) == 0 {
		return "", false
	}
	return vs[len(vs)-1], true
}

// scan parses args (the words after the program) with spec. A long option
// is matched by exact name or by a unique prefix of longVal (getopt_long).
func scan(args []string, spec argSpec) parsed {
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for j := i + 1; j < len(args); j++ {
				p.operands = append(p.operands, j)
			}
			return p
		case strings.HasPrefix(a, "--"):
			name, val, hasEq := strings.Cut(a[2:], "=")
			full, takes := longName(name, spec.longVal)
			o := opt{name: full, long: true}
			if hasEq {
				o.value, o.has = val, true
			} else if takes && i+1 < len(args) {
				i++
				o.value, o.has = args[i], true
			}
			p.opts = append(p.opts, o)
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				c := a[k]
				if strings.IndexByte(spec.shortOpt, c) >= 0 {
					p.opts = append(p.opts, opt{name: string(c), value: a[k+1:], has: k+1 < len(a)})
					break
				}
				if strings.IndexByte(spec.shortVal, c) >= 0 {
					o := opt{name: string(c)}
					if k+1 < len(a) {
						o.value, o.has = a[k+1:], true
					} else if i+1 < len(args) {
						i++
						o.value, o.has = args[i], true
					}
					p.opts = append(p.opts, o)
					break
				}
				p.opts = append(p.opts, opt{name: string(c)})
			}
		default:
			p.operands = append(p.operands, i)
			if spec.stopAtOperand {
				for j := i + 1; j < len(args); j++ {
					p.operands = append(p.operands, j)
				}
				return p
			}
		}
	}
	return p
}

// longName resolves an exact or uniquely abbreviated long option against
// the value-taking names (an abbreviation needs 5 letters, so that a short
// flag such as --fix is not read as --fixable); other names are returned
// as given.
func longName(name string, longVal []string) (string, bool) {
	match := ""
	n := 0
	for _, l := range longVal {
		if l == name {
			return l, true
		}
		if len(name) >= 5 && strings.HasPrefix(l, name) {
			match = l
			n++
		}
	}
	if n == 1 {
		return match, true
	}
	return name, false
}

// flag reports whether a short option in shorts (each byte one option) or a
// long option that is longs[i] or an abbreviation of it (at least 3
// letters, GNU getopt_long) was given.
func (p parsed) flag(shorts string, longs ...string) bool {
	for _, o := range p.opts {
		if !o.long {
			if len(o.name) == 1 && strings.IndexByte(shorts, o.name[0]) >= 0 {
				return true
			}
			continue
		}
		for _, l := range longs {
			if o.name == l || (len(o.name) >= 3 && strings.HasPrefix(l, o.name)) {
				return true
			}
		}
	}
	return false
}
