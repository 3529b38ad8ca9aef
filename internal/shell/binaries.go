package shell

import (
	"path"
	"strings"
)

// The harness binaries by what the file is (testdata/corpus/README.md §9.1
// "Program identity"): a copy, hard link, symlink or rename of the
// installed `harness` or `harness-hook` is that program, so a Generator
// cannot leave the harness_admin rules behind by running `$TMPDIR/hx allow`
// instead of `harness allow`. Three sources, in this order:
//
//   - the name: Identity of the command word is harness or harness-hook;
//   - a copy made earlier in the same command (`cp "$(command -v harness)"
//     /tmp/hx; /tmp/hx allow …`): cp, ln, link, mv, install, rsync, ditto,
//     dd if= and cat > FILE of a harness binary record their destination;
//   - the file itself, through Options.Identify (the hook compares device
//     and inode, then size and content, with the installed binaries). The
//     parser never touches the file system on its own.

// Identities of the harness binaries (Invocation.Program).
const (
	HarnessCLI  = "harness"
	HarnessHook = "harness-hook"
)

// IsHarnessBinary reports whether the program identity id is one of the
// harness binaries.
func IsHarnessBinary(id string) bool { return id == HarnessCLI || id == HarnessHook }

// binaryCopiers are the programs whose operands copy, link or rename a
// file to their last operand (or to -t DIR); dd copies if= to of=, cat
// copies its operands to a redirected stdout.
func binaryCopiers(s string) bool {
	switch s {
	case "cp", "ln", "link", "mv", "install", "rsync", "ditto", "dd", "cat", "pv", "tee":
		return true
	}
	return false
}

// programBinary is the harness binary the command word v runs ("" for
// none) when its name does not already say so: a copy made earlier in the
// command, or the file Options.Identify recognises (a word with a slash is
// a path relative to the command's directory; a bare name that is neither
// a table row nor a function is looked up in $PATH).
func (w *walker) programBinary(st *state, v Word, prog string) string {
	if !v.Known || v.Value == "" || IsHarnessBinary(prog) {
		return ""
	}
	if strings.Contains(v.Value, "/") {
		abs, ok := w.pathValue(st, st.dir, v.Value)
		if !ok {
			return ""
		}
		if b := w.binaries[abs]; b != "" {
			return b
		}
		if w.opts.Identify != nil && strings.HasPrefix(abs, "/") {
			id, _ := w.opts.Identify(abs, nil)
			return id
		}
		return ""
	}
	if w.opts.Identify == nil || Lookup(prog) != nil || st.funcs[prog] != nil {
		return ""
	}
	id, _ := w.opts.Identify(v.Value, st.searchPath())
	return id
}

// searchPath is $PATH as the command set it (nil when it did not, or set
// it to something unknown: the identifier then uses the hook's own PATH).
func (st *state) searchPath() []string {
	v, ok := st.vars["PATH"]
	if !ok || !v.known {
		return nil
	}
	return strings.Split(v.val, ":")
}

// operandBinary is the program a path operand names when it is copied
// (testdata/corpus/README.md §9.1 "identity, not name"): a harness binary
// by a lookup by name (`"$(command -v harness)"`, `$(which harness-hook)`,
// the value the walker gives those substitutions), a copy made earlier,
// an existing file Options.Identify recognises, or a path whose name is a
// harness binary's when there is no file to look at (or no Identify);
// otherwise a program of the table by the operand's name (`/bin/rm`,
// `$(command -v git)`, `/usr/bin/sudo`): a copy of a program's file is
// that program. "" for anything else.
func (w *walker) operandBinary(st *state, a Word) string {
	if !a.Known || a.Value == "" {
		return ""
	}
	id := Identity(a.Value)
	computed := strings.ContainsAny(a.Raw, "$`")
	if computed && IsHarnessBinary(id) && !strings.Contains(a.Value, "/") {
		return id // $(command -v harness): the program looked up by name
	}
	abs, ok := w.pathValue(st, st.dir, a.Value)
	if ok {
		if b := w.binaries[abs]; b != "" {
			return b
		}
	}
	if w.opts.Identify != nil && ok && strings.HasPrefix(abs, "/") {
		if b, found := w.opts.Identify(abs, nil); found {
			if b != "" || IsHarnessBinary(id) {
				return b // an existing file is judged by what it is
			}
		}
	}
	if IsHarnessBinary(id) {
		return id // no such file to look at (or no Identify): by its name
	}
	if sub := gitHelper(id); sub != "" {
		return "" // a git helper's copy would need its subcommand too
	}
	if Lookup(id) != nil && (computed || strings.Contains(a.Value, "/")) {
		return id // /bin/rm, $(command -v rm)
	}
	return ""
}

// noteBinaryCopy records, for an invocation of a copier, which program
// file it copies, links or renames and where to (walker.binaries: files
// outlive subshells, so a later command word naming the destination is
// that program: `cp /bin/rm ./del && ./del -rf x` runs rm); a harness
// binary's copy is also Invocation.CopiesBinary. A copier's source is its
// operands, dd's if=, or a stdin redirection (`cat < /bin/rm > x`, `tee x
// < /bin/rm`); its destination its last operand, -t DIR, of=, or a
// redirected stdout.
func (w *walker) noteBinaryCopy(st *state, inv *Invocation) {
	if !binaryCopiers(inv.Program) || inv.Cmd == nil {
		return
	}
	var srcs, dests []Word
	switch inv.Program {
	case "dd":
		for _, a := range inv.Args {
			if k, v, ok := strings.Cut(a.Value, "="); ok && a.Known {
				aw := Word{Value: v, Known: true, Raw: strings.TrimPrefix(a.Raw, k+"=")}
				switch k {
				case "if":
					srcs = append(srcs, aw)
				case "of":
					dests = append(dests, aw)
				}
			}
		}
		for _, r := range inv.Redirects {
			if (r.Op == ">" || r.Op == ">|") && (r.Fd == "" || r.Fd == "1") {
				dests = append(dests, r.Target) // dd < SRC > DEST
			}
		}
	case "cat", "pv", "tee":
		if inv.Program == "tee" {
			for _, i := range inv.Cmd.Operands {
				dests = append(dests, inv.Args[i])
			}
		} else {
			for _, i := range inv.Cmd.Operands {
				srcs = append(srcs, inv.Args[i])
			}
		}
		for _, r := range inv.Redirects {
			if (r.Op == ">" || r.Op == ">|" || r.Op == ">>" || r.Op == "&>") && (r.Fd == "" || r.Fd == "1") {
				dests = append(dests, r.Target)
			}
		}
		if len(dests) == 0 {
			return // cat to a pipe or the terminal copies nothing to a file
		}
	default:
		ops := inv.Cmd.Operands
		dir, hasDir := inv.Cmd.Last("t", "target-directory")
		if hasDir {
			for _, i := range ops {
				srcs = append(srcs, inv.Args[i])
			}
		} else if len(ops) >= 2 || (inv.Program == "ln" && len(ops) == 1) {
			for _, i := range ops[:max(len(ops)-1, 1)] {
				srcs = append(srcs, inv.Args[i])
			}
			if len(ops) >= 2 {
				dests = append(dests, inv.Args[ops[len(ops)-1]])
			} else {
				dests = append(dests, Word{Value: ".", Known: true, Raw: "."})
			}
		}
		if hasDir {
			dests = append(dests, Word{Value: dir, Known: true, Raw: dir})
		}
	}
	if inv.Program != "ln" && inv.Program != "link" && inv.Program != "mv" {
		for _, r := range inv.Redirects {
			if r.Op == "<" && (r.Fd == "" || r.Fd == "0") {
				srcs = append(srcs, r.Target)
			}
		}
	}
	for _, s := range srcs {
		b := w.operandBinary(st, s)
		if b == "" {
			continue
		}
		if IsHarnessBinary(b) {
			inv.CopiesBinary = b
		}
		for _, d := range dests {
			if !d.Known {
				continue
			}
			abs, ok := w.pathValue(st, st.dir, d.Value)
			if !ok {
				continue
			}
			if w.binaries == nil {
				w.binaries = map[string]string{}
			}
			w.binaries[abs] = b
			// a directory destination holds the binary under its own name
			w.binaries[path.Join(abs, ProgramName(s.Value))] = b
		}
		return
	}
}
