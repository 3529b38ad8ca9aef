package shell

import (
	"path"
	"strings"
)

// mktempOutput computes what `mktemp [-d] [-u] [-q] [-t] [-p DIR |
// --tmpdir[=DIR]] [--suffix=S] [TEMPLATE]` prints: the name of a new, empty
// file or directory, so that `cd "$(mktemp -d)" && echo > README.md` and
// `echo x > "$(mktemp)"` are judged where they write (testdata/corpus/README.md §3.3:
// relative targets resolve against the directory the command runs in)
// instead of as an unknown directory. The random part stays the template's
// Xs, which names no protected file.
//
// The directory follows GNU coreutils: with no TEMPLATE the name is
// tmp.XXXXXXXXXX in DIR of -p/--tmpdir, else $TMPDIR, else /tmp; -t puts
// TEMPLATE in $TMPDIR, else DIR, else /tmp; -p DIR or --tmpdir puts it in
// DIR (--tmpdir alone: $TMPDIR, else /tmp); a TEMPLATE alone is relative to
// the current directory. $TMPDIR counts when known (Options.Vars or an
// assignment); when the command assigned it a computed value the output is
// unknown. It reports false when the arguments are not literal.
func mktempOutput(st *state, args []Word) (string, bool) {
	if !allKnown(args) {
		return "", false
	}
	var tmpl, suffix, dir string
	hasTmpl, hasDir, tflag, tmpdirOpt := false, false, false, false
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			if i+1 < len(args) {
				tmpl, hasTmpl = args[i+1].Value, true
			}
			i = len(args)
		case v == "--tmpdir":
			tmpdirOpt = true
		case strings.HasPrefix(v, "--tmpdir="):
			dir, hasDir = v[len("--tmpdir="):], true
		case v == "--suffix" && i+1 < len(args):
			suffix = args[i+1].Value
			i++
		case strings.HasPrefix(v, "--suffix="):
			suffix = v[len("--suffix="):]
		case strings.HasPrefix(v, "--"):
			// --directory, --dry-run, --quiet
		case len(v) > 1 && v[0] == '-':
			for k := 1; k < len(v); k++ {
				switch v[k] {
				case 't':
					tflag = true
				case 'p':
					dir, hasDir = v[k+1:], true
					if dir == "" && i+1 < len(args) {
						dir = args[i+1].Value
						i++
					}
					k = len(v)
				}
			}
		default:
			if !hasTmpl {
				tmpl, hasTmpl = v, true
			}
		}
	}
	tmpdir := "/tmp"
	if v, ok := st.vars["TMPDIR"]; ok {
		if !v.known {
			return "", false
		}
		if v.val != "" {
			tmpdir = v.val
		}
	}
	if hasDir && dir == "" {
		hasDir = false // -p '' means $TMPDIR
		tmpdirOpt = true
	}
	var base string
	switch {
	case !hasTmpl:
		tmpl, base = "tmp.XXXXXXXXXX", tmpdir
		if hasDir {
			base = dir
		}
	case tflag:
		base = tmpdir
		if _, set := st.vars["TMPDIR"]; !set && hasDir {
			base = dir
		}
	case hasDir:
		base = dir
	case tmpdirOpt:
		base = tmpdir
	}
	name := tmpl + suffix
	if base == "" || strings.HasPrefix(tmpl, "/") {
		return path.Clean(name), true
	}
	return path.Join(base, name), true
}
