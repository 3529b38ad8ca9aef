package shell

import "strings"

// moreWrappers handles runners whose command is not simply the rest of
// their arguments (corpus README §2.3, "any stack of them"): `sg GROUP
// [-c] 'CMD'` (run through sh -c), `screen [opts] CMD…`,
// `screen -X stuff 'TEXT'` (typed into the session's shell),
// `dbus-launch [opts] CMD…` and `gdb … --args PROG ARGS…`. It reports
// whether prog was one of them.
func (w *walker) moreWrappers(f *frame, st *state, prog string, c cmdCtx, vals []string) bool {
	switch prog {
	case "sg":
		// sg GROUP [-c] COMMAND: the command string goes to /bin/sh -c
		i := 0
		if i < len(vals) && vals[i] == "-" {
			i++
		}
		i++ // the group
		if i < len(vals) && vals[i] == "-c" {
			i++
		}
		if i < len(vals) {
			w.script(f.child("sg"), st.clone(), strings.Join(vals[i:], " "), ioCtx{stdin: c.stdin})
		}
		return true
	case "screen":
		spec := OptSpec{Short: "SctTephs", Long: []string{"Logfile"}}
		short, _ := spec.Flags(vals, 0)
		if short['X'] {
			// screen -X stuff 'TEXT': the text is typed into the session's shell
			for k, v := range vals {
				if v == "stuff" && k+1 < len(vals) {
					txt := strings.NewReplacer(`\n`, "\n", `\r`, "\n", "^M", "\n").Replace(vals[k+1])
					w.script(f.child("screen stuff"), st.clone(), txt, ioCtx{})
				}
			}
			return true
		}
		for _, l := range "rRxXQ" {
			if short[byte(l)] {
				return true // reattach or a screen command: no new program
			}
		}
		i := spec.FirstOperand(vals, 0)
		if i < len(vals) && strings.HasPrefix(vals[i], "-") && strings.TrimLeft(vals[i], "-") == "Logfile" {
			i = spec.FirstOperand(vals, i+2)
		}
		w.rerun(f, st, c, i+1, "screen")
		return true
	case "dbus-launch":
		i := OptSpec{Long: []string{"config-file", "autolaunch"}}.FirstOperand(vals, 0)
		w.rerun(f, st, c, i+1, "dbus-launch")
		return true
	case "gdb", "lldb", "cgdb":
		for k, v := range vals {
			if v == "--args" || v == "--" && prog == "lldb" {
				w.rerun(f, st, c, k+2, prog+" "+v)
				return true
			}
		}
		return false
	}
	return false
}
