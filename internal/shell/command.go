package shell

import (
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Command is an invocation's words parsed once by its program's row of
// the program table (testdata/corpus/README.md §9.1 "one argument model"): the
// subcommand path, the options before it, and the options and operands of
// the innermost (sub)command. Indexes are into the parsed words
// (Invocation.Args).
type Command struct {
	// Name is the program name the row was looked up by ("gunzip" of the
	// gzip row).
	Name string
	// Prog is the program's table row, nil for an unknown program.
	Prog *Program
	// Row is the innermost row: Prog, or the row of the last subcommand;
	// nil for an unknown program or an unknown subcommand.
	Row *Program
	// Sub is the subcommand path (["push"], ["compose", "exec"]); for a
	// program with subcommands, an unknown first operand is kept as its
	// subcommand (with a Partial grammar).
	Sub []string
	// SubAt are the indexes of the subcommand words.
	SubAt []int
	// Global are the program's own options before the first subcommand
	// (the zero value when there is no subcommand).
	Global ParsedOpts
	// Levels are the options of each level: the program's own, then each
	// subcommand's, the innermost last (its operands are ParsedOpts').
	// A program whose options may come at any level (kong: `harness eval
	// --feature f append`) is read across them (Command.AllValues).
	Levels []ParsedOpts
	// ParsedOpts are the options and operands of the innermost command.
	ParsedOpts
	// Config is, for git, the configuration in force for this run
	// (lower-cased keys): `-c key=value`, GIT_CONFIG_COUNT/KEY_n/VALUE_n in
	// the environment, and `git config` set earlier in the same command.
	// For ssh, the keywords of a configuration file the command wrote and
	// handed to it (-F FILE, ~/.ssh/config) that apply to the target host
	// (lower-cased: hostname, proxyjump, proxycommand, …; sshConfigFor).
	// Nil for other programs.
	Config map[string]string
	// FromFile are, for git, the pathspecs its --pathspec-from-file option
	// reads when the command makes their source known (a here-string or
	// literal stdin for "-", a file written earlier): judged like pathspec
	// operands. Nil otherwise.
	FromFile []string
}

// SubName is the first subcommand word, "" when there is none.
func (c *Command) SubName() string {
	if c == nil || len(c.Sub) == 0 {
		return ""
	}
	return c.Sub[0]
}

// Is reports whether the subcommand path starts with subs.
func (c *Command) Is(subs ...string) bool {
	if c == nil || len(c.Sub) < len(subs) {
		return false
	}
	for i, s := range subs {
		if c.Sub[i] != s {
			return false
		}
	}
	return true
}

// ParseCommand parses the words after a program (its identity, Identity)
// by the program table. An unknown program's words are parsed with
// UnknownSpec, an unknown subcommand's with UnknownSubSpec.
func ParseCommand(name string, words []string) *Command {
	return ParseCommandIn(name, words, nil)
}

// ParseCommandIn is ParseCommand for a run whose environment is env (the
// variables the command line exports to it; nil: none known): a Posixly
// grammar stops at the first operand when env has POSIXLY_CORRECT.
func ParseCommandIn(name string, words []string, env map[string]string) *Command {
	_, posix := env["POSIXLY_CORRECT"]
	spec := func(s OptSpec) OptSpec {
		if posix && s.Posixly {
			s.Stop = true
		}
		return s
	}
	p := Lookup(name)
	c := &Command{Name: name, Prog: p, Row: p}
	if p == nil {
		c.ParsedOpts = UnknownSpec().Parse(words, 0)
		c.Levels = []ParsedOpts{c.ParsedOpts}
		return c
	}
	row := p
	opts := spec(row.Opts).Parse(words, 0)
	for len(row.Subs) > 0 {
		first := opts.First()
		if first >= len(words) || opts.End >= 0 && first > opts.End {
			break // an operand after "--" names no subcommand (`git stash -- spec/`)
		}
		if d := row.Sub(row.Default); row.Default != "" && d != nil && row.Sub(words[first]) == nil {
			// an operand, not a subcommand: the words are the default
			// subcommand's (ruff < 0.5: `ruff --fix src` is `ruff check`)
			start := 0
			if len(c.SubAt) > 0 {
				start = c.SubAt[len(c.SubAt)-1] + 1
			}
			row, opts = d, spec(d.Opts).Parse(words, start)
			break
		}
		if len(c.Sub) == 0 {
			c.Global = opts
		}
		c.Levels = append(c.Levels, opts)
		w := words[first]
		c.Sub = append(c.Sub, w)
		c.SubAt = append(c.SubAt, first)
		row = row.Sub(w)
		if row != nil && hasName(row.Synonyms, w) {
			c.Sub[len(c.Sub)-1] = row.Name
		}
		if row == nil {
			opts = UnknownSubSpec().Parse(words, first+1)
			break
		}
		opts = spec(row.Opts).Parse(words, first+1)
	}
	c.Row = row
	c.ParsedOpts = opts
	c.Levels = append(c.Levels, opts)
	return c
}

// AllOpts calls fn for every option of every level (Levels), in order,
// until fn returns false.
func (c *Command) AllOpts(fn func(p *ParsedOpts, o *Opt) bool) {
	for i := range c.Levels {
		p := &c.Levels[i]
		for j := range p.Opts {
			if !fn(p, &p.Opts[j]) {
				return
			}
		}
	}
}

// AnyHas reports whether an option of any level is one of shorts or longs
// (ParsedOpts.Has).
func (c *Command) AnyHas(shorts string, longs ...string) bool {
	found := false
	c.AllOpts(func(p *ParsedOpts, o *Opt) bool {
		found = p.matches(o, shorts, longs)
		return !found
	})
	return found
}

// Rebind returns a copy of the command whose levels read their operands
// and option values from words (ParsedOpts.Rebind: the path guard's
// expanded values of the same words).
func (c *Command) Rebind(words []string) *Command {
	r := *c
	r.Global = c.Global.Rebind(words)
	r.ParsedOpts = c.ParsedOpts.Rebind(words)
	r.Levels = make([]ParsedOpts, len(c.Levels))
	for i := range c.Levels {
		r.Levels[i] = c.Levels[i].Rebind(words)
	}
	return &r
}

// AllValues returns the values of the options of every level (Levels)
// whose letter is in shorts or whose name is one of longs, in order
// (ParsedOpts.Values): `npm --prefix D install` and `npm install --prefix D`.
func (c *Command) AllValues(shorts string, longs ...string) []string {
	var vs []string
	for i := range c.Levels {
		vs = append(vs, c.Levels[i].Values(shorts, longs...)...)
	}
	return vs
}

// String renders the parse: "SUB: " (the subcommand path) and the
// innermost command's options and operands (ParsedOpts.String).
func (c *Command) String() string {
	if len(c.Sub) == 0 {
		return c.ParsedOpts.String()
	}
	return strings.Join(c.Sub, " ") + ": " + c.ParsedOpts.String()
}

// Written returns the files and the directories the command writes by its
// row's WriteSpec (Program.Writes), stdin being the command's known stdin
// (nil when unknown) and env its known environment (EnvDirs); nil for a
// row without one. A "-" (stdout) is not a file.
func (c *Command) Written(stdin *string, env map[string]string) (files, dirs []string) {
	if c == nil || c.Row == nil {
		return nil, nil
	}
	ws := &c.Row.Writes
	if *ws == (WriteSpec{}) {
		return nil, nil
	}
	p := c.ParsedOpts
	if d := c.ownChdir(); d != "" {
		// the files are relative to the program's own directory option
		// (`terraform -chdir=DIR plan -out=FILE`)
		defer func() {
			for _, l := range [][]string{files, dirs} {
				for i, f := range l {
					if f != "" && !path.IsAbs(f) && !strings.HasPrefix(f, "~") {
						l[i] = path.Join(d, f)
					}
				}
			}
		}()
	}
	if !ws.applies(p) {
		return nil, nil
	}
	if ws.Opts != "" || ws.Dirs != "" || ws.OutSuffix != "" {
		levels := []ParsedOpts{p}
		if ws.Levels {
			levels = c.Levels
		}
		for _, p := range levels {
			for i := range p.Opts {
				o := &p.Opts[i]
				if !o.HasValue || o.Value == "" || o.Value == "-" {
					continue
				}
				switch {
				case optNamed(p, o, ws.Opts):
					files = append(files, o.Value)
				case optNamed(p, o, ws.Dirs):
					dirs = append(dirs, o.Value)
				case ws.OutSuffix != "" && o.Long && strings.HasSuffix(o.Name, ws.OutSuffix):
					v := o.Value // protoc --cpp_out=OPTS:DIR
					if i := strings.LastIndexByte(v, ':'); i >= 0 {
						v = v[i+1:]
					}
					dirs = append(dirs, v)
				}
			}
		}
	}
	for _, k := range strings.Fields(ws.EnvDirs) {
		k, opts, cond := strings.Cut(k, "@")
		if v := env[k]; v != "" && (!cond || c.cwdCond(strings.ReplaceAll(opts, ",", " "), nil)) {
			dirs = append(dirs, v)
		}
	}
	if ws.Temp && !hasOpt(p, "u dry-run") {
		tmpdir, set := env["TMPDIR"]
		if name, ok := mktempName(p, tmpdir, set); ok {
			if hasOpt(p, "d directory") {
				dirs = append(dirs, name)
			} else {
				files = append(files, name)
			}
		}
	}
	moved := false
	for _, k := range strings.Fields(ws.EnvUnless) {
		if env[k] != "" {
			moved = true
		}
	}
	if moved {
		return files, dirs
	}
	if ws.Mounts != "" {
		for i := range p.Opts {
			if o := &p.Opts[i]; o.HasValue && optNamed(p, o, ws.Mounts) {
				if host, ok := bindSource(o.Value); ok {
					dirs = append(dirs, host)
				}
			}
		}
	}
	if ws.Exports != "" {
		for i := range p.Opts {
			if o := &p.Opts[i]; o.HasValue && optNamed(p, o, ws.Exports) {
				if dest := exportDest(o.Value); dest != "" {
					dirs = append(dirs, dest)
				}
			}
		}
	}
	if ws.Fixed != "" {
		f, d := ws.fixed(p)
		files, dirs = append(files, f...), append(dirs, d...)
	}
	ops := p.OperandValues()
	if ws.Cwd != "" {
		f, d := c.cwdOutputs(ops, stdin, env)
		files, dirs = append(files, f...), append(dirs, d...)
	}
	multi := ws.Multi == "" || len(ops) == 1 || hasOpt(p, ws.Multi)
	if ws.Ext != "" && !hasOpt(p, ws.Opts) && multi {
		files = append(files, ws.siblings(p, c.Name, ops)...)
	}
	if ws.Beside && len(ops) > 0 && !hasOpt(p, ws.Instead) { // no operand: nothing processed (javac -version)
		dirs = append(dirs, ws.beside(p, ops, env)...)
	}
	switch {
	case ws.Tree:
		// Trees
	case ws.All && ws.Pairs != "":
		files = append(files, ws.paired(p)...)
	case ws.All:
		skip := ws.Skip
		for i := range p.Opts {
			if ws.NoSkip != "" && optNamed(p, &p.Opts[i], ws.NoSkip) {
				skip = 0
			}
		}
		ops = ops[min(skip, len(ops)):]
		for _, v := range ops {
			if v != "-" {
				files = append(files, v)
			}
		}
	case ws.Last > 0 && len(ops) >= ws.Last && ops[len(ops)-1] != "-" && (ws.Multi == "" || !multi):
		files = append(files, ops[len(ops)-1])
	}
	if ws.First && len(ops) > 0 && ops[0] != "-" {
		readOnly := false
		for i := range p.Opts {
			if ws.ReadOnly != "" && optNamed(p, &p.Opts[i], ws.ReadOnly) {
				readOnly = true
			}
		}
		if f, ok := ws.file(ops[0]); ok && !readOnly {
			files = append(files, f)
		}
	}
	if ws.Operand > 0 && ws.Operand <= len(ops) {
		dirs = append(dirs, ops[ws.Operand-1])
	}
	if n := ws.OperandFile; n > 0 && n <= len(ops) && ops[n-1] != "-" {
		files = append(files, ops[n-1])
	}
	if ws.Edited && !hasOpt(p, ws.ReadOnly) && c.EditsOperands(stdin) {
		for _, v := range ops {
			if !strings.HasPrefix(v, "+") && v != "-" {
				files = append(files, v)
			}
		}
	}
	if ws.Grammar != "" {
		g := grammarWrites(ws.Grammar, p)
		files, dirs = append(files, g.files...), append(dirs, g.dirs...)
	}
	if ws.Ed {
		def := ""
		if len(ops) > 0 && !strings.HasPrefix(ops[0], "!") {
			def = ops[0] // `ed !CMD` reads the command's output
		}
		if stdin == nil {
			if def != "" {
				files = append(files, def)
			}
		} else {
			files = append(files, EdWrites(*stdin, def)...)
		}
	}
	if ws.Lines != "" || ws.Strings != "" {
		texts := ops
		if ws.First && len(texts) > 0 {
			texts = texts[1:] // the database, not a text
		}
		for i := range p.Opts {
			if p.Opts[i].HasValue {
				texts = append(texts, p.Opts[i].Value)
			}
		}
		if stdin != nil {
			texts = append(texts, *stdin)
		}
		for _, t := range texts {
			for _, line := range strings.Split(t, "\n") {
				if ws.Edits != "" {
					files = append(files, c.lineFiles(line)...) // an editor's command line
				} else if f, ok := ws.lineFile(line); ok {
					files = append(files, f)
				}
			}
			for _, lit := range phraseStrings(ws.Strings, t) {
				if f, ok := ws.file(lit); ok {
					files = append(files, f)
				}
			}
		}
	}
	// a URL (s3://b/k, rtmp://h/x) is not a file of this machine
	files = slices.DeleteFunc(files, func(f string) bool { return strings.Contains(f, "://") || ws.Remote.names(f) })
	return files, dirs
}

// Backups returns the names of the backup copies the command makes of
// file, a file it replaces or edits in place (WriteSpec.Backup), env being
// the command's known environment; nil when it makes none.
func (c *Command) Backups(file string, env map[string]string) []string {
	if c == nil || c.Row == nil || c.Row.Writes.Backup == (BackupSpec{}) || file == "" || file == "-" {
		return nil
	}
	b := &c.Row.Writes.Backup
	p := c.ParsedOpts
	given, off := false, false
	control, hasControl := "", false
	suffix, hasSuffix, prefix, basePrefix := "", false, "", ""
	for i := range p.Opts {
		o := &p.Opts[i]
		switch {
		case optNamed(p, o, b.On):
			given = true
			if o.HasValue {
				control, hasControl = o.Value, true
			}
		case b.Off != "" && optNamed(p, o, b.Off):
			off = true
		case optNamed(p, o, b.Suffix):
			suffix, hasSuffix = o.Value, o.HasValue && o.Value != ""
		case optNamed(p, o, b.Prefix):
			prefix = o.Value
		case optNamed(p, o, b.BasePrefix):
			basePrefix = o.Value
		}
	}
	if !hasControl && b.Control != "" {
		control = env[b.Control]
	}
	if control == "none" || control == "off" {
		return nil
	}
	switch {
	case given:
	case off:
		return nil // patch --no-backup-if-mismatch without -b
	case b.Always, hasSuffix || prefix != "" || basePrefix != "":
	default:
		return nil
	}
	if b.Star && hasSuffix && strings.Contains(suffix, "*") {
		return []string{strings.ReplaceAll(suffix, "*", file)}
	}
	if !hasSuffix {
		suffix = b.Default
		if prefix != "" || basePrefix != "" {
			suffix = ""
		} else if v, ok := env[b.Env]; ok && b.Env != "" && v != "" {
			suffix = v
		}
	}
	if !b.Star && strings.Contains(suffix, "/") {
		suffix = b.Default
	}
	dir, base := "", file
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		dir, base = file[:i+1], file[i+1:]
	}
	return []string{prefix + dir + basePrefix + base + suffix}
}

// lineFile returns the file a line of the program's own commands writes
// (Lines: its last word), none for "-", stdout, stderr and off (sqlite3's
// standard streams and `.log off`), and none when a word starts with '|'
// (a pipe into a command, RunSpec.Pipe: `.output |CMD ARGS`, `.once
// '|CMD'`).
func (ws *WriteSpec) lineFile(line string) (string, bool) {
	fs := strings.Fields(line)
	if ws.Lines == "" || len(fs) < 2 || !isMod(ws.Lines, fs[0]) {
		return "", false
	}
	for _, w := range fs[1:] {
		if strings.HasPrefix(strings.TrimLeft(w, `"'`), "|") {
			return "", false
		}
	}
	switch f := strings.Trim(fs[len(fs)-1], `"'`); f {
	case "-", "stdout", "stderr", "off", "":
		return "", false
	default:
		return f, true
	}
}

// beside returns the directories a Beside spec writes below: each
// operand's, then the Finds directories (WriteSpec.Beside).
func (ws *WriteSpec) beside(p ParsedOpts, ops []string, env map[string]string) []string {
	var dirs []string
	seen := map[string]bool{}
	add := func(d string) {
		if d != "" && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	for _, f := range ops {
		if f != "" && f != "-" {
			add(path.Dir(f))
		}
	}
	if ws.NoFind == "*" || hasOpt(p, ws.NoFind) {
		return dirs // "*": it searches for no inputs (a compressor's FILE.gz is beside FILE only)
	}
	var lists []string
	for _, group := range strings.Split(ws.Finds, ";") {
		if group = strings.TrimSpace(group); group == "" {
			continue
		}
		for i := range p.Opts {
			if o := &p.Opts[i]; o.HasValue && optNamed(p, o, group) {
				lists = append(lists, o.Value)
			}
		}
		if lists != nil {
			break
		}
	}
	if lists == nil && ws.FindsEnv != "" {
		if v, ok := env[ws.FindsEnv]; ok {
			lists = []string{v}
		}
	}
	if lists == nil {
		lists = []string{"."}
	}
	for _, l := range lists {
		for _, d := range strings.Split(l, string(filepath.ListSeparator)) {
			if d == "" {
				d = "." // an empty entry is the current directory
			}
			if e := strings.ToLower(path.Ext(d)); e == ".jar" || e == ".zip" || strings.HasSuffix(d, "*") {
				continue
			}
			add(d)
		}
	}
	return dirs
}

// hasOpt reports whether p has an option named in names.
func hasOpt(p ParsedOpts, names string) bool {
	for i := range p.Opts {
		if optNamed(p, &p.Opts[i], names) {
			return true
		}
	}
	return false
}

// siblings returns the files an Ext spec writes beside the operands ops of
// the program name: FILE+SUFFIX, or FILE without SUFFIX when undoing (an
// Undo option, or name in UndoNames), SUFFIX being the last ExtOpts value
// (when undoing, the name's own suffix too: gzip -d -S .bak still takes
// a.gz) ; an operand without the suffix writes no sibling (gzip: "unknown
// suffix -- ignored").
func (ws *WriteSpec) siblings(p ParsedOpts, name string, ops []string) []string {
	def := ""
	for _, e := range strings.Fields(ws.Ext) {
		k, v, ok := strings.Cut(e, "=")
		switch {
		case !ok && def == "":
			def = k
		case ok && k == name:
			def = v
		}
	}
	exts := []string{def}
	for i := range p.Opts {
		if o := &p.Opts[i]; o.HasValue && o.Value != "" && optNamed(p, o, ws.ExtOpts) {
			exts[0] = o.Value
		}
	}
	undo := hasName(ws.UndoNames, name) || hasOpt(p, ws.Undo)
	if undo && exts[0] != def {
		exts = append(exts, def)
	}
	var out []string
	for _, f := range ops {
		if f == "-" || f == "" {
			continue
		}
		if !undo {
			out = append(out, f+exts[0])
			continue
		}
		for _, x := range exts {
			if x != "" && len(f) > len(x) && strings.HasSuffix(f, x) && !strings.HasSuffix(f, "/"+x) {
				out = append(out, strings.TrimSuffix(f, x))
				break
			}
		}
	}
	return out
}

// lineFiles returns the files the commands of Writes.Lines on one line of
// an editor's script (Writes.Edits) write: the last word of their
// argument, none for "-", a '|' pipe or a `!CMD` filter.
func (c *Command) lineFiles(line string) []string {
	var files []string
	for line != "" {
		name, arg, rest := c.scriptCommand(line)
		line = rest
		if !isMod(c.Row.Writes.Lines, name) {
			continue
		}
		if fs := strings.Fields(arg); len(fs) >= 1 && fs[len(fs)-1] != "-" && !strings.HasPrefix(fs[len(fs)-1], "|") && !strings.HasPrefix(arg, "!") {
			files = append(files, strings.Trim(fs[len(fs)-1], `"'`))
		}
	}
	return files
}

// scriptCommand splits the first command off a line of an editor's
// script (Writes.Edits), read as vim reads an Ex command line: after ':',
// '+', a range and the row's RunSpec.Mods, the name ends before a blank,
// '!' or '|', a '!' after it is dropped, and a '|' ends the command unless
// the argument is a `!CMD` filter. It returns the name, the argument and
// the commands after it.
func (c *Command) scriptCommand(line string) (name, arg, rest string) {
	t := strings.TrimLeft(line, " \t:+")
	t = strings.TrimLeft(t, "%$.0123456789,;+- \t")
	t = c.Row.Runs.stripMods(strings.TrimLeft(t, " \t:"))
	end := strings.IndexAny(t, " \t!|")
	if end < 0 {
		end = len(t)
	}
	name, arg = t[:end], strings.TrimPrefix(t[end:], "!")
	arg = strings.TrimLeft(arg, " \t")
	if !strings.HasPrefix(arg, "!") {
		if i := strings.IndexByte(arg, '|'); i >= 0 {
			arg, rest = arg[:i], arg[i+1:]
		}
	}
	return name, strings.TrimSpace(arg), rest
}

// EditsOperands reports whether an editor (Writes.Edits) writes the files
// it edits, its operands: its commands (the values of RunSpec.Shell
// options and the +CMD operands, in order, then a known stdin in a
// Writes.Script mode) include a write that names no file or a command the
// guard does not follow before they end, or they leave it interactive. A
// row without Edits writes them.
func (c *Command) EditsOperands(stdin *string) bool {
	if c == nil || c.Row == nil || c.Row.Writes.Edits == "" {
		return true
	}
	ws, p := &c.Row.Writes, c.ParsedOpts
	type text struct {
		at int
		s  string
	}
	var texts []text
	script := ws.Script == "*"
	for i := range p.Opts {
		o := &p.Opts[i]
		if o.HasValue && optNamed(p, o, c.Row.Runs.Shell) {
			texts = append(texts, text{o.Arg, o.Value})
		}
		if ws.Script != "" && optNamed(p, o, ws.Script) {
			script = true
		}
	}
	for _, k := range p.Operands {
		if v := p.words[k]; strings.HasPrefix(v, "+") {
			texts = append(texts, text{k, v[1:]})
		}
	}
	slices.SortStableFunc(texts, func(a, b text) int { return a.at - b.at })
	if script && stdin != nil {
		texts = append(texts, text{s: *stdin})
	}
	for _, t := range texts {
		for _, line := range strings.Split(t.s, "\n") {
			for line != "" {
				name, arg, rest := c.scriptCommand(line)
				line = rest
				named := arg != "" && !strings.HasPrefix(arg, "!") && isMod(ws.Lines, name)
				switch {
				case name == "":
				case isMod(ws.Edits, name) && !named && !strings.HasPrefix(arg, "!"):
					return true
				case isMod(ws.Ends, name):
					return false
				}
			}
		}
	}
	return !(script && stdin != nil)
}

// applies reports whether the options p let the spec write at all (If,
// Unless).
func (ws *WriteSpec) applies(p ParsedOpts) bool {
	on := ws.If == "" && !ws.Assign
	for i := range p.Opts {
		switch o := &p.Opts[i]; {
		case ws.Unless != "" && optNamed(p, o, ws.Unless):
			return false
		case ws.If != "" && optNamed(p, o, ws.If):
			on = true
		case ws.Assign && o.HasValue && o.ValArg == o.Arg && !o.Takes:
			on = true // exiftool -TAG=VALUE
		}
	}
	return on
}

// paired returns the operands an All spec with Pairs writes: each one
// before a Pairs option (or after a Singles one), and the second of each
// pair after it.
func (ws *WriteSpec) paired(p ParsedOpts) []string {
	var files []string
	pairs, in := false, ""
	lone := func() { // an INFILE without its OUTFILE
		if pairs && in != "" && in != "-" {
			files = append(files, in)
		}
		in = ""
	}
	oi := 0
	for _, k := range p.Operands {
		for ; oi < len(p.Opts) && p.Opts[oi].Arg < k; oi++ {
			switch o := &p.Opts[oi]; {
			case optNamed(p, o, ws.Pairs):
				lone()
				pairs = true
			case ws.Singles != "" && optNamed(p, o, ws.Singles):
				lone()
				pairs = false
			}
		}
		v := p.words[k]
		switch {
		case !pairs:
			if v != "-" {
				files = append(files, v)
			}
		case in == "":
			in = v
			if in == "" {
				in = "-" // an empty INFILE still takes its OUTFILE
			}
		default:
			if v != "-" {
				files = append(files, v)
			}
			in = ""
		}
	}
	lone()
	return files
}

// WritesApply reports whether the command's options let its row's
// WriteSpec write at all (WriteSpec.If, WriteSpec.Unless: not `mdformat
// --check`, not `codespell` without -w); false without a row.
func (c *Command) WritesApply() bool {
	return c != nil && c.Row != nil && c.Row.Writes.applies(c.ParsedOpts)
}

// RewritesOperands reports whether a Tree spec rewrites the files it is
// handed (its operands, the paths xargs hands it): the options let it
// (If, Unless, TreeIf) and so do those of the Through program.
func (c *Command) RewritesOperands() bool {
	if c == nil || c.Row == nil || !c.Row.Writes.Tree {
		return false
	}
	ws, p := &c.Row.Writes, c.ParsedOpts
	if !ws.applies(p) || ws.TreeIf != "" && !optGiven(p, ws.TreeIf) {
		return false
	}
	if ws.Through != "" {
		// the words after "--" are the other program's (cargo fmt -- --check)
		if r := Lookup(ws.Through); r != nil && !r.Writes.applies(r.Opts.Parse(p.After(), 0)) {
			return false
		}
	}
	return true
}

// Trees returns the files and directories a Tree spec (Program.Writes)
// rewrites in place: its operands, "." without one when Here; nil for
// any other row or when the options make it write nothing (If, Unless:
// `mdformat --check`, `codespell` without -w).
func (c *Command) Trees() []string {
	if c == nil || c.Row == nil {
		return nil
	}
	ws := &c.Row.Writes
	p := c.ParsedOpts
	if ws.Grammar != "" && ws.applies(p) {
		return grammarWrites(ws.Grammar, p).trees
	}
	if !c.RewritesOperands() {
		return nil
	}
	ops := p.OperandValues()
	if ws.Through != "" {
		ops = ops[:len(ops)-len(p.After())]
	}
	var out []string
	for _, v := range ops {
		if v == "-" || v == "" || strings.Contains(v, "://") {
			continue
		}
		if v == "..." {
			v = "."
		} else if d, ok := strings.CutSuffix(v, "/..."); ok {
			v = d
		}
		out = append(out, v)
	}
	if len(out) == 0 && ws.Here && len(ops) == 0 {
		out = append(out, ".")
	}
	return out
}

// file returns the file a First operand or a Strings literal v names
// (URI: a SQLite URI filename is decoded) and whether it is written.
func (ws *WriteSpec) file(v string) (string, bool) {
	if !ws.URI {
		return v, v != ""
	}
	if v == "" || v == ":memory:" {
		return "", false
	}
	rest, ok := cutPrefixFold(v, "file:")
	if !ok {
		return v, true
	}
	query := ""
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest, query = rest[:i], rest[i:]
	}
	if strings.HasPrefix(rest, "//") {
		// file://[localhost]/abs/path
		rest = rest[2:]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[i:]
		} else {
			rest = ""
		}
	}
	rest = percentDecode(rest)
	q := strings.ToLower(query)
	for _, kv := range strings.FieldsFunc(strings.TrimLeft(q, "?#"), func(r rune) bool { return r == '&' || r == '#' }) {
		if kv == "mode=ro" || kv == "mode=memory" || kv == "immutable=1" {
			return "", false
		}
	}
	return rest, rest != ""
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// phraseStrings returns the single-quoted string literals that follow one
// of the comma-separated phrases (WriteSpec.Strings) in text: the phrase
// compared case-insensitively, each blank in it matching a run of blanks
// (” inside a literal is a quote, SQL's escape).
func phraseStrings(phrases, text string) []string {
	if phrases == "" || !strings.Contains(text, "'") {
		return nil
	}
	lower := strings.ToLower(text)
	// quoted marks the bytes inside a string literal: a phrase there is text
	quoted := make([]bool, len(text))
	for i, in := 0, false; i < len(text); i++ {
		if text[i] == '\'' {
			in = !in // '' inside a literal toggles twice
			continue
		}
		quoted[i] = in
	}
	var out []string
	for _, ph := range strings.Split(phrases, ",") {
		words := strings.Fields(strings.ToLower(ph))
		if len(words) == 0 {
			continue
		}
		for from := 0; ; {
			i := strings.Index(lower[from:], words[0])
			if i < 0 {
				break
			}
			at := from + i
			from = at + len(words[0])
			if at > 0 && isWordByte(lower[at-1]) || quoted[at] {
				continue
			}
			j, ok := from, true
			for _, w := range words[1:] {
				k := j
				for k < len(lower) && (lower[k] == ' ' || lower[k] == '\t' || lower[k] == '\n' || lower[k] == '\r') {
					k++
				}
				if k == j || !strings.HasPrefix(lower[k:], w) {
					ok = false
					break
				}
				j = k + len(w)
			}
			if !ok {
				continue
			}
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
				j++
			}
			if j >= len(text) || text[j] != '\'' {
				continue
			}
			var b strings.Builder
			k := j + 1
			for k < len(text) {
				if text[k] == '\'' {
					if k+1 < len(text) && text[k+1] == '\'' {
						b.WriteByte('\'')
						k += 2
						continue
					}
					break
				}
				b.WriteByte(text[k])
				k++
			}
			out = append(out, b.String())
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// percentDecode decodes the %XX escapes of a URI path (others kept).
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if h, ok1 := unhex(s[i+1]); ok1 {
				if l, ok2 := unhex(s[i+2]); ok2 {
					b.WriteByte(h<<4 | l)
					i += 2
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// ownChdir is the value of the last of the Chdir options of a program that
// is not a wrapper (a KindTool or KindWrite row: `terraform -chdir=DIR`):
// the directory its own output files are relative to; "" without one. A
// wrapper's Chdir moves the command it runs instead (walker.inDir).
func (c *Command) ownChdir() string {
	row := c.Prog
	if row == nil || row.Chdir == "" || (row.Kind != KindTool && row.Kind != KindWrite) {
		return ""
	}
	d := ""
	for k := range c.ParsedOpts.Opts {
		if o := &c.ParsedOpts.Opts[k]; o.HasValue && hasName(row.Chdir, o.Name) {
			d = o.Value
		}
	}
	return d
}

// exportDest is the local path a BuildKit export writes (WriteSpec.Exports):
// the dest= field of `type=…,dest=PATH`, or the whole value when it has no
// '=' (`-o out` is type=local,dest=out); "" for "-" (stdout) and for an
// export without dest (type=registry, type=image).
func exportDest(v string) string {
	if v == "-" || v == "" {
		return ""
	}
	if !strings.Contains(v, "=") {
		return v
	}
	for _, f := range strings.Split(v, ",") {
		if k, val, _ := strings.Cut(f, "="); strings.TrimSpace(k) == "dest" && val != "-" {
			return val
		}
	}
	return ""
}

// bindSource is the host path of a read-write bind mount (WriteSpec.Mounts):
// `HOST:CTR[:OPTS]` with HOST a path (starting with '/', '.' or '~'; any
// other name is a named volume) and no "ro"/"readonly" among OPTS, or
// `--mount` fields with type=bind, src=|source=HOST and no readonly|ro
// (readonly=false and ro=false keep it writable). False for anything else.
func bindSource(v string) (string, bool) {
	if strings.Contains(v, "=") {
		bind, host, ro := false, "", false
		for _, f := range strings.Split(v, ",") {
			k, val, _ := strings.Cut(f, "=")
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "type":
				bind = val == "bind"
			case "src", "source":
				host = val
			case "readonly", "ro":
				ro = val == "" || val == "true" || val == "1"
			}
		}
		return host, bind && host != "" && !ro
	}
	parts := strings.Split(v, ":")
	if len(parts) < 2 || parts[0] == "" || !strings.ContainsAny(parts[0][:1], "/.~") {
		return "", false
	}
	if len(parts) >= 3 {
		for _, o := range strings.Split(parts[2], ",") {
			if o == "ro" || o == "readonly" {
				return "", false
			}
		}
	}
	return parts[0], true
}

// UnknownName stands for a file name the guard does not derive, inside a
// known directory (WriteSpec.Cwd's "*": `npm pack` writes
// NAME-VERSION.tgz); the path guard's rules match it only by their
// wildcard rows.
const UnknownName = "\x01unknown"

// CloneName returns the directory `git clone URL` (and `hg clone URL`)
// makes without a DEST operand: the URL's last path component, after a
// ':' of scp-like syntax too, without a trailing "/" or ".git"; "" when
// there is none.
func CloneName(url string) string {
	name := strings.TrimSuffix(path.Base(strings.TrimRight(strings.ReplaceAll(url, ":", "/"), "/")), ".git")
	if name == "" || name == "." || name == "/" || name == ".." {
		return ""
	}
	return name
}

// cwdCond reports whether COND of a WriteSpec.Cwd entry holds (ops: the
// operands).
func (c *Command) cwdCond(cond string, ops []string) bool {
	if strings.TrimSpace(cond) == "" {
		return true
	}
	for _, w := range strings.Fields(cond) {
		if n, ok := strings.CutPrefix(w, "#"); ok {
			if k, err := strconv.Atoi(n); err == nil && len(ops) >= k {
				return true
			}
			continue
		}
		if word, ok := strings.CutPrefix(w, "@"); ok {
			if len(ops) > 0 && ops[0] == word {
				return true
			}
			continue
		}
		name, val, withVal := strings.Cut(w, "=")
		found := false
		c.ownOpts(func(p *ParsedOpts, o *Opt) bool {
			found = optNamed(*p, o, name) && (!withVal || o.HasValue && o.Value == val)
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// cwdOutputs returns the files and directories of the row's WriteSpec.Cwd
// (ops: the operands), in CwdIn's directory when one is given.
func (c *Command) cwdOutputs(ops []string, stdin *string, env map[string]string) (files, dirs []string) {
	ws := &c.Row.Writes
	dir := ""
	for _, w := range strings.Fields(ws.CwdIn) {
		if n, ok := strings.CutPrefix(w, "#"); ok {
			if k, err := strconv.Atoi(n); err == nil && k >= 1 && k <= len(ops) && ops[k-1] != "" {
				dir = ops[k-1]
			}
			continue
		}
		c.ownOpts(func(p *ParsedOpts, o *Opt) bool {
			if o.HasValue && o.Value != "" && optNamed(*p, o, w) {
				dir = o.Value
			}
			return true
		})
	}
	in := func(name string) string {
		if dir == "" {
			return name
		}
		return path.Join(dir, name)
	}
	add := func(name string) {
		switch {
		case name == "":
		case strings.HasSuffix(name, "/"):
			dirs = append(dirs, in(strings.TrimSuffix(name, "/")))
		default:
			files = append(files, in(name))
		}
	}
	for _, group := range strings.Split(ws.Cwd, "|") {
		for _, e := range strings.Split(group, ";") {
			cond, names, _ := strings.Cut(e, ":")
			if !c.cwdCond(cond, ops) {
				continue
			}
			for _, n := range strings.Fields(names) {
				switch {
				case n == "*":
					add(UnknownName)
				case strings.Contains(n, "{base}"):
					if len(ops) == 0 {
						add(UnknownName)
					}
					for _, op := range ops {
						add(strings.ReplaceAll(n, "{base}", baseName(op)))
					}
				case strings.HasPrefix(n, "$"):
					add(env[n[1:]])
				case n == "{begin}":
					if stdin == nil || len(ops) > 0 && ops[0] != "-" {
						add(UnknownName)
						continue
					}
					for _, name := range beginNames(*stdin) {
						add(name)
					}
				case strings.Contains(n, "{url}"):
					if len(ops) > 0 {
						if u := CloneName(ops[0]); u != "" {
							add(strings.ReplaceAll(n, "{url}", u))
						}
					}
				default:
					add(n)
				}
			}
			break
		}
	}
	return files, dirs
}

// baseName returns an operand's base name without its last extension
// (`src/x.c` → x, `../internal/render` → render), UnknownName for one
// that names no single file or package (`./...`, ".", "-").
func baseName(op string) string {
	b := path.Base(strings.TrimRight(strings.ReplaceAll(op, "\\", "/"), "/"))
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	if b == "" || b == "." || b == ".." || b == "/" || b == "-" || strings.Contains(b, "...") {
		return UnknownName
	}
	return b
}

// ownOpts calls fn for the options of every level (Levels) that belong to
// it: a level before a subcommand only for the words before that
// subcommand (`go test -race`: -race is test's, not go's), until fn
// returns false.
func (c *Command) ownOpts(fn func(p *ParsedOpts, o *Opt) bool) {
	for i := range c.Levels {
		p := &c.Levels[i]
		for j := range p.Opts {
			if i < len(c.SubAt) && p.Opts[j].Arg >= c.SubAt[i] {
				break
			}
			if !fn(p, &p.Opts[j]) {
				return
			}
		}
	}
}

// beginNames returns the NAME of each `begin MODE NAME` and `begin-base64
// MODE NAME` line of a uuencoded text (uuencode(5)); "/dev/stdout" and "-"
// name no file.
func beginNames(text string) []string {
	var names []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "begin" && f[0] != "begin-base64" {
			continue
		}
		name := strings.TrimSpace(strings.SplitN(strings.TrimSpace(line[len(f[0]):]), " ", 2)[1])
		if name != "" && name != "-" && name != "/dev/stdout" {
			names = append(names, name)
		}
	}
	return names
}
