package shell

import (
	"strings"
)

// moreWrappers handles runners whose command is not simply the rest of
// their arguments (testdata/corpus/README.md §2.3, "any stack of them"): `sg GROUP
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
		spec := OptSpec{Short: "SctTephs", Long: "Logfile=", Partial: true}
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
		i := OptSpec{Long: "config-file= autolaunch=", Partial: true}.FirstOperand(vals, 0)
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

// sedRuns walks the commands GNU sed executes (ParseSed, the one sed script
// reader): `e COMMAND`, a bare `e` (the pattern space: each line of a known
// stdin) and the replacement of an `s///e` substitution (conservatively,
// the replacement text as written).
func (w *walker) sedRuns(f *frame, st *state, vals []string, stdin *string) {
	var scripts []string
	explicit := false
	for k := 0; k < len(vals); k++ {
		v := vals[k]
		switch {
		case (v == "-e" || v == "--expression") && k+1 < len(vals):
			scripts = append(scripts, vals[k+1])
			explicit = true
			k++
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, v[len("--expression="):])
			explicit = true
		case v == "-f" || v == "--file":
			explicit = true // the script is in a file; operands are input files
			k++
		case v == "-l" || v == "--line-length":
			k++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			if !explicit && len(scripts) == 0 {
				scripts = append(scripts, v)
			}
		}
	}
	for _, s := range scripts {
		for _, cmd := range ParseSed(s) {
			var run []string
			switch {
			case cmd.Name == 'e' && strings.TrimSpace(cmd.Arg) != "":
				run = []string{cmd.Arg} // e COMMAND
			case cmd.Name == 'e' && stdin != nil:
				run = strings.Split(*stdin, "\n") // bare e runs the pattern space: each input line
			case cmd.Name == 's' && strings.Contains(cmd.Flags, "e"):
				run = []string{cmd.Repl} // s///e runs the pattern space after the substitution
			}
			for _, r := range run {
				if strings.TrimSpace(r) != "" {
					w.script(f.child("sed e"), st.clone(), r, ioCtx{})
				}
			}
		}
	}
}

// envSplit splits the string of `env -S` the way GNU env does: blanks
// separate words, '…' and "…" quote (backslash escapes \\ \" \' \n \t
// inside double quotes and outside quotes), and # at a word start begins
// a comment.
func envSplit(s string) []string {
	var out []string
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		case ch == '#' && !in:
			return out
		case ch == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				b.WriteString(s[i+1:])
				i = len(s)
				break
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					b.WriteByte(envEscape(s[i]))
					continue
				}
				b.WriteByte(s[i])
			}
		case ch == '\\' && i+1 < len(s):
			in = true
			i++
			b.WriteByte(envEscape(s[i]))
		default:
			in = true
			b.WriteByte(ch)
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

func envEscape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'f':
		return '\f'
	case 'v':
		return '\v'
	}
	return c
}

// shellBase strips a version suffix from a shell's name (`bash5`,
// `bash-5.2`, `ksh93`, `zsh-5.9`): installed side by side under such names,
// they are the same shells.
func shellBase(name string) string {
	b := strings.TrimRight(name, "0123456789.")
	b = strings.TrimSuffix(b, "-")
	if b == name {
		return ""
	}
	return b
}
