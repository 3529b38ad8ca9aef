package pathguard

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// bashTarget is one write target of a Bash invocation.
type bashTarget struct {
	path string // path text: absolute, or relative to base
	base string // directory a relative path is joined to
	op   op
	what string // the writer, for messages ("redirect >", "sed -i", …)
	// dflt, when set, is the cautious default that made the target a write
	// (an unknown program's word); a block says so and how to read instead.
	dflt string
	// dfltHint replaces that way forward when set (the working-directory
	// default: run the program from elsewhere).
	dfltHint string
}

// CheckInvocation decides the write targets of one simple command found by
// shell.Parse (testdata/corpus/README.md §3.3): redirections, the file operands of
// writers (tee, sed -i, cp/mv/ln/install/rsync destinations, rm, …),
// patch/git apply diffs, downloads, archive extraction, interpreter file
// writes, in-place formatters, whole-tree operations and listings. Relative
// targets are joined to the directory the command runs in (inv.Dir against
// cwd; DirUnknown → cwd), and again to every other directory the command may
// run in (inv.AltDirs: an earlier cd may have failed); the strongest verdict
// wins. The first blocking target, left to right, decides; reads are never
// blocked. Returns Allow when no target is protected.
func (g *Guard) CheckInvocation(inv shell.Invocation, cwd string) verdict.Decision {
	if elsewhere(inv.Via) {
		return verdict.Decision{}
	}
	d := g.checkInvocationIn(inv, cwd)
	for _, a := range inv.AltDirs {
		if d.Action == verdict.Block {
			break
		}
		alt := inv
		alt.Dir, alt.UnknownSub, alt.AltDirs = a.Dir, a.UnknownSub, nil
		d = verdict.Max(d, g.checkInvocationIn(alt, cwd))
	}
	return d
}

// checkInvocationIn is CheckInvocation for the one directory inv.Dir.
func (g *Guard) checkInvocationIn(inv shell.Invocation, cwd string) verdict.Decision {
	if cwd == "" {
		cwd = g.rootLex
	}
	inv.Command() // parsed by shell.Parse; by the table here for a hand-made invocation
	c := collector{g: g, inv: inv, cwd: cwd, base: invBase(g.home(inv.Dir), cwd)}
	c.args = make([]string, len(inv.Args))
	for i, w := range inv.Args {
		c.args[i] = g.wordValue(w, c.base)
	}
	var made []madeLink
	if g.links != nil {
		c.made = &made // the links this invocation creates are not followed for their own names
	}
	c.program()
	c.redirects()
	own := g.ownLinks(made)
	for _, t := range c.targets {
		if d := g.judgeBash(t, own); d.Action == verdict.Block {
			return d
		}
		if baseUnknown(inv, &c, t) {
			if d := g.judgeUnknownBase(t, inv.UnknownSub); d.Action == verdict.Block {
				return d
			}
		}
	}
	return verdict.Decision{}
}

// elsewhere reports a command that runs on another machine or in a
// container (shell.Elsewhere): its paths are not the workspace's.
// Redirections of the ssh or docker command itself are local and are
// judged on that outer invocation.
func elsewhere(via []string) bool { return shell.Elsewhere(via) }

// invBase is the directory the command runs in (shell.Invocation.Dir).
func invBase(dir, cwd string) string {
	switch {
	case dir == "" || dir == shell.DirUnknown:
		return cwd
	case filepath.IsAbs(dir):
		return dir
	default:
		return absJoin(cwd, dir)
	}
}

// judgeBash resolves one target (expanding a glob against the file system
// as well as judging its text) and decides it. own holds the overlay keys
// of the links the invocation itself creates (see ForCommand).
func (g *Guard) judgeBash(t bashTarget, own map[string]bool) verdict.Decision {
	if t.path == "" {
		return verdict.Decision{}
	}
	if t.dflt != "" {
		d := g.judgeBash(bashTarget{path: t.path, base: t.base, op: t.op, what: t.what}, own)
		if d.Action == verdict.Block {
			d.Message += " (" + t.dflt + ")"
			if t.dfltHint != "" {
				d.Hint = t.dfltHint
			} else {
				d.Hint = "to read the file use cat, less, head, grep or jq, or give it on stdin; " + d.Hint
			}
		}
		return d
	}
	tool := "Bash (" + t.what + ")"
	if lit, ok := globLiteral(t.path); ok && lit != t.path {
		// the pattern's only possible match (f00[2] is f002): bash expands
		// the word to it when it exists and leaves the text otherwise,
		// which is written only when its directory exists (bash 5.2 here:
		// `touch f00[2]/new.md` fails without a directory "f00[2]"); with
		// neither, the match is judged
		_, errLit := os.Lstat(absJoin(t.base, lit))
		_, errText := os.Lstat(filepath.Dir(absJoin(t.base, t.path)))
		if errLit == nil || errText != nil {
			lt := t
			lt.path = lit
			return g.judgeBash(lt, own)
		}
	}
	d := g.judge(g.resolve(t.base, t.path), t.op, tool, nil)
	if d.Action != verdict.Block && g.links != nil {
		// also as it resolves once the links this command creates exist
		d = g.judgeOverlay(t.base, t.path, t.op, t.what, own)
	}
	if alt, ok := backslashSeparated(t.path); ok && d.Action != verdict.Block {
		if ad := g.judge(g.resolve(t.base, alt), t.op, tool, nil); ad.Action == verdict.Block {
			return backslashReading(ad)
		}
	}
	if d.Action == verdict.Block || !hasGlobMeta(t.path) {
		return d
	}
	pattern := absJoin(t.base, t.path)
	matches, _ := filepath.Glob(pattern)
	for i, m := range matches {
		if i >= 256 {
			break
		}
		if d := g.judge(g.resolve(t.base, m), t.op, tool, nil); d.Action == verdict.Block {
			return d
		}
	}
	return verdict.Decision{}
}

func hasGlobMeta(p string) bool { return strings.ContainsAny(p, "*?[") }

// globLiteral returns the one path a glob pattern can match when that is
// decidable from the pattern alone: each bracket expression has a single
// member (`f00[2]`, `[.]x`, `[\]]`), and there is no '*', '?' or class.
// ok is false for any other pattern.
func globLiteral(p string) (string, bool) {
	if !hasGlobMeta(p) {
		return p, true
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*', '?':
			return "", false
		case '\\':
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		case '[':
			// [X] with one member X that is no negation, range or class
			j := i + 1
			m := byte(0)
			switch {
			case j+2 < len(p) && p[j] == '\\' && p[j+2] == ']':
				m, i = p[j+1], j+2
			case j+1 < len(p) && p[j] != '!' && p[j] != '^' && p[j] != '[' && p[j] != '/' && p[j+1] == ']':
				m, i = p[j], j+1
			default:
				return "", false
			}
			b.WriteByte(m)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// placeholder stands for an unknown file name inside a known directory; it
// matches only wildcard rows of the rules table.
const placeholder = shell.UnknownName

// wordValue returns the path text of a word: its value when known; with
// $HARNESS_ROOT, $PWD and $(pwd) expanded when the shell left them unknown;
// otherwise the known directory before the first unknown part with a
// placeholder name, or "" when even the directory is unknown.
func (g *Guard) wordValue(w shell.Word, base string) string {
	if p, ok := procCwd(w, base); ok {
		return p // /proc/self/cwd/…, /proc/$$/cwd/…
	}
	if w.Known {
		// the shell reads `$(which NAME)` as NAME; the hook executable's
		// lookup names the executable (WithHookExecutable)
		if e := g.expandWhich(w.Raw); e != w.Raw {
			return g.wordValue(shell.Word{Raw: e}, base)
		}
		return w.Value
	}
	raw := w.Raw
	if raw == "" {
		return ""
	}
	raw = g.expandWhich(raw)
	raw = expandVar(raw, "HARNESS_ROOT", g.rootLex)
	raw = expandVar(raw, "PWD", base)
	raw = strings.ReplaceAll(raw, "$(pwd)", base)
	raw = strings.ReplaceAll(raw, "`pwd`", base)
	// Literal prefix up to the first remaining unknown part.
	var b strings.Builder
	known := true
	inSingle, inDouble := false, false
	for i := 0; i < len(raw); i++ {
		ch := raw[i]
		switch {
		case inSingle:
			if ch == '\'' {
				inSingle = false
			} else {
				b.WriteByte(ch)
			}
			continue
		case ch == '\'' && !inDouble:
			inSingle = true
			continue
		case ch == '"':
			inDouble = !inDouble
			continue
		case ch == '\\' && i+1 < len(raw):
			i++
			b.WriteByte(raw[i])
			continue
		case ch == '$' || ch == '`':
			known = false
		default:
			b.WriteByte(ch)
			continue
		}
		break
	}
	s := b.String()
	if known {
		return s
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[:i+1] + placeholder
	}
	return ""
}

// expandVar replaces $NAME (not followed by a name character) and ${NAME}
// in raw shell text by val.
func expandVar(raw, name, val string) string {
	raw = strings.ReplaceAll(raw, "${"+name+"}", val)
	var b strings.Builder
	for {
		i := strings.Index(raw, "$"+name)
		if i < 0 {
			b.WriteString(raw)
			return b.String()
		}
		end := i + 1 + len(name)
		b.WriteString(raw[:i])
		if end < len(raw) && isIdentByte(raw[end]) {
			b.WriteString(raw[i:end])
		} else {
			b.WriteString(val)
		}
		raw = raw[end:]
	}
}

// collector gathers the targets of one invocation in order.
type collector struct {
	g       *Guard
	inv     shell.Invocation
	cwd     string
	base    string
	args    []string
	targets []bashTarget
	// made, when set (ForCommand), receives the symbolic links the
	// invocation creates.
	made *[]madeLink
	// script: the invocation is a script file's arguments (scriptArgs),
	// judged by unknownProgram without its working-directory default.
	script bool
}

func (c *collector) add(p string, o op, what string) {
	c.addAt(c.base, p, o, what)
}

func (c *collector) addAt(base, p string, o op, what string) {
	if p == "" || p == "-" || p == "{}" {
		return
	}
	c.targets = append(c.targets, bashTarget{path: c.g.home(p), base: base, op: o, what: what})
}

// home expands a leading "~" with the home directory set by WithHome.
// Without it, "~/A/B/…" is mapped into the root when the root's path ends
// with the leading components A/B (the usual layout, root under the home
// directory), so a write through "~/work/<sprint>/SKILL.md" is still seen;
// any other "~/x" is judged as written (a relative path named "~").
func (g *Guard) home(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	if g.homeDir != "" {
		return g.homeDir + p[1:]
	}
	comps := strings.Split(strings.Trim(p[1:], "/"), "/")
	for k := len(comps); k >= 1; k-- {
		suffix := "/" + strings.Join(comps[:k], "/")
		for _, r := range [...]string{g.rootLex, g.rootPhys} {
			r = filepath.ToSlash(r)
			if strings.HasSuffix(r, suffix) {
				return filepath.FromSlash(r + "/" + strings.Join(comps[k:], "/"))
			}
		}
	}
	return p
}

// redirects adds the targets of the command's output redirections.
func (c *collector) redirects() {
	for _, r := range c.inv.Redirects {
		var o op
		switch r.Op {
		case ">", ">|", "&>", "<>":
			o = opWrite
		case ">>", "&>>":
			o = opAppend
		case ">&":
			v := r.Target.Value
			if v == "-" || isDigits(v) || !r.Target.Known && v == "" {
				continue
			}
			o = opWrite
		default:
			continue
		}
		v := c.g.wordValue(r.Target, c.base)
		if r.Listing != nil && r.Listing.Roots != nil {
			// `> $(ls X)`, `> "$(find D -name N)"`: the file is one of
			// the listed paths (§3.3 listings)
			c.redirectListing(r.Listing, o, "redirect "+r.Op)
			continue
		}
		if c.inv.Listing != nil && strings.Contains(v, "{}") {
			// `find D -exec sh -c 'echo > "$1"' _ {} \;`: the redirection
			// writes each listed path (§3.3 listings)
			c.listing(o, "redirect "+r.Op)
			continue
		}
		c.add(v, o, "redirect "+r.Op)
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// listing adds the paths a writer gets from a listing (xargs, find -exec {},
// a substituted listing) as whole-tree targets with the writer's operation.
func (c *collector) listing(_ op, what string) {
	l := c.inv.Listing
	if l == nil {
		return
	}
	// Roots nil: xargs fed by something the parser does not know as a
	// listing producer (git ls-files, cat FILE, xargs -a FILE). Known
	// literal input (echo a | xargs rm) is already among the arguments, so
	// only a writer left without any file operand is judged, conservatively,
	// as writing anywhere below the directory it runs in.
	if l.Roots == nil {
		if len(c.targets) == 0 {
			for _, base := range c.listingBases(l) {
				c.addAt(base, ".", opTree, what+" over an unknown listing")
			}
		}
		return
	}
	for _, base := range c.listingBases(l) {
		for _, r := range l.Roots {
			c.addAt(base, r, opTree, what+" over a listing")
			if l.Follow {
				for _, d := range c.g.linksBelow(absJoin(base, c.g.home(r))) {
					c.addAt(base, d, opTree, what+" over a listing (find -L follows the link)")
				}
			}
		}
	}
}

// parsed is the invocation's parse by the program table (shell.Command),
// read with the path guard's values of its words (wordValue).
func (c *collector) parsed() shell.ParsedOpts {
	return c.inv.Cmd.ParsedOpts.Rebind(c.args)
}

// program dispatches on the command name.
func (c *collector) program() {
	prog := c.inv.Program
	args := c.args
	if code := codeOf(c.inv); code != nil {
		c.codeWrites(code)
	}
	c.tableWrites()
	if k, ok := shell.ScriptFile(c.inv); ok {
		c.scriptArgs(k)
	}
	if c.moreWriters(prog, args) {
		return
	}
	switch {
	case prog == "":
		return
	case isPython(prog):
		// python -m MODULE ARGS… is walked as the program MODULE ARGS… (the
		// shell model's interpreter walk); its inline code is codeWrites'
		return
	}
	switch prog {
	case "tee":
		// --output-error takes its value only as --output-error=MODE.
		p := c.parsed()
		o := opWrite
		if p.Has("a", "append") {
			o = opAppend
		}
		for _, f := range p.OperandValues() {
			c.add(f, o, "tee")
		}
		c.listing(o, "tee")
	case "sed", "gsed":
		c.sed(args)
	case "perl":
		c.perl()
	case "awk", "gawk", "mawk", "nawk", "original-awk", "goawk", "onetrue-awk", "bwk-awk": // shell.IsAwk
		c.awk(args)
	case "yq":
		c.yq(args)
	case "mkdir":
		p := c.parsed()
		// The new entry is a directory: `mkdir .harness/features/f004`
		// creates another feature's directory.
		for _, f := range p.OperandValues() {
			c.addNewDir(f, "mkdir")
		}
	case "flock":
		// flock FILE|DIR CMD / flock FILE -c CMD take (and create) the
		// lock; flock FD works on an open descriptor
		if ops := c.parsed().OperandValues(); len(ops) > 0 && !isDigits(ops[0]) {
			c.add(ops[0], opLock, "flock")
		}
	case "socat":
		c.socat(args)
	case "dd":
		o := opWrite
		appendFlag, notrunc := false, false
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "oflag="); ok && strings.Contains(v, "append") {
				appendFlag = true
			}
			if v, ok := strings.CutPrefix(a, "conv="); ok && strings.Contains(v, "notrunc") {
				notrunc = true
			}
		}
		if appendFlag && notrunc {
			o = opAppend // oflag=append conv=notrunc writes at the end only; without notrunc dd truncates first (GNU dd 9.1)
		}
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				c.add(v, o, "dd of=")
			}
		}
	case "cp", "gcp":
		p := c.parsed()
		if p.Has("l", "link") {
			c.hardLinkSources(p, p.OperandValues(), p.Has("rRa", "recursive", "archive"))
		}
		switch {
		case p.Has("s", "symbolic-link"):
			c.symlinks(p, p.OperandValues())
			c.copyLike(p, "cp -s", false)
			return
		case !p.Has("LH", "dereference") && p.Has("PdaRr", "no-dereference", "archive", "recursive"):
			c.movedLinks(p, p.OperandValues()) // a link source is copied as a link
		}
		c.copyLike(p, "cp", false)
	case "install", "ginstall":
		p := c.parsed()
		if p.Has("d", "directory") {
			c.files(p, opWrite, "install -d")
			return
		}
		c.copyLike(p, "install", p.Has("D"))
	case "ln", "gln":
		p := c.parsed()
		ops := p.OperandValues()
		if !p.Has("s", "symbolic") {
			// A hard link makes the source writable under another name.
			c.hardLinkSources(p, ops, false)
		} else {
			c.symlinks(p, ops)
		}
		from := len(c.targets)
		if len(ops) == 1 && !p.Has("t", "target-directory") {
			c.addReplaced(c.base, path.Base(filepath.ToSlash(ops[0])), "ln")
		} else {
			c.copyLike(p, "ln", false)
		}
		for i := from; i < len(c.targets); i++ {
			c.targets[i].op = opSpecial // the new names are links (planting, §9.4)
		}
	case "rsync":
		c.rsync(args)
	case "mv", "gmv":
		p := c.parsed()
		ops := p.OperandValues()
		if _, ok := p.Last("t", "target-directory"); !ok && len(ops) > 0 {
			ops = ops[:len(ops)-1]
		}
		for _, s := range ops {
			c.add(s, opTree, "mv (source)")
		}
		c.movedLinks(p, p.OperandValues())
		c.listing(opTree, "mv")
		c.copyLike(p, "mv", false)
	case "rm", "grm", "srm", "wipe":
		// --interactive takes its value only as --interactive=WHEN; srm
		// and wipe delete like rm (-r/-R recursive), overwriting first.
		p := c.parsed()
		o := opDelete
		if p.Has("rR", "recursive") {
			o = opTree
		}
		c.files(p, o, "rm")
	case "unlink":
		c.files(c.parsed(), opDelete, "unlink")
	case "rmdir":
		c.files(c.parsed(), opDelete, "rmdir")
	case "git", "hub":
		c.git()
	case "patch", "gpatch":
		c.patch(args)
	case "curl":
		c.curl(args)
	case "wget":
		c.wget(args)
	case "tar", "gtar", "bsdtar":
		c.tar()
	case "unzip":
		c.unzip(args)
	case "find", "gfind":
		c.find(args)
	case "node", "nodejs", "deno", "bun":
		// inline code: codeWrites
	case "ruby":
		c.ruby()
	case "terraform", "tofu":
		c.terraformFmt()
	default:
		if c.inv.Cmd.Prog == nil {
			c.unknownProgram()
		}
	}
}

// tableWrites adds the files and directories the program table says the
// command writes (shell.Command.Written: `ffmpeg -i IN OUT`, `cargo
// install --root D`, `git submodule add URL PATH`, `git checkout-index F`).
func (c *collector) tableWrites() {
	if r := c.inv.Command().Row; r == nil || r.Writes == (shell.WriteSpec{}) {
		return
	}
	// the guard's values of the words ($HARNESS_ROOT, $PWD …)
	cmd := c.inv.Command().Rebind(c.args)
	files, dirs := cmd.Written(c.inv.Stdin, c.inv.Env)
	what := strings.TrimSpace(c.inv.Program + " " + strings.Join(c.inv.Command().Sub, " "))
	for _, t := range cmd.Trees() {
		c.add(t, opTree, what+" (rewrites in place)")
	}
	o := opWrite
	if cmd.Appends() {
		o = opAppend // sponge -a
	}
	for _, f := range files {
		c.add(f, o, what+" (output)")
	}
	for _, f := range cmd.Removed() {
		c.add(f, opTree, what+" (removes its input)")
	}
	for _, d := range cmd.Extracted() {
		c.add(d, opWrite, what+" (extracts into)")
	}
	for _, p := range cmd.NamePrefixes() {
		c.add(p+placeholder, opWrite, what+" (output)")
	}
	for _, d := range dirs {
		if fi, err := os.Stat(absJoin(c.base, c.g.home(d))); err == nil && fi.IsDir() {
			// an existing directory (`curl --output-dir /tmp -O U`) is
			// written below, not created: its ancestors' protected
			// entries are not replaced
			c.add(strings.TrimRight(d, "/")+"/"+placeholder, opWrite, what+" (output directory)")
			continue
		}
		c.addNewDir(d, what+" (output directory)")
	}
	if ws := &cmd.Row.Writes; cmd.RewritesOperands() || (ws.All || ws.Ext != "" || ws.Edited) && cmd.WritesApply() {
		// the paths xargs hands it (`git ls-files | xargs mdformat`), after
		// the operands: a literal input already among them is not a listing
		// of the whole directory (collector.listing)
		o = opWrite
		if ws.Tree || cmd.Removes() {
			o = opTree
		}
		c.listing(o, what)
	}
}

// maxDefaultWords bounds the words of an unknown program judged by the
// cautious default (each is resolved against the file system).
const maxDefaultWords = 32

// unknownProgram applies the cautious default of
// testdata/corpus/README.md §9.1 to a program the program table does not
// know (`xxd -r dump SKILL.md`, `dos2unix README.md`, `sqlite3 spec/x.db`):
// every path among its operands and long-option values is judged as
// written by it. The words of a command the walker found it runs
// (Invocation.RunsFrom) are that command's and judged there.
func (c *collector) unknownProgram() {
	name := c.inv.Program
	if name == "" {
		name = c.inv.Word.Raw
	}
	if name == "" {
		return
	}
	end := len(c.args)
	if c.inv.RunsFrom > 0 && c.inv.RunsFrom-1 < end {
		end = c.inv.RunsFrom - 1
	}
	p := c.parsed()
	var words []string
	for _, k := range p.Operands {
		if k < end {
			words = append(words, c.args[k])
		}
	}
	for _, o := range p.Opts {
		if o.Long && o.HasValue && o.Arg < end {
			words = append(words, o.Value)
		}
	}
	what := name + ", a program the guard does not know"
	note := name + " is not a known reader or writer, so a protected path given to it is judged as written by it (cautious default)"
	judged := 0
	judge := func(w, what, note string) {
		if judged >= maxDefaultWords || w == "" || strings.Contains(w, "://") {
			return
		}
		judged++
		before := len(c.targets)
		c.add(w, opWrite, what)
		for k := before; k < len(c.targets); k++ {
			c.targets[k].dflt = note
		}
	}
	for _, w := range words {
		judge(w, what, note)
	}
	// (a shell function's body was judged: none of what follows applies)
	// output-shaped values the option model above does not see: a short
	// -o with its value attached (`-ospec/x.md`, `-o=spec/x.md`: for a
	// program it does not know, the parser reads the letters as flags) and
	// KEY=VALUE operands whose key names an output (`dest=spec`,
	// `out=SKILL.md`, `PREFIX=templates`)
	if !c.inv.Func {
		for _, v := range p.GuessedOutputs(c.args[:end]) {
			judge(v.Value, what+" ("+v.Form+"VALUE)", name+" is not a known reader or writer, so the value of its output option "+v.Form+" is judged as written by it (cautious default)")
		}
		// its working directory: with no path on its line, a program run
		// in a protected directory may still write there (`cd spec &&
		// gen`, `(cd .harness && tool)`, `env -C sub-skills tool`)
		if !c.script {
			c.unknownCwd(name)
		}
	}
	// the paths xargs (or find -exec {}) hands it are handed to it too
	// (`git ls-files spec | xargs dos2unix`)
	before := len(c.targets)
	c.listing(opWrite, what)
	for k := before; k < len(c.targets); k++ {
		c.targets[k].dflt = note
	}
}

// unknownCwd applies the working-directory default to a program the table
// does not know: run in a protected directory of the root, it is judged as
// writing a new file there (a readonly directory, another feature's
// directory, .harness/logs, a .claude below a feature), and run in a
// folder that holds protected files directly or below (.harness,
// .harness/features, .harness/sprint_contracts and its sprint folders, the
// root's .claude) as rewriting what is there. The root and the running
// feature's own directory, where a Generator starts, are exempt; so is a
// directory the guard cannot determine (path.unknown-directory judges
// those names).
func (c *collector) unknownCwd(name string) {
	if c.inv.Dir == shell.DirUnknown {
		return
	}
	rel, ok := relTo(c.g.rootLex, c.base)
	if !ok {
		if rel, ok = relTo(c.g.rootPhys, c.base); !ok {
			return
		}
	}
	rel = filepath.ToSlash(rel)
	if rel == "." || rel == "" {
		return
	}
	if dir, rest, ok := featureDir(rel); ok && rest == "" && dir == c.g.feature {
		return
	}
	shown := rel + "/"
	what := name + ", a program the guard does not know, run in " + shown
	note := name + " is not a known reader or writer and runs in a protected directory (" + shown + "), so it is judged as writing there (cautious default)"
	before := len(c.targets)
	// named from the root, so the reason shows the directory (spec/*)
	if c.g.isAncestor(rel, c.base) {
		c.addAt(c.g.rootLex, rel, opTree, what)
	} else {
		c.addAt(c.g.rootLex, rel+"/"+placeholder, opWrite, what)
	}
	hint := "run it from the root, your feature directory or a folder of your own (src/, build/), naming the files it reads; to read files here use cat, less, head, grep or jq"
	for k := before; k < len(c.targets); k++ {
		c.targets[k].dflt, c.targets[k].dfltHint = note, hint
	}
}

// scriptArgs judges the arguments of a script file an interpreter or a
// shell runs (`node scripts/x.js --out-dir spec/`, `python3 gen.py
// templates/`, `bash build.sh SKILL.md`; k: the script's index in the
// invocation's words) by the cautious default of a program the guard does
// not know (testdata/corpus/README.md §9.1): the script is one, whatever
// runs it. The script itself is only read, and the interpreter's working
// directory is not judged (unknownCwd would block 54 more harmless
// everyday steps run from .harness/ and 26 more from spec/: CI scripts
// run there).
func (c *collector) scriptArgs(k int) {
	if k >= len(c.args) || k >= len(c.inv.Args) {
		return
	}
	vals := make([]string, 0, len(c.inv.Args)-k-1)
	for _, a := range c.inv.Args[k+1:] {
		vals = append(vals, a.Value)
	}
	sub := *c
	sub.inv.Program = path.Base(filepath.ToSlash(c.args[k]))
	sub.inv.Word = c.inv.Args[k]
	sub.inv.Args = c.inv.Args[k+1:]
	sub.inv.Cmd = shell.ParseCommand("", vals)
	if sub.inv.RunsFrom > k+1 {
		sub.inv.RunsFrom -= k + 1
	} else if sub.inv.RunsFrom > 0 {
		return // the words after the script are a command it runs
	}
	sub.args = c.args[k+1:]
	sub.targets, sub.script = nil, true
	sub.unknownProgram()
	c.targets = append(c.targets, sub.targets...)
}

// files adds every operand (and listed path) with operation o.
func (c *collector) files(p shell.ParsedOpts, o op, what string) {
	for _, f := range p.OperandValues() {
		c.add(f, o, what)
	}
	c.listing(o, what)
}

// hardLinkSources judges the sources of a hard link (`ln` without -s,
// `cp -l`) as written: the new name would let any later write reach them.
// tree is `cp -rl`/`cp -al`: every file below a source is linked.
func (c *collector) hardLinkSources(p shell.ParsedOpts, ops []string, tree bool) {
	srcs := ops
	if _, ok := p.Last("t", "target-directory"); !ok && len(ops) > 1 {
		srcs = ops[:len(ops)-1]
	}
	o := opWrite
	if tree {
		o = opTree
	}
	for _, s := range srcs {
		c.add(s, o, "hard link (source)")
	}
}

// copyLike adds the destination of cp/install/ln/mv: `-t DIR`, else the
// last operand. A directory destination (existing, or ending in "/")
// receives a file named after each source; full is `install -D` (the
// destination is the full path).
func (c *collector) copyLike(p shell.ParsedOpts, what string, full bool) {
	ops := p.OperandValues()
	dest, hasT := p.Last("t", "target-directory")
	srcs := ops
	if !hasT {
		if len(ops) < 2 && c.inv.Listing == nil {
			if len(ops) == 1 && what == "install" && full {
				c.add(ops[0], opWrite, what)
			}
			return
		}
		if len(ops) == 0 {
			return
		}
		dest, srcs = ops[len(ops)-1], ops[:len(ops)-1]
	}
	if dest == "" && c.inv.Listing != nil {
		// `cp x "$(find .harness -name f)"`: the destination is listed
		c.listing(opWrite, what+" (destination)")
		return
	}
	c.intoDest(dest, srcs, what+" (destination)", full && !hasT, false)
}

// intoDest adds dest, or dest/<base of each source> when dest is a
// directory. contents marks rsync-style sources ending in "/", which copy
// their contents into dest itself.
func (c *collector) intoDest(dest string, srcs []string, what string, full, contents bool) {
	if dest == "" {
		return
	}
	if dest == "{}" { // find -exec cp x {} / xargs -I{}: the listed paths are destinations
		c.listing(opTree, what)
		return
	}
	if full || !c.isDir(dest) {
		// A directory copied or moved to a new name becomes a directory
		// there (`mv build .harness/features/f009` makes a feature dir).
		for _, s := range srcs {
			if s != "" && c.isDir(s) {
				c.addNewDir(dest, what)
				return
			}
		}
		c.addReplaced(c.base, dest, what)
		return
	}
	if len(srcs) == 0 {
		c.addReplaced(c.base, dest, what)
		return
	}
	for _, s := range srcs {
		if s == "" {
			continue
		}
		b := path.Base(filepath.ToSlash(s))
		if (contents && strings.HasSuffix(s, "/")) || b == "." || b == "/" || b == ".." {
			c.addReplaced(c.base, dest, what)
			continue
		}
		c.addReplaced(c.base, strings.TrimRight(dest, "/")+"/"+b, what)
	}
}

// addReplaced adds f, a file the command replaces or edits in place, and
// the backup copies its row says it makes of it (shell.Command.Backups:
// `mv -b -S .md x SKILL` writes SKILL and SKILL.md; `sed -i'../spec/*'
// f`), relative to base.
func (c *collector) addReplaced(base, f, what string) {
	c.addAt(base, f, opWrite, what)
	for _, b := range c.inv.Command().Rebind(c.args).Backups(f, c.inv.Env) {
		c.addAt(base, b, opWrite, what+" (backup)")
	}
}

// isDir reports whether p (relative to the base) names a directory: it ends
// in "/" or exists as one (following symlinks).
func (c *collector) isDir(p string) bool {
	if strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator)) || p == "." || p == ".." {
		return true
	}
	fi, err := os.Stat(absJoin(c.base, c.g.home(p)))
	return err == nil && fi.IsDir()
}

func isPython(prog string) bool {
	for _, p := range [...]string{"python", "pypy"} {
		if rest, ok := strings.CutPrefix(prog, p); ok {
			return strings.Trim(rest, "0123456789.") == ""
		}
	}
	return false
}

func (c *collector) sed(args []string) {
	p := c.parsed()
	ops := p.OperandValues()
	scripts := p.Values("e", "expression")
	if !p.Has("ef", "expression", "file") && len(ops) > 0 {
		scripts = append(scripts, ops[0])
		ops = ops[1:]
	}
	// w FILE, W FILE and s///w FILE write FILE (truncated when sed starts),
	// with or without -i (testdata/corpus/README.md §9.4)
	for _, sc := range scripts {
		for _, f := range shell.SedWrites(sc) {
			c.add(f, opWrite, "sed w")
		}
	}
	if !p.Has("i", "in-place") {
		return
	}
	for _, f := range ops {
		c.addReplaced(c.base, f, "sed -i")
	}
	c.listing(opWrite, "sed -i")
}

func (c *collector) awk(args []string) {
	c.awkWrites(args)
	p := c.parsed()
	inplace := false
	for _, v := range p.Values("i", "include") {
		if v == "inplace" || v == "inplace.awk" {
			inplace = true
		}
	}
	if !inplace {
		return
	}
	ops := p.OperandValues()
	if !p.Has("fe", "file", "source", "exec") && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, f := range ops {
		if strings.Contains(f, "=") && !strings.ContainsAny(f[:strings.IndexByte(f, '=')], "/.") {
			continue // var=value assignment operand
		}
		c.add(f, opWrite, "awk -i inplace")
	}
	c.listing(opWrite, "awk -i inplace")
}

func (c *collector) yq(args []string) {
	p := c.parsed()
	if !p.Has("i", "inplace") {
		return
	}
	ops := p.OperandValues()
	if len(ops) > 0 {
		switch ops[0] {
		case "e", "eval", "ea", "eval-all":
			ops = ops[1:]
		}
	}
	if !p.Has("", "expression", "from-file") && len(ops) > 1 {
		ops = ops[1:]
	}
	for _, f := range ops {
		c.add(f, opWrite, "yq -i")
	}
	c.listing(opWrite, "yq -i")
}

func (c *collector) rsync(args []string) {
	p := c.parsed()
	ops := p.OperandValues()
	if len(ops) < 2 {
		return
	}
	dest, srcs := ops[len(ops)-1], ops[:len(ops)-1]
	if p.Has("", "remove-source-files") {
		for _, s := range srcs {
			if !isRemote(s) {
				c.add(s, opTree, "rsync --remove-source-files")
			}
		}
	}
	if isRemote(dest) {
		return
	}
	// the row's directories (--backup-dir, --temp-dir, --partial-dir;
	// tableWrites judges them below the cwd): a relative one is below the
	// destination (rsync(1) on --backup-dir)
	shorts, longs := "", []string(nil)
	if r := c.inv.Command().Row; r != nil {
		for _, n := range strings.Fields(r.Writes.Dirs) {
			if len(n) == 1 {
				shorts += n
			} else {
				longs = append(longs, n)
			}
		}
	}
	for _, d := range p.Values(shorts, longs...) {
		if d != "" && !filepath.IsAbs(d) && !strings.HasPrefix(d, "~") {
			c.addNewDir(strings.TrimRight(dest, "/")+"/"+d, "rsync (directory below the destination)")
		}
	}
	for _, d := range p.Values("", "link-dest") {
		// files under DIR are hard-linked into dest (writable there); a
		// relative DIR is relative to the destination directory
		if !filepath.IsAbs(d) && !strings.HasPrefix(d, "~") {
			d = strings.TrimRight(dest, "/") + "/" + d
		}
		c.add(d, opTree, "rsync --link-dest")
	}
	for _, o := range p.Opts {
		if o.Long && (strings.HasPrefix(o.Name, "del")) {
			c.add(dest, opTree, "rsync --delete")
			break
		}
	}
	c.intoDest(dest, srcs, "rsync (destination)", false, true)
}

// isRemote reports an scp/rsync remote operand (host:path, rsync://).
func isRemote(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.ContainsAny(s[:i], "/\\") && !(i == 1 && len(s) > 2 && (s[2] == '\\' || s[2] == '/'))
}

func (c *collector) git() {
	cmd := c.inv.Cmd
	if len(cmd.Sub) == 0 {
		return
	}
	// -C DIR moves where git runs (several add up); the work tree, where
	// pathspecs are, is then --work-tree DIR, else $GIT_WORK_TREE, both
	// relative to that directory (git(1))
	base := c.base
	g := cmd.Global.Rebind(c.args)
	wt, hasWT := c.inv.Env["GIT_WORK_TREE"]
	hasWT = hasWT && wt != ""
	gitDir := c.inv.Env["GIT_DIR"]
	for _, o := range g.Opts {
		switch {
		case o.HasValue && o.Name == "C":
			base = absJoin(base, o.Value)
		case o.HasValue && o.Name == "work-tree":
			wt, hasWT = o.Value, true
		case o.HasValue && o.Name == "git-dir":
			gitDir = o.Value
		}
	}
	repoDir := base
	if hasWT {
		base = absJoin(base, wt)
	}
	if f := c.inv.Env["GIT_INDEX_FILE"]; f != "" {
		// git reads and rewrites the index there (add, rm, read-tree,
		// commit, reset …), a relative name below the work tree's top
		// (git 2.39 here: from a subdirectory it lands at the top): judged
		// below the directory git runs in and below the workspace root
		c.addAt(base, f, opWrite, "git (GIT_INDEX_FILE)")
		if !filepath.IsAbs(f) && base != c.g.rootLex {
			c.addAt(c.g.rootLex, f, opWrite, "git (GIT_INDEX_FILE)")
		}
	}
	saved := c.base
	c.base = base
	defer func() { c.base = saved }()
	p := c.parsed()
	switch cmd.Sub[0] {
	case "checkout":
		for _, f := range c.pathspecs(p) {
			c.add(f, opTree, "git checkout")
		}
	case "restore":
		if p.Has("S", "staged") && !p.Has("W", "worktree") {
			return
		}
		for _, f := range c.pathspecs(p) {
			c.add(f, opTree, "git restore")
		}
	case "rm":
		if p.Has("", "cached") {
			return
		}
		o := opDelete
		if p.Has("r") {
			o = opTree
		}
		for _, f := range c.pathspecs(p) {
			c.add(f, o, "git rm")
		}
		c.listing(o, "git rm")
	case "mv":
		ops := p.OperandValues()
		if len(ops) < 2 {
			return
		}
		for _, s := range ops[:len(ops)-1] {
			c.add(s, opTree, "git mv (source)")
		}
		c.intoDest(ops[len(ops)-1], ops[:len(ops)-1], "git mv (destination)", false, false)
	case "stash":
		// stash [push] [opts] [--] PATHSPEC…: the named paths are reset to
		// HEAD once their changes are stashed
		if len(cmd.Sub) == 1 && p.End < 0 || len(cmd.Sub) > 1 && cmd.Sub[1] != "push" {
			return
		}
		for _, f := range c.pathspecs(p) {
			c.add(f, opTree, "git stash push")
		}
	case "apply":
		c.gitApply(p)
	case "clone", "worktree", "init":
		c.gitClone(cmd, p, c.gitTemplated(g))
	case "archive":
		for _, f := range p.Values("o", "output") {
			c.add(f, opWrite, "git archive --output")
		}
	case "format-patch":
		for _, d := range p.Values("o", "output-directory") {
			c.add(strings.TrimRight(d, "/")+"/"+placeholder, opWrite, "git format-patch --output-directory")
		}
		for _, f := range p.Values("", "output") {
			c.add(f, opWrite, "git format-patch --output")
		}
	case "bundle":
		if ops := p.OperandValues(); cmd.Is("bundle", "create") && len(ops) > 0 {
			c.add(ops[0], opWrite, "git bundle create")
		}
	case "config":
		c.gitConfigFile(p, repoDir, gitDir)
	}
}

// gitConfigFile adds the file `git config` changes: any use that sets,
// adds, unsets, renames, removes or edits (git-config(1)); reading actions
// (--get*, --list, one key and no value, `git config get|list`) write
// nothing. The file is --file F's, else (no --global, --system or --blob)
// the configuration of the repository git finds from dir (repoConfig:
// rule kind git-config judges it); --global and --system write files
// outside the work area, which the sandbox holds.
func (c *collector) gitConfigFile(p shell.ParsedOpts, dir, gitDir string) {
	file, ok := p.Last("f", "file")
	if ok && (file == "" || file == "-") {
		return
	}
	if !ok {
		if p.Has("", "global", "system", "blob") {
			return
		}
		file = c.repoConfig(dir, gitDir, p.Has("", "worktree"))
	}
	if p.Has("l", "list", "get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool") {
		return
	}
	ops := p.OperandValues()
	writes := p.Has("e", "edit", "add", "replace-all", "unset", "unset-all", "rename-section", "remove-section") || len(ops) >= 2
	if len(ops) > 0 {
		switch ops[0] {
		case "get", "list":
			writes = false
		case "set", "unset", "rename-section", "remove-section", "edit":
			writes = true
		}
	}
	if writes {
		c.add(file, opWrite, "git config --file")
	}
}

// pathspecs returns the path operands of a git subcommand: everything after
// "--", or every operand when there is no "--" (a revision named first is
// judged as a path too, which only matters if a protected path has that
// name).
func (c *collector) pathspecs(p shell.ParsedOpts) []string {
	var out []string
	for _, v := range append(p.OperandValues(), c.inv.Cmd.FromFile...) {
		if v == "-" {
			continue
		}
		v = strings.TrimPrefix(v, ":(top)")
		if strings.HasPrefix(v, ":/") {
			v = c.g.rootLex + "/" + v[2:]
		}
		out = append(out, v)
	}
	return out
}

func (c *collector) find(args []string) {
	fa := shell.ParseFind(args)
	starts, follow, i := fa.Roots, fa.Follow, fa.Expr
	for j := i; j < len(args); j++ {
		switch args[j] {
		case "-delete":
			for _, s := range starts {
				c.add(s, opTree, "find -delete")
				if follow {
					for _, d := range c.g.linksBelow(absJoin(c.base, c.g.home(s))) {
						c.add(d, opTree, "find -L -delete (follows the link)")
					}
				}
			}
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if j+1 < len(args) {
				c.add(args[j+1], opWrite, "find "+args[j])
			}
		}
	}
}

// terraformFmt: terraform fmt and tofu fmt rewrite their operands (the
// working directory without one) unless -check, -list or -write=false
// (Go-style flags; the row has no subcommand rows, as -chdir before the
// subcommand moves the command: shell.Command.ownChdir).
func (c *collector) terraformFmt() {
	p := c.parsed()
	ops := p.OperandValues()
	if len(ops) == 0 || ops[0] != "fmt" || p.Has("", "check", "list") || slices.Contains(p.Values("", "write"), "false") {
		return
	}
	ops = ops[1:]
	if len(ops) == 0 {
		ops = []string{"."}
	}
	what := c.inv.Program + " fmt"
	for _, f := range ops {
		c.add(f, opTree, what)
	}
	c.listing(opTree, what)
}

func (c *collector) tar() {
	// the table's grammar reads the traditional first word (`tar xzf a.tgz`)
	p := c.parsed()
	extract := p.Has("x", "extract", "get")
	create := p.Has("cruA", "create", "append", "update", "concatenate")
	dir, _ := p.Last("C", "directory")
	file, _ := p.Last("f", "file")
	if create && file != "" {
		c.add(file, opWrite, "tar -f (archive)")
	}
	if create && p.Has("", "remove-files") {
		// GNU tar --remove-files deletes each file (and directory) once
		// it is archived: the operands are deleted, below -C DIR
		for _, f := range p.OperandValues() {
			if dir != "" && !path.IsAbs(f) {
				f = path.Join(dir, f)
			}
			c.add(f, opTree, "tar --remove-files")
		}
	}
	if extract && !p.Has("O", "to-stdout", "to-command") {
		if dir == "" {
			dir = "."
		}
		if top, ok := p.Last("", "one-top-level"); ok || p.Has("", "one-top-level") {
			// --one-top-level[=DIR] extracts below DIR, by default the
			// archive's name without its .tar* suffix (GNU tar 1.34; tar
			// refuses a name it cannot deduce, judged as the name itself)
			if !ok || top == "" {
				top = tarTopLevel(path.Base(filepath.ToSlash(file)))
			}
			if top != "" && top != "." {
				dir = path.Join(dir, top)
			}
		}
		c.add(dir, opWrite, "tar -x")
		// the members named on the line are written below the destination
		// (a directory member with everything below it)
		for _, m := range p.OperandValues() {
			c.member(dir, m, "tar -x (member)")
		}
		for _, x := range p.Values("", "transform", "xform") {
			c.transformed(dir, x)
		}
	}
}

// tarTopLevel is the directory GNU tar's --one-top-level gives an archive
// named name: the name without its compression suffix.
func tarTopLevel(name string) string {
	for _, suf := range [...]string{".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst", ".tar.lz", ".tar.lzma", ".tar.lzo", ".tar.Z", ".tar",
		".tgz", ".taz", ".tbz", ".tbz2", ".tz2", ".tlz", ".txz", ".tzst"} {
		if b, ok := strings.CutSuffix(name, suf); ok && b != "" {
			return b
		}
	}
	return name
}

// transformed adds what a tar --transform (--xform) expression x makes the
// members written below dir: each s command (sed syntax, shell.ParseSed)
// renames a member to text around its replacement, so a replacement that
// starts with a literal path (`s,^,spec/,`, `s,.*,SKILL.md,`) names that
// path; backreferences and & are taken as possibly empty (the literal
// text after them may start the name). An expression without an s
// command the guard can read may name anything: every file below dir.
func (c *collector) transformed(dir, x string) {
	found := false
	for _, cmd := range shell.ParseSed(x) {
		if cmd.Name != 's' {
			continue
		}
		found = true
		var lit strings.Builder
		for i := 0; i < len(cmd.Repl); i++ {
			switch ch := cmd.Repl[i]; {
			case ch == '&':
			case ch == '\\' && i+1 < len(cmd.Repl):
				i++
				if n := cmd.Repl[i]; n < '0' || n > '9' {
					if !strings.ContainsRune("LUElu", rune(n)) {
						lit.WriteByte(n)
					}
				}
			default:
				lit.WriteByte(ch)
			}
		}
		l := strings.TrimLeft(lit.String(), "/") // tar strips a leading "/" (without -P)
		if l == "" {
			continue
		}
		t := path.Join(dir, l)
		if strings.HasSuffix(l, "/") {
			c.add(t+"/"+placeholder, opWrite, "tar --transform")
			continue
		}
		c.add(t, opWrite, "tar --transform")
		if strings.Contains(l, "/") {
			c.add(path.Dir(t)+"/"+placeholder, opWrite, "tar --transform")
		}
	}
	if !found {
		c.add(dir, opTree, "tar --transform (an expression the guard cannot read)")
	}
}

func (c *collector) unzip(args []string) {
	p := c.parsed()
	if p.Has("lptvZz") {
		return
	}
	dir, ok := p.Last("d")
	if !ok {
		dir = "."
	}
	c.add(dir, opWrite, "unzip -d")
	// unzip [-d DIR] ARCHIVE MEMBER…: the members named after the archive
	// (wildcards included) are written below DIR; -x MEMBER… excludes
	if ops := p.OperandValues(); len(ops) > 1 {
		for _, m := range ops[1:] {
			c.member(dir, m, "unzip (member)")
		}
	}
}

// member adds the path an archive member named m is extracted to below
// dir (a directory member with everything below it). A wildcard pattern
// (`'*.md'`, `'spec/*'`) matches names inside the archive, not files on
// disk: only the directory before its first wildcard is known, written
// below.
func (c *collector) member(dir, m, what string) {
	m = strings.TrimLeft(m, "/")
	if i := strings.IndexAny(m, "*?["); i >= 0 {
		if j := strings.LastIndexByte(m[:i], '/'); j > 0 {
			c.add(path.Join(dir, m[:j])+"/"+placeholder, opWrite, what)
		}
		return
	}
	c.add(path.Join(dir, m), opTree, what)
}

func (c *collector) curl(args []string) {
	p := c.parsed()
	for _, f := range p.Values("oDc", "output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save") {
		c.add(f, opWrite, "curl -o")
	}
	if !p.Has("OJ", "remote-name", "remote-name-all", "remote-header-name") {
		return
	}
	dir, ok := p.Last("", "output-dir")
	if !ok {
		dir = "."
	}
	urls := append(p.OperandValues(), p.Values("", "url")...)
	if p.Has("J", "remote-header-name") || len(urls) == 0 {
		c.add(strings.TrimRight(dir, "/")+"/"+placeholder, opWrite, "curl -O")
		return
	}
	for _, u := range urls {
		c.add(strings.TrimRight(dir, "/")+"/"+urlBase(u, ""), opWrite, "curl -O")
	}
}

func (c *collector) wget(args []string) {
	p := c.parsed()
	for _, f := range p.Values("o", "output-file", "save-cookies") {
		c.add(f, opWrite, "wget -o")
	}
	for _, f := range p.Values("a", "append-output") {
		c.add(f, opAppend, "wget -a")
	}
	if f, ok := p.Last("O", "output-document"); ok {
		c.add(f, opWrite, "wget -O")
		return
	}
	dir, ok := p.Last("P", "directory-prefix")
	if !ok {
		dir = "."
	}
	dir = strings.TrimRight(dir, "/")
	if dir == "" {
		dir = "/"
	}
	if p.Has("rmpk", "recursive", "mirror", "page-requisites") || p.Has("", "input-file") || p.Has("i") {
		c.add(dir+"/"+placeholder, opWrite, "wget")
		c.add(dir, opWrite, "wget")
		return
	}
	for _, u := range p.OperandValues() {
		c.add(dir+"/"+urlBase(u, "index.html"), opWrite, "wget")
	}
}

// urlBase is the file name a download of u gets (the last path segment).
func urlBase(u, def string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		} else {
			u = ""
		}
	}
	b := path.Base(u)
	if b == "." || b == "/" || b == "" || strings.HasSuffix(u, "/") {
		if def == "" {
			return placeholder
		}
		return def
	}
	return b
}
