package shell

import (
	"encoding/json"
	"strings"
)

// tableRuns walks the commands a table row's RunSpec names (Program.Runs,
// testdata/corpus/README.md §2.3, §9.2): option values that are shell
// command strings (`nodemon --exec S`, `su -c S`), options after which the
// rest of the words is a command (`nix develop -c CMD…`), and operands
// that are shell strings or a command (`concurrently S S…`, `watch CMD…`,
// `mosh HOST -- CMD…`). It reports whether row has a RunSpec.
func (w *walker) tableRuns(f *frame, st *state, prog string, row *Program, c cmdCtx, vals []string) bool {
	r := &row.Runs
	if !r.any() {
		return false
	}
	via := prog
	if row != c.cmd.Prog && len(c.cmd.Sub) > 0 {
		via += " " + strings.Join(c.cmd.Sub, " ")
	}
	p := c.cmd.ParsedOpts
	if in, _, ok := c.stdinScript(); ok && r.Stdin {
		if r.Split {
			w.ownCommands(f, st, via+" stdin", r, in, c)
		} else if r.Prefix != "" {
			for _, line := range r.lines(in) {
				if src, ok := r.shellText(line); ok {
					w.runShellString(f, st, via+" stdin", src)
				}
			}
		}
		w.runCalls(f, st, via+" stdin", r, in, c)
		if !r.Split {
			w.runLangs(f, st, via+" stdin", r, in, c)
		}
	}
	w.runConfig(f, st, via, row, p, c)
	if w.runOpts(f, st, via, r, p, c) {
		return true
	}
	ops := p.Operands
	if r.DashDash {
		ops = nil
		for _, k := range p.Operands {
			if p.End >= 0 && k > p.End {
				ops = append(ops, k)
			}
		}
	}
	if r.As != "" && !p.Has("", "dry-run") {
		var local []string
		for _, k := range ops {
			if v := vals[k]; !remotePath(v) {
				local = append(local, v)
			}
		}
		if len(local) > 0 {
			w.runWords(f, st, knownWords(append(strings.Fields(r.As), local...)...), c.env, nil, nil, via)
		}
	}
	if r.Operands == OperandsData || len(ops) <= r.Skip {
		return true
	}
	if r.Skip > 0 {
		// options may follow the skipped operands (`flock FILE -c S`,
		// `mosh HOST -- CMD`): read them again from there
		from := ops[r.Skip]
		if vals[from] == "--" {
			from++
		}
		p = row.Opts.Parse(vals, from)
		if w.runOpts(f, st, via, r, p, c) {
			return true
		}
		ops = p.Operands
	}
	if len(ops) == 0 {
		return true
	}
	switch r.Operands {
	case OperandsShell:
		for _, k := range ops {
			if src, ok := r.shellText(vals[k]); ok {
				w.runShellString(f, st, via, src)
			}
			w.runCalls(f, st, via, r, vals[k], c)
			w.runLangs(f, st, via, r, vals[k], c)
		}
	case OperandsCode:
		for _, k := range ops {
			w.runCode(f, st, via, r, vals[k], c)
		}
	case OperandsLine:
		line := make([]string, len(ops))
		for j, k := range ops {
			line[j] = vals[k]
		}
		text := strings.Join(line, " ")
		if r.Prefix != "" {
			// the line is a command only after a Prefix (`cmd /c LINE`)
			var ok bool
			if text, ok = r.shellText(text); !ok {
				break
			}
		}
		w.runShellString(f, st, via, text)
	case OperandsArgv:
		w.rerun(f, st, c, ops[0]+1, via)
	}
	return true
}

// runOpts runs the option values of p that RunSpec r names; it reports
// whether an Argv option took the rest of the words.
func (w *walker) runOpts(f *frame, st *state, via string, r *RunSpec, p ParsedOpts, c cmdCtx) bool {
	for i := range p.Opts {
		o := &p.Opts[i]
		if !o.HasValue {
			continue
		}
		switch {
		case optNamed(p, o, r.Shell) && r.Split:
			w.ownCommands(f, st, via+" "+optWord(o), r, o.Value, c)
		case optNamed(p, o, r.Shell):
			if src, ok := r.shellText(o.Value); ok {
				w.runShellString(f, st, via+" "+optWord(o), src)
			}
			w.runCalls(f, st, via+" "+optWord(o), r, o.Value, c)
			w.runLangs(f, st, via+" "+optWord(o), r, o.Value, c)
		case optNamed(p, o, r.Code):
			w.runCode(f, st, via+" "+optWord(o), r, o.Value, c)
		case optNamed(p, o, r.Source) && o.ValOff == 0:
			text, ok := w.pathContent(st, c, o.ValArg+1)
			if !ok || !w.spend(len(text)) {
				continue
			}
			for _, line := range r.lines(text) {
				if src, ok := r.shellText(line); ok {
					w.runShellString(f, st, via+" "+optWord(o), src)
				}
				w.runCalls(f, st, via+" "+optWord(o), r, line, c)
				w.runLangs(f, st, via+" "+optWord(o), r, line, c)
			}
		case r.Keys != "" && optNamed(p, o, strings.SplitN(r.Keys, ":", 2)[0]):
			if sh, ok := r.keyCommand(o.Value); ok {
				w.runShellString(f, st, via+" "+optWord(o), sh)
			}
		case optNamed(p, o, r.PipeOpts):
			if sh, ok := strings.CutPrefix(strings.TrimLeft(o.Value, " \t"), "|"); ok {
				w.runShellString(f, st, via+" "+optWord(o), sh)
			}
		case optNamed(p, o, r.Prog):
			ws := []Word{{Value: o.Value, Known: c.words[o.ValArg+1].Known, Raw: o.Value}}
			if p.End >= 0 {
				ws = append(ws, c.words[p.End+2:]...)
			}
			w.runWords(f, st, ws, c.env, c.stdin, nil, via+" "+optWord(o))
		case optNamed(p, o, r.PerFile):
			ws := []Word{{Value: o.Value, Known: c.words[o.ValArg+1].Known, Raw: o.Value}}
			ops := p.Operands
			if !p.Has("ef", "regexp", "file") && len(ops) > 0 {
				ops = ops[1:] // the pattern
			}
			for _, k := range ops {
				ws = append(ws, c.words[k+1])
			}
			if len(ops) == 0 {
				ws = append(ws, Word{Value: ".", Known: true, Raw: "."})
			}
			w.runWords(f, st, ws, c.env, nil, nil, via+" "+optWord(o))
		case optNamed(p, o, r.Argv):
			if cmd, ok := r.verb(o.Value); ok {
				ws := make([]Word, 0, len(cmd)+len(c.words))
				for _, v := range cmd {
					ws = append(ws, Word{Value: v, Known: true, Raw: v})
				}
				ws = append(ws, c.words[o.ValArg+2:]...)
				w.runWords(f, st, ws, c.env, c.stdin, nil, via+" "+optWord(o)+" "+o.Value)
				return true
			}
			if o.ValOff == 0 {
				w.rerun(f, st, c, o.ValArg+1, via+" "+optWord(o))
			} else {
				ws := append([]Word{{Value: o.Value, Known: c.words[o.ValArg+1].Known, Raw: o.Value}}, c.words[o.ValArg+2:]...)
				w.runWords(f, st, ws, c.env, c.stdin, nil, via+" "+optWord(o))
			}
			return true
		}
	}
	return false
}

// ownCommands walks text as a list of the program's own commands
// (RunSpec.Split: one per line or separated by ";"): a command with a
// Prefix is a shell command string (lftp's `!CMD`), and one whose first
// word is a Verbs entry is the command that entry maps it to, with the
// command's words after it (lftp's `rm -r DIR` is `rm -f -r DIR`), walked
// as run on the other side when r.VerbsRemote (RemoteVia).
func (w *walker) ownCommands(f *frame, st *state, via string, r *RunSpec, text string, c cmdCtx) {
	for _, line := range strings.Split(text, "\n") {
		for _, cmd := range strings.Split(line, ";") {
			cmd = strings.TrimSpace(cmd)
			if cmd == "" {
				continue
			}
			if r.Prefix != "" {
				if src, ok := r.shellText(cmd); ok {
					w.runShellString(f, st, via, src)
					continue
				}
			}
			if r.Pipe != "" {
				if pw, sh, ok := r.pipeCommand(cmd); ok {
					w.runShellString(f, st, via+" "+pw, sh)
					continue
				}
			}
			if r.Verbs == "" {
				continue
			}
			// `a && b`, `a || b` and `a & b` are commands too (lftp)
			for _, part := range strings.FieldsFunc(cmd, func(r rune) bool { return r == '&' || r == '|' }) {
				words := envSplit(strings.TrimSpace(part))
				if len(words) == 0 {
					continue
				}
				if mapped, ok := r.verb(words[0]); ok {
					v := via + " " + words[0]
					if r.VerbsRemote {
						v += RemoteVia
					}
					w.runWords(f, st, knownWords(append(mapped, words[1:]...)...), c.env, nil, nil, v)
				}
			}
		}
	}
}

// RemoteVia marks a Via entry whose command runs on another machine
// (RunSpec.VerbsRemote): Elsewhere.
const RemoteVia = " (remote)"

// runCalls walks the calls of r.Calls in the code src (codeCalls): each
// shell-running call's string as shell code, each mapped call as the
// command it does.
func (w *walker) runCalls(f *frame, st *state, via string, r *RunSpec, src string, c cmdCtx) {
	if r.Calls == "" {
		return
	}
	for _, cl := range codeCalls(r.Calls, src) {
		if cl.argv != nil {
			w.runWords(f, st, knownWords(cl.argv...), c.env, nil, nil, via+" "+cl.name)
		} else {
			w.runShellString(f, st, via+" "+cl.name, cl.shell)
		}
	}
}

// runLangs walks the lines of text that are the program's own commands
// running code of a language the guard lexes (RunSpec.Langs: vim's `py3
// CODE` as `python3 -c CODE`) and those that pipe into a shell command
// (RunSpec.Pipe: gdb's `pipe CMD | SHELL`).
func (w *walker) runLangs(f *frame, st *state, via string, r *RunSpec, text string, c cmdCtx) {
	if r.Langs == "" && r.Pipe == "" && !r.Backquotes {
		return
	}
	for _, line := range r.lines(text) {
		t := strings.TrimLeft(r.stripMods(strings.TrimLeft(line, " \t:+")), " \t:+")
		if r.Address {
			t = stripAddress(t)
		}
		word, rest, _ := strings.Cut(t, " ")
		if word == "" {
			continue
		}
		if r.Backquotes && strings.IndexByte(r.Inline, t[0]) >= 0 {
			for _, sh := range backquoted(t) {
				w.runShellString(f, st, via+" "+word+" `", sh)
			}
		}
		if r.Pipe != "" {
			if pw, sh, ok := r.pipeCommand(t); ok {
				w.runShellString(f, st, via+" "+pw, sh)
				continue
			} else if pw != "" {
				continue
			}
		}
		for _, e := range strings.Split(r.Langs, ",") {
			k, cmd, ok := strings.Cut(strings.TrimSpace(e), "=")
			if !ok || k != word || strings.TrimSpace(rest) == "" {
				continue
			}
			ws := knownWords(append(strings.Fields(cmd), rest)...)
			w.runWords(f, st, ws, c.env, nil, nil, via+" "+word)
			break
		}
	}
}

// backquoted returns the texts between pairs of backquotes in t outside
// single quotes (RunSpec.Backquotes).
func backquoted(t string) []string {
	var out []string
	quoted := false
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\'':
			quoted = !quoted
		case '`':
			if quoted {
				continue
			}
			end := strings.IndexByte(t[i+1:], '`')
			if end < 0 {
				return out
			}
			out = append(out, t[i+1:i+1+end])
			i += end + 1
		}
	}
	return out
}

// runCode walks code of a language the guard does not lex (RunSpec.Code,
// OperandsCode): its candidate commands (codeCandidates) and its Calls.
func (w *walker) runCode(f *frame, st *state, via string, r *RunSpec, code string, c cmdCtx) {
	if !w.spend(len(code)) {
		return
	}
	nf := f.child(via)
	nf.calls = 4 // prose in a literal never infers a runner
	w.walkCandidates(nf, st, codeCandidates(code, true, maxUnknownCandidates), c.env)
	w.runCalls(f, st, via, r, code, c)
}

// remotePath reports a NAME:PATH operand of a remote (rclone, scp): a ':'
// before any '/' (a Windows drive letter C:\ is local).
func remotePath(v string) bool {
	i := strings.IndexByte(v, ':')
	if i <= 1 {
		return false
	}
	return !strings.Contains(v[:i], "/")
}

// runShellString walks src as the shell command string a program runs.
func (w *walker) runShellString(f *frame, st *state, via, src string) {
	if strings.TrimSpace(src) != "" {
		w.script(f.child(via), st.clone(), src, ioCtx{})
	}
}

// optNamed reports whether option o is one of names (letters and long
// names, space-separated: RunSpec.Shell, RunSpec.Argv).
func optNamed(p ParsedOpts, o *Opt, names string) bool {
	if names == "" {
		return false
	}
	if !o.Long {
		return len(o.Name) == 1 && hasName(names, o.Name)
	}
	if hasName(names, o.Name) {
		return true
	}
	if !o.Unknown || !p.partial || len(o.Name) < 3 {
		return false
	}
	for rest := names; rest != ""; {
		var n string
		n, rest, _ = strings.Cut(rest, " ")
		if len(n) > 1 && strings.HasPrefix(n, o.Name) {
			return true
		}
	}
	return false
}

// optWord is an option as written in a Via entry ("-c", "--exec").
func optWord(o *Opt) string {
	if o.Long {
		return "--" + o.Name
	}
	return "-" + o.Name
}

// Elsewhere reports whether a command with nesting path via
// (Invocation.Via) runs on another machine or in a container (a row whose
// RunSpec is Remote, the remote command of ssh, `docker exec|run`,
// `kubectl exec`, `mosh HOST CMD`): its paths are not the workspace's.
func Elsewhere(via []string) bool {
	for _, v := range via {
		if strings.HasSuffix(v, RemoteVia) {
			return true
		}
		name, _, _ := strings.Cut(v, " ")
		if p := Lookup(name); p != nil && p.Runs.Remote {
			return true
		}
	}
	return false
}

// Package scripts (testdata/corpus/README.md §9.2 "a script defined and
// run in the same command runs its text"): `npm pkg set scripts.NAME=TEXT`
// (also pnpm, `npm set-script NAME TEXT`) or a package.json written earlier
// in the command define scripts; `npm run NAME`, `npm test`, `pnpm NAME`,
// `yarn NAME`, `bun run NAME` then run pre<NAME>, NAME and post<NAME>
// through a shell.

// notePkgSet records the scripts `npm|pnpm pkg set KEY=VALUE…` and `npm
// set-script NAME TEXT` set.
func (w *walker) notePkgSet(st *state, c cmdCtx, vals []string) {
	cmd := c.cmd
	ops := cmd.OperandValues()
	set := map[string]string{}
	switch {
	case cmd.Is("pkg") && len(ops) > 0 && ops[0] == "set":
		jsonVals := cmd.Has("", "json")
		for _, kv := range ops[1:] {
			k, v, ok := strings.Cut(kv, "=")
			name, isScript := strings.CutPrefix(k, "scripts.")
			if !ok || !isScript || name == "" {
				continue
			}
			if jsonVals {
				var s string
				if json.Unmarshal([]byte(v), &s) == nil {
					v = s
				}
			}
			set[name] = v
		}
	case cmd.Is("set-script") && len(ops) >= 2:
		set[ops[0]] = ops[1]
	}
	if len(set) == 0 {
		return
	}
	key, ok := w.fileKey(st, Word{Value: "package.json", Known: true})
	if !ok {
		return
	}
	if w.pkgScripts == nil {
		w.pkgScripts = map[string]map[string]string{}
	}
	m := w.pkgScripts[key]
	if m == nil {
		m = map[string]string{}
		w.pkgScripts[key] = m
	}
	for k, v := range set {
		m[k] = v
	}
}

// packageScripts returns the scripts of ./package.json known from the
// command itself (a written package.json, then scripts set on it); nil
// when none are.
func (w *walker) packageScripts(st *state) map[string]string {
	if len(w.pkgScripts) == 0 && len(w.files) == 0 {
		return nil
	}
	key, ok := w.fileKey(st, Word{Value: "package.json", Known: true})
	if !ok {
		return nil
	}
	var out map[string]string
	if src, ok := w.files[key]; ok {
		var pj struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal([]byte(src), &pj) == nil {
			out = pj.Scripts
		}
	}
	if set := w.pkgScripts[key]; len(set) > 0 {
		if out == nil {
			out = map[string]string{}
		}
		for k, v := range set {
			out[k] = v
		}
	}
	return out
}

// runPackageScript runs the package script a package manager's command
// names (`npm run NAME`, `npm test`, `pnpm NAME`, `yarn NAME`, `bun run
// NAME`) when its text is known from the command (packageScripts).
func (w *walker) runPackageScript(f *frame, st *state, prog string, c cmdCtx) {
	cmd := c.cmd
	sub := cmd.SubName()
	if sub == "" {
		return
	}
	scripts := w.packageScripts(st)
	if len(scripts) == 0 {
		return
	}
	name := ""
	switch sub {
	case "run", "run-script", "rum", "urn":
		if ops := cmd.OperandValues(); len(ops) > 0 {
			name = ops[0]
		}
	case "t", "tst", "test":
		name = "test"
	case "start", "stop", "restart":
		name = sub
	default:
		if prog == "npm" {
			return // npm runs scripts only through run and its lifecycle commands
		}
		name = sub // `pnpm NAME`, `yarn NAME`
	}
	for _, n := range []string{"pre" + name, name, "post" + name} {
		if text, ok := scripts[n]; ok {
			w.runShellString(f, st, prog+" run "+n, text)
		}
	}
}

// runConfig judges the command again with the options of its known
// configurations (RunSpec.Config, ConfigText) in place of the options that
// name them: `curl -K /dev/stdin U <<<'output = "F"'` is `curl --output=F
// U`. Nothing is run when no configuration is known.
func (w *walker) runConfig(f *frame, st *state, via string, row *Program, p ParsedOpts, c cmdCtx) {
	r := &row.Runs
	if r.Config == "" && r.ConfigText == "" {
		return
	}
	var cfg []string
	drop := map[int]bool{}
	for i := range p.Opts {
		o := &p.Opts[i]
		var text string
		switch {
		case !o.HasValue:
			continue
		case optNamed(p, o, r.ConfigText):
			text = o.Value
		case optNamed(p, o, r.Config):
			var ok bool
			if o.Value == "-" {
				text, ok = w.namedContent(st, c, "/dev/stdin")
			} else {
				text, ok = w.optContent(st, c, *o)
			}
			if !ok || !w.spend(len(text)) {
				continue
			}
		default:
			continue
		}
		for k := o.Arg; k <= o.ValArg; k++ {
			drop[k] = true
		}
		cfg = append(cfg, configWords(text, row.Opts, r.ConfigNames)...)
	}
	if len(cfg) == 0 {
		return
	}
	ws := append([]Word{c.words[0]}, knownWords(cfg...)...)
	for k := 1; k < len(c.words); k++ {
		if !drop[k-1] {
			ws = append(ws, c.words[k])
		}
	}
	w.runWords(f, st, ws, c.env, c.stdin, nil, via+" (its configuration)")
}

// configWords returns the command-line words of the option lines of a
// configuration text (RunSpec.Config).
func configWords(text string, spec OptSpec, names string) []string {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
	}
	var words []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if len(line) >= 2 && line[0] == '-' && line[1] != '-' {
			words = append(words, strings.Fields(line)...) // a short option (`-o F`, `-O`)
			continue
		}
		line = strings.TrimPrefix(line, "--")
		end := strings.IndexAny(line, " \t=:")
		if end < 0 {
			end = len(line)
		}
		name, rest := line[:end], strings.TrimLeft(line[end:], " \t")
		if rest != "" && (rest[0] == '=' || rest[0] == ':') {
			rest = strings.TrimLeft(rest[1:], " \t")
		}
		if v, ok := strings.CutPrefix(rest, `"`); ok {
			var b strings.Builder
			for i := 0; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' && i+1 < len(v) {
					i++
				}
				b.WriteByte(v[i])
			}
			rest = b.String()
		}
		long, takes := name, rest != ""
		for _, e := range strings.Fields(names) {
			if k, l, ok := strings.Cut(e, "="); ok && norm(k) == norm(name) {
				long = l
			}
		}
		spec.eachLong(func(n string, t bool) bool {
			if norm(n) == norm(long) {
				long, takes = n, t
				return false
			}
			return true
		})
		switch {
		case takes:
			words = append(words, "--"+long+"="+rest)
		case rest == "" || strings.EqualFold(rest, "on") || strings.EqualFold(rest, "yes") || rest == "1" || strings.EqualFold(rest, "true"):
			words = append(words, "--"+long)
		}
	}
	return words
}
