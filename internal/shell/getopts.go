package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// getoptsCond reports a loop condition that is one getopts call
// (`while getopts SPEC NAME …`).
func getoptsCond(cond []*syntax.Stmt) bool {
	if len(cond) != 1 || cond[0].Negated || cond[0].Background {
		return false
	}
	ce, ok := cond[0].Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && ce.Args[0].Lit() == "getopts"
}

// getopts models one call of the getopts builtin, `getopts SPEC NAME
// [ARG…]` (the positional parameters when no ARG is given): it reads the
// option at $OPTIND and sets NAME to its letter, OPTARG to its value and
// OPTIND to the next word, so `getopts c: o -c 'CMD'; $OPTARG` runs CMD
// (checked with bash 5.2):
//
//   - a letter SPEC lists with a ':' after it takes the rest of its word
//     or the next word as OPTARG; a letter without one unsets OPTARG;
//   - an unlisted letter, or a missing value, sets NAME to '?' and unsets
//     OPTARG, unless SPEC starts with ':' (silent): then NAME is '?' (or
//     ':' for a missing value) and OPTARG the letter;
//   - at the end of the options ("--", a word not starting with '-', no
//     word left) NAME is '?' and OPTARG unset.
//
// OPTIND is unset (1 when the shell starts) or a literal number. Inside an
// option cluster (`-ab`, `-ac VALUE`) bash keeps a hidden position in the
// word, and OPTIND stays at that word until its last letter is read
// (state.optPos; assigning OPTIND resets it). A `while getopts` loop walks
// its body once per option (parse.go), so the loop sees each option's
// NAME and OPTARG. A call that returns false sets state.optEnd.
func getopts(st *state, vals []string, known bool) {
	if len(vals) < 2 {
		st.optEnd = true
		return
	}
	spec, name := vals[0], vals[1]
	argv, argsKnown := vals[2:], known
	if len(vals) == 2 {
		argv, argsKnown = st.args, known && st.argsKnown
	}
	idx := 0
	if v, set := st.vars["OPTIND"]; set {
		n, err := strconv.Atoi(v.val)
		if !v.known || v.isArr || err != nil || n < 1 {
			argsKnown = false
		}
		idx = n - 1
	}
	pos := 1
	if p := st.optPos; p[1] > 1 && p[0] == idx {
		pos = p[1]
	}
	if !argsKnown {
		st.unsetVar(name)
		st.unsetVar("OPTARG")
		st.unsetVar("OPTIND")
		st.optEnd = true
		return
	}
	str := func(k, v string) { st.setVar(k, varVal{val: v, known: true}) }
	setIdx := func(n int) { str("OPTIND", strconv.Itoa(n+1)) }
	silent := strings.HasPrefix(spec, ":")
	spec = strings.TrimPrefix(spec, ":")
	if idx >= len(argv) || argv[idx] == "-" || !strings.HasPrefix(argv[idx], "-") || pos >= len(argv[idx]) {
		str(name, "?")
		st.unsetVar("OPTARG")
		st.optEnd = true
		return
	}
	a := argv[idx]
	if a == "--" {
		str(name, "?")
		st.unsetVar("OPTARG")
		setIdx(idx + 1)
		st.optEnd = true
		return
	}
	c := a[pos]
	i := strings.IndexByte(spec, c)
	next := func() {
		if pos+1 < len(a) {
			// the next option is in the same word: bash's hidden
			// position, OPTIND stays at the word
			setIdx(idx)
			st.optPos = [2]int{idx, pos + 1}
		} else {
			setIdx(idx + 1)
		}
	}
	switch {
	case c == ':' || i < 0:
		str(name, "?")
		if silent {
			str("OPTARG", string(c))
		} else {
			st.unsetVar("OPTARG")
		}
		next()
	case i+1 < len(spec) && spec[i+1] == ':':
		switch {
		case pos+1 < len(a):
			str(name, string(c))
			str("OPTARG", a[pos+1:])
			setIdx(idx + 1)
		case idx+1 < len(argv):
			str(name, string(c))
			str("OPTARG", argv[idx+1])
			setIdx(idx + 2)
		case silent:
			str(name, ":")
			str("OPTARG", string(c))
			setIdx(idx + 1)
		default:
			str(name, "?")
			st.unsetVar("OPTARG")
			setIdx(idx + 1)
		}
	default:
		str(name, string(c))
		st.unsetVar("OPTARG")
		next()
	}
}
