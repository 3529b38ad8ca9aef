package shell

import (
	"compress/gzip"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// execWrapper runs the command of an exec-style wrapper (table Kind
// KindExec, testdata/corpus/README.md §2.3): the words after its options
// and its Pos operands, unless an option of its Lookup makes it a lookup
// (`command -v`, `taskset -p`).
func (w *walker) execWrapper(f *frame, st *state, prog string, row *Program, c cmdCtx, vals []string) {
	p := c.cmd.ParsedOpts
	for _, o := range p.Opts {
		if hasName(row.Lookup, o.Name) {
			return
		}
	}
	i := p.First() + row.Pos
	if row.Pos > 0 && i < len(vals) && vals[i] == "--" {
		i++
	}
	if privProgram(prog) {
		// `sudo VAR=val cmd`
		for i < len(vals) && isAssign(vals[i]) {
			i++
		}
	}
	// the wrapped command's literal stdout is the wrapper's
	// (`timeout 5 echo 'rm -rf x' | sh`)
	w.inDir(st, c, func() { w.wrapped = w.rerun(f, st, c, i+1, prog) })
}

// privProgram reports the wrappers that run their command as another
// user and accept `VAR=value` words before it.
func privProgram(prog string) bool {
	return prog == "sudo" || prog == "sudo-rs" || prog == "doas" || prog == "run0"
}

// subExec runs the command of a subcommand wrapper (`uv run CMD`, `pnpm
// exec CMD`, `aws-vault exec PROFILE -- CMD`, `op run -- CMD`): the
// subcommand row is KindExec.
func (w *walker) subExec(f *frame, st *state, prog string, row *Program, c cmdCtx, vals []string) {
	p := c.cmd.ParsedOpts
	j := p.First() + row.Pos
	switch {
	case row.DashDash:
		j = len(vals)
		if p.End >= 0 {
			j = p.End + 1
		}
	case row.Pos > 0 && j < len(vals) && vals[j] == "--":
		j++
	}
	w.rerun(f, st, c, j+1, prog+" "+strings.Join(c.cmd.Sub, " "))
}

// runString handles the runners whose command depends on a flag in a way
// RunSpec does not say (`entr -s S` runs S through $SHELL, `entr CMD…`
// runs CMD); it reports whether prog was one.
func (w *walker) runString(f *frame, st *state, prog string, c cmdCtx, vals []string) bool {
	p := c.cmd.ParsedOpts
	switch prog {
	case "entr":
		// entr [-s] UTILITY [ARG…]: -s runs the first operand through $SHELL
		if ops := p.Operands; len(ops) > 0 {
			if p.Has("s") {
				w.runShellString(f, st, "entr -s", vals[ops[0]])
			} else {
				w.rerun(f, st, c, ops[0]+1, "entr")
			}
		}
		return true
	case "jobs":
		// jobs -x CMD ARGS…: runs CMD with ARGS (job specs among them
		// replaced by process group ids); other options list jobs
		if ops := p.Operands; len(ops) > 0 && p.Has("x") {
			w.rerun(f, st, c, ops[0]+1, "jobs -x")
		}
		return true
	case "bind":
		// bind -x 'KEYSEQ: CMD': CMD runs when the key is typed (judged as
		// run: a registered command, like a function body)
		for _, v := range p.Values("x") {
			if src, ok := bindCommand(v); ok {
				w.runShellString(f, st, "bind -x", src)
			}
		}
		return true
	}
	return false
}

// bindCommand is the shell command of a `bind -x` value KEYSEQ:CMD: the
// text after the colon that ends the key sequence (a double-quoted
// sequence may hold a colon or an escaped quote), blanks and one pair of
// quotes around it dropped, as bash's bind_keyseq_to_unix_command reads it.
func bindCommand(v string) (string, bool) {
	i := 0
	if strings.HasPrefix(v, "\"") {
		for i = 1; i < len(v) && v[i] != '"'; i++ {
			if v[i] == '\\' {
				i++
			}
		}
		i++
	}
	k := strings.IndexByte(v[min(i, len(v)):], ':')
	if k < 0 {
		return "", false
	}
	cmd := strings.Trim(v[i+k+1:], " \t")
	if len(cmd) >= 2 && (cmd[0] == '"' || cmd[0] == '\'') && cmd[len(cmd)-1] == cmd[0] {
		cmd = cmd[1 : len(cmd)-1]
	}
	return cmd, cmd != ""
}

// wrapper unwraps wrappers, runners, remote and container commands and
// reports whether prog was one: the one dispatch point for "what does
// this program run", by its row of the program table.
func (w *walker) wrapper(f *frame, st *state, prog string, c cmdCtx, vals []string) bool {
	row := c.cmd.Prog
	if row == nil {
		return false
	}
	if row.Kind == KindExec && len(row.Subs) == 0 {
		w.execWrapper(f, st, prog, row, c, vals)
		return true
	}
	if r := c.cmd.Row; r != nil && r != row && r.Kind == KindExec {
		w.subExec(f, st, prog, r, c, vals)
		return true
	}
	// the row's commands (RunSpec); a program with a walker of its own
	// below (gdb --args, rsync, git …) is walked by it too
	ran := false
	if r := c.cmd.Row; r != nil {
		ran = w.tableRuns(f, st, prog, r, c, vals)
	}
	if w.runString(f, st, prog, c, vals) {
		return true
	}
	if prog == "cargo" {
		w.cargoRunners(f, st, c)
	}
	switch prog {
	case "screen":
		w.screen(f, st, c, vals)
		return true
	case "dbus-launch":
		// dbus-launch [opts] CMD…: the options by its row
		w.rerun(f, st, c, c.cmd.ParsedOpts.First()+1, "dbus-launch")
		return true
	case "go":
		// `go run ./cmd/harness ARGS…` runs the harness CLI from source
		if len(vals) >= 2 && vals[0] == "run" {
			i := c.cmd.ParsedOpts.First() // the options by go run's row
			if i < len(vals) && ProgramName(strings.TrimSuffix(vals[i], "@latest")) == "harness" {
				ws := append(knownWords("harness"), c.words[i+2:]...)
				w.runWords(f, st, ws, c.env, c.stdin, nil, "go run")
			}
		}
		return true
	case "npx", "bunx", "pnpx", "npm", "pnpm", "yarn":
		if prog == "npm" || prog == "pnpm" {
			w.notePkgSet(st, c, vals)
		}
		w.runPackageScript(f, st, prog, c)
		w.packageRunner(f, st, prog, c, vals)
		return true
	case "bun":
		w.runPackageScript(f, st, prog, c)
		return false // `bun -e CODE` is its interpreter
	case "deno":
		// `deno run [opts] npm:PKG[@V] ARGS…` runs the package's program
		// as npx does (a script file or URL is code the guard cannot see)
		if c.cmd.Is("run") {
			if i := c.cmd.ParsedOpts.First(); i < len(vals) && strings.HasPrefix(vals[i], "npm:") {
				w.rerun(f, st, packageBin(c, i+1), i+1, "deno run")
			}
			return true
		}
		return false
	case "env":
		w.env(f, st, c, vals)
		return true
	case "xargs":
		p := c.cmd.ParsedOpts
		i := p.First()
		if c.endless {
			// an input that never ends with unlimited parallelism (-P 0):
			// processes without bound (§9.3 forkbomb)
			for _, v := range p.Values("P", "max-procs") {
				if strings.TrimSpace(v) == "0" {
					w.res.BackgroundLoops = append(w.res.BackgroundLoops, "xargs -P 0 fed by an input that never ends")
					break
				}
			}
		}
		inner := c
		inner.listing = c.pipeListing
		if inner.listing == nil {
			inner.listing = st.listing(nil)
		}
		if i >= len(vals) {
			// no command: xargs runs echo
			return true
		}
		inner.stdin = nil
		for _, o := range p.Opts {
			if (o.Name == "a" || o.Name == "arg-file") && o.HasValue {
				// -a FILE: the items come from FILE, not stdin (a process
				// substitution or a file written earlier in the command)
				c.stdin = nil
				if src, ok := w.optContent(st, c, o); ok {
					c.stdin = &src
				}
			}
		}
		if c.stdin != nil {
			// the input is known: run the command with it
			repl := ""
			for _, o := range p.Opts {
				switch o.Name {
				case "I":
					repl = o.Value
				case "i", "replace":
					repl = "{}"
					if o.HasValue && o.Value != "" {
						repl = o.Value
					}
				}
			}
			cmdWords := c.words[i+1:]
			if repl != "" {
				for _, line := range strings.Split(strings.TrimRight(*c.stdin, "\n"), "\n") {
					ws := make([]Word, len(cmdWords))
					for k, cw := range cmdWords {
						ws[k] = cw
						ws[k].Value = strings.ReplaceAll(cw.Value, repl, line)
					}
					w.runWords(f, st, ws, c.env, nil, inner.listing, "xargs")
				}
			} else {
				ws := append(append([]Word{}, cmdWords...), knownWords(xargsItems(p, *c.stdin)...)...)
				w.runWords(f, st, ws, c.env, nil, inner.listing, "xargs")
			}
			return true
		}
		w.rerunListing(f, st, inner, i+1, "xargs")
		return true
	case "parallel", "sem":
		i := c.cmd.ParsedOpts.First() // the options by parallel's row
		end := len(vals)
		for k := i; k < len(vals); k++ {
			if vals[k] == ":::" || vals[k] == "::::" || vals[k] == ":::+" || vals[k] == "::::+" {
				end = k
				break
			}
		}
		if jobs := parallelJobs(vals, end); i < end && len(jobs) > 0 {
			// each job is the command with one argument of each ::: group
			// in place of {} (or appended), run by parallel's shell
			for _, args := range jobs {
				if end-i == 1 && strings.ContainsAny(vals[i], " \t;|&") {
					w.script(f.child("parallel"), st.clone(), parallelLine(vals[i], args, true), ioCtx{})
					continue
				}
				ws := make([]Word, 0, end-i+len(args))
				used := false
				for k := i; k < end; k++ {
					v := parallelLine(vals[k], args, false)
					used = used || v != vals[k]
					ws = append(ws, Word{Value: v, Known: c.words[k+1].Known, Raw: v})
				}
				if !used {
					ws = append(ws, knownWords(args...)...)
				}
				w.runWords(f, st, ws, c.env, nil, nil, "parallel")
			}
		} else if i < end {
			inner := c
			inner.words = c.words[:end+1]
			if c.fields != nil {
				inner.fields = c.fields[:end+1]
			}
			inner.listing = c.pipeListing
			inner.stdin = nil
			if end-i == 1 && strings.ContainsAny(vals[i], " \t;|&") {
				w.script(f.child("parallel"), st.clone(), vals[i], ioCtx{})
			} else {
				w.rerunListing(f, st, inner, i+1, "parallel")
			}
		} else if end < len(vals) {
			// no command: each argument after ::: is a command line
			for _, a := range vals[end+1:] {
				if a != ":::" && a != "::::" {
					w.script(f.child("parallel"), st.clone(), a, ioCtx{})
				}
			}
		} else if c.stdin != nil {
			for _, line := range strings.Split(*c.stdin, "\n") {
				w.script(f.child("parallel"), st.clone(), line, ioCtx{})
			}
		}
		if i < end && c.stdin != nil && end == len(vals) {
			// arguments from stdin are appended to the command
			ws := append(append([]Word{}, c.words[i+1:end+1]...), knownWords(strings.Fields(*c.stdin)...)...)
			w.runWords(f, st, ws, c.env, nil, nil, "parallel")
		}
		return true
	case "find":
		w.find(f, st, c, vals)
		return true
	case "tmux", "byobu", "byobu-tmux":
		w.tmux(f, st, vals)
		return true
	case "at", "batch":
		// -f FILE (the job is in FILE), -l -r -d -c (list, remove, print
		// jobs): the stdin is no job
		if src, _, ok := c.stdinScript(); ok && !c.cmd.ParsedOpts.Has("flrdc") {
			w.script(f.child(prog), st.clone(), src, ioCtx{})
		}
		return true
	case "ssh", "slogin":
		w.ssh(f, st, c, vals)
		return true
	case "docker", "podman", "nerdctl", "docker-compose", "podman-compose":
		w.container(f, st, prog, c, vals)
		return true
	case "kubectl", "oc":
		// kubectl run|debug NAME … -- CMD… starts CMD in a new pod
		if (c.cmd.Is("run") || c.cmd.Is("debug")) && c.cmd.End >= 0 {
			w.rerun(f, st, c, c.cmd.End+2, prog+" "+c.cmd.SubName())
			return true
		}
		// kubectl exec [opts] POD [opts] -- CMD…, or (deprecated) POD CMD…
		if !c.cmd.Is("exec") {
			return false
		}
		ops := c.cmd.Operands
		for _, k := range ops {
			if vals[k] == "--" {
				w.rerun(f, st, c, k+2, prog+" exec")
				return true
			}
		}
		if len(ops) >= 2 {
			w.rerun(f, st, c, ops[1]+1, prog+" exec")
		}
		return true
	case "git", "hub":
		w.git(f, st, c, vals)
		return false
	case "gh":
		w.ghAlias(f, st, c)
		return false
	case "tar", "gtar", "bsdtar":
		w.tarRuns(f, st, c)
		return false
	case "make", "gmake":
		w.makeRuns(f, st, c)
		return false
	case "ninja", "just", "task", "go-task", "dc", "m4", "gm4", "tex", "etex", "pdftex", "latex", "pdflatex", "xetex", "xelatex", "luatex", "lualatex":
		w.scriptLangRuns(f, st, prog, c)
		return false
	case "crontab":
		w.crontabRuns(f, st, c)
		return true
	}
	return ran
}

// xargsItems splits xargs's input into its arguments: NUL-separated with
// -0/--null (a text without NUL is one argument: `echo 'rm -rf x' | xargs
// -0 sh -c`), by the -d/--delimiter character, else at blanks and
// newlines.
func xargsItems(p ParsedOpts, in string) []string {
	sep := ""
	if p.Has("0", "null") {
		sep = "\x00"
	}
	if d, ok := p.Last("d", "delimiter"); ok {
		sep = ansiC(d)
	}
	if sep == "" {
		return strings.Fields(in)
	}
	if sep == "\x00" {
		in = strings.TrimRight(in, "\x00")
		if !strings.Contains(in, "\x00") {
			in = strings.TrimSuffix(in, "\n")
		}
	} else {
		in = strings.TrimSuffix(in, sep)
	}
	if in == "" {
		return nil
	}
	return strings.Split(in, sep)
}

// tarRuns walks the shell commands GNU tar runs from its options
// (testdata/corpus/README.md §9.2): --checkpoint-action=exec=CMD,
// --to-command=CMD, --use-compress-program=CMD / -I CMD, --info-script=CMD
// / -F CMD, --new-volume-script=CMD, --rsh-command=CMD, --rmt-command=CMD.
func (w *walker) tarRuns(f *frame, st *state, c cmdCtx) {
	p := c.cmd.ParsedOpts
	for _, o := range p.Opts {
		if !o.HasValue {
			continue
		}
		v := o.Value
		switch o.Name {
		case "checkpoint-action":
			var ok bool
			if v, ok = strings.CutPrefix(v, "exec="); !ok {
				continue
			}
		case "to-command", "use-compress-program", "I", "info-script", "F", "new-volume-script", "rsh-command", "rmt-command":
		default:
			continue
		}
		if strings.TrimSpace(v) != "" {
			w.script(f.child("tar --"+o.Name), st.clone(), v, ioCtx{})
		}
	}
}

// decodeText decodes text in a coreutils encoding ("base64",
// "base64url", "base32", "base32hex", "base16"); blanks are ignored.
func decodeText(enc, text string) (string, bool) {
	in := strings.Join(strings.Fields(text), "")
	var b []byte
	var err error
	switch enc {
	case "base64":
		b, err = base64.StdEncoding.DecodeString(in)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(in, "="))
		}
		if err != nil {
			b, err = base64.URLEncoding.DecodeString(in)
		}
	case "base64url":
		b, err = base64.URLEncoding.DecodeString(in)
		if err != nil {
			b, err = base64.RawURLEncoding.DecodeString(strings.TrimRight(in, "="))
		}
	case "base32":
		b, err = base32.StdEncoding.DecodeString(in)
	case "base32hex":
		b, err = base32.HexEncoding.DecodeString(in)
	case "base16":
		b, err = hex.DecodeString(in)
	default:
		return "", false
	}
	if err != nil {
		return "", false
	}
	return string(b), true
}

// makeRuns walks the commands make runs from makefile text it reads from
// its stdin (`make -f - <<EOF`, `make -f /dev/stdin`), from --eval or from
// a file an earlier part of the command wrote (testdata/corpus/README.md
// §9.2): each recipe line, each $(shell CMD) and each `NAME != CMD`
// (makeText). Variables assigned on the command line are makefile text of
// one line (`make 'X:=$(shell CMD)'`, `make 'X!=CMD'`), and SHELL and
// .SHELLFLAGS given there make every recipe line run as SHELL FLAGS LINE.
// Under -n (--just-print, --dry-run, --recon) make prints the recipes and
// runs only some lines of them (makeText).
func (w *walker) makeRuns(f *frame, st *state, c cmdCtx) {
	dry := c.cmd.Has("n", "just-print", "dry-run", "recon")
	recipes := func(via, text string) {
		if rs := makeText(text, dry); len(rs) > 0 {
			w.script(f.child(via), st.clone(), strings.Join(rs, "\n"), ioCtx{})
		}
	}
	// SHELL=PROG [.SHELLFLAGS=FLAGS] on the command line: every recipe line
	// runs as PROG FLAGS LINE, split as a shell line is (make SHELL=rm
	// .SHELLFLAGS=-rf; SHELL=/bin/sh .SHELLFLAGS='-c CMD;:' runs CMD with
	// the line as $0); the lines are not known, so PROG runs with its flags
	// and an unknown word
	shellProg, shellFlags := "/bin/sh", ""
	var set bool
	for _, o := range c.cmd.OperandValues() {
		name, op, v, ok := makeAssign(o)
		switch {
		case !ok:
			continue
		case name == "SHELL" && op != "!=":
			shellProg, set = v, true
		case name == ".SHELLFLAGS" && op != "!=":
			shellFlags, set = v, true
		}
		recipes("make "+name+op, o)
	}
	if set && strings.TrimSpace(shellProg) != "" && (shellFlags != "" || !shells(ProgramName(shellProg))) {
		if shellFlags == "" {
			shellFlags = "-c"
		}
		ws := append(knownWords(envSplit(shellProg+" "+shellFlags)...), Word{})
		w.runWords(f, st.clone(), ws, c.env, nil, nil, "make SHELL="+shellProg)
	}
	// --eval TEXT is makefile text (GNU make)
	for _, text := range c.cmd.Values("E", "eval") {
		recipes("make --eval", text)
	}
	mfs := c.cmd.Values("f", "file", "makefile")
	if len(mfs) == 0 {
		// the default makefiles, when one was written earlier in the command
		dir, _ := c.cmd.Last("C", "directory")
		w.defaultScript(st, dir, []string{"GNUmakefile", "makefile", "Makefile"}, func(n, src string) { recipes("make ("+n+")", src) })
	}
	for _, mf := range mfs {
		// `-f -`, `-f <(printf …)`, `-f /dev/fd/3 3<<<…`, a file written earlier
		w.scriptSource(st, c, mf, func(src string) { recipes("make -f "+mf, src) })
	}
}

// makeText returns the shell commands of makefile text (GNU make 4.3,
// checked): the recipe lines (a line starting with a tab, or the text
// after `;` of `target: prereqs ; recipe`) without their @-+ prefixes
// (with dry, make -n, only the lines that still run: those starting with
// '+' or naming $(MAKE) / ${MAKE}, checked with GNU make 4.3), the
// command of every `NAME != CMD` assignment and of every $(shell CMD) /
// ${shell CMD} call, with make's $$ read as the shell's $. Calls in
// variables make expands only when used (`X = $(shell …)`) count too: the
// makefile may use them.
func makeText(text string, dry bool) []string {
	var rs []string
	recipe := func(r string) {
		line := strings.TrimLeft(r, "@-+ \t")
		if !dry || strings.Contains(r[:len(r)-len(line)], "+") || strings.Contains(line, "$(MAKE)") || strings.Contains(line, "${MAKE}") {
			rs = append(rs, line)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if r, ok := strings.CutPrefix(line, "\t"); ok {
			recipe(r)
		} else if _, op, v, ok := makeAssign(line); ok {
			if op == "!=" {
				rs = append(rs, strings.ReplaceAll(v, "$$", "$"))
			}
		} else if _, r, ok := strings.Cut(line, ":"); ok && strings.Contains(r, ";") {
			// `target: prereqs ; recipe`
			_, r, _ = strings.Cut(r, ";")
			recipe(r)
		}
	}
	return append(rs, makeShellCalls(text)...)
}

// makeAssign splits a make variable assignment `NAME OP VALUE` (OP one of
// = := ::= :::= ?= += !=, blanks around OP allowed, an `override`,
// `export` or `private` before NAME); ok is false when s is none (no
// '=', or blanks inside NAME: make takes such a word for a target).
func makeAssign(s string) (name, op, value string, ok bool) {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return "", "", "", false
	}
	lhs := s[:i]
	j := len(strings.TrimRight(lhs, ":!?+"))
	op, lhs = lhs[j:]+"=", strings.TrimSpace(lhs[:j])
	switch op {
	case "=", ":=", "::=", ":::=", "?=", "+=", "!=":
	default:
		return "", "", "", false
	}
	for _, kw := range []string{"override ", "export ", "private "} {
		lhs = strings.TrimSpace(strings.TrimPrefix(lhs, kw))
	}
	if lhs == "" || strings.ContainsAny(lhs, " \t:#") {
		return "", "", "", false
	}
	return lhs, op, strings.TrimSpace(s[i+1:]), true
}

// makeShellCalls returns the commands of the $(shell CMD) and ${shell
// CMD} calls in make text s, nested calls included, each with $$ read as
// $; a call whose closing bracket is missing runs the rest of s.
func makeShellCalls(s string) []string {
	var out []string
	for i := 0; i+8 <= len(s); i++ {
		if s[i] != '$' || (s[i+1] != '(' && s[i+1] != '{') || !strings.HasPrefix(s[i+2:], "shell") ||
			(s[i+7] != ' ' && s[i+7] != '\t') {
			if s[i] == '$' && i+1 < len(s) && s[i+1] == '$' {
				i++
			}
			continue
		}
		open, shut := s[i+1], byte(')')
		if open == '{' {
			shut = '}'
		}
		depth, end := 1, len(s)
		for k := i + 2; k < len(s); k++ {
			if s[k] == open {
				depth++
			} else if s[k] == shut {
				if depth--; depth == 0 {
					end = k
					break
				}
			}
		}
		out = append(out, strings.ReplaceAll(strings.TrimSpace(s[i+8:end]), "$$", "$"))
	}
	return out
}

// crontabRuns walks the commands of a crontab installed from stdin
// (`crontab -`, or `crontab` with no file) or from a file written earlier in
// the command: every schedule line's command (testdata/corpus/README.md
// §9.2). Listing, removing and editing (-l, -r, -e) install nothing.
func (w *walker) crontabRuns(f *frame, st *state, c cmdCtx) {
	p := c.cmd.ParsedOpts
	if p.Has("lre") {
		return
	}
	var text string
	ops := p.OperandValues()
	in, _, known := c.stdinScript()
	switch {
	case (len(ops) == 0 || ops[0] == "-") && known:
		text = in
	case len(ops) > 0 && ops[0] != "-":
		// a file written earlier, `<(…)` (whole or its known pieces)
		k := p.Operands[0] + 1
		src, ok := w.pathContent(st, c, k)
		if !ok && c.fields != nil && k < len(c.fields) && c.fields[k].procPart != nil {
			src, ok = *c.fields[k].procPart, true
		}
		if !ok {
			return
		}
		text = src
	default:
		return
	}
	var cmds []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || isAssign(line) {
			continue
		}
		fields := strings.Fields(line)
		n := 5
		if strings.HasPrefix(fields[0], "@") {
			n = 1
		}
		if len(fields) <= n {
			continue
		}
		// the command is the rest of the line after the schedule fields
		rest := line
		for k := 0; k < n; k++ {
			rest = strings.TrimLeft(rest, " \t")
			if j := strings.IndexAny(rest, " \t"); j >= 0 {
				rest = rest[j:]
			}
		}
		cmds = append(cmds, strings.TrimSpace(strings.ReplaceAll(rest, "%", "\n")))
	}
	if len(cmds) > 0 {
		w.script(f.child("crontab"), st.clone(), strings.Join(cmds, "\n"), ioCtx{})
	}
}

func isAssign(v string) bool {
	i := strings.IndexByte(v, '=')
	if i <= 0 {
		return false
	}
	for k := 0; k < i; k++ {
		c := v[k]
		if !(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (k > 0 && c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

func (w *walker) rerunListing(f *frame, st *state, c cmdCtx, from int, via string) {
	if from >= len(c.words) {
		return
	}
	n := c
	n.words = c.words[from:]
	if c.fields != nil {
		n.fields = c.fields[from:]
	}
	n.pipeListing = nil
	w.run(f.child(via), st, n)
}

// env runs `env [opts] [VAR=val…] CMD…`; the assignments join the wrapped
// command's environment. `env -S STRING` splits STRING into words.
func (w *walker) env(f *frame, st *state, c cmdCtx, vals []string) {
	p := c.cmd.ParsedOpts
	for _, o := range p.Opts {
		if (o.Name == "S" || o.Name == "split-string") && f.calls < 4 {
			// GNU env: the string's words replace the -S argument and
			// option processing goes on (`env -S '-u X rm -rf x'`)
			ws := append([]Word{}, c.words[:o.Arg+1]...) // env and the words before the option
			cluster := vals[o.Arg]
			next := o.Arg + 1 // the first word after the option and its value
			if !o.Long {
				k := strings.IndexByte(cluster, 'S')
				if k == len(cluster)-1 {
					next++
				}
				if k > 1 {
					ws = append(ws, knownWords(cluster[:k])...) // -iS: keep -i
				}
			} else if !strings.Contains(cluster, "=") {
				next++
			}
			ws = append(ws, knownWords(envSplit(o.Value)...)...)
			if next < len(vals) {
				ws = append(ws, c.words[next+1:]...)
			}
			nf := f.child("env -S")
			nf.calls++
			w.wrapped = w.run(nf, st, cmdCtx{words: ws, env: c.env, redirs: c.redirs, stdin: c.stdin, pos: c.pos})
			return
		}
	}
	env := map[string]string{}
	for k, v := range c.env {
		env[k] = v
	}
	unset := c.unset
	for _, o := range p.Opts {
		switch o.Name {
		case "i", "ignore-environment":
			unset = append(unset, "*")
		case "u", "unset":
			unset = append(unset, o.Value)
		}
	}
	i := p.First()
	if i < len(vals) && vals[i] == "-" && p.End < 0 {
		i++ // `env -` is `env -i`
		unset = append(unset, "*")
	}
	known := map[string]bool{}
	if !slices.Contains(unset, "*") {
		for k := range c.knownEnv {
			if !slices.Contains(unset, k) {
				known[k] = true
			}
		}
	}
	// env(1) takes every word with a "=" before the command as NAME=VALUE,
	// whatever NAME is (`BASH_FUNC_x%%=() { …; }`)
	for i < len(vals) && strings.IndexByte(vals[i], '=') > 0 {
		k := strings.IndexByte(vals[i], '=')
		env[vals[i][:k]] = vals[i][k+1:]
		known[vals[i][:k]] = i+1 < len(c.words) && c.words[i+1].Known
		i++
	}
	if i >= len(vals) {
		return
	}
	n := c
	n.env = env
	n.knownEnv = known
	n.unset = unset
	n.words = c.words[i+1:]
	if c.fields != nil {
		n.fields = c.fields[i+1:]
	}
	w.inDir(st, c, func() { w.wrapped = w.run(f.child("env"), st, n) })
}

// inDir calls run with the shell's directory moved to the value of the
// last of the program's Chdir options (`env -C DIR`, `bwrap --chdir DIR`),
// as a cd that lasts for the command only: the directory, OLDPWD and the
// unknown-relative state are restored after it. Without such an option
// run is called as it is.
func (w *walker) inDir(st *state, c cmdCtx, run func()) {
	var chdir *Opt
	if row := c.cmd.Prog; row != nil && row.Chdir != "" {
		p := c.cmd.ParsedOpts
		for k := range p.Opts {
			if o := &p.Opts[k]; o.HasValue && hasName(row.Chdir, o.Name) {
				chdir = o
			}
		}
	}
	if chdir == nil {
		run()
		return
	}
	known := chdir.ValArg+1 < len(c.words) && c.words[chdir.ValArg+1].Known
	dir, prevDir, prevSet, unkRel := st.dir, st.prevDir, st.prevSet, st.unkRel
	w.cdFrom(st, []Word{{Value: "--", Known: true}, {Value: chdir.Value, Known: known, Raw: chdir.Value}})
	run()
	st.dir, st.prevDir, st.prevSet, st.unkRel = dir, prevDir, prevSet, unkRel
}

// FindArgs is the start of a find(1) command line, parsed once
// (ParseFind) for every guard: the walker's -exec listing and the path
// guard's -delete/-fprint targets.
type FindArgs struct {
	// Roots are the starting points ("." when none is given).
	Roots []string
	// Follow is true when -L (the last of -H -L -P) follows symbolic links.
	Follow bool
	// Expr is the index of the first word of the expression.
	Expr int
}

// ParseFind parses find's leading options (-H -L -P -D LIST -Olevel) and
// starting points.
func ParseFind(vals []string) FindArgs {
	var a FindArgs
	i := 0
	for i < len(vals) {
		v := vals[i]
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-D") || strings.HasPrefix(v, "-O") {
			switch v {
			case "-L":
				a.Follow = true
			case "-H", "-P":
				a.Follow = false
			}
			if v == "-D" {
				i++
			}
			i++
			continue
		}
		break
	}
	for i < len(vals) {
		v := vals[i]
		if strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ")" || v == "\\(" {
			break
		}
		a.Roots = append(a.Roots, v)
		i++
	}
	if len(a.Roots) == 0 {
		a.Roots = []string{"."}
	}
	a.Expr = min(i, len(vals))
	if slices.Contains(vals[a.Expr:], "-follow") {
		// -follow is the old spelling of -L (it applies wherever it stands)
		a.Follow = true
	}
	return a
}

// find handles `find … -exec|-execdir|-ok|-okdir CMD … ;|+`.
func (w *walker) find(f *frame, st *state, c cmdCtx, vals []string) {
	fa := ParseFind(vals)
	roots, follow, i := fa.Roots, fa.Follow, fa.Expr
	lst := st.listing(roots)
	lst.Follow = follow
	for ; i < len(vals); i++ {
		switch vals[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			start := i + 1
			end := start
			for end < len(vals) && vals[end] != ";" && vals[end] != "+" {
				end++
			}
			if start < end {
				n := c.commandAt(start+1, end+1, lst)
				w.run(f.child("find "+vals[i]), st, n)
			}
			i = end
		}
	}
}

func (w *walker) tmux(f *frame, st *state, vals []string) {
	// the global options, the subcommand and its options by tmux's row
	row := Lookup("tmux")
	i := row.Opts.FirstOperand(vals, 0)
	if i >= len(vals) {
		return
	}
	sub := vals[i]
	rest := vals[i+1:]
	sr := row.Sub(sub)
	if sr == nil {
		return
	}
	j := sr.Opts.FirstOperand(rest, 0)
	switch sr.Name {
	case "if-shell":
		// if-shell [-bF] [-t PANE] SHELL-CMD TMUX-CMD [TMUX-CMD]: the first
		// is a shell command, the others are tmux commands
		if j < len(rest) {
			w.script(f.child("tmux "+sub), st.clone(), rest[j], ioCtx{})
			for _, tc := range rest[j+1:] {
				if ws := envSplit(tc); len(ws) > 0 && w.budget > len(tc) {
					w.tmux(f, st, ws)
				}
			}
		}
	case "new":
		if j < len(rest) {
			w.script(f.child("tmux "+sub), st.clone(), strings.Join(rest[j:], " "), ioCtx{})
		}
	case "send-keys":
		var keys []string
		for _, k := range rest[j:] {
			switch k {
			case "Enter", "C-m", "KPEnter", "C-j":
				keys = append(keys, "\n")
			default:
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 {
			w.script(f.child("tmux send-keys"), st.clone(), strings.Join(keys, " "), ioCtx{})
		}
	}
}

// packageRunner runs what a package runner runs (testdata/corpus/README.md
// §9.1 string-taking runners): `npx|npm exec|npm x -c|--call STRING` runs
// STRING through a shell, otherwise the package's program with the rest
// of the words; `pnpm exec -c|--shell-mode CMD…` and `yarn exec CMD…` run
// their words as one shell string; `pnpm exec CMD…`, `pnpm dlx CMD…` run
// the command.
func (w *walker) packageRunner(f *frame, st *state, prog string, c cmdCtx, vals []string) {
	cmd := c.cmd
	via := prog
	if len(cmd.Sub) > 0 {
		via += " " + cmd.SubName()
	}
	p := cmd.ParsedOpts
	rest := func() string {
		var ws []string
		for _, k := range p.Operands {
			ws = append(ws, vals[k])
		}
		return strings.Join(ws, " ")
	}
	switch {
	case prog == "npx" || prog == "bunx" || prog == "pnpx" || cmd.Is("exec") && prog == "npm" || cmd.Is("x") && prog == "npm":
		if calls := p.Values("c", "call"); len(calls) > 0 {
			for _, s := range calls {
				w.script(f.child(via+" -c"), st.clone(), s, ioCtx{stdin: c.stdin})
			}
			return
		}
		w.rerun(f, st, packageBin(c, p.First()+1), p.First()+1, via)
	case prog == "pnpm" && (cmd.Is("exec") || cmd.Is("dlx")):
		if p.Has("c", "shell-mode") {
			w.script(f.child(via+" -c"), st.clone(), rest(), ioCtx{stdin: c.stdin})
			return
		}
		w.rerun(f, st, c, p.First()+1, via)
	case prog == "yarn" && cmd.Is("exec"):
		w.script(f.child(via), st.clone(), rest(), ioCtx{stdin: c.stdin})
	case prog == "yarn" && cmd.Row == nil && len(cmd.SubAt) > 0:
		// `yarn prettier --write .` runs the package's program
		w.rerun(f, st, c, cmd.SubAt[0]+1, "yarn")
	}
}

// packageBin drops the version from the package word at words[i]
// (`prettier@3`, `@scope/tool@latest`): npx runs the package's program;
// deno's npm: specifier names it too (`npm:rimraf@5`, `npm:pkg@1/bin`).
func packageBin(c cmdCtx, i int) cmdCtx {
	if i >= len(c.words) {
		return c
	}
	v := c.words[i].Value
	name := v
	if pkg, ok := strings.CutPrefix(v, "npm:"); ok {
		name = npmSpecBin(pkg)
	} else if at := strings.LastIndexByte(v, '@'); at > 0 {
		name = v[:at]
	}
	if name != v {
		ws := append([]Word{}, c.words...)
		ws[i].Value = name
		c.words = ws
		if c.fields != nil {
			fs := append([]field{}, c.fields...)
			fs[i].val = name
			c.fields = fs
		}
	}
	return c
}

// npmSpecBin is the program an npm: specifier runs: its subpath
// (`pkg@1/bin` → bin), else the package without its version.
func npmSpecBin(spec string) string {
	scope := ""
	if strings.HasPrefix(spec, "@") {
		if k := strings.IndexByte(spec, '/'); k > 0 {
			scope, spec = spec[:k+1], spec[k+1:]
		}
	}
	pkg, bin, _ := strings.Cut(spec, "/")
	if bin != "" {
		return bin
	}
	if at := strings.IndexByte(pkg, '@'); at > 0 {
		pkg = pkg[:at]
	}
	return scope + pkg
}

// ssh runs the remote command (and stdin scripts) of ssh as shell code.
func (w *walker) ssh(f *frame, st *state, c cmdCtx, vals []string) {
	// -o KEY=VALUE options, by ssh's row (before the host and, as OpenSSH
	// reads them, between the host and the remote command)
	for _, opt := range c.cmd.ParsedOpts.Values("o") {
		lo := strings.ToLower(opt)
		for _, key := range []string{"proxycommand", "localcommand", "remotecommand"} {
			if strings.HasPrefix(lo, key) {
				val := strings.TrimLeft(opt[len(key):], " =")
				w.script(f.child("ssh -o "+key), st.clone(), val, ioCtx{})
			}
		}
	}
	// OpenSSH reads options after the host too (`ssh box -l deploy rm -rf
	// /srv`): the remote command starts at the second operand
	ops := c.cmd.Operands
	if len(ops) == 0 {
		return
	}
	if text, ok := w.sshConfigText(st, c); ok {
		// a configuration file the command wrote: where it connects
		// (Command.Config) and what it runs for this host
		cfg := sshConfigFor(text, sshTarget(vals[ops[0]]))
		c.cmd.Config = cfg
		for _, key := range []string{"proxycommand", "remotecommand", "localcommand"} {
			v, set := cfg[key]
			if !set || strings.EqualFold(v, "none") || key == "localcommand" && !strings.EqualFold(cfg["permitlocalcommand"], "yes") {
				continue
			}
			w.script(f.child("ssh -F "+key), st.clone(), v, ioCtx{})
		}
	}
	var remote []string
	for _, k := range ops[1:] {
		remote = append(remote, vals[k])
	}
	if len(remote) == 0 {
		if src, _, ok := c.stdinScript(); ok {
			w.script(f.child("ssh stdin"), st.clone(), src, ioCtx{})
		}
		return
	}
	src := strings.Join(remote, " ")
	res := w.script(f.child("ssh"), st.clone(), src, ioCtx{stdin: c.stdin})
	_ = res
}

// container runs the command of docker|podman exec|run and docker compose
// exec|run (testdata/corpus/README.md §2.1 containers).
func (w *walker) container(f *frame, st *state, prog string, c cmdCtx, vals []string) {
	compose := prog == "docker-compose" || prog == "podman-compose"
	i := 0
	if !compose {
		i = dockerGlobal.FirstOperand(vals, 0)
		if i < len(vals) && vals[i] == "compose" {
			compose = true
			i++
		} else if i < len(vals) && vals[i] == "container" {
			i++
		}
	}
	if compose {
		i = composeGlobal.FirstOperand(vals, i)
	}
	if i >= len(vals) {
		return
	}
	sub := vals[i]
	var spec OptSpec
	switch {
	case sub == "exec" && compose:
		spec = composeRun
	case sub == "run" && compose:
		spec = composeRun
	case sub == "exec":
		spec = dockerExec
	case sub == "run" || sub == "create":
		spec = dockerRun
	default:
		return
	}
	j := spec.FirstOperand(vals, i+1)
	if j >= len(vals) {
		return
	}
	// an --entrypoint given as an option runs with the arguments after the image
	for k := i + 1; k < j; k++ {
		ep := ""
		if vals[k] == "--entrypoint" && k+1 < j {
			ep = vals[k+1]
		} else if strings.HasPrefix(vals[k], "--entrypoint=") {
			ep = vals[k][len("--entrypoint="):]
		}
		if ep != "" {
			ws := append(knownWords(strings.Fields(ep)...), c.words[j+2:]...)
			w.runWords(f, st, ws, c.env, c.stdin, nil, prog+" "+sub)
			return
		}
	}
	w.rerun(f, st, c, j+2, prog+" "+sub)
}

// producer computes the literal stdout of echo/printf/cat/base64 -d/… and
// records listing producers. It reports whether prog was one.
func (w *walker) producer(f *frame, st *state, prog string, c cmdCtx, vals []string) (*string, bool) {
	allKnown := true
	for _, a := range c.words[1:] {
		if !a.Known {
			allKnown = false
		}
	}
	switch prog {
	case "git":
		// git [-C dir] ls-files [opts] [paths] and git diff --name-only
		// [REV…] [-- paths] list files: listing producers
		if c.cmd.Is("ls-files") {
			roots := c.cmd.OperandValues()
			if len(roots) == 0 {
				roots = []string{"."}
			}
			w.lastListing = st.listing(roots)
		}
		if c.cmd.Is("diff") && c.cmd.Has("", "name-only", "name-status") {
			roots := c.cmd.After()
			if len(roots) == 0 {
				roots = []string{"."}
			}
			w.lastListing = st.listing(roots)
		}
		if c.cmd.Is("for-each-ref") && allKnown {
			if out, ok := forEachRefOutput(c.cmd); ok {
				return &out, true
			}
		}
		return nil, false
	case "find":
		w.find(f, st, c, vals)
		w.lastListing = st.listing(ParseFind(vals).Roots)
		return nil, true
	case "yes":
		// one line of its endless output (`yes | rm -r x` answers every prompt)
		s := "y"
		if len(vals) > 0 {
			if !allKnown {
				return nil, true
			}
			s = strings.Join(vals, " ")
		}
		s += "\n"
		return &s, true
	case "echo":
		i := 0
		nl, esc := true, false
		for i < len(vals) && len(vals[i]) > 1 && vals[i][0] == '-' && strings.Trim(vals[i][1:], "neE") == "" {
			if strings.Contains(vals[i], "n") {
				nl = false
			}
			if strings.Contains(vals[i], "e") {
				esc = true
			}
			i++
		}
		if !allKnown {
			return nil, true
		}
		s := strings.Join(vals[i:], " ")
		if esc {
			s = ansiC(s)
		}
		if nl {
			s += "\n"
		}
		return &s, true
	case "printf":
		if !allKnown || len(vals) == 0 {
			return nil, true
		}
		i := 0
		if vals[0] == "--" {
			i++
		}
		if i < len(vals) && vals[i] == "-v" {
			return nil, true
		}
		if i >= len(vals) {
			return nil, true
		}
		if !w.printfFits(vals[i], vals[i+1:]) {
			return nil, true
		}
		s := printf(vals[i], vals[i+1:])
		return &s, true
	case "cat", "tee":
		files := 0
		for _, v := range vals {
			if !strings.HasPrefix(v, "-") || v == "-" {
				files++
			}
		}
		if prog == "tee" {
			// tee >(sh): each output process reads the input (sinks.go);
			// tee FILE… writes it to each FILE (appends with -a), which a
			// later command may run or read (scriptfile.go)
			app := c.cmd != nil && c.cmd.AnyHas("a", "append")
			for _, fl := range c.fields[min(1, len(c.fields)):] {
				if fl.sink != nil && c.stdin != nil {
					w.feed(st, fl.sink, *c.stdin)
				}
			}
			if c.cmd != nil {
				for _, i := range c.cmd.Operands {
					if i+1 < len(c.words) {
						w.noteFile(st, c.words[i+1], c.stdin, app)
					}
				}
			}
			return c.stdin, true
		}
		if files == 0 {
			return c.stdin, true
		}
		// cat FILE…: the text written earlier to each FILE ("-": stdin)
		if !allKnown {
			return nil, true
		}
		var out strings.Builder
		for _, v := range vals {
			if strings.HasPrefix(v, "-") && v != "-" {
				return nil, true // -n, -A …: not the bytes as written
			}
			if v == "-" {
				if c.stdin == nil {
					return nil, true
				}
				out.WriteString(*c.stdin)
				continue
			}
			src, ok := w.writtenScript(st, v)
			if !ok {
				return nil, true
			}
			out.WriteString(src)
		}
		s := out.String()
		return &s, true
	case "base64", "gbase64", "base32", "gbase32", "basenc", "gbasenc":
		// the coreutils decoders of a known stdin (or a file written
		// earlier): base64 -d, base32 -d, basenc --base64|--base64url|
		// --base32|--base32hex|--base16 -d
		enc, decode := strings.TrimPrefix(prog, "g"), false
		var file string
		for _, v := range vals {
			switch {
			case v == "--decode" || (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v, "dD")):
				decode = true
			case strings.HasPrefix(v, "--base") || v == "--z85" || v == "--base2msbf" || v == "--base2lsbf":
				enc = v[2:]
			case !strings.HasPrefix(v, "-") && file == "":
				file = v
			}
		}
		in := c.stdin
		if file != "" && file != "-" {
			t, ok := w.namedContent(st, c, file)
			if !ok {
				return nil, true
			}
			in = &t
		}
		if !decode || in == nil {
			return nil, true
		}
		out, ok := decodeText(enc, *in)
		if !ok {
			return nil, true
		}
		return &out, true
	case "jq", "gojq", "jaq":
		// a raw-output jq whose filter is a string literal prints it
		// (`jq -rn '"rm -rf x"'`), once per input: judged once
		// (`jq -rn '"rm -rf x"'`), once per input: judged once; a path
		// of keys and indexes (`.cmd`, `.a[0].b`) prints that member of
		// each literal input (a here-string, a known pipe, a file written
		// earlier), jqPath
		raw, filter, seen, null := false, "", false, false
		var files []string
		for k := 0; k < len(vals); k++ {
			v := vals[k]
			switch {
			case v == "--arg" || v == "--argjson" || v == "--slurpfile" || v == "--rawfile":
				k += 2
			case v == "--indent" || v == "-L":
				k++
			case v == "-f" || v == "--from-file":
				return nil, true
			case v == "--raw-output" || v == "--join-output" || v == "--raw-output0":
				raw = true
			case v == "--null-input":
				null = true
			case len(v) > 1 && v[0] == '-' && v[1] != '-':
				raw = raw || strings.ContainsAny(v[1:], "rj")
				null = null || strings.Contains(v[1:], "n")
			case strings.HasPrefix(v, "-"):
			case !seen:
				filter, seen = v, true
			default:
				files = append(files, v)
			}
		}
		if !raw || !seen || !allKnown {
			return nil, true
		}
		var text string
		if err := json.Unmarshal([]byte(strings.TrimSpace(filter)), &text); err == nil {
			text += "\n"
			return &text, true
		}
		steps, ok := jqPath(filter)
		if !ok || null {
			return nil, true
		}
		var in strings.Builder
		if len(files) == 0 {
			if c.stdin == nil {
				return nil, true
			}
			in.WriteString(*c.stdin)
		}
		for _, fl := range files {
			t, ok := w.namedContent(st, c, fl)
			if !ok {
				return nil, true
			}
			in.WriteString(t)
		}
		out, ok := jqSelect(steps, in.String())
		if !ok {
			return nil, true
		}
		return &out, true
	case "xxd":
		if c.stdin != nil && slices.Contains(vals, "-r") && slices.Contains(vals, "-p") {
			b, err := hex.DecodeString(strings.Join(strings.Fields(*c.stdin), ""))
			if err == nil {
				s := string(b)
				return &s, true
			}
		}
		return nil, true
	case "head", "tail", "sort", "uniq", "tac", "fold", "expand":
		// filters of a known stdin: the output is (a subset of) its lines;
		// keeping every line checks at least what would run
		for _, v := range vals {
			if !strings.HasPrefix(v, "-") && !isNumber(v) {
				return nil, true
			}
		}
		return c.stdin, true
	case "grep", "egrep", "fgrep":
		if r := c.cmd.Row; r != nil {
			w.tableRuns(f, st, prog, r, c, vals) // --pre CMD (RunSpec.PerFile: rg's; GNU grep refuses it)
		}
		if c.stdin != nil {
			if out, ok := grepFilter(prog, vals, *c.stdin); ok {
				return &out, true
			}
		}
		return w.listingProducer(st, c.cmd.ParsedOpts), true
	case "tr":
		if c.stdin == nil || !allKnown {
			return nil, true
		}
		out, ok := tr(vals, *c.stdin)
		if !ok {
			return nil, true
		}
		return &out, true
	case "gunzip", "zcat", "gzip":
		if c.stdin == nil || (prog == "gzip" && !slices.Contains(vals, "-d") && !slices.Contains(vals, "-dc") && !slices.Contains(vals, "--decompress")) {
			return nil, true
		}
		zr, err := gzip.NewReader(strings.NewReader(*c.stdin))
		if err != nil {
			return nil, true
		}
		b, err := io.ReadAll(io.LimitReader(zr, 1<<20))
		if err != nil {
			return nil, true
		}
		out := string(b)
		return &out, true
	case "openssl":
		if c.stdin != nil && len(vals) > 0 && (vals[0] == "base64" || (vals[0] == "enc" && slices.Contains(vals, "-base64"))) && slices.Contains(vals, "-d") {
			b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(*c.stdin), ""))
			if err == nil {
				out := string(b)
				return &out, true
			}
		}
		return nil, true
	case "rev":
		if c.stdin == nil || len(vals) > 0 {
			return nil, true
		}
		lines := strings.Split(*c.stdin, "\n")
		for k, l := range lines {
			r := []rune(l)
			for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
				r[a], r[b] = r[b], r[a]
			}
			lines[k] = string(r)
		}
		s := strings.Join(lines, "\n")
		return &s, true
	case "which", "whereis", "type":
		if prog == "type" && !(slices.Contains(vals, "-P") || slices.Contains(vals, "-p")) {
			return nil, true
		}
		var names []string
		for _, v := range vals {
			if !strings.HasPrefix(v, "-") {
				names = append(names, v)
			}
		}
		if len(names) == 0 || !allKnown {
			return nil, true
		}
		s := strings.Join(names, "\n") + "\n"
		return &s, true
	case "command":
		if len(vals) >= 2 && (vals[0] == "-v" || vals[0] == "-V") && allKnown {
			s := vals[1] + "\n"
			return &s, true
		}
		return nil, false
	case "awk", "gawk", "mawk", "nawk":
		spec := c.cmd.Prog.Opts // awk's row
		i := spec.FirstOperand(vals, 0)
		if short, _ := spec.Flags(vals, 0); short['f'] || i >= len(vals) || !c.words[i+1].Known {
			return nil, true
		}
		s := awkGenerated(vals[i])
		if s == "" {
			return nil, true
		}
		return &s, true
	case "sed", "gsed":
		progs := sedScripts(c.cmd.ParsedOpts)
		var out []string
		for _, p := range progs {
			if g := sedGenerated(p); g != "" {
				out = append(out, g)
			}
		}
		if len(out) == 0 {
			return nil, true
		}
		s := strings.Join(out, "\n") + "\n"
		return &s, true
	case "ls", "fd", "fdfind":
		var lst *Listing
		if prog == "ls" {
			ops := c.cmd.ParsedOpts.OperandValues() // by ls's row
			if len(ops) == 0 {
				ops = []string{"."}
			}
			lst = st.listing(ops)
		} else {
			lst = st.listing(fdRoots(vals))
		}
		if prog != "ls" {
			w.fdExec(f, st, c, vals, lst)
		}
		w.lastListing = lst
		return nil, true
	case "rg", "ag":
		if r := c.cmd.Row; r != nil {
			w.tableRuns(f, st, prog, r, c, vals) // rg --pre CMD FILE… (RunSpec.PerFile)
		}
		return w.listingProducer(st, c.cmd.ParsedOpts), true
	}
	return nil, false
}

// listingProducer records grep -l / rg -l style listings for xargs: the
// operands after the pattern (all of them when -e/-f gives the pattern),
// "." when none, read from the command's parse by grep's row (p).
func (w *walker) listingProducer(st *state, p ParsedOpts) *string {
	if !p.Has("lL", "files-with-matches", "files-without-match") {
		return nil
	}
	ops := p.OperandValues()
	if !p.Has("ef", "regexp", "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		ops = []string{"."}
	}
	w.lastListing = st.listing(ops)
	return nil
}

// forEachRefOutput is what `git for-each-ref --format=FORMAT [PATTERN…]`
// prints, one line per pattern (one for none), the refs standing in for
// those that match (git-for-each-ref(1)): %(refname) is the pattern
// itself when it names one ref, else a ref below it
// ("refs/heads/x"), :short drops refs/heads/ or refs/tags/,
// %(objectname) is a commit id, any other atom "x"; %% is % and %XX the
// byte XX. `--format='delete %(refname)' | git update-ref --stdin`
// deletes the refs (testdata/corpus/README.md §9.3 git_history). ok is
// false without a --format (the default lines name no command).
func forEachRefOutput(cmd *Command) (string, bool) {
	format, ok := cmd.Last("", "format")
	if !ok {
		return "", false
	}
	pats := cmd.OperandValues()
	if len(pats) == 0 {
		pats = []string{"refs/heads/"}
	}
	var b strings.Builder
	for _, pat := range pats {
		ref := pat
		if strings.ContainsAny(pat, "*?[") || strings.HasSuffix(pat, "/") || !strings.HasPrefix(pat, "refs/") {
			ref = strings.TrimRight(strings.TrimRight(pat, "*?[]"), "/") + "/x"
			if !strings.HasPrefix(ref, "refs/") {
				ref = "refs/heads/x"
			}
		}
		for i := 0; i < len(format); i++ {
			ch := format[i]
			switch {
			case ch == '%' && strings.HasPrefix(format[i:], "%%"):
				b.WriteByte('%')
				i++
			case ch == '%' && strings.HasPrefix(format[i:], "%("):
				end := strings.IndexByte(format[i:], ')')
				if end < 0 {
					b.WriteString(format[i:])
					i = len(format)
					break
				}
				atom := strings.TrimPrefix(format[i+2:i+end], "*")
				name, mod, _ := strings.Cut(atom, ":")
				switch {
				case name == "refname" && mod == "short":
					b.WriteString(strings.TrimPrefix(strings.TrimPrefix(ref, "refs/heads/"), "refs/tags/"))
				case name == "refname":
					b.WriteString(ref)
				case name == "objectname" && mod == "":
					b.WriteString(strings.Repeat("0", 39) + "1")
				case name == "objectname":
					b.WriteString("0000001")
				default:
					b.WriteString("x")
				}
				i += end
			case ch == '%' && i+2 < len(format) && isHex(format[i+1]) && isHex(format[i+2]):
				v, _ := strconv.ParseUint(format[i+1:i+3], 16, 8)
				b.WriteByte(byte(v))
				i += 2
			default:
				b.WriteByte(ch)
			}
		}
		b.WriteByte('\n')
	}
	return b.String(), true
}

// printf applies a printf format to arguments (the common conversions).
func printf(format string, args []string) string {
	var b strings.Builder
	ai := 0
	for rounds := 0; rounds < 64; rounds++ {
		usedArg := false
		for i := 0; i < len(format); i++ {
			ch := format[i]
			if ch == '\\' && i+1 < len(format) {
				j := i + 1
				switch format[j] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '\\':
					b.WriteByte('\\')
				default:
					// octal / hex via ansiC
					k := j + 1
					for k < len(format) && k < j+4 && (isHex(format[k])) {
						k++
					}
					b.WriteString(ansiC(format[i:k]))
					i = k - 1
					continue
				}
				i = j
				continue
			}
			if ch == '%' && i+1 < len(format) {
				j := i + 1
				for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
					j++
				}
				if j >= len(format) {
					b.WriteString(format[i:])
					break
				}
				conv := format[j]
				i = j
				if conv == '%' {
					b.WriteByte('%')
					continue
				}
				arg := ""
				if ai < len(args) {
					arg = args[ai]
					ai++
					usedArg = true
				}
				switch conv {
				case 'd', 'i', 'o', 'x', 'X', 'u':
					// numbers: `printf %o 511` is 777
					n, err := strconv.ParseInt(strings.TrimSpace(arg), 0, 64)
					if err != nil {
						b.WriteString(arg)
						break
					}
					base := 10
					switch conv {
					case 'o':
						base = 8
					case 'x', 'X':
						base = 16
					}
					t := strconv.FormatInt(n, base)
					if conv == 'X' {
						t = strings.ToUpper(t)
					}
					b.WriteString(t)
				case 'b':
					b.WriteString(ansiC(arg))
				case 'c':
					if arg != "" {
						b.WriteByte(arg[0])
					}
				default:
					b.WriteString(arg)
				}
				continue
			}
			b.WriteByte(ch)
		}
		if !usedArg || ai >= len(args) {
			break
		}
	}
	return b.String()
}

// awkGenerated returns the text an awk program prints from its literal
// strings, with "x" standing for each non-literal part, one line per print.
func awkGenerated(prog string) string {
	var lines []string
	for i := 0; i < len(prog); i++ {
		if !strings.HasPrefix(prog[i:], "print") {
			continue
		}
		j := i + 5
		if strings.HasPrefix(prog[j:], "f") {
			j++
		}
		var b strings.Builder
		lit := false
		for j < len(prog) && prog[j] != ';' && prog[j] != '}' && prog[j] != '\n' {
			if prog[j] == '"' {
				k := j + 1
				for k < len(prog) && prog[k] != '"' {
					if prog[k] == '\\' && k+1 < len(prog) {
						k++
					}
					k++
				}
				if k > len(prog) {
					k = len(prog)
				}
				b.WriteString(ansiC(prog[j+1 : min(k, len(prog))]))
				lit = true
				j = k + 1
				continue
			}
			if prog[j] == '$' || (prog[j] >= 'a' && prog[j] <= 'z') {
				for j < len(prog) && prog[j] != ' ' && prog[j] != '"' && prog[j] != ';' && prog[j] != '}' && prog[j] != ',' {
					j++
				}
				b.WriteString("x")
				continue
			}
			if prog[j] == ',' {
				b.WriteByte(' ')
			}
			j++
		}
		if lit {
			lines = append(lines, b.String())
		}
		i = j
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// sedGenerated returns the replacement texts of s commands, each followed by
// a placeholder operand.
func sedGenerated(prog string) string {
	var out []string
	for _, part := range strings.Split(prog, ";") {
		part = strings.TrimSpace(part)
		k := strings.Index(part, "s")
		if k < 0 || k+1 >= len(part) {
			continue
		}
		d := part[k+1]
		fields := strings.Split(part[k+2:], string(d))
		if len(fields) < 2 {
			continue
		}
		repl := strings.ReplaceAll(fields[1], "&", "x")
		repl = strings.ReplaceAll(repl, "\\1", "x")
		out = append(out, repl+" x")
	}
	return strings.Join(out, "\n")
}

// tr applies `tr [-d] SET1 [SET2]` (ranges like a-z, no classes) to in.
func tr(vals []string, in string) (string, bool) {
	del := false
	var sets []string
	for _, v := range vals {
		switch {
		case v == "-d":
			del = true
		case strings.HasPrefix(v, "-") && len(v) > 1:
			return "", false
		default:
			sets = append(sets, v)
		}
	}
	expand := func(set string) []rune {
		r := []rune(ansiC(set))
		var out []rune
		for i := 0; i < len(r); i++ {
			if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] && r[i+2]-r[i] < 256 {
				for c := r[i]; c <= r[i+2]; c++ {
					out = append(out, c)
				}
				i += 2
				continue
			}
			out = append(out, r[i])
		}
		return out
	}
	switch {
	case del && len(sets) == 1:
		drop := map[rune]bool{}
		for _, c := range expand(sets[0]) {
			drop[c] = true
		}
		return strings.Map(func(c rune) rune {
			if drop[c] {
				return -1
			}
			return c
		}, in), true
	case !del && len(sets) == 2:
		from, to := expand(sets[0]), expand(sets[1])
		if len(to) == 0 {
			return "", false
		}
		m := map[rune]rune{}
		for i, c := range from {
			if i < len(to) {
				m[c] = to[i]
			} else {
				m[c] = to[len(to)-1]
			}
		}
		return strings.Map(func(c rune) rune {
			if r, ok := m[c]; ok {
				return r
			}
			return c
		}, in), true
	}
	return "", false
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// grepFilter applies a simple grep (pattern, -v, -i, -F, -E, -e) to known
// input; ok=false when the options are not understood.
func grepFilter(prog string, vals []string, in string) (string, bool) {
	invert, icase, fixed := false, false, prog == "fgrep"
	// the options by grep's row; a long option or a letter other than
	// these is not understood
	p := SpecOf("grep").Parse(vals, 0)
	var pats []string
	for _, o := range p.Opts {
		if o.Long {
			return "", false
		}
		switch o.Name {
		case "e":
			if !o.HasValue {
				return "", false
			}
			pats = append(pats, o.Value)
		case "v":
			invert = true
		case "i":
			icase = true
		case "F":
			fixed = true
		case "E", "w", "x", "h", "H", "s", "q":
		default:
			return "", false
		}
	}
	ops := p.OperandValues()
	if len(pats) == 0 && len(ops) > 0 {
		pats, ops = ops[:1], ops[1:]
	}
	if len(ops) > 0 {
		return "", false // a file operand: the input is not stdin
	}
	if len(pats) == 0 {
		return "", false
	}
	var res []*regexp.Regexp
	for _, p := range pats {
		if fixed {
			p = regexp.QuoteMeta(p)
		}
		if icase {
			p = "(?i)" + p
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return "", false
		}
		res = append(res, re)
	}
	var out []string
	for _, line := range strings.SplitAfter(in, "\n") {
		if line == "" {
			continue
		}
		m := false
		for _, re := range res {
			if re.MatchString(strings.TrimSuffix(line, "\n")) {
				m = true
				break
			}
		}
		if m != invert {
			out = append(out, line)
		}
	}
	return strings.Join(out, ""), true
}

// fdExec runs the command of `fd … -x|--exec|-X|--exec-batch CMD… [;]`
// like find -exec (testdata/corpus/README.md §2.3, §3.3 listings): the command takes
// the rest of the arguments up to a lone `;`, and {} stands for the listed
// paths; lst (the roots before the option) is what it runs over.
func (w *walker) fdExec(f *frame, st *state, c cmdCtx, vals []string, lst *Listing) {
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" {
			return
		}
		if v != "-x" && v != "-X" && v != "--exec" && v != "--exec-batch" {
			continue
		}
		lst.Roots = fdRoots(vals[:i])
		end := i + 1
		for end < len(vals) && vals[end] != ";" {
			end++
		}
		if i+1 < end {
			n := c.commandAt(i+2, end+1, lst)
			w.run(f.child("fd "+v), st, n)
		}
		i = end
	}
}

// fdRoots returns the search paths of `fd [opts] [pattern] [path…]`
// (and of --search-path), "." when none is given; the options are fd's
// row of the program table.
func fdRoots(vals []string) []string {
	p := SpecOf("fd").Parse(vals, 0)
	roots := p.Values("", "search-path")
	if ops := p.OperandValues(); len(ops) > 1 {
		roots = append(roots, ops[1:]...)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return roots
}

// ghAlias walks the shell command string of `gh alias set [--shell|-s]
// NAME EXPANSION` (an expansion starting with "!" is one too; "-" reads it
// from stdin) where it is set: gh runs it through sh whenever `gh NAME`
// runs, like git's '!CMD' aliases (gitConfigSet).
func (w *walker) ghAlias(f *frame, st *state, c cmdCtx) {
	if !c.cmd.Is("alias") {
		return
	}
	p := c.cmd.ParsedOpts
	ops := p.OperandValues()
	if len(ops) < 3 || ops[0] != "set" {
		return
	}
	exp, shell := ops[2], p.Has("s", "shell")
	if exp == "-" && c.stdin != nil {
		exp = *c.stdin
	}
	if strings.HasPrefix(exp, "!") {
		exp, shell = exp[1:], true
	}
	if shell {
		w.runShellString(f, st, "gh alias "+ops[1], exp)
	}
}

// screen unwraps `screen [opts] CMD…` (run) and `screen -X stuff 'TEXT'`
// (typed into the session's shell); a reattach (-r -R -x) or another
// -X/-Q screen command starts no program (testdata/corpus/README.md §2.3).
// The options are screen's row of the program table (c.cmd.ParsedOpts).
func (w *walker) screen(f *frame, st *state, c cmdCtx, vals []string) {
	p := c.cmd.ParsedOpts
	if p.Has("X") {
		for k, v := range vals {
			if v == "stuff" && k+1 < len(vals) {
				txt := strings.NewReplacer(`\n`, "\n", `\r`, "\n", "^M", "\n").Replace(vals[k+1])
				w.script(f.child("screen stuff"), st.clone(), txt, ioCtx{})
			}
		}
		return
	}
	if p.Has("rRxXQ") {
		return // reattach or a screen command: no new program
	}
	i := p.First()
	if i < len(vals) && strings.HasPrefix(vals[i], "-") && strings.TrimLeft(vals[i], "-") == "Logfile" {
		i = c.cmd.Prog.Opts.FirstOperand(vals, i+2)
	}
	w.rerun(f, st, c, i+1, "screen")
}

// sedRuns walks the commands GNU sed executes (ParseSed, the one sed script
// reader): `e COMMAND`, a bare `e` (the pattern space: each line of a known
// stdin) and the replacement of an `s///e` substitution (conservatively,
// the replacement text as written).
func (w *walker) sedRuns(f *frame, st *state, p ParsedOpts, stdin *string) {
	scripts := sedScripts(p)
	for _, s := range scripts {
		for _, cmd := range ParseSed(s) {
			var run []string
			switch {
			case cmd.Name == 'e' && strings.TrimSpace(cmd.Arg) != "":
				run = []string{cmd.Arg} // e COMMAND
			case cmd.Name == 'e' && stdin != nil:
				run = strings.Split(*stdin, "\n") // bare e runs the pattern space: each input line
			case cmd.Name == 's' && strings.Contains(cmd.Flags, "e"):
				run = []string{cmd.Repl} // s///e runs the pattern space after the substitution
			}
			for _, r := range run {
				if strings.TrimSpace(r) != "" {
					w.script(f.child("sed e"), st.clone(), r, ioCtx{})
				}
			}
		}
	}
}

// envSplit splits the string of `env -S` the way GNU env does: blanks
// separate words, '…' and "…" quote (backslash escapes \\ \" \' \n \t
// inside double quotes and outside quotes), and # at a word start begins
// a comment.
func envSplit(s string) []string {
	var out []string
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		case ch == '#' && !in:
			return out
		case ch == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				b.WriteString(s[i+1:])
				i = len(s)
				break
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					b.WriteByte(envEscape(s[i]))
					continue
				}
				b.WriteByte(s[i])
			}
		case ch == '\\' && i+1 < len(s):
			in = true
			i++
			b.WriteByte(envEscape(s[i]))
		default:
			in = true
			b.WriteByte(ch)
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

func envEscape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'f':
		return '\f'
	case 'v':
		return '\v'
	}
	return c
}

// shellBase strips a version suffix from a shell's name (`bash5`,
// `bash-5.2`, `ksh93`, `zsh-5.9`): installed side by side under such names,
// they are the same shells.
func shellBase(name string) string {
	b := strings.TrimRight(name, "0123456789.")
	b = strings.TrimSuffix(b, "-")
	if b == name {
		return ""
	}
	return b
}

// sedScripts returns the scripts of a sed command line parsed by sed's row
// (p): every -e/--expression value, or else, when no -f/--file names a
// script file, the first operand.
func sedScripts(p ParsedOpts) []string {
	scripts := p.Values("e", "expression")
	if len(scripts) > 0 || p.Has("f", "file") {
		return scripts
	}
	if ops := p.OperandValues(); len(ops) > 0 {
		return ops[:1]
	}
	return nil
}

// commandAt is the command a runner builds from its words [from, to) (find
// -exec CMD… ;, fd -x CMD…): the same context, with the listing lst as
// the files it is run on and no stdin or pipe listing of its own.
func (c cmdCtx) commandAt(from, to int, lst *Listing) cmdCtx {
	n := c
	n.words = c.words[from:to]
	if c.fields != nil {
		n.fields = c.fields[from:to]
	}
	n.listing = lst
	n.stdin = nil
	n.pipeListing = nil
	return n
}

// parallelJobs returns the arguments of each job of GNU parallel's ":::"
// groups after vals[end] (one argument of each group per job, the
// groups' product; ":::+" links a group to the previous one), nil when a
// "::::" group reads its arguments from files. At most 64 jobs.
func parallelJobs(vals []string, end int) [][]string {
	var groups [][]string
	var linked []bool
	for k := end; k < len(vals); k++ {
		switch vals[k] {
		case ":::", ":::+":
			groups = append(groups, nil)
			linked = append(linked, vals[k] == ":::+" && len(groups) > 1)
		case "::::", "::::+":
			return nil
		default:
			if len(groups) == 0 {
				return nil
			}
			groups[len(groups)-1] = append(groups[len(groups)-1], vals[k])
		}
	}
	jobs := [][]string{{}}
	for g, args := range groups {
		if len(args) == 0 {
			return nil
		}
		var next [][]string
		for j, job := range jobs {
			if linked[g] {
				if j < len(args) {
					next = append(next, append(append([]string{}, job...), args[j]))
				}
				continue
			}
			for _, a := range args {
				if len(next) < 64 {
					next = append(next, append(append([]string{}, job...), a))
				}
			}
		}
		jobs = next
	}
	if len(groups) == 0 {
		return nil
	}
	return jobs
}

// parallelLine is a word (or, with quote, a shell command string) of
// parallel's command with its replacement strings for the job's arguments:
// {} the arguments (space-separated), {.}
// without its extension, {/} its base name, {//} its directory, {/.} the
// base name without extension, {N} (and {N.} {N/} {N//} {N/.}) the Nth
// group's; with quote and no replacement string the arguments are
// appended, each shell-quoted.
func parallelLine(t string, args []string, quote bool) string {
	q := func(a string) string {
		if quote {
			return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		return a
	}
	conv := func(a, op string) string {
		switch op {
		case ".":
			if e := path.Ext(a); e != "" && !strings.Contains(e, "/") {
				return strings.TrimSuffix(a, e)
			}
			return a
		case "/":
			return path.Base(a)
		case "//":
			return path.Dir(a)
		case "/.":
			b := path.Base(a)
			return strings.TrimSuffix(b, path.Ext(b))
		}
		return a
	}
	var b strings.Builder
	used := false
	for i := 0; i < len(t); i++ {
		if t[i] == '{' {
			if j := strings.IndexByte(t[i:], '}'); j > 0 {
				in := t[i+1 : i+j]
				n := 0
				for n < len(in) && in[n] >= '0' && in[n] <= '9' {
					n++
				}
				op := in[n:]
				if op == "" || op == "." || op == "/" || op == "//" || op == "/." {
					var parts []string
					if n > 0 {
						if k := atoiSmall(in[:n]); k >= 1 && k <= len(args) {
							parts = []string{args[k-1]}
						} else {
							b.WriteString(t[i : i+j+1])
							i += j
							continue
						}
					} else {
						parts = args
					}
					for pi, a := range parts {
						if pi > 0 {
							b.WriteByte(' ')
						}
						b.WriteString(q(conv(a, op)))
					}
					used = true
					i += j
					continue
				}
			}
		}
		b.WriteByte(t[i])
	}
	if quote && !used {
		for _, a := range args {
			b.WriteString(" " + q(a))
		}
	}
	return b.String()
}

// atoiSmall parses a short decimal number (0 when it is too long).
func atoiSmall(s string) int {
	if len(s) > 4 {
		return 0
	}
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
