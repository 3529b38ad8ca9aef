package pathguard

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/shell/codelex"
)

// Interpreter file writes (testdata/corpus/README.md §3.3, §9.4): the inline code of
// python, node, perl, ruby, php, lua, Rscript, julia, osascript (`-c`/`-e`/
// `-r`, or a script on stdin) is lexed once by internal/shell
// (Invocation.Code); the files its calls open for writing or appending,
// delete, move, copy onto or link are write targets. Options that are not
// code (`python -m black`, `perl -i`, `ruby -i`) are handled here.

// codeOf returns the lexed inline code of inv: the walker's result, or a
// fresh analysis for an invocation built without the walker.
func codeOf(inv shell.Invocation) *codelex.Code {
	if inv.Code != nil {
		return inv.Code
	}
	return shell.AnalyzeCode(inv)
}

// codeWrites adds the file targets of the invocation's inline code.
func (c *collector) codeWrites(code *codelex.Code) {
	lang := string(code.Lang)
	for _, f := range code.Files {
		p, ok := c.codePath(f.Path)
		if !ok {
			continue
		}
		if f.Link != nil {
			c.add(p, opSpecial, lang+" symlink")
			if c.made != nil {
				text, ok := c.codePath(*f.Link)
				if !ok {
					text = placeholder
				}
				if code.Lang == codelex.Ruby && c.isDir(p) { // FileUtils.ln_s(src, DIR)
					p = strings.TrimRight(p, "/") + "/" + path.Base(filepath.ToSlash(text))
				}
				c.madeLinkAt(p, text)
			}
			continue
		}
		o := opWrite
		switch f.Op {
		case codelex.Append:
			o = opAppend
		case codelex.Delete:
			o = opDelete
		case codelex.Tree:
			o = opTree
		case codelex.Write:
			o = createOp(f.Func)
		}
		c.add(p, o, lang+" "+f.Func)
	}
	for _, ch := range code.Chmods {
		// a mode change is a write of the file's metadata, as chmod(1)
		// and touch are (testdata/corpus/README.md §3.2 "any write")
		if p, ok := c.codePath(ch.Path); ok {
			c.add(p, opWrite, lang+" "+ch.Func)
		}
	}
	for _, call := range code.Calls {
		// a server listening on a path binds a Unix socket there (Node's
		// net/http/ipc `server.listen(".harness/ipc.sock")`, Deno.listen
		// {path}); a port number or host is no path
		if m := call.Method(); (m != "listen" && m != "listenSync") || len(call.Args) == 0 {
			continue
		}
		v := call.Args[0].V
		if v.Kind != codelex.Str || v.Partial || !strings.ContainsAny(v.S, "/.") || strings.Trim(v.S, "0123456789.:") == "" {
			continue
		}
		if p, ok := c.codePath(v); ok {
			c.add(p, opSpecial, lang+" "+call.Func+" (a Unix socket)")
		}
	}
}

// codePath turns a path value of the code into a path the guard resolves:
// $HARNESS_ROOT is the root, $HOME is "~", the working directory is the
// invocation's; false for a path with unknown parts.
func (c *collector) codePath(v codelex.Value) (string, bool) {
	if v.Kind != codelex.Str || v.Partial {
		return "", false
	}
	switch {
	case v.Env == "HARNESS_ROOT":
		if c.g.rootLex == "" {
			return "", false
		}
		return c.g.rootLex + v.S, true
	case v.Env == "HOME":
		return "~" + v.S, true
	case v.Env != "":
		return "", false
	case v.Cwd:
		return c.base + v.S, true
	}
	return v.S, v.S != ""
}

// perl handles -i/-pi in-place edits of the file operands.
func (c *collector) perl() { c.perlLike(langPerl) }

// ruby handles -i in-place edits.
func (c *collector) ruby() { c.perlLike(langRuby) }

const (
	langPerl = iota
	langRuby
)

// perlLike reads perl/ruby's options by their rows of the program table
// (-i[ext], -e CODE, -0/-l digits, value letters attached or in the next
// word): with -i the file operands are written in place, after the script
// file when there is no -e code ("-" is a script on stdin).
func (c *collector) perlLike(lang int) {
	p := c.parsed()
	inplace := p.Has("i")
	haveCode := p.Has("e") || lang == langPerl && p.Has("E")
	files := p.OperandValues()
	switch {
	case haveCode:
	case len(files) > 0 && files[0] == "-" && p.End < 0:
		files = files[1:]
	case len(files) > 0 && c.inv.Stdin == nil:
		files = files[1:] // the script file
	}
	if !inplace {
		return
	}
	what := "perl -i"
	if lang == langRuby {
		what = "ruby -i"
	}
	for _, f := range files {
		c.addReplaced(c.base, f, what)
	}
	c.listing(opWrite, what)
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// createOp is the operation of a code call that creates its path: a FIFO,
// device node, socket or link (opSpecial), a directory (opMkdir), else a
// plain write — what the planting rule (planting.go) tells apart.
func createOp(fn string) op {
	name := fn
	if i := strings.LastIndexAny(fn, ".:"); i >= 0 {
		name = fn[i+1:]
	}
	switch strings.TrimSuffix(name, "Sync") {
	case "mkfifo", "mknod", "bind", "symlink", "link", "symlink_to", "hardlink_to", "ln", "ln_s", "ln_sf":
		return opSpecial
	case "mkdir", "makedirs", "mkdir_p", "mkpath", "make_path", "mkdirs":
		return opMkdir
	}
	return opWrite
}
