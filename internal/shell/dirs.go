package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The working directory as a value (testdata/corpus/README.md §3.3: relative targets
// resolve against the directory the command runs in). `cd "$(realpath
// .harness)" && : > eval_log.jsonl` must be judged in .harness, so $PWD,
// $OLDPWD, $(pwd), $(realpath X), $(readlink -f X) and $(cd X && pwd) are
// computed from the tracked directory instead of being left unknown (which
// made the cd target unknown too).

// dirValue returns the directory dir (state.dir form: "" the starting
// directory, relative to it, "~…" below HOME, DirUnknown) as the value the
// shell would print: absolute when Options.Cwd (or HOME) makes it so,
// otherwise relative to the starting directory ("." for itself).
func (w *walker) dirValue(st *state, dir string) (string, bool) {
	cwd := w.opts.Cwd
	if !strings.HasPrefix(cwd, "/") {
		cwd = ""
	}
	switch {
	case dir == DirUnknown:
		return "", false
	case dir == "":
		if cwd != "" {
			return path.Clean(cwd), true
		}
		return ".", true
	case strings.HasPrefix(dir, "/"):
		return dir, true
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		if h, ok := homeOf(st); ok {
			return path.Clean(h + dir[1:]), true
		}
		return dir, true
	case cwd != "":
		return path.Join(cwd, dir), true
	}
	return dir, true
}

// homeOf is $HOME when its value is known (Options.Vars or an assignment).
func homeOf(st *state) (string, bool) {
	v, ok := st.vars["HOME"]
	if !ok || !v.known || !strings.HasPrefix(v.val, "/") {
		return "", false
	}
	return v.val, true
}

// pathValue is the absolute (or start-relative) form of path operand p in
// directory dir, lexically cleaned like `realpath -s`; false when unknown.
func (w *walker) pathValue(st *state, dir, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		h, ok := homeOf(st)
		if !ok {
			return "", false
		}
		p = h + p[1:]
	} else if strings.HasPrefix(p, "~") {
		return "", false // ~user: home unknown
	}
	if strings.HasPrefix(p, "/") {
		return path.Clean(p), true
	}
	d, ok := w.dirValue(st, dir)
	if !ok {
		return "", false
	}
	return path.Join(d, p), true
}

// dirVar returns $PWD / $OLDPWD from the tracked directory when the command
// has not assigned them itself.
func (e *expander) dirVar(name string) ([]string, bool) {
	if e.b == nil {
		return nil, false
	}
	dir := e.st.dir
	if name == "OLDPWD" {
		if !e.st.prevSet {
			return nil, false
		}
		dir = e.st.prevDir
	}
	v, ok := e.b.dirValue(e.st, dir)
	if !ok {
		return nil, false
	}
	return []string{v}, true
}

// dirProducer computes the output of pwd, realpath and readlink -f/-e/-m
// from the tracked directory. It reports whether prog was one of them.
func (w *walker) dirProducer(st *state, prog string, c cmdCtx, vals []string) (*string, bool) {
	switch prog {
	case "pwd":
		for _, v := range vals {
			if v != "-L" && v != "-P" {
				return nil, true
			}
		}
		d, ok := w.dirValue(st, st.dir)
		if !ok {
			return nil, true
		}
		s := d + "\n"
		return &s, true
	case "basename", "gbasename", "dirname", "gdirname":
		// pure functions of their operands (POSIX basename/dirname, GNU
		// -a, -s SUFFIX, -z): `"$(basename /bin/rm)" -rf x` runs rm
		if !allKnown(c.words[1:]) {
			return nil, true
		}
		out, ok := pathPart(strings.Contains(prog, "dirname"), vals)
		if !ok {
			return nil, true
		}
		return &out, true
	case "realpath", "grealpath", "readlink", "greadlink":
		if !allKnown(c.words[1:]) {
			return nil, true
		}
		// the options by the row (programs.go); an option the program
		// rejects, or a relative output, is an unknown output
		p := c.cmd.ParsedOpts
		canon := strings.HasPrefix(prog, "real") || strings.HasPrefix(prog, "greal") ||
			p.Has("fem", "canonicalize", "canonicalize-existing", "canonicalize-missing")
		for _, o := range p.Opts {
			if o.Ambiguous || o.Unknown {
				return nil, true
			}
		}
		if p.Has("", "relative-to", "relative-base") {
			return nil, true
		}
		ops := p.OperandValues()
		if !canon || len(ops) == 0 {
			return nil, true // readlink without -f prints the link's text
		}
		var b strings.Builder
		for _, o := range ops {
			p, ok := w.pathValue(st, st.dir, o)
			if !ok {
				return nil, true
			}
			b.WriteString(p)
			b.WriteByte('\n')
		}
		s := b.String()
		return &s, true
	}
	return nil, false
}

// changeDir records a move to dir (absolute, start-relative or "~…"),
// remembering the previous directory for $OLDPWD and `cd -`.
func (st *state) changeDir(dir string) {
	st.prevDir, st.prevSet = st.dir, true
	st.dir, st.unkRel = dir, ""
}

// targetWord expands a redirection target without field splitting and
// returns the listing it was substituted from, if any (`> $(ls X)`).
func (w *walker) targetWord(f *frame, st *state, word *syntax.Word) (Word, *Listing) {
	e := &expander{w: w, f: f, st: st, raw: w.raw(f, word), nosplit: true, b: w}
	e.parts(word.Parts, false)
	if len(e.fields) == 0 {
		return Word{Known: true, Raw: e.raw}, nil
	}
	var b strings.Builder
	known := true
	var lst *Listing
	for i, fl := range e.fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fl.val)
		if !fl.known {
			known = false
		}
		if fl.listing != nil && lst == nil {
			lst = fl.listing
		}
	}
	return Word{Value: b.String(), Known: known, Raw: e.raw}, lst
}

// printfFits charges the largest output printf FORMAT ARGS… can build (the
// format is reused until the arguments are used up) to the work budget
// before it is built: `printf "$x%s" {1..4000} {1..4000} …` would otherwise
// allocate gigabytes.
func (w *walker) printfFits(format string, args []string) bool {
	n := len(format) * (1 + len(args))
	if len(args) > 0 && n/(1+len(args)) != len(format) {
		return w.spend(1 << 40) // overflow
	}
	for _, a := range args {
		n += len(a) + 8
	}
	return w.spend(n)
}

// pushDir records the directory `pushd DIR` leaves, for popd. pushd without
// a directory operand (swap, +N rotations) makes the stack unknown.
func (st *state) pushDir(args []Word) {
	has := false
	for _, a := range args {
		if !strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "+") {
			has = true
		}
	}
	if !has {
		st.dirStack = nil
		return
	}
	n := len(st.dirStack)
	st.dirStack = append(st.dirStack[:n:n], [2]string{st.dir, st.unkRel})
}

// popDir returns to the directory of the last pushd; with options, an
// index or an empty stack the directory is unknown.
func (st *state) popDir(vals []string) {
	n := len(st.dirStack)
	if n == 0 || len(vals) > 0 {
		st.changeDir(DirUnknown)
		return
	}
	top := st.dirStack[n-1]
	st.dirStack = st.dirStack[: n-1 : n-1]
	st.changeDir(top[0])
	st.unkRel = top[1]
}

// maxAltDirs bounds Invocation.AltDirs: `cd a; cd b; cd c; …` doubles the
// possible directories with every relative cd. Past the bound the
// alternatives collapse into DirUnknown (judged conservatively).
const maxAltDirs = 8

// possibleDirs is every directory the shell may be in: dir first, then alts.
func (st *state) possibleDirs() []DirAlt {
	ds := make([]DirAlt, 0, 1+len(st.alts))
	return append(append(ds, DirAlt{Dir: st.dir, UnknownSub: st.unkRel}), st.alts...)
}

// addAlts adds ds to the alternative directories (paths that rejoin, such
// as the failure path of `cd X && …`), leaving out dir itself and repeats.
func (st *state) addAlts(ds []DirAlt) {
	cur := DirAlt{Dir: st.dir, UnknownSub: st.unkRel}
	alts := st.alts
	for _, d := range ds {
		if d == cur || slices.Contains(alts, d) {
			continue
		}
		alts = append(alts[:len(alts):len(alts)], d)
	}
	if len(alts) > maxAltDirs {
		unk := DirAlt{Dir: DirUnknown}
		alts = append(alts[:maxAltDirs-1:maxAltDirs-1], unk)
		if cur == unk {
			alts = alts[:maxAltDirs-1]
		}
	}
	st.alts = alts
}

// cdSucceeded narrows the directories to those where the last command, a
// cd, succeeded (`cd X && …`, `if cd X; then`, `cd X || exit`); no-op when
// the last command was not a cd.
func (st *state) cdSucceeded() {
	if st.cdLast {
		st.alts, st.cdLast = st.okAlts, false
	}
}

// exits reports a statement that leaves the shell or function (`exit 1`,
// `return`, `{ echo failed; exit 1; }`), the failure branch of `cd X || exit`.
func exits(s *syntax.Stmt) bool {
	if s == nil || s.Background || s.Negated {
		return false
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		v, ok := literalWord(c.Args[0])
		return ok && (v == "exit" || v == "return")
	case *syntax.Block:
		return len(c.Stmts) > 0 && exits(c.Stmts[len(c.Stmts)-1])
	}
	return false
}

// literalWord is the value of a word made only of unquoted literal text.
func literalWord(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return l.Value, true
}

// takeDir moves st to the directory state of o (a function body walked on a
// clone: it runs in the calling shell, so its cd and pushd stay in force).
func (st *state) takeDir(o *state) {
	st.dir, st.unkRel, st.alts = o.dir, o.unkRel, o.alts
	st.prevDir, st.prevSet, st.dirStack = o.prevDir, o.prevSet, o.dirStack
	st.okAlts, st.cdLast = o.okAlts, o.cdLast
}

// listing is a Listing of roots produced in st's directory (and, when an
// earlier cd may have failed, in its alternatives).
func (st *state) listing(roots []string) *Listing {
	return &Listing{Roots: roots, Dir: st.dir, AltDirs: st.alts}
}

// pathPart is the output of `basename ARGS` (dir false) or `dirname ARGS`
// (dir true); false for options it does not know.
func pathPart(dir bool, args []string) (string, bool) {
	var ops []string
	suffix, multi, end := "", dir, "\n"
	for k := 0; k < len(args); k++ {
		v := args[k]
		switch {
		case v == "--":
			ops = append(ops, args[k+1:]...)
			k = len(args)
		case v == "-a" || v == "--multiple":
			multi = true
		case v == "-z" || v == "--zero":
			end = "\x00"
		case !dir && (v == "-s" || v == "--suffix") && k+1 < len(args):
			suffix, multi = args[k+1], true
			k++
		case !dir && strings.HasPrefix(v, "--suffix="):
			suffix, multi = v[len("--suffix="):], true
		case len(v) > 1 && v[0] == '-':
			return "", false
		default:
			ops = append(ops, v)
		}
	}
	if len(ops) == 0 {
		return "", false
	}
	if !multi {
		// basename NAME [SUFFIX]
		if len(ops) > 2 {
			return "", false
		}
		if len(ops) == 2 {
			suffix = ops[1]
		}
		ops = ops[:1]
	}
	var b strings.Builder
	for _, o := range ops {
		var r string
		t := strings.TrimRight(o, "/")
		switch {
		case dir && t == "" && o != "":
			r = "/"
		case dir:
			if i := strings.LastIndexByte(t, '/'); i < 0 {
				r = "."
			} else if r = strings.TrimRight(t[:i], "/"); r == "" {
				r = "/"
			}
		case t == "" && o != "":
			r = "/"
		default:
			r = t[strings.LastIndexByte(t, '/')+1:]
			if suffix != "" && r != suffix {
				r = strings.TrimSuffix(r, suffix)
			}
		}
		b.WriteString(r)
		b.WriteString(end)
	}
	return b.String(), true
}
