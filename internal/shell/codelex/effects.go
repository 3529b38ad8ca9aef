package codelex

import (
	"strconv"
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

// knownIn reports whether name is a function the effect tables know for
// lang (bare names through star imports resolve only to those).
func knownIn(lang Lang, name string) bool {
	c := &Code{Lang: lang}
	c.effect(&Call{Func: name, Args: []Arg{{V: str("x")}, {V: str("x")}}}, false)
	return len(c.Execs)+len(c.Files)+len(c.Chmods)+len(c.TreeDeletes) > 0
}

func (c *Code) shell(fn string, v Value) { c.shellAs(fn, v, false) }

// shellAs records the shell command line v run by fn, as root when admin
// (Exec.Admin). An admin run whose command the guard cannot read at all
// is still recorded, as UnknownWord: the escalation is what counts.
func (c *Code) shellAs(fn string, v Value, admin bool) {
	s, ok := v.Text(UnknownWord)
	if !ok || strings.TrimSpace(s) == "" {
		if !admin {
			return
		}
		s = UnknownWord
	}
	c.Execs = append(c.Execs, Exec{Func: fn, Shell: s, Admin: admin})
}

func (c *Code) argv(fn string, vs []Value) {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		if v.Kind == Num {
			v = str(itoa(v.N))
		}
		if !v.Known() {
			if len(out) == 0 {
				return // the program itself is unknown
			}
			out = append(out, UnknownWord)
			continue
		}
		out = append(out, v.S)
	}
	if len(out) > 0 {
		c.Execs = append(c.Execs, Exec{Func: fn, Argv: out})
	}
}

// shellOrArgv judges a call that takes one command: a string is a shell
// command line, a list an argv.
func (c *Code) shellOrArgv(fn string, v Value) {
	switch v.Kind {
	case List:
		c.argv(fn, v.List)
	case Str:
		c.shell(fn, v)
	}
}

// oneOrMore judges Perl/Ruby system-style calls: one string is a shell
// command line, two or more arguments (or a list) an argv.
func (c *Code) oneOrMore(fn string, args []Value) {
	var flat []Value
	for _, a := range args {
		switch a.Kind {
		case Obj:
			continue // Ruby env hash / options
		case List:
			flat = append(flat, a.List...)
		default:
			flat = append(flat, a)
		}
	}
	if len(flat) == 1 && (len(args) == 0 || args[0].Kind != List) {
		c.shell(fn, flat[0])
		return
	}
	if len(flat) >= 1 {
		c.argv(fn, flat)
	}
}

func (c *Code) file(fn string, op FileEffect, v Value) {
	if v.Kind == List {
		for _, e := range v.List {
			c.file(fn, op, e)
		}
		return
	}
	if v.Kind != Str || op == 0 {
		return
	}
	c.Files = append(c.Files, FileOp{Func: fn, Op: op, Path: v})
}

func (c *Code) tree(fn string, v Value) {
	c.file(fn, Tree, v)
	if v.Kind == List {
		for _, e := range v.List {
			c.TreeDeletes = append(c.TreeDeletes, FileOp{Func: fn, Op: Tree, Path: e})
		}
		return
	}
	c.TreeDeletes = append(c.TreeDeletes, FileOp{Func: fn, Op: Tree, Path: v})
}

func (c *Code) link(fn string, target, name Value) {
	if name.Kind != Str {
		return
	}
	t := target
	c.Files = append(c.Files, FileOp{Func: fn, Op: Write, Path: name, Link: &t})
}

func (c *Code) chmod(fn string, path, mode Value) {
	ch := Chmod{Func: fn, Path: path}
	mode = modeConst(mode)
	switch {
	case mode.Kind == Num:
		ch.Mode, ch.ModeKnown = mode.N, true
	case mode.Known():
		// a mode given as a string is octal ('777', "0o755")
		m := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(mode.S), "0o"), "0")
		if m == "" {
			m = "0"
		}
		if n, err := strconv.ParseInt(m, 8, 64); err == nil {
			ch.Mode, ch.ModeKnown = n, true
		} else if n, ok := symbolicMode(mode.S); ok {
			ch.Mode, ch.ModeKnown = n, true
		}
	}
	if path.Kind == List {
		for _, e := range path.List {
			ch.Path = e
			c.Chmods = append(c.Chmods, ch)
		}
		return
	}
	c.Chmods = append(c.Chmods, ch)
}

// openMode maps a Python/Ruby/PHP/Lua/Julia/C fopen mode to an operation
// (0 when it only reads).
func openMode(m string) FileEffect {
	switch {
	case strings.ContainsAny(m, "wx+c"):
		return Write
	case strings.Contains(m, "a"):
		return Append
	}
	return 0
}

// nodeFlag maps a Node open flag ('w', 'a', 'r+', …) to an operation.
func nodeFlag(m string) FileEffect {
	switch {
	case strings.HasPrefix(m, "a"):
		return Append
	case strings.ContainsAny(m, "w+"):
		return Write
	}
	return 0
}

// perlMode maps a Perl open mode to an operation.
func perlMode(m string) FileEffect {
	m = strings.TrimSpace(m)
	switch {
	case strings.HasPrefix(m, ">>"), strings.HasPrefix(m, "+>>"):
		return Append
	case strings.HasPrefix(m, ">"), strings.HasPrefix(m, "+>"), strings.HasPrefix(m, "+<"):
		return Write
	}
	return 0
}

// effects fills Execs, Files, Chmods, TreeDeletes and Printed from Calls.
func (c *Code) effects(childProcess bool) {
	var printed strings.Builder
	havePrint := false
	for _, call := range c.Calls {
		if s, ok := c.printCall(call); ok {
			havePrint = true
			printed.WriteString(s)
			if !strings.HasSuffix(s, "\n") {
				printed.WriteByte('\n')
			}
		}
		c.effect(call, childProcess)
	}
	if havePrint {
		out := printed.String()
		c.Printed = &out
	}
}

// printCall returns what a print call of known strings prints.
func (c *Code) printCall(call *Call) (string, bool) {
	switch call.Func {
	case "print", "console.log", "puts", "say", "echo", "process.stdout.write", "sys.stdout.write", "println", "cat",
		"writeLines", "console.info", "STDOUT.puts", "$stdout.puts", "io.write", "printf":
	default:
		return "", false
	}
	if call.Func == "cat" && c.Lang != R || call.Func == "printf" && c.Lang != Perl && c.Lang != PHP && c.Lang != Ruby {
		return "", false
	}
	if _, ok := call.Kw("file"); ok {
		return "", false
	}
	if fh, ok := call.Kw("fh"); ok && (fh.Kind != Ref || fh.S != "STDOUT") {
		return "", false
	}
	var parts []string
	for _, a := range call.Args {
		if a.Key != "" {
			continue
		}
		if a.V.Kind == List {
			ss, ok := a.V.Strings()
			if !ok {
				return "", false
			}
			parts = append(parts, strings.Join(ss, ""))
			continue
		}
		if !a.V.Known() {
			return "", false
		}
		parts = append(parts, a.V.S)
	}
	if len(parts) == 0 {
		return "", false
	}
	sep := ""
	if c.Lang == Python || c.Lang == Node || c.Lang == R {
		sep = " "
	}
	if c.Lang == Ruby && call.Func == "puts" {
		sep = "\n"
	}
	return strings.Join(parts, sep), true
}

// handleFuncs truncate or reposition the file handle given as their first
// argument (Perl truncate/seek, Node fs.ftruncate*, Python os.ftruncate,
// PHP ftruncate/fseek).
var handleFuncs = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"truncate": true, "seek": true, "sysseek": true, "os.ftruncate": true, "os.lseek": true,
		"ftruncate": true, "ftruncateSync": true, "fseek": true, "rewind": true}
}}

// reopened judges truncating or seeking a file opened for appending: an
// overwrite (testdata/corpus/README.md §9.4).
func (c *Code) reopened(fn string, h Value) {
	if h.Call != nil && h.Call.Recv != nil && h.Call.Method() == "fileno" {
		h = *h.Call.Recv // os.ftruncate(f.fileno(), 0): the file object's descriptor
	}
	if h.Call == nil {
		return
	}
	var sub Code
	sub.Lang = c.Lang
	sub.effect(h.Call, false)
	for _, f := range sub.Files {
		if f.Op == Append {
			c.file(f.Func+" then "+fn, Write, f.Path)
		}
	}
}

// effect judges one call.
func (c *Code) effect(call *Call, childProcess bool) {
	fn := call.Func
	if call.Recv != nil {
		c.methodEffect(call, *call.Recv)
		return
	}
	if m := call.Method(); handleFuncs.Get()[fn] || handleFuncs.Get()[m] && c.Lang == Node {
		if pos := call.Pos(); len(pos) > 0 && pos[0].Call != nil {
			c.reopened(m, pos[0])
			return
		}
	}
	if fn == "``" {
		if len(call.Args) > 0 {
			c.shell("``", call.Args[0].V)
		}
		return
	}
	pos := call.Pos()
	if c.runAPI(call, fn, pos) {
		return
	}
	a := argAt(pos)
	switch c.Lang {
	case Python:
		c.pyEffect(call, fn, pos, a)
	case Node:
		c.jsEffect(call, fn, pos, a, childProcess)
	case Perl:
		c.perlEffect(call, fn, pos, a)
	case Ruby:
		c.rubyEffect(call, fn, pos, a)
	case PHP:
		c.phpEffect(call, fn, pos, a)
	case Lua:
		switch fn {
		case "os.execute", "io.popen":
			c.shell(fn, a(0))
		case "io.open":
			mode := "r"
			if m := a(1); m.Known() {
				mode = m.S
			}
			c.file(fn, openMode(mode), a(0))
		case "os.remove":
			c.file(fn, Delete, a(0))
		case "os.rename":
			c.file(fn, Tree, a(0))
			c.file(fn, Write, a(1))
		}
	case R:
		c.rEffect(call, fn, pos, a)
	case Julia:
		c.juliaEffect(call, fn, pos, a)
	case AppleScript:
		if fn == "do shell script" {
			_, admin := call.Kw(AdminKey)
			c.shellAs(fn, a(0), admin)
		}
	}
}

// libWrite is a library call that writes the file or the directory one of
// its arguments names (pyLibWrite, extractMethod).
type libWrite struct {
	// arg and kw locate the argument (position, keyword).
	arg int
	kw  string
	// op is the effect on it: Write for a file, Tree for a directory the
	// call writes below.
	op FileEffect
	// dflt is the path when the argument is absent ("" = no write).
	dflt string
	// when names a keyword argument that must be true for the call to
	// write (fileinput's inplace=True); "" = always.
	when string
	// skip are values that name no file (sqlite3's ":memory:").
	skip string
}

// pyLibWrite returns the write of a Python standard-library call that
// writes a file or a directory named by an argument (testdata/corpus/README.md
// §3.3, §9.1: library writes are judged like the shell writers).
func pyLibWrite(fn string) (libWrite, bool) {
	switch fn {
	case "fileinput.input", "fileinput.FileInput":
		return libWrite{arg: 0, kw: "files", op: Write, when: "inplace"}, true
	case "shutil.unpack_archive":
		return libWrite{arg: 1, kw: "extract_dir", op: Tree, dflt: "."}, true
	case "sqlite3.connect":
		return libWrite{arg: 0, kw: "database", op: Write, skip: ":memory:"}, true
	case "shelve.open":
		return libWrite{arg: 0, kw: "filename", op: Write}, true
	case "dbm.open":
		return libWrite{arg: 0, kw: "file", op: Write, when: "flag"}, true
	}
	return libWrite{}, false
}

// extractMethod returns the write of an archive method (tarfile's and
// zipfile's extractall/extract) that extracts into a directory: any
// receiver, since the names are the archive APIs' own.
func extractMethod(m string) (libWrite, bool) {
	switch m {
	case "extractall":
		return libWrite{arg: 0, kw: "path", op: Tree, dflt: "."}, true
	case "extract":
		return libWrite{arg: 1, kw: "path", op: Tree, dflt: "."}, true
	}
	return libWrite{}, false
}

// archiveExt returns the file extension of a shutil.make_archive format.
func archiveExt(format string) (string, bool) {
	switch format {
	case "zip", "tar":
		return "." + format, true
	case "gztar":
		return ".tar.gz", true
	case "bztar":
		return ".tar.bz2", true
	case "xztar":
		return ".tar.xz", true
	}
	return "", false
}

// libWrite records the write of w for call.
func (c *Code) libWrite(call *Call, fn string, w libWrite) {
	if w.op == 0 {
		return
	}
	if w.when != "" {
		v, ok := call.Kw(w.when)
		if !ok {
			return
		}
		if w.when == "flag" {
			// dbm.open(file, flag): "r" (the default) only reads
			if v.Known() && strings.HasPrefix(v.S, "r") {
				return
			}
		} else if t, known := v.Truthy(); known && !t {
			return
		}
	}
	v, ok := call.arg(w.arg, w.kw)
	if !ok {
		if w.dflt == "" {
			return
		}
		v = str(w.dflt)
	}
	if w.skip != "" && v.Known() && v.S == w.skip {
		return
	}
	c.file(fn, w.op, v)
}

func (c *Code) pyEffect(call *Call, fn string, pos []Value, a func(int) Value) {
	switch fn {
	case "os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "commands.getoutput",
		"commands.getstatusoutput", "asyncio.create_subprocess_shell", "os.popen2", "os.popen3", "os.popen4", "platform.popen":
		v, _ := call.arg(0, "cmd")
		c.shell(fn, v)
	case "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen":
		v, _ := call.arg(0, "args")
		if sh, ok := call.Kw("shell"); ok {
			if t, _ := sh.Truthy(); t && v.Kind == List && len(v.List) > 0 {
				c.shell(fn, v.List[0])
				return
			}
		}
		c.shellOrArgv(fn, v)
		if in, ok := call.Kw("input"); ok {
			c.stdinScript(fn, v, in)
		}
	case "asyncio.create_subprocess_exec":
		c.argv(fn, pos)
	case "pty.spawn":
		if v := a(0); v.Kind == List {
			c.argv(fn, v.List)
		} else {
			c.argv(fn, []Value{v})
		}
	case "os.fork", "os.forkpty", "pty.fork":
	case "open", "io.open", "codecs.open", "builtins.open", "io.FileIO":
		p, _ := call.arg(0, "file")
		mode := "r"
		if m, ok := call.arg(1, "mode"); ok {
			if !m.Known() {
				mode = "w" // a mode the guard cannot read: judged as a write
			} else {
				mode = m.S
			}
		}
		c.file(fn, openMode(mode), p)
	case "os.open":
		if f := a(1); f.Kind == Ref && strings.HasSuffix(f.S, "O_RDONLY") {
			return
		}
		c.file(fn, Write, a(0))
	case "os.remove", "os.unlink", "os.rmdir", "os.removedirs":
		p, _ := call.arg(0, "path")
		c.file(fn, Delete, p)
	case "os.truncate", "os.mkdir", "os.makedirs", "os.mkfifo", "os.mknod":
		p, _ := call.arg(0, "path")
		c.file(fn, Write, p)
	case "os.rename", "os.replace", "os.renames", "shutil.move":
		src, _ := call.arg(0, "src")
		dst, _ := call.arg(1, "dst")
		c.file(fn, Tree, src)
		c.file(fn, Write, dst)
	case "os.symlink":
		src, _ := call.arg(0, "src")
		dst, _ := call.arg(1, "dst")
		c.link(fn, src, dst)
	case "os.link":
		src, _ := call.arg(0, "src")
		dst, _ := call.arg(1, "dst")
		c.file(fn, Write, src) // a hard link makes the source writable under the new name
		c.file(fn, Write, dst)
	case "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.copymode", "shutil.copystat", "shutil.copyfileobj":
		dst, _ := call.arg(1, "dst")
		c.file(fn, Write, dst)
	case "shutil.rmtree":
		p, _ := call.arg(0, "path")
		c.tree(fn, p)
	case "distutils.dir_util.remove_tree", "setuptools._distutils.dir_util.remove_tree":
		// distutils' remove_tree(directory) deletes the tree as rmtree does
		p, _ := call.arg(0, "directory")
		c.tree(fn, p)
	case "os.chmod", "os.lchmod":
		p, _ := call.arg(0, "path")
		m, _ := call.arg(1, "mode")
		c.chmod(fn, p, m)
	case "os.utime", "os.chown", "os.lchown", "shutil.chown", "os.chflags", "os.lchflags", "os.setxattr", "os.removexattr":
		// timestamps, owner, flags, extended attributes: the file's
		// metadata changes, as with touch/chown(1)
		p, _ := call.arg(0, "path")
		c.file(fn, Write, p)
	case "shutil.make_archive":
		// make_archive(base_name, format, …) writes base_name + the
		// format's extension
		base, _ := call.arg(0, "base_name")
		format, _ := call.arg(1, "format")
		ext, ok := archiveExt(format.S)
		if !ok || !format.Known() {
			ext = ".archive"
		}
		if base.Kind == Str {
			c.file(fn, Write, concat(base, str(ext)))
		}
	default:
		if w, ok := pyLibWrite(fn); ok {
			c.libWrite(call, fn, w)
			return
		}
		switch {
		case strings.HasPrefix(fn, "os.exec") || strings.HasPrefix(fn, "os.spawn") || strings.HasPrefix(fn, "os.posix_spawn"):
			c.execLike(fn, pos)
		}
	}
}

// execLike judges os.exec*/os.spawn*/posix_spawn: the first list argument
// is the argv, else the string arguments after the program path.
func (c *Code) execLike(fn string, pos []Value) {
	for _, v := range pos {
		if v.Kind == List {
			c.argv(fn, v.List)
			return
		}
	}
	var strs []Value
	for _, v := range pos {
		if v.Kind == Str {
			strs = append(strs, v)
		}
	}
	if len(strs) >= 2 {
		c.argv(fn, strs[1:])
	}
}

// methodEffect judges a method called on a value: pathlib.Path and
// Pathname methods, and truncating a file opened for appending.
func (c *Code) methodEffect(call *Call, recv Value) {
	m := call.Method()
	pos := call.Pos()
	a := argAt(pos)
	if recv.Kind == Str && recv.Path {
		fn := "Path." + m
		switch m {
		case "write_text", "write_bytes", "touch", "mkdir", "write", "binwrite", "make_symlink":
			c.file(fn, Write, recv)
		case "symlink_to":
			c.link(fn, a(0), recv)
		case "hardlink_to":
			c.file(fn, Write, recv)
			c.file(fn, Write, a(0))
		case "link_to":
			c.file(fn, Write, recv)
			c.file(fn, Write, a(0))
		case "unlink", "rmdir", "delete":
			c.file(fn, Delete, recv)
		case "rmtree":
			c.tree(fn, recv)
		case "rename", "replace":
			c.file(fn, Tree, recv)
			c.file(fn, Write, a(0))
		case "open":
			mode := "r"
			if v, ok := call.arg(0, "mode"); ok {
				mode = "w"
				if v.Known() {
					mode = v.S
				}
			}
			c.file(fn, openMode(mode), recv)
		case "chmod", "lchmod":
			c.chmod(fn, recv, a(0))
		}
		return
	}
	if m == "truncate" || m == "seek" || m == "ftruncate" {
		c.reopened(m, recv)
	}
	if m == "communicate" && recv.Call != nil && strings.HasSuffix(recv.Call.Func, "Popen") {
		// Popen(["sh"], stdin=PIPE).communicate("…")
		in, ok := call.arg(0, "input")
		if cmd, has := recv.Call.arg(0, "args"); ok && has {
			c.stdinScript(recv.Call.Func+".communicate", cmd, in)
		}
		return
	}
	if (m == "puts" || m == "write" || m == "print" || m == "<<") && shellHandle(recv) {
		// IO.popen("sh", "w") { |io| io.puts "…" }
		c.shell(recv.Call.Func+" then "+m, joinValues(flatten(pos), "\n"))
		return
	}
	if m == "bind" && recv.Call != nil && (recv.Call.Func == "socket.socket" || recv.Call.Func == "socket") {
		// a Unix socket bound to a path creates that file (planting, §9.4)
		if p := a(0); p.Kind == Str {
			c.file("socket.bind", Write, p)
		}
	}
	if w, ok := extractMethod(m); ok && c.Lang == Python {
		c.libWrite(call, call.Func, w)
		return
	}
	if c.Lang == Node && m == "doShellScript" {
		c.shellAs("doShellScript", a(0), jxaAdmin(a(1)))
		return
	}
	if c.Lang == Node && recv.Call != nil && (m == "spawn" || m == "output" || m == "outputSync" || m == "spawnSync") {
		return // new Deno.Command(…).spawn(): judged at the constructor
	}
}

func (c *Code) jsEffect(call *Call, fn string, pos []Value, a func(int) Value, childProcess bool) {
	root, last := fn, fn
	if k := strings.IndexByte(fn, '.'); k >= 0 {
		root = fn[:k]
	}
	if k := strings.LastIndexByte(fn, '.'); k >= 0 {
		last = fn[k+1:]
	}
	cp := root == "child_process" || root == "cp" && childProcess || childProcess && strings.Contains(fn, ".") && !strings.HasPrefix(fn, "fs") || root == "child_process" && fn == last
	switch {
	case fn == "doShellScript" || last == "doShellScript" || fn == "$.system":
		// JavaScript for Automation: Standard Additions' doShellScript, and
		// libc's system(3) through the ObjC bridge (`$.system('CMD')`)
		c.shellAs(fn, a(0), fn != "$.system" && jxaAdmin(a(1)))
		return
	case fn == "Bun.spawn" || fn == "Bun.spawnSync":
		if v := a(0); v.Kind == List {
			c.argv(fn, v.List)
		} else if v.Kind == Obj {
			if cmd, ok := v.Obj["cmd"]; ok && cmd.Kind == List {
				c.argv(fn, cmd.List)
			}
		}
		return
	case fn == "Deno.run":
		if v := a(0); v.Kind == Obj {
			if cmd, ok := v.Obj["cmd"]; ok && cmd.Kind == List {
				c.argv(fn, cmd.List)
			}
		}
		return
	case fn == "Deno.Command":
		args := []Value{a(0)}
		if o := a(1); o.Kind == Obj {
			if l, ok := o.Obj["args"]; ok && l.Kind == List {
				args = append(args, l.List...)
			}
		}
		c.argv(fn, args)
		return
	case last == "execa" || last == "execaSync" || fn == "execa" || fn == "execaSync":
		args := []Value{a(0)}
		if l := a(1); l.Kind == List {
			args = append(args, l.List...)
		}
		c.argv(fn, args)
		return
	case last == "execaCommand" || last == "execaCommandSync":
		c.shell(fn, a(0))
		return
	case cp && (last == "exec" || last == "execSync"):
		c.shell(fn, a(0))
		if in, ok := optInput(call, "input"); ok {
			c.stdinScript(fn, a(0), in)
		}
		return
	case cp && (last == "execFile" || last == "execFileSync" || last == "spawn" || last == "spawnSync" || last == "fork"):
		v := a(0)
		if v.Kind == List {
			c.argv(fn, v.List)
			return
		}
		args := []Value{v}
		opts := Value{}
		for _, x := range pos[1:] {
			if x.Kind == List {
				args = append(args, x.List...)
			} else if x.Kind == Obj {
				opts = x
			}
		}
		if sh, ok := opts.Obj["shell"]; ok {
			if t, _ := sh.Truthy(); t || sh.Kind == Str {
				parts := make([]string, 0, len(args))
				for _, x := range args {
					s, ok := x.Text(UnknownWord)
					if !ok {
						s = UnknownWord
					}
					parts = append(parts, s)
				}
				c.shell(fn, str(strings.Join(parts, " ")))
				return
			}
		}
		if last == "fork" {
			return // a Node module path, not a program
		}
		c.argv(fn, args)
		if in, ok := opts.Obj["input"]; ok {
			c.stdinScript(fn, Value{Kind: List, List: args}, in)
		}
		return
	}
	if root == "rimraf" || fn == "rimraf" || fn == "rimrafSync" || last == "rimrafSync" {
		c.tree(fn, a(0))
		return
	}
	if root == "Deno" {
		switch last {
		case "writeTextFile", "writeFile", "writeTextFileSync", "writeFileSync":
			op := Write
			if o := a(2); o.Kind == Obj {
				if ap, ok := o.Obj["append"]; ok {
					if t, _ := ap.Truthy(); t {
						op = Append
					}
				}
			}
			c.file(fn, op, a(0))
		case "remove", "removeSync":
			if recursive(a(1)) {
				c.tree(fn, a(0))
			} else {
				c.file(fn, Tree, a(0))
			}
		case "mkdir", "mkdirSync", "truncate", "truncateSync", "create", "createSync":
			c.file(fn, Write, a(0))
		case "rename", "renameSync":
			c.file(fn, Tree, a(0))
			c.file(fn, Write, a(1))
		case "copyFile", "copyFileSync":
			c.file(fn, Write, a(1))
		case "symlink", "symlinkSync":
			c.link(fn, a(0), a(1))
		case "chmod", "chmodSync":
			c.chmod(fn, a(0), a(1))
		}
		return
	}
	if fn == "Bun.write" {
		c.file(fn, Write, a(0))
		return
	}
	if root == "path" || root == "child_process" || root == "console" || root == "process" || root == "JSON" || root == "Math" {
		return
	}
	fsLike := root != fn || fn == last
	if !fsLike {
		return
	}
	switch last {
	case "writeFile", "writeFileSync", "outputFile", "outputFileSync", "writeJson", "writeJsonSync", "outputJson", "outputJsonSync", "writeJSON", "writeJSONSync":
		op := Write
		if o := a(2); o.Kind == Obj {
			if f, ok := o.Obj["flag"]; ok && f.Known() {
				op = nodeFlag(f.S)
				if op == 0 {
					op = Write
				}
			}
		}
		c.file(fn, op, a(0))
	case "appendFile", "appendFileSync":
		c.file(fn, Append, a(0))
	case "truncate", "truncateSync", "mkdir", "mkdirSync", "ensureDir", "ensureDirSync", "ensureFile", "ensureFileSync", "mkdirp", "mkdirpSync", "mkdirs", "mkdirsSync":
		c.file(fn, Write, a(0))
	case "createWriteStream":
		op := Write
		if o := a(1); o.Kind == Obj {
			if f, ok := o.Obj["flags"]; ok && f.Known() {
				if op = nodeFlag(f.S); op == 0 {
					op = Write
				}
			}
		}
		c.file(fn, op, a(0))
	case "rm", "rmSync", "rmdir", "rmdirSync":
		if recursive(a(1)) {
			c.tree(fn, a(0))
			return
		}
		c.file(fn, Tree, a(0))
	case "remove", "removeSync":
		if root == "fs" || root == "fs_extra" || root == "fse" || root == "fsExtra" || root == "fsextra" || fn == last {
			c.tree(fn, a(0))
			return
		}
		c.file(fn, Tree, a(0))
	case "unlink", "unlinkSync", "emptyDir", "emptyDirSync", "emptydir", "emptydirSync":
		c.file(fn, Tree, a(0))
	case "rename", "renameSync", "move", "moveSync":
		c.file(fn, Tree, a(0))
		c.file(fn, Write, a(1))
	case "copyFile", "copyFileSync", "cp", "cpSync", "copy", "copySync":
		c.file(fn, Write, a(1))
	case "symlink", "symlinkSync", "ensureSymlink", "ensureSymlinkSync":
		c.link(fn, a(0), a(1))
	case "link", "linkSync", "ensureLink", "ensureLinkSync":
		c.file(fn, Write, a(0))
		c.file(fn, Write, a(1))
	case "open", "openSync":
		if f := a(1); f.Known() {
			c.file(fn, nodeFlag(f.S), a(0))
		} else if len(pos) > 1 && f.Kind != Num {
			c.file(fn, Write, a(0))
		}
	case "chmod", "chmodSync", "lchmod", "lchmodSync":
		c.chmod(fn, a(0), a(1))
	case "utimes", "utimesSync", "lutimes", "lutimesSync", "chown", "chownSync", "lchown", "lchownSync":
		c.file(fn, Write, a(0)) // the file's timestamps or owner
	}
}

// jxaAdmin reports a JXA doShellScript options value that runs the
// script as root: administratorPrivileges true or a value the guard
// cannot read (Exec.Admin).
func jxaAdmin(v Value) bool {
	if v.Kind != Obj {
		return false
	}
	r, ok := v.Obj["administratorPrivileges"]
	if !ok {
		return false
	}
	t, known := r.Truthy()
	return t || !known
}

// recursive reports an options value with recursive set true.
func recursive(v Value) bool {
	if v.Kind != Obj {
		return false
	}
	r, ok := v.Obj["recursive"]
	if !ok {
		return false
	}
	t, known := r.Truthy()
	return t || !known
}

func (c *Code) perlEffect(call *Call, fn string, pos []Value, a func(int) Value) {
	fn = strings.TrimPrefix(fn, "CORE.")
	switch fn {
	case "system", "exec", "CORE.GLOBAL.system":
		if prog, ok := call.Kw("prog"); ok {
			// exec { PROG } LIST: PROG runs with LIST as its argv (LIST[0]
			// is only the name it sees), never through a shell
			var rest []Value
			if flat := flatten(pos); len(flat) > 1 {
				rest = flat[1:]
			}
			c.argv(fn, append([]Value{prog}, rest...))
			return
		}
		c.oneOrMore(fn, pos)
	case "print", "printf", "say":
		if fh, ok := call.Kw("fh"); ok && shellHandle(fh) {
			// print $p "…" into open($p, "|-", "sh"): the text is the shell's script
			var text Value
			if fn == "printf" && len(pos) > 0 && pos[0].Known() {
				text = printf(pos[0].S, pos[1:])
			} else {
				text = joinValues(flatten(pos), "")
			}
			c.shell(fn+" to a shell pipe", text)
		}
	case "readpipe":
		c.shell(fn, a(0))
	case "open":
		if len(pos) >= 3 {
			m := a(1)
			if m.Known() {
				ms := strings.TrimSpace(m.S)
				if ms == "-|" || ms == "|-" {
					c.oneOrMore(fn, pos[2:])
					return
				}
				c.file(fn, perlMode(ms), a(2))
				return
			}
			c.file(fn, Write, a(2))
			return
		}
		if len(pos) == 2 {
			m := a(1)
			if !m.Known() {
				return
			}
			s := strings.TrimSpace(m.S)
			if strings.HasPrefix(s, "|") {
				c.shell(fn, str(strings.TrimSpace(s[1:])))
				return
			}
			if strings.HasSuffix(s, "|") {
				c.shell(fn, str(strings.TrimSpace(s[:len(s)-1])))
				return
			}
			for _, pfx := range []string{"+>>", "+>", "+<", ">>", ">"} {
				if strings.HasPrefix(s, pfx) {
					c.file(fn, perlMode(pfx), str(strings.TrimSpace(s[len(pfx):])))
					return
				}
			}
		}
	case "IPC.Open3.open3", "open3":
		c.oneOrMore(fn, pos[min(3, len(pos)):])
	case "IPC.Open2.open2", "open2":
		c.oneOrMore(fn, pos[min(2, len(pos)):])
	case "sysopen":
		c.file(fn, Write, a(1))
	case "unlink":
		for _, v := range pos {
			c.file(fn, Delete, v)
		}
	case "rename", "move", "File.Copy.move", "mv":
		c.file(fn, Tree, a(0))
		c.file(fn, Write, a(1))
	case "copy", "File.Copy.copy", "cp", "File.Copy.cp":
		c.file(fn, Write, a(1))
	case "symlink":
		c.link(fn, a(0), a(1))
	case "link":
		c.file(fn, Write, a(0))
		c.file(fn, Write, a(1))
	case "rmtree", "remove_tree", "File.Path.rmtree", "File.Path.remove_tree":
		for _, v := range pos {
			if v.Kind != Obj {
				c.tree(fn, v)
			}
		}
	case "rmdir":
		c.file(fn, Tree, a(0))
	case "mkdir", "make_path", "mkpath", "File.Path.make_path", "File.Path.mkpath", "truncate":
		c.file(fn, Write, a(0))
	case "chmod":
		for _, v := range pos[min(1, len(pos)):] {
			c.chmod(fn, v, a(0))
		}
	case "utime", "chown":
		// utime ATIME, MTIME, FILE…; chown UID, GID, FILE…: metadata writes
		for _, v := range pos[min(2, len(pos)):] {
			c.file(fn, Write, v)
		}
	}
}

// shellHandle reports a file handle that is the stdin of a shell reading
// its script there: Perl open($p, "|-", "sh") / open(P, "| bash -s"), PHP
// popen("sh", "w"), Ruby IO.popen("sh", "w").
func shellHandle(h Value) bool {
	if h.Call == nil {
		return false
	}
	pos := h.Call.Pos()
	switch h.Call.Func {
	case "open", "CORE.open":
		return perlShellPipe(h.Call)
	case "popen", "IO.popen":
		if len(pos) < 2 || !pos[1].Known() || !strings.ContainsAny(pos[1].S, "w+") {
			return false
		}
		return isShellLine(commandWords(pos[0]))
	}
	return false
}

// commandWords returns the words of a command given as a line or a list
// (nil when not known).
func commandWords(v Value) []string {
	switch {
	case v.Kind == List:
		ss, _ := v.Strings()
		return ss
	case v.Known():
		return splitWords(v.S)
	}
	return nil
}

// stdinScript judges input handed to a command's stdin: when the command
// is a shell reading its script there (subprocess.run(["sh"],
// input="…"), execSync("bash", {input: "…"}), Open3.capture2("sh",
// stdin_data: "…")), the input is the shell's script.
func (c *Code) stdinScript(fn string, cmd, input Value) {
	if input.Kind == Str && isShellLine(commandWords(cmd)) {
		c.shell(fn+" stdin", input)
	}
}

// optInput returns the named option key of a call, given as a keyword
// argument or in an options object.
func optInput(call *Call, key string) (Value, bool) {
	if v, ok := call.Kw(key); ok {
		return v, true
	}
	for _, v := range call.Pos() {
		if v.Kind == Obj {
			if e, ok := v.Obj[key]; ok {
				return e, true
			}
		}
	}
	return Value{}, false
}

// perlShellPipe reports a Perl open of a pipe into a shell that reads its
// script from stdin: open($p, "|-", "sh"), open($p, "| bash -s"),
// open(P, "|-", "/bin/sh", "-s").
func perlShellPipe(open *Call) bool {
	if open.Func != "open" && open.Func != "CORE.open" {
		return false
	}
	pos := open.Pos()
	var words []string
	switch {
	case len(pos) >= 3 && pos[1].Known() && strings.TrimSpace(pos[1].S) == "|-":
		if len(pos) == 3 {
			if !pos[2].Known() {
				return false
			}
			words = splitWords(pos[2].S)
		} else {
			ss, ok := Value{Kind: List, List: pos[2:]}.Strings()
			if !ok {
				return false
			}
			words = ss
		}
	case len(pos) == 2 && pos[1].Known() && strings.HasPrefix(strings.TrimSpace(pos[1].S), "|"):
		words = splitWords(strings.TrimSpace(pos[1].S)[1:])
	default:
		return false
	}
	return isShellLine(words)
}

func (c *Code) rubyEffect(call *Call, fn string, pos []Value, a func(int) Value) {
	fn = strings.TrimPrefix(fn, "Kernel.")
	switch fn {
	case "system", "exec", "spawn", "Process.spawn", "Process.exec", "PTY.spawn", "Open3.popen3", "Open3.popen2",
		"Open3.popen2e", "Open3.capture2", "Open3.capture2e", "Open3.capture3", "Open3.pipeline", "Open3.pipeline_r", "Open3.pipeline_w":
		c.oneOrMore(fn, pos)
		if in, ok := optInput(call, "stdin_data"); ok && len(pos) > 0 {
			var cmd []Value
			for _, v := range pos {
				if v.Kind != Obj {
					cmd = append(cmd, v)
				}
			}
			if len(cmd) == 1 {
				c.stdinScript(fn, cmd[0], in)
			} else {
				c.stdinScript(fn, Value{Kind: List, List: cmd}, in)
			}
		}
	case "IO.popen":
		c.shellOrArgv(fn, a(0))
	case "open", "IO.read", "IO.readlines", "IO.foreach", "URI.open":
		if v := a(0); v.Known() && strings.HasPrefix(v.S, "|") {
			c.shell(fn, str(v.S[1:]))
			return
		}
		if fn == "open" {
			c.rubyOpen(call, fn, a)
		}
	case "File.write", "File.binwrite", "IO.write", "IO.binwrite":
		op := Write
		if m, ok := call.Kw("mode"); ok && m.Known() && openMode(m.S) == Append {
			op = Append
		}
		c.file(fn, op, a(0))
	case "File.open", "File.new", "IO.open":
		c.rubyOpen(call, fn, a)
	case "File.delete", "File.unlink", "FileUtils.rm", "FileUtils.rm_f", "FileUtils.remove", "FileUtils.safe_unlink", "FileUtils.rmdir", "Dir.delete", "Dir.rmdir", "Dir.unlink":
		for _, v := range pos {
			c.file(fn, Tree, v)
		}
	case "FileUtils.rm_rf", "FileUtils.rm_r", "FileUtils.rmtree", "FileUtils.remove_dir", "FileUtils.remove_entry", "FileUtils.remove_entry_secure":
		c.tree(fn, a(0))
	case "FileUtils.touch", "FileUtils.mkdir", "FileUtils.mkdir_p", "FileUtils.makedirs", "FileUtils.mkpath", "Dir.mkdir":
		c.file(fn, Write, a(0))
	case "File.rename", "FileUtils.mv", "FileUtils.move":
		c.file(fn, Tree, a(0))
		c.file(fn, Write, a(1))
	case "FileUtils.cp", "FileUtils.cp_r", "FileUtils.copy", "FileUtils.copy_file", "FileUtils.install", "FileUtils.copy_entry":
		c.file(fn, Write, a(1))
	case "FileUtils.ln_s", "FileUtils.ln_sf", "FileUtils.symlink", "File.symlink":
		c.link(fn, a(0), a(1))
	case "FileUtils.ln", "FileUtils.link", "FileUtils.cp_lr", "File.link":
		c.file(fn, Write, a(0))
		c.file(fn, Write, a(1))
	case "File.truncate":
		c.file(fn, Write, a(0))
	case "File.chmod", "FileUtils.chmod", "FileUtils.chmod_R", "File.lchmod":
		for _, v := range pos[min(1, len(pos)):] {
			c.chmod(fn, v, a(0))
		}
	case "File.utime", "File.lutime", "File.chown", "File.lchown", "FileUtils.chown", "FileUtils.chown_R":
		// (ATIME|OWNER, MTIME|GROUP, FILE…): metadata writes
		for _, v := range pos[min(2, len(pos)):] {
			c.file(fn, Write, v)
		}
	}
}

func (c *Code) rubyOpen(call *Call, fn string, a func(int) Value) {
	mode := "r"
	if m := a(1); m.Kind == Str {
		mode = "w"
		if m.Known() {
			mode = m.S
		}
	} else if m, ok := call.Kw("mode"); ok && m.Known() {
		mode = m.S
	}
	c.file(fn, openMode(mode), a(0))
}

func (c *Code) phpEffect(call *Call, fn string, pos []Value, a func(int) Value) {
	switch fn {
	case "system", "exec", "shell_exec", "passthru", "popen", "proc_open", "expect_popen":
		c.shellOrArgv(fn, a(0))
	case "fwrite", "fputs":
		if h := a(0); shellHandle(h) {
			// fwrite(popen("sh", "w"), "…"): the text is the shell's script
			c.shell(fn+" to a shell pipe", a(1))
		}
	case "pcntl_exec":
		args := []Value{a(0)}
		if l := a(1); l.Kind == List {
			args = append(args, l.List...)
		}
		c.argv(fn, args)
	case "file_put_contents":
		op := Write
		if f := a(2); f.Kind == Ref && strings.Contains(f.S, "FILE_APPEND") || f.Kind == Num && f.N&8 != 0 {
			op = Append
		}
		c.file(fn, op, a(0))
	case "fopen":
		mode := "r"
		if m := a(1); m.Known() {
			mode = m.S
		} else if len(pos) > 1 {
			mode = "w"
		}
		c.file(fn, openMode(mode), a(0))
	case "unlink":
		c.file(fn, Delete, a(0))
	case "rmdir":
		c.file(fn, Tree, a(0))
	case "rename":
		c.file(fn, Tree, a(0))
		c.file(fn, Write, a(1))
	case "copy":
		c.file(fn, Write, a(1))
	case "symlink":
		c.link(fn, a(0), a(1))
	case "link":
		c.file(fn, Write, a(0))
		c.file(fn, Write, a(1))
	case "touch", "mkdir", "chown", "chgrp", "truncate", "lchown":
		c.file(fn, Write, a(0))
	case "chmod":
		c.file(fn, Write, a(0))
		c.chmod(fn, a(0), a(1))
	}
}

func (c *Code) rEffect(call *Call, fn string, pos []Value, a func(int) Value) {
	fn = strings.TrimPrefix(strings.TrimPrefix(fn, "base."), "processx.")
	switch fn {
	case "system", "shell", "pipe":
		v, _ := call.arg(0, "command")
		c.shell(fn, v)
	case "system2":
		cmd, _ := call.arg(0, "command")
		args, _ := call.arg(1, "args")
		line := cmd
		if ss, ok := args.Strings(); ok {
			line = concat(line, str(" "+strings.Join(ss, " ")))
		} else if args.Kind != Unknown || len(pos) > 1 {
			line = concat(line, str(" "+UnknownWord))
		}
		c.shell(fn, line)
	case "run":
		cmd, _ := call.arg(0, "command")
		args := []Value{cmd}
		if l, ok := call.arg(1, "args"); ok && l.Kind == List {
			args = append(args, l.List...)
		}
		c.argv(fn, args)
	case "unlink":
		p, _ := call.arg(0, "x")
		if r, ok := call.Kw("recursive"); ok {
			if t, known := r.Truthy(); t || !known {
				c.tree(fn, p)
				return
			}
		}
		c.file(fn, Delete, p)
	case "file.remove":
		for _, v := range pos {
			c.file(fn, Delete, v)
		}
	case "file.rename":
		c.file(fn, Tree, a(0))
		c.file(fn, Write, a(1))
	case "file.copy":
		c.file(fn, Write, a(1))
	case "file.create", "dir.create", "saveRDS", "save":
		if fn == "saveRDS" || fn == "save" {
			p, _ := call.Kw("file")
			if p.Kind == Unknown && fn == "saveRDS" {
				p = a(1)
			}
			c.file(fn, Write, p)
			return
		}
		c.file(fn, Write, a(0))
	case "writeLines", "cat", "write", "write.csv", "write.table", "sink":
		p, ok := call.Kw("file")
		if !ok {
			p, ok = call.Kw("con")
		}
		if !ok && fn == "writeLines" && len(pos) > 1 {
			p, ok = pos[1], true
		}
		if !ok && fn == "sink" {
			p, ok = a(0), true
		}
		if !ok {
			return
		}
		op := Write
		if ap, ok := call.Kw("append"); ok {
			if t, _ := ap.Truthy(); t {
				op = Append
			}
		}
		c.file(fn, op, p)
	case "file":
		if m, ok := call.arg(1, "open"); ok && m.Known() {
			c.file(fn, openMode(m.S), a(0))
		}
	case "Sys.chmod":
		m, _ := call.arg(1, "mode")
		c.chmod(fn, a(0), m)
	}
}

func (c *Code) juliaEffect(call *Call, fn string, pos []Value, a func(int) Value) {
	fn = strings.TrimPrefix(fn, "Base.")
	switch fn {
	case "run", "read", "success", "pipeline", "readchomp", "readlines", "eachline", "open", "readavailable", "write":
		if v := a(0); v.Kind == Str && v.Cmd {
			if v.List != nil {
				c.argv(fn, v.List)
			} else {
				c.shell(fn, v)
			}
			return
		}
	}
	switch fn {
	case "write":
		c.file(fn, Write, a(0))
	case "open":
		mode := "r"
		if m := a(1); m.Known() {
			mode = m.S
		}
		for _, k := range []string{"write", "truncate", "create"} {
			if v, ok := call.Kw(k); ok {
				if t, _ := v.Truthy(); t {
					mode = "w"
				}
			}
		}
		if v, ok := call.Kw("append"); ok {
			if t, _ := v.Truthy(); t {
				mode = "a"
			}
		}
		c.file(fn, openMode(mode), a(0))
	case "rm":
		if r, ok := call.Kw("recursive"); ok {
			if t, known := r.Truthy(); t || !known {
				c.tree(fn, a(0))
				return
			}
		}
		c.file(fn, Delete, a(0))
	case "mv":
		c.file(fn, Tree, a(0))
		c.file(fn, Write, a(1))
	case "cp":
		c.file(fn, Write, a(1))
	case "touch", "mkdir", "mkpath":
		c.file(fn, Write, a(0))
	case "symlink":
		c.link(fn, a(0), a(1))
	case "hardlink":
		c.file(fn, Write, a(0))
		c.file(fn, Write, a(1))
	case "chmod":
		c.chmod(fn, a(0), a(1))
	}
}

// symbolicMode reads a symbolic mode (FileUtils.chmod("a+rwx"), Tcl
// -permissions ugo=rwx, rwxrwxrwx) as 0777 when it gives everyone read,
// write and execute, or as its bits when it is nine rwx letters; ok is
// false otherwise.
func symbolicMode(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 9 && strings.Trim(s, "rwx-") == "" {
		var n int64
		for i := 0; i < 9; i++ {
			n <<= 1
			if s[i] != '-' {
				n |= 1
			}
		}
		return n, true
	}
	for _, part := range strings.Split(s, ",") {
		k := strings.IndexAny(part, "+=")
		if k < 0 {
			continue
		}
		who, perm := part[:k], part[k+1:]
		if (who == "" || who == "a" || strings.Contains(who, "o") && strings.Contains(who, "g") && strings.Contains(who, "u")) &&
			strings.Contains(perm, "r") && strings.Contains(perm, "w") && strings.Contains(perm, "x") {
			return 0o777, true
		}
	}
	return 0, false
}
