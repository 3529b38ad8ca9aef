package shell

import (
	"strconv"
	"strings"
)

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
// Only a call starting at a word boundary is modelled: OPTIND unset (1 when
// the shell starts) or a literal number. After an option inside a cluster
// (`-ab`) bash keeps a hidden position in the word, so OPTIND becomes
// unknown and later calls forget NAME and OPTARG. A loop body is walked
// once, so `while getopts …` gives the first option's values.
func getopts(st *state, vals []string, known bool) {
	if len(vals) < 2 {
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
	if !argsKnown {
		st.unsetVar(name)
		st.unsetVar("OPTARG")
		st.unsetVar("OPTIND")
		return
	}
	str := func(k, v string) { st.setVar(k, varVal{val: v, known: true}) }
	setIdx := func(n int) { str("OPTIND", strconv.Itoa(n+1)) }
	silent := strings.HasPrefix(spec, ":")
	spec = strings.TrimPrefix(spec, ":")
	if idx >= len(argv) || argv[idx] == "-" || !strings.HasPrefix(argv[idx], "-") {
		str(name, "?")
		st.unsetVar("OPTARG")
		return
	}
	a := argv[idx]
	if a == "--" {
		str(name, "?")
		st.unsetVar("OPTARG")
		setIdx(idx + 1)
		return
	}
	c := a[1]
	i := strings.IndexByte(spec, c)
	next := func() {
		// the next option is in the same word: bash's hidden position
		if len(a) > 2 {
			st.unsetVar("OPTIND")
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
		case len(a) > 2:
			str(name, string(c))
			str("OPTARG", a[2:])
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
