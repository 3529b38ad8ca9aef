package shell

import (
	"path"
	"strings"
)

// Scripts written and run in the same command (testdata/corpus/README.md §2.1: "text
// written to a file – the file is not run by that command"; when the same
// command does run it, its text is a script like any other): `echo 'rm -rf
// x' > x.sh; bash x.sh`, `cat > x.sh <<'EOF' … EOF⏎sh ./x.sh`,
// `printf … > x.sh; chmod +x x.sh; ./x.sh`, `source x.sh`.

// maxWrittenFiles bounds the files remembered per command.
const maxWrittenFiles = 64

// noteWrites remembers the literal stdout out of a statement whose stdout
// is redirected to a file (`>`, `>|`, `>>`, `&>`, `&>>`); an unknown output
// forgets the file (its content is then unknown).
func (w *walker) noteWrites(st *state, redirs []Redirect, out *string) {
	for _, r := range redirs {
		if r.Fd != "" && r.Fd != "1" {
			continue
		}
		app := false
		switch r.Op {
		case ">", ">|", "&>":
		case ">>", "&>>":
			app = true
		default:
			continue
		}
		w.noteFile(st, r.Target, out, app)
	}
}

// noteFile remembers text as the content of the file t names (appended
// when app); nil text forgets the file (its content is then unknown).
func (w *walker) noteFile(st *state, t Word, text *string, app bool) {
	key, ok := w.fileKey(st, t)
	if !ok {
		return
	}
	w.noteKey(key, text, app)
}

func (w *walker) noteKey(key string, text *string, app bool) {
	if text == nil {
		delete(w.files, key)
		return
	}
	if w.files == nil {
		w.files = map[string]string{}
	}
	if _, seen := w.files[key]; !seen && len(w.files) >= maxWrittenFiles {
		return
	}
	if app {
		w.files[key] += *text
	} else {
		w.files[key] = *text
	}
	if fns := w.pending[key]; len(fns) > 0 {
		// a reader met earlier reads what is written now (a FIFO, a
		// reader in the background)
		delete(w.pending, key)
		for _, fn := range fns {
			fn(w.files[key])
		}
	}
}

// noteFileCopy carries the text written earlier to a file over to its
// copies, renames and links (cp, mv, install, ln, link: `printf CMD >
// a.sh && cp a.sh b.sh && bash b.sh`, a git config file written and
// copied before include.path reads it). The destination may be a
// directory: the copy is then DEST/NAME, and both names are remembered
// (the parser does not look at the file system). A symbolic link's
// relative target is read from the link's directory.
func (w *walker) noteFileCopy(st *state, inv *Invocation) {
	if len(w.files) == 0 || inv.Cmd == nil {
		return
	}
	switch inv.Program {
	case "cp", "mv", "install", "ln", "link":
	default:
		return
	}
	ops := inv.Cmd.Operands
	symbolic := inv.Program == "ln" && inv.Cmd.AnyHas("s", "symbolic")
	copyTo := func(src Word, destKey string, destIsDir bool) {
		if !src.Known || src.Value == "" {
			return
		}
		var srcKey string
		if symbolic && !strings.HasPrefix(src.Value, "/") {
			base := destKey
			if !destIsDir {
				base = path.Dir(destKey)
			}
			srcKey = path.Join(base, src.Value)
		} else {
			k, ok := w.fileKey(st, src)
			if !ok {
				return
			}
			srcKey = k
		}
		text, ok := w.files[srcKey]
		if !ok {
			return
		}
		name := path.Base(src.Value)
		if destIsDir {
			w.noteKey(path.Join(destKey, name), &text, false)
			return
		}
		w.noteKey(destKey, &text, false)
		w.noteKey(path.Join(destKey, name), &text, false)
	}
	if dir, ok := inv.Cmd.Last("t", "target-directory"); ok {
		dk, ok := w.fileKey(st, Word{Value: dir, Known: true})
		if !ok {
			return
		}
		for _, i := range ops {
			copyTo(inv.Args[i], dk, true)
		}
		return
	}
	if len(ops) < 2 {
		return
	}
	dk, ok := w.fileKey(st, inv.Args[ops[len(ops)-1]])
	if !ok {
		return
	}
	for _, i := range ops[:len(ops)-1] {
		copyTo(inv.Args[i], dk, len(ops) > 2)
	}
}

// maxPending bounds the readers waiting for a file's content.
const maxPending = 16

// readFile calls fn with the text written earlier in the command to the
// file p names and reports true; when nothing literal was written to it
// yet, fn waits for a later write of literal text to that file (a FIFO
// or a file a background reader opens: `mkfifo p; sh < p & echo CMD >
// p`, testdata/corpus/README.md §9.2) and readFile reports false.
func (w *walker) readFile(st *state, p string, fn func(src string)) bool {
	if src, ok := w.writtenScript(st, p); ok {
		fn(src)
		return true
	}
	key, ok := w.fileKey(st, Word{Value: p, Known: true})
	if !ok {
		return false
	}
	if w.pending == nil {
		w.pending = map[string][]func(string){}
	}
	if len(w.pending[key]) < maxPending {
		w.pending[key] = append(w.pending[key], fn)
	}
	return false
}

// writtenScript returns the content written earlier in the command to the
// file p names (relative to the current directory).
func (w *walker) writtenScript(st *state, p string) (string, bool) {
	if len(w.files) == 0 {
		return "", false
	}
	key, ok := w.fileKey(st, Word{Value: p, Known: true})
	if !ok {
		return "", false
	}
	src, ok := w.files[key]
	return src, ok
}

// fileKey is the path a known file word names, cleaned: absolute when the
// starting directory is known (Options.Cwd, an absolute cd), so that a
// relative and an absolute name of one file (`printf … > s.sh && bash
// /ROOT/s.sh` run from /ROOT) give one key; otherwise relative to the
// starting directory. false when the word or the current directory is
// unknown.
func (w *walker) fileKey(st *state, t Word) (string, bool) {
	if !t.Known || t.Value == "" || st.dir == DirUnknown {
		return "", false
	}
	p := t.Value
	if !strings.HasPrefix(p, "/") {
		d, ok := w.dirValue(st, st.dir)
		if !ok {
			return "", false
		}
		p = path.Join(d, p)
	}
	return path.Clean(p), true
}

// shellScript reports text that runs as a shell script when executed
// directly: no #! line, or one naming a shell.
func shellScript(src string) bool {
	if !strings.HasPrefix(src, "#!") {
		return true
	}
	line, _, _ := strings.Cut(src[2:], "\n")
	fs := strings.Fields(line)
	if len(fs) == 0 {
		return true
	}
	prog := ProgramName(fs[0])
	if prog == "env" && len(fs) > 1 {
		prog = fs[1]
	}
	return shells(prog)
}
