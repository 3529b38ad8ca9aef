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
		key, ok := w.fileKey(st, r.Target)
		if !ok {
			continue
		}
		if out == nil {
			delete(w.files, key)
			continue
		}
		if w.files == nil {
			w.files = map[string]string{}
		}
		if _, seen := w.files[key]; !seen && len(w.files) >= maxWrittenFiles {
			continue
		}
		if app {
			w.files[key] += *out
		} else {
			w.files[key] = *out
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
