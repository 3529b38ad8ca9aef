package shell

import (
	"maps"
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// Processes that read what the shell writes (testdata/corpus/README.md
// §9.2, scripts read from stdin): a statement whose stdout goes to an
// output process substitution `> >(sh)`, to a descriptor `exec N>
// >(sh)` opened (`>&N`, `> /dev/fd/N`), or to a coprocess's input
// (`coproc sh`, then `>&"${COPROC[1]}"`) hands its literal output to that
// process as its stdin: `echo 'rm -rf x' > >(sh)` runs rm.

// sink is a process started earlier that reads a descriptor: its
// statements and the frame they were parsed in.
type sink struct {
	f     *frame
	stmts []*syntax.Stmt
	via   string
}

// maxSinkWrites bounds the writes walked into sinks per command.
const maxSinkWrites = 32

// feed walks sink k with text as its stdin.
func (w *walker) feed(st *state, k *sink, text string) {
	if w.sinkWrites >= maxSinkWrites {
		return
	}
	w.sinkWrites++
	w.stmts(k.f.child(k.via), st.clone(), k.stmts, ioCtx{stdin: &text})
}

// outProc returns the output process substitution `>(…)` a redirection
// target is, or nil.
func outProc(r *syntax.Redirect) *syntax.ProcSubst {
	if r.Word == nil || len(r.Word.Parts) != 1 {
		return nil
	}
	if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdOut {
		return ps
	}
	return nil
}

// stdoutOp reports a redirection operator that sends descriptor fd's
// output to its target (">", ">>", ">|", "&>", "&>>").
func stdoutOp(op syntax.RedirOperator) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		return true
	}
	return false
}

// writeSinks hands out, the literal stdout of statement s, to the
// processes its redirections send it to; exec without a command opens
// sinks for the later statements instead.
func (w *walker) writeSinks(f *frame, st *state, s *syntax.Stmt, redirs []Redirect, out *string) {
	execOnly := false
	if c, ok := s.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 1 && c.Args[0].Lit() == "exec" {
		execOnly = true
	}
	for i, r := range s.Redirs {
		fd := ""
		if r.N != nil {
			fd = r.N.Value
		}
		if ps := outProc(r); ps != nil && stdoutOp(r.Op) {
			k := &sink{f: f, stmts: ps.Stmts, via: ">( )"}
			switch {
			case execOnly:
				// `exec N> >(CMD)`, `exec {V}> >(CMD)`
				if name, ok := namedFd(fd); ok {
					fd = st.freeFd(10, 1)
					st.setVar(name, varVal{val: fd, known: true})
				}
				if fd == "" {
					fd = "1" // `exec > >(CMD)`: every later output (stmts)
				}
				st.setSink(fd, k)
			case (fd == "" || fd == "1") && out != nil:
				w.feed(st, k, *out)
			}
			continue
		}
		j := len(redirs) - len(s.Redirs) + i
		if execOnly || out == nil || fd != "" && fd != "1" || j < 0 || j >= len(redirs) {
			continue
		}
		t := redirs[j].Target
		if !t.Known {
			continue
		}
		target := ""
		switch {
		case r.Op == syntax.DplOut:
			target = t.Value
		case stdoutOp(r.Op):
			target, _ = fdPath(t.Value)
		}
		if k := st.sinks[target]; k != nil && target != "" {
			w.feed(st, k, *out)
		}
	}
}

// coproc starts coprocess c: NAME (COPROC) becomes the array of its
// output and input descriptors, and its input descriptor a sink.
func (w *walker) coproc(f *frame, st *state, c *syntax.CoprocClause) {
	name := "COPROC"
	if c.Name != nil && c.Name.Lit() != "" {
		name = c.Name.Lit()
	}
	rd := st.freeFd(63, -1)
	st.setSink(rd, nil)
	wr := st.freeFd(63, -1)
	st.setSink(wr, &sink{f: f, stmts: []*syntax.Stmt{c.Stmt}, via: "coproc " + name})
	st.setVar(name, varVal{val: rd, known: true, arr: []string{rd, wr}, isArr: true})
}

// freeFd is the first descriptor number from n on (step 1 or -1) that no
// sink nor input descriptor of the shell uses.
func (s *state) freeFd(n, step int) string {
	for ; n > 2 && n < 1024; n += step {
		k := strconv.Itoa(n)
		if _, used := s.sinks[k]; used {
			continue
		}
		if _, used := s.fds[k]; used {
			continue
		}
		return k
	}
	return ""
}

// setSink makes descriptor fd write to k (nil: a descriptor in use that
// no modelled process reads; also the coprocess's output end).
func (s *state) setSink(fd string, k *sink) {
	if fd == "" {
		return
	}
	m := make(map[string]*sink, len(s.sinks)+1)
	maps.Copy(m, s.sinks)
	m[fd] = k
	s.sinks = m
}

// captured is clone for a substitution, whose output the shell captures:
// it does not reach a process `exec > >(CMD)` made stdout.
func (s *state) captured() *state {
	n := s.clone()
	if n.sinks["1"] != nil {
		n.setSink("1", nil)
	}
	return n
}
