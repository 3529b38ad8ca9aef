package shell

import (
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// cmdCtx is one simple command after expansion, before unwrapping.
type cmdCtx struct {
	words  []Word
	fields []field // parallel to words when built from shell source; may be nil
	env    map[string]string
	redirs []Redirect
	stdin  *string
	// listing is the listing the command's trailing operands come from
	// (substituted listing, or given by xargs / find -exec).
	listing *Listing
	// pipeListing is the listing piped into the command (for xargs).
	pipeListing *Listing
	pos         syntax.Pos
	// cmd is the words after the program parsed by the program table (set by run).
	cmd *Command
	// unset are the variables an env wrapper removed ("*": env -i).
	unset []string
	// knownEnv are the names of env whose value is known (a literal prefix
	// assignment or exported variable): an inner shell or interpreter
	// reads that value (`C='rm -rf build' sh -c 'eval "$C"'`).
	knownEnv map[string]bool
	// maybe are the names of env whose export may have been taken back
	// (declare +x, export -n: state.exported).
	maybe []string
	// fds are the statement's input descriptors other than 0 (ioCtx.fds).
	fds map[string]*string
	// guess is the literal text of an unknown producer piped in (ioCtx.guess).
	guess *string
	// part is the known pieces of an unknown stdin (ioCtx.part).
	part *string
	// endless: stdin never ends (ioCtx.endless).
	endless bool
	// from is the command piped in (ioCtx.from).
	from *Invocation
}

// stdinScript is what a program that runs its standard input as commands
// (a shell, crontab, at, ssh without a remote command, a RunSpec.Stdin
// row) reads: the literal stdin when known, otherwise the known pieces of
// a partly known input (`(crontab -l; echo '…') | crontab -`), which reach
// the program whatever the unknown rest holds. partial reports the second.
func (c cmdCtx) stdinScript() (src string, partial, ok bool) {
	switch {
	case c.stdin != nil:
		return *c.stdin, false, true
	case c.part != nil:
		return *c.part, true, true
	}
	return "", false, false
}

// xtraceFlag reports whether word k of `set` (or a shell's options)
// turns xtrace on (`-x`, `-ex`, `-o xtrace`) or off (`+x`, `+o xtrace`).
func wordValues(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

func xtraceFlag(vals []string, k int) (on, ok bool) {
	v := vals[k]
	if len(v) < 2 || v[0] != '-' && v[0] != '+' || v == "--" {
		return false, false
	}
	if v[1:] == "o" && k+1 < len(vals) && vals[k+1] == "xtrace" {
		return v[0] == '-', true
	}
	if v[1] != '-' && strings.ContainsRune(v[1:], 'x') {
		return v[0] == '-', true
	}
	return false, false
}

// tracePS4 walks the prompt bash expands before each traced command
// under xtrace: PS4's command substitutions run (`PS4='$(rm -rf x)';
// set -x; true`). Text with none is not walked.
func (w *walker) tracePS4(f *frame, st *state, v varVal) {
	w.promptText(f.child("PS4 (xtrace)"), st, v.val)
}

// promptText walks a prompt string's expansions (PS4 under xtrace,
// `${x@P}`): its command substitutions run, as in an unquoted here-document.
func (w *walker) promptText(f *frame, st *state, v string) {
	if !strings.Contains(v, "$(") && !strings.Contains(v, "`") {
		return
	}
	delim := "HARNESS_PROMPT"
	for strings.Contains(v, delim) {
		delim += "_"
	}
	w.script(f, st.clone(), ": <<"+delim+"\n"+v+"\n"+delim+"\n", ioCtx{})
}

// pathContent is the literal text a command reads from the file its word
// i (in words) names, when the command itself makes it known: a process
// substitution `<(…)`, a descriptor path (/dev/stdin, /dev/fd/N,
// /proc/self/fd/N) of a known stdin or here-string, or a file written
// earlier in the same command.
func (w *walker) pathContent(st *state, c cmdCtx, i int) (string, bool) {
	if i <= 0 || i >= len(c.words) {
		return "", false
	}
	if c.fields != nil && i < len(c.fields) && c.fields[i].proc != nil {
		return *c.fields[i].proc, true
	}
	wd := c.words[i]
	if !wd.Known {
		return "", false
	}
	return w.namedContent(st, c, wd.Value)
}

// optContent is pathContent for the value of option o of c's program
// (ParsedOpts over c.words[1:]): the output of a process substitution
// given as the value (`xargs -a <(…)`, `--arg-file=<(…)`), else the file's
// text written earlier in the command.
func (w *walker) optContent(st *state, c cmdCtx, o Opt) (string, bool) {
	i := o.ValArg + 1
	if c.fields != nil && i < len(c.fields) && c.fields[i].proc != nil && strings.HasSuffix(c.fields[i].val, "/dev/fd/63") {
		return *c.fields[i].proc, true
	}
	return w.namedContent(st, c, o.Value)
}

// namedContent is pathContent for a known path p.
func (w *walker) namedContent(st *state, c cmdCtx, p string) (string, bool) {
	if fd, ok := fdPath(p); ok {
		if fd == "63" && w.hasProc && c.fds["63"] == nil {
			if w.lastProc == nil {
				return "", false
			}
			return *w.lastProc, true
		}
		if v, ok := fdContent(st, c.stdin, c.fds, fd); ok {
			return *v, true
		}
		return "", false
	}
	return w.writtenScript(st, p)
}

// withWord returns c with w inserted before words[i] (and an empty field
// for it when c has fields).
func (c cmdCtx) withWord(i int, w Word) cmdCtx {
	ws := make([]Word, 0, len(c.words)+1)
	ws = append(append(append(ws, c.words[:i]...), w), c.words[i:]...)
	c.words = ws
	if c.fields != nil {
		fs := make([]field, 0, len(c.fields)+1)
		fs = append(append(append(fs, c.fields[:i]...), field{val: w.Value, known: w.Known, raw: w.Raw, started: true}), c.fields[i:]...)
		c.fields = fs
	}
	return c
}

// replaceWord returns c with word i replaced by w.
func (c cmdCtx) replaceWord(i int, w Word) cmdCtx {
	c.words = slices.Clone(c.words)
	c.words[i] = w
	if c.fields != nil {
		c.fields = slices.Clone(c.fields)
		c.fields[i] = field{val: w.Value, known: w.Known, raw: w.Raw, started: true}
	}
	return c
}

// knownValues are the variables of the command's environment whose value
// is known (cmdCtx.knownEnv), nil when none.
func (c cmdCtx) knownValues() map[string]string {
	var out map[string]string
	for k := range c.knownEnv {
		if v, ok := c.env[k]; ok && !slices.Contains(c.unset, k) && !slices.Contains(c.unset, "*") {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// substitution walks a command substitution and returns its literal output
// and, when it is a listing producer, its listing.
func (w *walker) substitution(f *frame, st *state, cs *syntax.CmdSubst) (*string, *Listing) {
	nf := f.child("$( )")
	w.lastListing = nil
	in := w.substStdin
	w.substStdin = nil
	if len(cs.Stmts) == 0 {
		// `$()`, ``: nothing runs, the output is empty (`r$()m` is rm)
		empty := ""
		return &empty, nil
	}
	if src, ok := w.readBack(f, st, cs, in); ok {
		return &src, nil
	}
	out := w.stmts(nf, st.captured(), cs.Stmts, ioCtx{stdin: in})
	l := w.lastListing
	w.lastListing = nil
	return out, l
}

// readBack is the text of `$(<FILE)` (bash reads FILE without running a
// command) when FILE was written earlier in the command (scriptfile.go):
// `echo CMD > c.txt; $(<c.txt)` runs CMD; or when FILE names a descriptor
// (fdPath) of the substitution's known input in (ioCtx.pipe) or one `exec`
// opened: `{ $(</dev/stdin); } <<< CMD`.
func (w *walker) readBack(f *frame, st *state, cs *syntax.CmdSubst, in *string) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	s := cs.Stmts[0]
	if s.Cmd != nil || len(s.Redirs) != 1 || s.Negated || s.Background {
		return "", false
	}
	r := s.Redirs[0]
	if r.Op != syntax.RdrIn || r.N != nil && r.N.Value != "0" || r.Word == nil {
		return "", false
	}
	if len(w.files) == 0 && in == nil && len(st.fds) == 0 {
		return "", false
	}
	t := w.singleWord(f, st, r.Word, false)
	if !t.Known {
		return "", false
	}
	if fd, ok := fdPath(t.Value); ok {
		if v, ok := fdContent(st, in, nil, fd); ok && v != nil {
			return *v, true
		}
		return "", false
	}
	return w.writtenScript(st, t.Value)
}

// ProgramName normalises a command word to a program name: the directory
// part is dropped ("/usr/bin/../bin/rm" → "rm").
func ProgramName(v string) string {
	v = strings.TrimRight(v, "/")
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		v = v[i+1:]
	}
	return v
}

func allKnown(ws []Word) bool {
	for _, w := range ws {
		if !w.Known {
			return false
		}
	}
	return true
}

// dangerousNames are the programs a glob in command position is resolved
// against (`/???/r? -rf x` runs rm).
var dangerousNames = []string{"rm", "sudo", "su", "doas", "pkexec", "run0", "git", "chmod", "dd", "mkfs", "ssh", "scp", "rsync", "kubectl", "helm", "aws", "curl", "wget", "bash", "sh", "zsh", "dash", "ksh", "eval", "harness", "shred", "wipefs", "python3", "python", "perl", "ruby", "node", "xargs", "env", "find", "install", "mkdir", "tee", "cp", "npm", "docker", "sudoedit"}

// globProgram resolves a command name containing glob characters to the
// first dangerous program name it matches, or returns it unchanged.
func globProgram(pat string) string {
	for _, n := range dangerousNames {
		if ok, err := path.Match(pat, n); err == nil && ok {
			return n
		}
	}
	return pat
}

func knownWords(vals ...string) []Word {
	ws := make([]Word, len(vals))
	for i, v := range vals {
		ws[i] = Word{Value: v, Known: true, Raw: v}
	}
	return ws
}

func shells(s string) bool {
	switch s {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "rbash", "fish", "csh", "tcsh",
		"lksh", "pdksh", "oksh", "loksh", "osh", "ysh", "rc":
		return true
	}
	return false
}

// IsShell reports whether name is a POSIX-style shell program.
func IsShell(name string) bool { return shells(name) || shells(shellBase(name)) }

// run records the command, unwraps it and returns its literal stdout.
func (w *walker) run(f *frame, st *state, c cmdCtx) *string {
	if len(c.words) == 0 {
		return nil
	}
	prog := ""
	if c.fields != nil {
		if name, ok := c.fields[0].nameKnown(); ok {
			prog = Identity(name)
		}
	} else if c.words[0].Known {
		prog = Identity(c.words[0].Value)
	}
	if p, ok := st.hashed[c.words[0].Value]; ok && c.words[0].Known && st.funcs[c.words[0].Value] == nil {
		// `hash -p PATH NAME` earlier: NAME runs PATH (bash looks a
		// function up first, then the hash table, then $PATH)
		prog = Identity(p)
		c = c.replaceWord(0, Word{Value: p, Known: true, Raw: c.words[0].Raw})
	}
	if strings.ContainsAny(prog, "*?[") {
		prog = globProgram(prog)
	}
	if sub := gitHelper(prog); sub != "" {
		// /usr/lib/git-core/git-push is `git push`
		prog = "git"
		c = c.withWord(1, Word{Value: sub, Known: true, Raw: sub})
	}
	if b := w.programBinary(st, c.words[0], prog); b != "" {
		prog = b // a copy or rename of a harness binary is that binary (§9.1)
	}
	args := c.words[1:]
	vals := make([]string, len(args))
	for i, a := range args {
		vals[i] = a.Value
	}
	c.cmd = ParseCommandIn(prog, vals, getoptEnv(c))
	inv := Invocation{Program: prog, Word: c.words[0], Args: args, Cmd: c.cmd, Env: c.env, Unset: c.unset, Redirects: c.redirs, Dir: st.dir, Stdin: c.stdin, PipedFrom: c.from, Pos: c.pos, Listing: c.listing, Func: st.funcs[prog] != nil}
	w.noteBinaryCopy(st, &inv)
	w.noteFileCopy(st, &inv)
	if inv.Listing == nil && f.listing != nil && mentionsListing(&inv) {
		inv.Listing = f.listing
	}
	idx := w.record(f, st, inv)
	w.envRuns(f, st, prog, c)
	w.nameOperands(f, st, prog, vals)
	if prog == "exec" && len(args) == 0 && len(c.fds) > 0 {
		// `exec 3<<<'…'` opens the descriptors in this shell for the
		// commands after it (`bash <&3`, `bash /dev/fd/3`)
		fds := make(map[string]*string, len(st.fds)+len(c.fds))
		maps.Copy(fds, st.fds)
		maps.Copy(fds, c.fds)
		for _, rd := range c.redirs {
			// `exec {NAME}<…` (bash): the shell opens the lowest free
			// descriptor from 10 and stores its number in NAME, so
			// `bash <&$NAME` and /dev/fd/$NAME read it
			name, ok := namedFd(rd.Fd)
			if !ok {
				continue
			}
			v, ok := fds[rd.Fd]
			if !ok {
				continue
			}
			delete(fds, rd.Fd)
			n := 10
			for hasKey(fds, strconv.Itoa(n)) {
				n++
			}
			fds[strconv.Itoa(n)] = v
			st.setVar(name, varVal{val: strconv.Itoa(n), known: true})
		}
		st.fds = fds
		return nil
	}
	switch prog {
	case "":
		// an unknown command name given a -c script (`$SHELL -c '…'`) runs it
		if len(vals) >= 2 && len(vals[0]) >= 2 && vals[0][0] == '-' && strings.HasSuffix(vals[0], "c") && strings.Trim(vals[0][1:], "abefhiklmnprstuvxBCEHPTc") == "" {
			return w.script(f.child("? -c"), st.clone(), vals[1], ioCtx{stdin: c.stdin})
		}
		w.unknownRunner(f, st, idx, c)
		return nil
	case "cd", "pushd":
		if prog == "pushd" {
			st.pushDir(args)
		}
		before := *st
		w.cd(st, args)
		w.cdPath(&before, st, c, args)
		if prog == "cd" && (len(vals) == 0 || vals[len(vals)-1] != "-") {
			empty := "" // cd prints nothing (`$(cd X && pwd)`)
			return &empty
		}
		return nil
	case "popd":
		st.popDir(vals)
		return nil
	case "set":
		for k, v := range vals {
			if v == "--" {
				st.args, st.argsKnown = vals[k+1:], allKnown(args[k+1:])
				break
			}
			if on, ok := xtraceFlag(vals, k); ok {
				st.xtrace = on
				if on {
					w.tracePS4(f, st, st.vars["PS4"])
				}
			}
		}
		return nil
	case "shift":
		if st.argsKnown && len(st.args) > 0 {
			st.args = st.args[1:]
		}
		return nil
	case "shopt":
		// shopt -u expand_aliases: later lines expand no alias; -s: on again
		on, off := slices.Contains(vals, "-s"), slices.Contains(vals, "-u")
		if slices.Contains(vals, "expand_aliases") && on != off {
			if off {
				st.aliasOff = &aliasDef{src: f.srcID, line: c.pos.Line()}
			} else {
				st.aliasOff = nil
			}
		}
		if slices.Contains(vals, "lastpipe") && on != off {
			st.lastpipe = on
		}
		return nil
	case "history":
		// history -s ARGS…: the words, joined by blanks, are one more
		// entry; -c clears the list; -d, -r, -n change it in ways not
		// followed (an unknown entry last)
		p := c.cmd.ParsedOpts
		switch {
		case p.Has("s"):
			ops := p.Operands
			e := Word{Known: true}
			for k, i := range ops {
				if k > 0 {
					e.Value += " "
				}
				e.Value += vals[i]
				e.Known = e.Known && args[i].Known
			}
			st.history = append(slices.Clip(st.history), e)
		case p.Has("c"):
			st.history = nil
		case p.Has("d") || p.Has("r") || p.Has("n"):
			st.history = append(slices.Clip(st.history), Word{})
		}
		return nil
	case "fc":
		w.fc(f, st, c, vals)
		return nil
	case "alias":
		// Claude Code's Bash tool runs with alias expansion on: an alias
		// expands in the lines after the one that defines it (bash reads a
		// whole line before running it), testdata/corpus/README.md §9.2
		for _, v := range vals {
			if k := strings.IndexByte(v, '='); k > 0 {
				w.defineAlias(f, st, v[:k], v[k+1:], c.pos.Line())
			}
		}
		return nil
	case "unalias":
		// unalias NAME… / unalias -a: later lines no longer expand them
		if len(st.aliases) == 0 {
			return nil
		}
		st.aliases = maps.Clone(st.aliases)
		for _, v := range vals {
			if v == "-a" {
				clear(st.aliases)
			}
			delete(st.aliases, v)
		}
		return nil
	case "unset":
		fns := slices.Contains(vals, "-f")
		for _, v := range vals {
			st.unsetVar(v)
			if !fns {
				st.unexport(v)
			}
		}
		return nil
	case "read":
		// read [-r] [-a ARRAY] [-d DELIM] NAME… from a known stdin assigns
		// its first line (up to DELIM), split by IFS (a prefix
		// assignment or the shell's), testdata/corpus/README.md §9.2
		p := c.cmd.ParsedOpts
		names := p.OperandValues()
		arr, isArr := p.Last("a")
		if len(names) == 0 && !isArr {
			names = []string{"REPLY"}
		}
		forget := func() *string {
			for _, n := range names {
				st.unsetVar(n)
			}
			if isArr {
				st.unsetVar(arr)
			}
			return nil
		}
		if c.stdin == nil || !allKnown(args) {
			return forget()
		}
		delim := "\n"
		if d, ok := p.Last("d"); ok {
			delim = d
			if delim == "" {
				delim = "\x00"
			}
		}
		line, _, _ := strings.Cut(*c.stdin, delim[:1])
		ifs, ifsKnown := " \t\n", true
		if v, ok := c.env["IFS"]; ok {
			ifs = v
		} else if v, ok := st.vars["IFS"]; ok {
			ifs, ifsKnown = v.val, v.known
		}
		if !ifsKnown {
			return forget()
		}
		parts := ifsSplit(line, ifs)
		defer func() {
			// a `declare -i` name evaluates the value read (arith.go)
			for _, n := range names {
				if v := st.vars[n]; st.hasAttr(n, 'i') && v.known {
					w.arithText(f, st, v.val, 0)
				}
			}
		}()
		if isArr {
			v0 := ""
			if len(parts) > 0 {
				v0 = parts[0]
			}
			st.setVar(arr, varVal{val: v0, known: true, arr: parts, isArr: true})
			return nil
		}
		for k, n := range names {
			switch {
			case k == len(names)-1 && k < len(parts):
				st.setVar(n, varVal{val: strings.Join(parts[k:], " "), known: true})
			case k < len(parts):
				st.setVar(n, varVal{val: parts[k], known: true})
			default:
				st.setVar(n, varVal{val: "", known: true})
			}
		}
		return nil
	case "mapfile", "readarray":
		// mapfile [-t] [-d DELIM] [NAME] from a known stdin: one element
		// per line (testdata/corpus/README.md §9.2)
		p := c.cmd.ParsedOpts
		name := "MAPFILE"
		if ops := p.OperandValues(); len(ops) > 0 {
			name = ops[0]
		}
		if cb, ok := p.Last("C"); ok && allKnown(args) {
			// -C CALLBACK: bash evaluates CALLBACK followed by the index
			// and the line every -c lines (5000 by default; a file may
			// have that many), testdata/corpus/README.md §9.2
			line := "''"
			if c.stdin != nil {
				first, _, _ := strings.Cut(*c.stdin, "\n")
				line = shellQuote(first)
			}
			w.script(f.child(prog+" -C"), st.clone(), cb+" 0 "+line, ioCtx{})
		}
		if c.stdin == nil || p.Has("usCcnO") {
			st.unsetVar(name)
			return nil
		}
		delim := "\n"
		if d, ok := p.Last("d"); ok {
			delim = d
			if delim == "" {
				delim = "\x00"
			}
		}
		in := strings.TrimSuffix(*c.stdin, delim)
		var elems []string
		if in != "" {
			elems = strings.Split(in, delim)
		}
		if len(elems) > 4096 {
			st.unsetVar(name)
			return nil
		}
		v0 := ""
		if len(elems) > 0 {
			v0 = elems[0]
		}
		st.setVar(name, varVal{val: v0, known: true, arr: elems, isArr: true})
		return nil
	case "hash":
		// hash -p PATH NAME…: NAME runs the program at PATH for the rest
		// of the shell (state.hashed); hash -r forgets every binding,
		// hash -d NAME one
		p := c.cmd.ParsedOpts
		if !allKnown(args) {
			return nil
		}
		if path, ok := p.Last("p"); ok {
			for _, n := range p.OperandValues() {
				st.hash(n, path)
			}
		} else if p.Has("r") {
			st.hashed = nil
		} else if p.Has("d") {
			for _, n := range p.OperandValues() {
				st.hash(n, "")
			}
		}
		return nil
	case "getopts":
		getopts(st, vals, allKnown(args))
		return nil
	case "printf":
		if len(vals) >= 3 && vals[0] == "-v" {
			if allKnown(args[1:]) && w.printfFits(vals[2], vals[3:]) {
				st.setVar(vals[1], varVal{val: printf(vals[2], vals[3:]), known: true})
			} else {
				st.unsetVar(vals[1])
			}
			return nil
		}
	case "eval":
		src := strings.Join(vals, " ")
		ef := f.ranFrom("eval", c.pos.Line())
		ef.runtime = true // parsed when eval runs: earlier aliases apply
		return w.script(ef, st, src, ioCtx{stdin: c.stdin})
	case "trap":
		if len(args) >= 2 && !strings.HasPrefix(vals[0], "-") {
			w.script(f.child("trap"), st.clone(), vals[0], ioCtx{})
		} else if len(args) >= 3 && vals[0] == "--" {
			w.script(f.child("trap"), st.clone(), vals[1], ioCtx{})
		}
		return nil
	case "source", ".":
		if len(vals) > 1 {
			// `source FILE ARGS…`: ARGS are the positional parameters
			// while FILE runs, the caller's are back after it
			saved, savedKnown := st.args, st.argsKnown
			st.args, st.argsKnown = vals[1:], allKnown(args[1:])
			defer func() { st.args, st.argsKnown = saved, savedKnown }()
		}
		if len(c.fields) > 1 && c.fields[1].proc != nil {
			return w.script(f.ranFrom(prog+" <( )", c.pos.Line()), st, *c.fields[1].proc, ioCtx{})
		}
		if len(vals) > 0 && vals[0] == "-" && c.stdin != nil {
			return w.script(f.ranFrom(prog+" stdin", c.pos.Line()), st, *c.stdin, ioCtx{})
		}
		if len(vals) > 0 && args[0].Known {
			// a file written earlier, /dev/stdin, /dev/fd/N of a here-string
			if src, ok := w.namedContent(st, c, vals[0]); ok {
				return w.script(f.ranFrom(prog+" "+vals[0], c.pos.Line()), st, src, ioCtx{stdin: c.stdin})
			}
		}
		return nil
	}
	if c.fields != nil && c.fields[0].known && c.fields[0].aliasable && len(st.aliases) > 0 && st.aliasesOn(f.srcID, c.pos.Line()) {
		name := c.words[0].Value
		if a, ok := st.aliases[name]; ok && f.calls < 3 && name != f.alias &&
			(f.alias != "" || c.pos.IsValid() && a.expandsAt(f.srcID, c.pos.Line()) || f.runtime && a.src != f.srcID) {
			// an alias expands to its text followed by the arguments; only
			// an alias whose text ends in a blank has the next word looked
			// up as an alias too (`alias sudo='sudo '`), as in bash
			src := a.val
			rest := c.words[1:]
			for k := 1; k < len(c.fields) && k <= 8 && (strings.HasSuffix(src, " ") || strings.HasSuffix(src, "\t")); k++ {
				fl := c.fields[k]
				next, ok := st.aliases[fl.val]
				if !ok || fl.raw != fl.val || strings.ContainsAny(fl.raw, "\\'\"$`") {
					break
				}
				src += next.val
				rest = rest[1:]
			}
			for _, wd := range rest {
				src += " " + wd.Raw
			}
			nf := f.child("alias " + name)
			nf.calls++
			nf.alias = name
			return w.script(nf, st, src, ioCtx{stdin: c.stdin})
		}
	}
	if c.words[0].Known && strings.Contains(c.words[0].Value, "/") {
		// a script written earlier in the command, run by its path (./x.sh)
		if src, ok := w.writtenScript(st, c.words[0].Value); ok && shellScript(src) {
			ns := st.clone()
			ns.args, ns.arg0, ns.argsKnown = vals, c.words[0].Value, allKnown(args)
			return w.script(f.child(c.words[0].Value), ns, src, ioCtx{stdin: c.stdin})
		}
	}
	if IsShell(prog) {
		return w.shell(f, st, prog, c)
	}
	if body, ok := st.funcs[prog]; ok && body != nil && w.callBudget > 0 && f.calls < 3 {
		// a call of a function defined earlier: walk its body with the
		// call's arguments as positional parameters.
		w.callBudget--
		if !w.spend(nodeLen(body)) {
			return nil
		}
		ns := st.clone()
		ns.args, ns.argsKnown = vals, allKnown(args)
		nf := f.ranFrom("call "+prog, c.pos.Line())
		nf.calls++
		nf.fn, nf.bg = "", false
		w.stmt(nf, ns, body, ioCtx{stdin: c.stdin})
		// the body runs in the calling shell: its cd moves the caller
		// (`f(){ cd .harness; }; f; : > eval_log.jsonl`)
		st.takeDir(ns)
		return nil
	}
	if (prog == "busybox" || prog == "toybox") && len(args) > 0 {
		return w.rerun(f, st, c, 1, "busybox")
	}
	if out, handled := w.dirProducer(st, prog, c, vals); handled {
		return out
	}
	if prog == "mktemp" {
		if name, ok := mktempOutput(st, args, c.cmd.ParsedOpts); ok {
			out := name + "\n"
			return &out
		}
		return nil
	}
	switch {
	case IsAwk(prog):
		w.awk(f, st, prog, vals, idx, c)
	case prog == "sed" || prog == "gsed":
		w.sedRuns(f, st, c.cmd.ParsedOpts, c.stdin)
	}
	if (prog == "sqlite3" || prog == "sqlite") && allKnown(args) {
		// SQL made only of SELECTs of literals prints them (`sqlite3
		// :memory: "select 'CMD'"`) and runs nothing else; the database
		// operand is judged from the recorded invocation
		if sql, ok := sqliteSQL(c.cmd.ParsedOpts, c.stdin); ok {
			if s, ok := selectLiterals(sql); ok {
				return &s
			}
		}
	}
	if out, handled := w.producer(f, st, prog, c, vals); handled {
		return out
	}
	w.wrapped = nil
	if w.wrapper(f, st, prog, c, vals) {
		out := w.wrapped
		w.wrapped = nil
		return out
	}
	if c.cmd.Prog == nil {
		w.unknownRunner(f, st, idx, c)
		return nil
	}
	return w.interpreter(f, st, prog, c, idx)
}

// unknownRunner applies the cautious default of testdata/corpus/README.md
// §9.1 to a program the table does not know: when a later word names a
// known program and has arguments of its own (`rtk rm -rf build`, `mise x
// -- git push -f`, `cross-env CI=1 rm -rf out`), that command is judged as
// run by it (Invocation.Inferred; the unknown program's own invocation
// gets RunsFrom). A name alone never is (`getent group sudo`, `dpkg -L
// rm`); `VAR=value` words before it join its environment.
func (w *walker) unknownRunner(f *frame, st *state, idx int, c cmdCtx) {
	if f.calls >= 4 {
		return
	}
	w.unknownCode(f, st, c)
	var env map[string]string
	from := 1
	for k := 1; k < len(c.words)-1; k++ {
		if c.words[k].Value == "--" {
			// runners put their command after "--" (`watchexec -e go -- CMD`)
			from = k + 1
			break
		}
	}
	for k := from; k < len(c.words)-1; k++ {
		wd := c.words[k]
		v := wd.Value
		if !wd.Known || v == "" || v[0] == '-' || strings.ContainsAny(v, " \t\n*?[") {
			continue
		}
		if isAssign(v) {
			if env == nil {
				env = make(map[string]string, len(c.env)+1)
				for ek, ev := range c.env {
					env[ek] = ev
				}
			}
			e := strings.IndexByte(v, '=')
			env[v[:e]] = v[e+1:]
			continue
		}
		name := Identity(v)
		if Lookup(name) == nil {
			continue
		}
		w.res.Invocations[idx].RunsFrom = k
		n := c
		n.words = c.words[k:]
		if c.fields != nil {
			n.fields = c.fields[k:]
		}
		if env != nil {
			n.env = env
		}
		nf := f.child(c.words[0].Value + " (unknown)")
		nf.calls++
		nf.inferred = Identity(c.words[0].Value)
		if nf.inferred == "" {
			nf.inferred = c.words[0].Raw
		}
		w.run(nf, st, n)
		return
	}
}

// ifsSplit splits s into fields the way read does with IFS ifs:
// whitespace characters of IFS separate runs of fields, every other IFS
// character ends one field.
func ifsSplit(s, ifs string) []string {
	if ifs == "" {
		return []string{s}
	}
	var out []string
	cur, have := "", false
	for _, r := range s {
		if !strings.ContainsRune(ifs, r) {
			cur += string(r)
			have = true
			continue
		}
		if r == ' ' || r == '\t' || r == '\n' {
			if have {
				out = append(out, cur)
				cur, have = "", false
			}
			continue
		}
		out = append(out, cur)
		cur, have = "", false
	}
	if have {
		out = append(out, cur)
	}
	return out
}

// rerun runs words[from:] as a command of its own (an unwrapped wrapper).
func (w *walker) rerun(f *frame, st *state, c cmdCtx, from int, via string) *string {
	if from >= len(c.words) {
		return nil
	}
	n := c
	n.words = c.words[from:]
	if c.fields != nil {
		n.fields = c.fields[from:]
	}
	n.listing = nil
	for _, fl := range n.fields {
		if fl.listing != nil {
			n.listing = fl.listing
			break
		}
	}
	return w.run(f.child(via), st, n)
}

// runWords runs literal words as a command (argv lists, split strings).
func (w *walker) runWords(f *frame, st *state, words []Word, env map[string]string, stdin *string, listing *Listing, via string) *string {
	if len(words) == 0 {
		return nil
	}
	return w.run(f.child(via), st, cmdCtx{words: words, env: env, stdin: stdin, listing: listing})
}

// cd moves to the directory of `cd ARGS` (also pushd). The cd may fail
// (missing directory, no permission): the directory before it stays
// possible (state.alts) until a construct makes the cd's success certain
// (state.cdSucceeded); every earlier alternative moves along with it.
func (w *walker) cd(st *state, args []Word) {
	from := st.possibleDirs()
	w.cdFrom(st, args)
	var ok []DirAlt
	for _, d := range from[1:] {
		alt := *st // the cd's target is resolved against this alternative
		alt.dir, alt.unkRel = d.Dir, d.UnknownSub
		w.cdFrom(&alt, args)
		if a := (DirAlt{Dir: alt.dir, UnknownSub: alt.unkRel}); a != (DirAlt{Dir: st.dir, UnknownSub: st.unkRel}) && !slices.Contains(ok, a) {
			ok = append(ok, a)
		}
	}
	st.alts = ok
	st.addAlts(from)
	st.okAlts, st.cdLast = ok, true
}

// cdPath adds the directories `cd NAME` may land in through CDPATH (in
// the command's environment or the shell's variables): a NAME that does
// not start with "/", "." or ".." is searched in each CDPATH entry first,
// so each entry/NAME is a directory the shell may be in after it
// (`CDPATH=.. cd templates`). before is the state before the cd.
func (w *walker) cdPath(before, st *state, c cmdCtx, args []Word) {
	cdp, ok := c.env["CDPATH"]
	if !ok {
		if v, set := st.vars["CDPATH"]; set && v.known {
			cdp, ok = v.val, true
		}
	}
	if !ok || cdp == "" || len(args) == 0 {
		return
	}
	t := args[len(args)-1]
	if !t.Known || t.Value == "" || t.Value[0] == '/' || t.Value[0] == '.' || t.Value[0] == '-' {
		return
	}
	var alts []DirAlt
	for _, e := range strings.Split(cdp, ":") {
		if e == "" {
			e = "."
		}
		alt := *before
		w.cdFrom(&alt, []Word{{Value: path.Join(e, t.Value), Known: true, Raw: t.Raw}})
		alts = append(alts, DirAlt{Dir: alt.dir, UnknownSub: alt.unkRel})
	}
	st.addAlts(alts)
	// a cd that succeeded may have used any entry
	ok2 := slices.Clone(st.okAlts)
	for _, a := range alts {
		if a != (DirAlt{Dir: st.dir, UnknownSub: st.unkRel}) && !slices.Contains(ok2, a) {
			ok2 = append(ok2, a)
		}
	}
	st.okAlts = ok2
}

// cdFrom moves st to the directory `cd ARGS` reaches from st's directory.
func (w *walker) cdFrom(st *state, args []Word) {
	var target *Word
	physical := false // cd -P: the last of -L and -P wins, as in bash
	for i := range args {
		a := args[i]
		if a.Value == "--" {
			if i+1 < len(args) {
				target = &args[i+1]
			}
			break
		}
		if strings.HasPrefix(a.Value, "-") && a.Value != "-" {
			for _, l := range a.Value[1:] {
				switch l {
				case 'P':
					physical = true
				case 'L':
					physical = false
				}
			}
			continue
		}
		target = &args[i]
		break
	}
	if target != nil && target.Known && target.Value == "-" && st.prevSet {
		st.changeDir(st.prevDir) // `cd -`: back to $OLDPWD
		return
	}
	// `cd ~` and `cd ~/x` expand the tilde with a known $HOME; otherwise
	// they keep it and the path guard expands it with the home directory it
	// knows (Invocation.Dir); `~user` stays unknown.
	if target == nil || !target.Known || target.Value == "-" ||
		strings.HasPrefix(target.Value, "~") && target.Value != "~" && !strings.HasPrefix(target.Value, "~/") {
		st.changeDir(DirUnknown)
		if target != nil && target.Known && strings.HasPrefix(target.Value, "~") {
			// ~user/x: that home is unknown, the names below it are not
			if _, rest, ok := strings.Cut(target.Value, "/"); ok {
				st.unkRel = rest
			}
		}
		return
	}
	t := target.Value
	if t == "~" || strings.HasPrefix(t, "~/") {
		if h, ok := homeOf(st); ok {
			t = h + t[1:]
		}
	}
	if _, set := st.vars["CDPATH"]; set && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") &&
		t != "." && t != ".." && !strings.HasPrefix(t, "./") && !strings.HasPrefix(t, "../") {
		// with CDPATH set, `cd features` may land in any CDPATH entry's
		// features/: the directory is unknown, its name is kept
		st.changeDir(DirUnknown)
		st.unkRel = path.Clean(t)
		return
	}
	nd := st.dir
	unkSub := ""
	switch {
	case st.dir == DirUnknown && !strings.HasPrefix(t, "/"):
		unkSub = path.Join(st.unkRel, t) // still unknown, but below it
	case strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~") || st.dir == "":
		nd = path.Clean(t)
	default:
		nd = path.Join(st.dir, t)
	}
	if (strings.HasPrefix(t, "~") || strings.HasPrefix(st.dir, "~")) && !strings.HasPrefix(nd, "~") {
		// `cd ~/../x` with the home directory unknown: cleaning ate the
		// tilde, so the result is not relative to anything known
		nd = DirUnknown
	}
	if physical && w.opts.Physical != nil && nd != DirUnknown && unkSub == "" && !strings.HasPrefix(nd, "~") {
		// `cd -P link/..` lands in the parent of the link's target
		abs := nd
		if !strings.HasPrefix(abs, "/") && w.opts.Cwd != "" {
			abs = path.Join(w.opts.Cwd, abs)
		}
		if strings.HasPrefix(abs, "/") {
			// ".." must follow the link, so resolve the text before cleaning
			raw := t
			if !strings.HasPrefix(raw, "/") {
				base := st.dir
				if !strings.HasPrefix(base, "/") {
					base = path.Join(w.opts.Cwd, base)
				}
				raw = base + "/" + raw
			}
			if p := w.opts.Physical(raw); p != "" {
				nd = p
			}
		}
	}
	st.changeDir(nd)
	st.unkRel = unkSub
}

// shell handles `bash -c SCRIPT`, `bash SCRIPT_FILE`, `bash <(…)` and shells
// reading a script on stdin.
func (w *walker) shell(f *frame, st *state, prog string, c cmdCtx) *string {
	args := c.words[1:]
	argv := wordValues(args)
	// the options by the shell's row (programs.go): -o/-O take a value,
	// "-" or "--" ends them, the first operand is the -c command string or
	// the script; a '+' cluster turns its options off
	p := c.cmd.ParsedOpts
	on := func(o *Opt) bool { return argv[o.Arg][0] == '-' }
	xtrace := strings.Contains(c.env["SHELLOPTS"], "xtrace")
	cmdMode, stdinMode, interactive, noexec := false, false, false, false
	var rcfile *Opt
	for k := range p.Opts {
		switch o := &p.Opts[k]; {
		case o.Long:
			// zsh takes its option names in the long style too (`zsh
			// --interactive`); bash 5.2 rejects those: cautious, either
			switch o.Name {
			case "rcfile", "init-file":
				rcfile = o
			case "interactive":
				interactive = true
			case "noexec", "no-exec":
				noexec = true
			}
		case o.Name == "c":
			cmdMode = true
		case o.Name == "s":
			stdinMode = true
		case o.Name == "i":
			interactive = on(o)
		case o.Name == "n" || o.Name == "o" && o.Value == "noexec":
			noexec = on(o)
		case o.Name == "x" || o.Name == "o" && o.Value == "xtrace":
			xtrace = on(o)
		}
	}
	i := p.First()
	// exported functions: bash defines x from BASH_FUNC_x%%='() { …; }'
	// in its environment before it runs anything
	for name, v := range c.env {
		if fn, ok := strings.CutPrefix(name, "BASH_FUNC_"); ok && strings.HasPrefix(strings.TrimSpace(v), "()") {
			fn = strings.TrimSuffix(strings.TrimSuffix(fn, "%%"), "()")
			w.script(f.child(prog+" "+name), st.clone(), fn+" "+v, ioCtx{})
		}
	}
	if interactive {
		// an interactive shell reads its rcfile, then runs PROMPT_COMMAND
		// before each prompt
		if rcfile != nil && rcfile.HasValue {
			if src, ok := w.optContent(st, c, *rcfile); ok {
				w.script(f.child(prog+" --rcfile"), st.clone(), src, ioCtx{})
			}
		}
		if v, ok := c.env["PROMPT_COMMAND"]; ok {
			w.script(f.child(prog+" PROMPT_COMMAND"), st.clone(), v, ioCtx{})
		}
		// it expands PS1 for each prompt (once even on an empty stdin),
		// PS0 after it reads a command and PS2 on a continuation line:
		// their command substitutions run (checked with bash 5.2: `PS1='$(touch
		// m)' bash --norc -i </dev/null`, `PS0=… bash --norc -i <<< true`)
		for _, name := range []string{"PS1", "PS0", "PS2"} {
			if v, ok := c.env[name]; ok {
				w.promptText(f.child(prog+" "+name), st, v)
			}
		}
	}
	if noexec {
		return nil // -n: commands are read, never run
	}
	// a shell started reads its start-up file first: a non-interactive
	// bash sources $BASH_ENV, an interactive or POSIX one $ENV (cautious:
	// either, whatever the mode); under -x it expands PS4, imported from
	// the environment, before each command
	for _, name := range []string{"BASH_ENV", "ENV"} {
		if p, ok := c.env[name]; ok && p != "" {
			if src, ok := w.namedContent(st, c, p); ok {
				w.script(f.child(prog+" $"+name), st.clone(), src, ioCtx{})
			}
		}
	}
	if ps4, ok := c.env["PS4"]; ok && xtrace {
		w.promptText(f.child(prog+" -x PS4"), st, ps4)
	}
	via := prog + " -c"
	if cmdMode {
		if i < len(args) {
			a := args[i]
			src := a.Value
			if c.fields != nil && c.fields[i+1].proc != nil {
				src = *c.fields[i+1].proc
			}
			ns := st.clone()
			for k, v := range c.knownValues() {
				// the shell's environment: C='…' sh -c 'eval "$C"'
				ns.setVar(k, varVal{val: v, known: true})
				ns.export(k)
			}
			ns.argsKnown = allKnown(args[i+1:])
			ns.args, ns.arg0 = nil, prog
			if i+1 < len(args) {
				ns.arg0 = args[i+1].Value
				for _, a := range args[i+2:] {
					ns.args = append(ns.args, a.Value)
				}
			}
			cf := f.child(via)
			if c.listing != nil {
				cf.listing = c.listing
			}
			return w.script(cf, ns, src, ioCtx{stdin: c.stdin})
		}
		return nil
	}
	if !stdinMode && i < len(args) {
		// a script operand
		if c.fields != nil && c.fields[i+1].proc != nil {
			return w.script(f.child(prog+" <( )"), st.clone(), *c.fields[i+1].proc, ioCtx{})
		}
		if fd, ok := fdPath(args[i].Value); ok && args[i].Known {
			// /dev/stdin, /dev/fd/3 of `3<<<'…'` or `exec 3<…`
			if src, ok := w.namedContent(st, c, args[i].Value); ok {
				return w.script(f.child(prog+" /dev/fd/"+fd), st.clone(), src, ioCtx{})
			}
			return nil
		}
		if !args[i].Known {
			return nil
		}
		// a script file written earlier in the command (or later, when it
		// is a FIFO the shell waits on: readFile)
		ns := st.clone()
		ns.args, ns.arg0, ns.argsKnown = nil, args[i].Value, allKnown(args[i+1:])
		for _, a := range args[i+1:] {
			ns.args = append(ns.args, a.Value)
		}
		var out *string
		nf := f.child(prog + " " + args[i].Value)
		w.readFile(st, args[i].Value, func(src string) {
			out = w.script(nf, ns, src, ioCtx{stdin: c.stdin})
		})
		return out
	}
	if c.stdin != nil {
		return w.script(f.child(prog+" stdin"), st.clone(), *c.stdin, ioCtx{})
	}
	if c.part != nil {
		w.script(f.child(prog+" stdin (the known part of its input)"), st.clone(), *c.part, ioCtx{})
	}
	if c.guess != nil {
		// cautious default (§9.1): the pipe's producer is not computable;
		// its literal text is what the shell may run
		w.script(f.child(prog+" stdin (the literal text of the program piped in, cautious default)"), st.clone(), *c.guess, ioCtx{})
	}
	return nil
}

// fdPath returns the descriptor a path names (`/dev/stdin` → "0",
// `/dev/fd/3`, `/proc/self/fd/3`, `/proc/$$/fd/3`).
func fdPath(p string) (string, bool) {
	switch p {
	case "/dev/stdin":
		return "0", true
	}
	if fd, ok := strings.CutPrefix(p, "/dev/fd/"); ok && isNumber(fd) {
		return fd, true
	}
	if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
		pid, fd, _ := strings.Cut(rest, "/")
		if fd, ok := strings.CutPrefix(fd, "fd/"); ok && isNumber(fd) && (pid == "self" || pid == "thread-self" || pid == "$$" || isNumber(pid)) {
			return fd, true
		}
	}
	return "", false
}

// stdinPath reports a path that names the process's standard input
// (`bash /dev/fd/0 <<< …`, `. /proc/self/fd/0`).
func stdinPath(p string) bool {
	switch p {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0":
		return true
	}
	if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
		pid, fd, _ := strings.Cut(rest, "/")
		return fd == "fd/0" && (pid == "$$" || isNumber(pid))
	}
	return false
}

// mentionsListing reports an argument or redirection target holding "{}":
// in a script run over a listing it stands for the listed paths.
func mentionsListing(inv *Invocation) bool {
	for _, a := range inv.Args {
		if strings.Contains(a.Value, "{}") {
			return true
		}
	}
	for _, r := range inv.Redirects {
		if strings.Contains(r.Target.Value, "{}") {
			return true
		}
	}
	return false
}

// defineAlias records alias name=text defined at line of the frame's
// source (`alias x=…`, `BASH_ALIASES[x]=…`).
func (w *walker) defineAlias(f *frame, st *state, name, text string, line uint) {
	if st.aliases == nil {
		st.aliases = map[string]aliasDef{}
	} else {
		st.aliases = maps.Clone(st.aliases)
	}
	st.aliases[name] = aliasDef{val: text, src: f.srcID, line: line, outer: f.runAt}
}

// namedFd returns NAME of a redirection's descriptor written {NAME} (bash
// allocates the descriptor and assigns its number to NAME).
func namedFd(fd string) (string, bool) {
	if len(fd) < 3 || fd[0] != '{' || fd[len(fd)-1] != '}' {
		return "", false
	}
	return fd[1 : len(fd)-1], true
}

func hasKey(m map[string]*string, k string) bool {
	_, ok := m[k]
	return ok
}

// nameOperands expands the subscripts of the variable names builtins
// assign or test (`read "$x"`, `printf -v "$x"`, `test -v "$x"`): bash
// evaluates them as in arithmetic (arith.go).
func (w *walker) nameOperands(f *frame, st *state, prog string, vals []string) {
	switch prog {
	case "read":
		for _, v := range vals {
			if strings.IndexByte(v, '[') > 0 {
				w.arithName(f, st, v)
			}
		}
	case "printf":
		if len(vals) > 1 && vals[0] == "-v" {
			w.arithName(f, st, vals[1])
		}
	case "test", "[":
		for k := 0; k+1 < len(vals); k++ {
			if vals[k] == "-v" {
				w.arithName(f, st, vals[k+1])
			}
		}
	case "unset":
		// `unset 'a[SUB]'` (an element; not with -f: function names)
		if slices.Contains(vals, "-f") {
			return
		}
		for _, v := range vals {
			if strings.IndexByte(v, '[') > 0 {
				w.arithName(f, st, v)
			}
		}
	}
}

// fc re-runs a history entry (state.history) in this shell, as bash's
// `fc -s [OLD=NEW] [FIRST]` and `fc -e - …` do: FIRST is a number (from
// 1, or back from the last when negative) or the prefix of the latest
// entry starting with it, the last entry when absent; every OLD in it is
// replaced by NEW. `fc -e EDITOR` runs `EDITOR FILE` as a shell command
// (FILE holds the entries; what the edited file runs is not followed); fc
// without -s or -e, and fc -l, list or edit with an editor the guard does
// not run. Checked with bash 5.2: `history -s 'touch m'; fc -s`, `fc -s
// a=b`, `fc -s PREFIX`, `fc -e 'CMD #'` ran, plain `fc` did not.
func (w *walker) fc(f *frame, st *state, c cmdCtx, vals []string) {
	p := c.cmd.ParsedOpts
	ed, hasE := p.Last("e")
	if p.Has("l") {
		return
	}
	if hasE && ed != "-" {
		w.script(f.child("fc -e"), st.clone(), ed+" /tmp/bash-fc", ioCtx{})
		return
	}
	if !p.Has("s") && !hasE {
		return
	}
	if !allKnown(c.words[1:]) {
		return
	}
	ops := p.OperandValues()
	old, repl := "", ""
	if len(ops) > 0 {
		if k := strings.IndexByte(ops[0], '='); k >= 0 {
			old, repl = ops[0][:k], ops[0][k+1:]
			ops = ops[1:]
		}
	}
	sel := ""
	if n, ok := p.Last("#"); ok {
		sel = "-" + n // `fc -s -2`: the option model reads -N as a number option
	} else if len(ops) > 0 {
		sel = ops[0]
	}
	e, ok := histEntry(st.history, sel)
	if !ok || !e.Known {
		return
	}
	src := e.Value
	if old != "" {
		src = strings.ReplaceAll(src, old, repl)
	}
	w.script(f.ranFrom("fc -s", c.pos.Line()), st, src, ioCtx{stdin: c.stdin})
}

// histEntry is the entry of h that fc's FIRST operand sel names (fc).
func histEntry(h []Word, sel string) (Word, bool) {
	if len(h) == 0 {
		return Word{}, false
	}
	if sel == "" {
		return h[len(h)-1], true
	}
	if n, err := strconv.Atoi(sel); err == nil {
		if n < 0 {
			n += len(h) + 1
		}
		if n >= 1 && n <= len(h) {
			return h[n-1], true
		}
		return Word{}, false
	}
	for k := len(h) - 1; k >= 0; k-- {
		if !h[k].Known {
			return h[k], true // may be the one
		}
		if strings.HasPrefix(h[k].Value, sel) {
			return h[k], true
		}
	}
	return Word{}, false
}

// getoptEnv is the environment a program's option parser surely sees (for
// ParseCommandIn, which relaxes a verdict on it: POSIXLY_CORRECT stops
// rm's permutation): c.env without the variables an env wrapper removed
// (c.unset; none at all after env -i, even those env sets again: the
// cautious reading) and those whose export may have been taken back
// (c.maybe). Checked with bash 5.2 and coreutils 9: POSIXLY_CORRECT=1 env
// -u POSIXLY_CORRECT rm d -rf, … env -i rm d -rf and export
// POSIXLY_CORRECT=1; export -n POSIXLY_CORRECT (or declare +x); rm d -rf
// delete d.
func getoptEnv(c cmdCtx) map[string]string {
	if len(c.unset) == 0 && len(c.maybe) == 0 {
		return c.env
	}
	if slices.Contains(c.unset, "*") {
		return nil
	}
	env := maps.Clone(c.env)
	for _, n := range c.unset {
		delete(env, n)
	}
	for _, n := range c.maybe {
		delete(env, n)
	}
	return env
}
