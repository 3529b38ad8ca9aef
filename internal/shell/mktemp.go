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
// unknown. It reports false when the arguments are not literal or an
// option is one mktemp rejects. p is the parse by mktemp's row (programs.go:
// GNU getopt_long, abbreviations, options after the template).
func mktempOutput(st *state, args []Word, p ParsedOpts) (string, bool) {
	if !allKnown(args) {
		return "", false
	}
	tmpdir, set := "", false
	if v, ok := st.vars["TMPDIR"]; ok {
		if !v.known {
			return "", false
		}
		tmpdir, set = v.val, true
	}
	return mktempName(p, tmpdir, set)
}

// mktempName is the name mktempOutput computes for the parse p, $TMPDIR
// being tmpdir when set.
func mktempName(p ParsedOpts, tmpdirVal string, tmpdirSet bool) (string, bool) {
	var tmpl, dir string
	hasTmpl, hasDir, tmpdirOpt := false, false, false
	for _, o := range p.Opts {
		switch {
		case o.Ambiguous || o.Unknown:
			return "", false // mktemp refuses to run
		case o.Name == "p" || o.Long && o.Name == "tmpdir":
			if o.HasValue {
				dir, hasDir = o.Value, true
			} else if o.Long {
				tmpdirOpt = true // --tmpdir alone: its value only attached
			}
		}
	}
	tflag := p.Has("t")
	suffix, _ := p.Last("", "suffix")
	if ops := p.OperandValues(); len(ops) > 0 {
		tmpl, hasTmpl = ops[0], true
	}
	tmpdir := "/tmp"
	if tmpdirSet && tmpdirVal != "" {
		tmpdir = tmpdirVal
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
		if !tmpdirSet && hasDir {
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
