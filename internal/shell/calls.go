package shell

import (
	"strconv"
	"strings"
)

// Calls in the languages of REPLs and editors (RunSpec.Calls): the code
// a program runs from an option, an operand or its stdin is not shell code,
// but a call of one of its shell-running functions hands a string to the
// shell (vim `call system("CMD")`, octave `system("CMD")`, gnuplot
// `system "CMD"`, emacs `(shell-command "CMD")`), and a few of its
// functions do what a command does (cmake `file(REMOVE_RECURSE DIR)` is
// `rm -r -f DIR`). codeCalls finds them with a small scanner that knows only
// what these languages share: names, double-quoted strings (names inside
// them are text), single-quoted strings as arguments, and argument lists in
// parentheses or after blanks.

// codeCall is one call codeCalls found.
type codeCall struct {
	// name is the function as RunSpec.Calls names it.
	name string
	// shell is the shell command string of a shell-running call.
	shell string
	// argv is the command a mapped call does (NAME=PROG ARGS…): PROG ARGS
	// followed by the call's arguments.
	argv []string
}

// maxCodeCalls bounds the calls taken from one text.
const maxCodeCalls = 16

// codeCalls returns the calls of spec (RunSpec.Calls) in src.
func codeCalls(spec, src string) []codeCall {
	if spec == "" || src == "" {
		return nil
	}
	var out []codeCall
	for i := 0; i < len(src) && len(out) < maxCodeCalls; {
		ch := src[i]
		if ch == '"' {
			i = skipQuoted(src, i)
			continue
		}
		if !callNameByte(ch) || i > 0 && callNameByte(src[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(src) && callNameByte(src[j]) {
			j++
		}
		name := src[i:j]
		i = j
		target, mapped, more, ok := callEntry(spec, name)
		if !ok {
			continue
		}
		args, quoted := callArgs(src[j:])
		switch {
		case !mapped:
			// the shell string is the first argument, or the Nth for NAME@N;
			// for NAME< and NAME| the rest of a first argument that starts
			// with that mark
			n := 1
			if k, err := strconv.Atoi(target); err == nil && k > 0 {
				n = k
			}
			switch {
			case target == "<" || target == "|":
				if len(args) > 0 && quoted[0] {
					if sh, ok := strings.CutPrefix(strings.TrimLeft(args[0], " \t"), target); ok {
						out = append(out, codeCall{name: name, shell: sh})
					}
				}
			case len(args) >= n && quoted[n-1]:
				out = append(out, codeCall{name: name, shell: args[n-1]})
			}
		case more && (len(args) < 2 || args[1] == "nil" || args[1] == "0" || strings.EqualFold(args[1], "false")):
			// the option that makes the call do the command is absent
		case len(args) > 0:
			ops := args
			if more {
				ops = args[:1]
			}
			out = append(out, codeCall{name: name, argv: append(strings.Fields(target), ops...)})
		}
	}
	return out
}

// callEntry looks name up in spec (RunSpec.Calls): target is the command
// of a mapped entry (NAME=PROG ARGS…), the argument number N of a
// shell-running NAME@N, or the mark of NAME< and NAME|; more is set for
// NAME+=…. A name written "p[lot]" matches its abbreviations (isMod). It
// allocates nothing (it runs for every name in the code).
func callEntry(spec, name string) (target string, mapped, more, ok bool) {
	for rest := spec; rest != ""; {
		var e string
		e, rest, _ = strings.Cut(rest, ",")
		e = strings.TrimSpace(e)
		if k, t, m := strings.Cut(e, "="); m {
			// a mapped entry is one NAME=PROG ARGS…
			k = strings.TrimSpace(k)
			plus := strings.HasSuffix(k, "+")
			if strings.TrimSuffix(k, "+") == name {
				return strings.TrimSpace(t), true, plus, true
			}
			continue
		}
		for e != "" {
			var n string
			n, e, _ = strings.Cut(e, " ")
			n, arg, _ := strings.Cut(n, "@")
			if l := len(n) - 1; l > 0 && (n[l] == '<' || n[l] == '|') {
				n, arg = n[:l], n[l:]
			}
			if n == name || strings.IndexByte(n, '[') > 0 && isMod(n, name) {
				return arg, false, false, true
			}
		}
	}
	return "", false, false, false
}

// callNameByte reports the bytes of a function name in these languages
// (lisp names have '-', vim's have '#' and ':').
func callNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '#' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// skipQuoted returns the index after the string starting at src[i].
func skipQuoted(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if q == '"' {
				j++
			}
		case q:
			if q == '\'' && j+1 < len(src) && src[j+1] == '\'' {
				j++ // vim's '' inside a single-quoted string
				continue
			}
			return j + 1
		}
	}
	return len(src)
}

// callArgs reads the arguments after a function name: an optional "(",
// then strings and bare words separated by blanks or commas, up to ")",
// ";", a newline or the end. quoted[k] is true for a string argument.
func callArgs(s string) (args []string, quoted []bool) {
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	if i < len(s) && (s[i] == '!' || s[i] == '?') {
		i++ // Elixir's and Ruby's bang names (File.rm_rf!)
	}
	skip()
	if i < len(s) && s[i] == '(' {
		i++
	}
	for len(args) < 32 {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
			i++
		}
		if i >= len(s) || s[i] == ')' || s[i] == ';' || s[i] == '\n' {
			return
		}
		if s[i] == '"' || s[i] == '\'' {
			end := skipQuoted(s, i)
			if end > len(s) || end-1 <= i || s[end-1] != s[i] {
				return // unterminated
			}
			args = append(args, unquoteCall(s[i+1:end-1], s[i]))
			quoted = append(quoted, true)
			i = end
			continue
		}
		j := i
		for j < len(s) && !strings.ContainsRune(" \t,);\n\"'", rune(s[j])) {
			j++
		}
		if j == i {
			return
		}
		args = append(args, s[i:j])
		quoted = append(quoted, false)
		i = j
	}
	return
}

// unquoteCall decodes a string argument: backslash escapes in a
// double-quoted string, ” in a single-quoted one.
func unquoteCall(s string, q byte) string {
	if q == '\'' {
		return strings.ReplaceAll(s, "''", "'")
	}
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
