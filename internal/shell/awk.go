package shell

import (
	"regexp"
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

// awk programs run commands and write files (testdata/corpus/README.md §2.1
// Interpreters, §3.3 interpreter writes): `system(STRING)`, `print … |
// "CMD"`, `"CMD" | getline` hand STRING/CMD to sh -c like an interpreter's
// os.system, and `print … > "FILE"` / `>> "FILE"` write FILE. awk patterns
// and other string literals stay data (`awk '/rm -rf/ {print}' log`).

// IsAwk reports whether prog is an awk implementation.
func IsAwk(prog string) bool {
	switch prog {
	case "awk", "gawk", "mawk", "nawk", "original-awk", "goawk", "onetrue-awk", "bwk-awk":
		return true
	}
	return false
}

// AwkWrite is one file an awk program writes with an output redirection.
type AwkWrite struct {
	// Path is the file name (a string literal, or a variable assigned one).
	Path string
	// Append is true for `>>`.
	Append bool
}

// AwkFilename stands, in an AwkWrite's Path, for awk's FILENAME: the name
// of the input file being read, each of AwkInputs in turn (`awk '{print >
// FILENAME}' F` rewrites F).
const AwkFilename = "\x02FILENAME\x02"

// AwkInputs are the input files of an awk invocation: the words after the
// program that are not name=value assignments, "-" (stdin) dropped.
func AwkInputs(args []string) []string {
	_, _, rest := awkArgs(args)
	var out []string
	for _, w := range rest {
		if w == "-" || isAssign(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// AwkScript is what an awk program hands to the system and writes.
type AwkScript struct {
	// Commands are shell command strings (system(), pipes to and from
	// commands); unknown parts are written as "$__awk_value" (an unknown word).
	Commands []string
	// Writes are the files written by `>` / `>>` redirections of print/printf.
	Writes []AwkWrite
	// Input maps a command of Commands to the literal text the program
	// prints into it (`print "rm -rf x" | "sh"` → "sh": "rm -rf x\n"; awk
	// keeps one pipe per command string, so every print to it adds up).
	// Absent when nothing known is printed into the command.
	Input map[string]string
}

// AwkPrograms returns the inline program texts of an awk invocation
// (the first operand, or every -e/--source text); none when the program
// comes from a file (-f).
func AwkPrograms(args []string) []string {
	srcs, _, _ := awkArgs(args)
	return srcs
}

// awkArgs splits an awk invocation's arguments into its inline program
// texts (AwkPrograms), the program files of -f/--file/-E/--exec (in their
// order; "-" and /dev/stdin name stdin), and the words after the program:
// input files and name=value assignments.
func awkArgs(args []string) (srcs, files, rest []string) {
	// awk's row, in POSIX order: gawk's getopt stops at the program text
	spec := SpecOf("awk")
	spec.Stop = true
	p := spec.Parse(args, 0)
	srcs = p.Values("e", "source")
	files = p.Values("fE", "file", "exec")
	i := min(p.First(), len(args))
	if len(srcs) == 0 && len(files) == 0 && i < len(args) {
		return []string{args[i]}, nil, args[i+1:]
	}
	return srcs, files, args[i:]
}

// awkReadsStdin reports whether an awk invocation reads its records from
// stdin: no input file among the words after the program ("-" is stdin,
// name=value operands are assignments) and no program file on stdin.
func awkReadsStdin(args []string) bool {
	_, files, rest := awkArgs(args)
	for _, fl := range files {
		if fl == "-" || stdinPath(fl) {
			return false
		}
	}
	for _, a := range rest {
		if k, _, ok := strings.Cut(a, "="); ok && isAwkName(k) || a == "-" {
			continue
		}
		return false
	}
	return true
}

// awkTok is one token of an awk program.
type awkTok struct {
	kind byte // 's' string literal, 'i' identifier, 'n' newline, 'o' operator/other
	text string
}

// awkTokens splits code into rough awk tokens (string literals unescaped,
// identifiers, operators); comments are dropped.
func awkTokens(code string) []awkTok {
	var toks []awkTok
	for i := 0; i < len(code); {
		ch := code[i]
		switch {
		case ch == '\n':
			toks = append(toks, awkTok{'n', "\n"})
			i++
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case ch == '\\' && i+1 < len(code) && code[i+1] == '\n':
			i += 2
		case ch == '#':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case ch == '"':
			// awk string escapes (\n, \t, \", \\, octal \155, gawk's \x6d)
			// are those of $'…'
			j := i + 1
			for j < len(code) && code[j] != '"' {
				if code[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, awkTok{'s', ansiC(code[i+1 : min(j, len(code))])})
			i = j + 1
		case ch == '$' && i+1 < len(code) && code[i+1] >= '0' && code[i+1] <= '9':
			// a field reference $N (one token: "$0", "$12")
			j := i + 1
			for j < len(code) && code[j] >= '0' && code[j] <= '9' {
				j++
			}
			toks = append(toks, awkTok{'i', code[i:j]})
			i = j
		case ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j := i
			for j < len(code) && (code[j] == '_' || code[j] >= 'a' && code[j] <= 'z' || code[j] >= 'A' && code[j] <= 'Z' || code[j] >= '0' && code[j] <= '9') {
				j++
			}
			toks = append(toks, awkTok{'i', code[i:j]})
			i = j
		case ch == '/' && awkRegexAllowed(toks):
			// a regular expression literal: data
			j := i + 1
			for j < len(code) && code[j] != '/' && code[j] != '\n' {
				if code[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, awkTok{'o', "/re/"})
			i = j + 1
		case (ch == '>' || ch == '|' || ch == '&' || ch == '=' || ch == '<' || ch == '!') && i+1 < len(code) &&
			(code[i+1] == ch || code[i+1] == '=' || ch == '|' && code[i+1] == '&'):
			toks = append(toks, awkTok{'o', code[i : i+2]})
			i += 2
		default:
			toks = append(toks, awkTok{'o', string(ch)})
			i++
		}
	}
	return toks
}

// awkRegexAllowed reports whether a "/" here starts a regex (not a division).
func awkRegexAllowed(toks []awkTok) bool {
	if len(toks) == 0 {
		return true
	}
	t := toks[len(toks)-1]
	switch t.kind {
	case 's', 'i':
		return t.kind == 'i' && (t.text == "print" || t.text == "printf" || t.text == "return" || t.text == "in")
	case 'n':
		return true
	}
	switch t.text {
	case ")", "]", "$":
		return false
	}
	return true
}

// AwkAssigns returns the variables an awk invocation's arguments set:
// `-v name=value`, `--assign=name=value` and `name=value` operands.
func AwkAssigns(args []string) map[string]string {
	vars := map[string]string{}
	set := func(kv string) {
		if k, v, ok := strings.Cut(kv, "="); ok && isAwkName(k) {
			vars[k] = v
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-v" || a == "--assign") && i+1 < len(args):
			set(args[i+1])
			i++
		case strings.HasPrefix(a, "--assign="):
			set(a[len("--assign="):])
		case strings.HasPrefix(a, "-v") && len(a) > 2:
			set(a[2:])
		case !strings.HasPrefix(a, "-"):
			set(a)
		}
	}
	return vars
}

func isAwkName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// AwkScan finds the shell commands and file writes of an awk program.
func AwkScan(code string) AwkScript { return AwkScanVars(code, nil) }

// AwkScanVars is AwkScan with variables preset from the command line
// (AwkAssigns).
func AwkScanVars(code string, preset map[string]string) AwkScript {
	return awkScan(code, preset, nil)
}

// awkScan is AwkScanVars with the program's input records known: records
// is the literal text awk reads (its records joined by newlines, nil when
// unknown), the value of $0 outside BEGIN and of a bare print there (so
// `printf 'rm -rf x' | awk '{print | "sh"}'` and `… | awk '{system($0)}'`
// run rm).
func awkScan(code string, preset map[string]string, records *string) AwkScript {
	toks := awkTokens(code)
	vars := map[string]string{}
	for k, v := range preset {
		vars[k] = v
	}
	var out AwkScript
	// inBegin is set inside a BEGIN action, where no record has been read
	inBegin, braces, beginAt := false, 0, -1
	// value returns the literal value of the expression tokens (string
	// literals and variables assigned one, concatenated); unknown parts
	// become "$__awk_value".
	value := func(ts []awkTok) (string, bool) {
		var b strings.Builder
		known, lastUnknown := true, false
		for _, t := range ts {
			switch {
			case t.kind == 's':
				b.WriteString(t.text)
				lastUnknown = false
			case t.kind == 'i' && t.text == "$0" && records != nil && !inBegin:
				b.WriteString(*records)
				lastUnknown = false
			case t.kind == 'i' && t.text[0] != '$' && vars[t.text] != "":
				b.WriteString(vars[t.text])
				lastUnknown = false
			case t.kind == 'n':
			default:
				known = false
				if !lastUnknown {
					b.WriteString("$__awk_value")
				}
				lastUnknown = true
			}
		}
		return b.String(), known
	}
	// operand returns the tokens of the expression starting at i (up to a
	// statement end, a closing bracket of the enclosing level, or a comma).
	operand := func(i int) []awkTok {
		depth := 0
		j := i
		for ; j < len(toks); j++ {
			t := toks[j]
			if t.kind == 'n' || t.kind == 'o' && (t.text == ";" || t.text == "}" || t.text == "{") {
				break
			}
			if t.kind == 'o' && (t.text == "(" || t.text == "[") {
				depth++
			}
			if t.kind == 'o' && (t.text == ")" || t.text == "]") {
				if depth == 0 {
					break
				}
				depth--
			}
			if depth == 0 && t.kind == 'o' && (t.text == "," || t.text == "|" || t.text == "|&" || t.text == ">" || t.text == ">>") {
				break
			}
			if depth == 0 && t.kind == 'i' && t.text == "getline" {
				break
			}
		}
		return toks[i:j]
	}
	inPrint := false
	printDepth, depth, printAt := 0, 0, 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == 'o' && t.text == "{" {
			if i > 0 && toks[i-1].kind == 'i' && toks[i-1].text == "BEGIN" && beginAt < 0 {
				inBegin, beginAt = true, braces
			}
			braces++
		}
		if t.kind == 'o' && t.text == "}" {
			braces--
			if braces == beginAt {
				inBegin, beginAt = false, -1
			}
		}
		switch {
		case t.kind == 'n' || t.kind == 'o' && (t.text == ";" || t.text == "{" || t.text == "}"):
			inPrint = false
		case t.kind == 'o' && t.text == "(":
			depth++
		case t.kind == 'o' && t.text == ")":
			depth--
		case t.kind == 'i' && (t.text == "print" || t.text == "printf"):
			inPrint, printDepth, printAt = true, depth, i
		case t.kind == 'i' && i+2 < len(toks) && toks[i+1].text == "=" && toks[i+1].kind == 'o':
			// name = "literal" "literal" … (an assignment of known strings)
			if v, known := value(operand(i + 2)); known {
				vars[t.text] = v
			} else {
				delete(vars, t.text)
			}
		case t.kind == 'i' && t.text == "system" && i+1 < len(toks) && toks[i+1].text == "(":
			if v, _ := value(operand(i + 2)); v != "" {
				out.Commands = append(out.Commands, v)
			}
		case t.kind == 'o' && (t.text == "|" || t.text == "|&"):
			if i+1 < len(toks) && toks[i+1].kind == 'i' && toks[i+1].text == "getline" {
				// "CMD" | getline: the command is the operand before the pipe
				k := i - 1
				for k >= 0 && (toks[k].kind == 's' || toks[k].kind == 'i' && toks[k].text != "print" && toks[k].text != "printf") {
					k--
				}
				if v, _ := value(toks[k+1 : i]); v != "" {
					out.Commands = append(out.Commands, v)
				}
			} else if inPrint && depth == printDepth {
				if v, _ := value(operand(i + 1)); v != "" {
					out.Commands = append(out.Commands, v)
					args := printArgs(toks[printAt+1 : i])
					if len(args) == 0 {
						args = []awkTok{{'i', "$0"}} // a bare print prints the record
					}
					if text, known := value(args); known {
						if out.Input == nil {
							out.Input = map[string]string{}
						}
						out.Input[v] += text + "\n"
					}
				}
			}
		case t.kind == 'o' && (t.text == ">" || t.text == ">>") && inPrint && depth == printDepth:
			// FILENAME, unless the program or -v sets it, is the input file
			// being read: AwkFilename stands for it (AwkInputs)
			_, set := vars["FILENAME"]
			if !set {
				vars["FILENAME"] = AwkFilename
			}
			v, known := value(operand(i + 1))
			if !set {
				delete(vars, "FILENAME")
			}
			if known && v != "" {
				out.Writes = append(out.Writes, AwkWrite{Path: v, Append: t.text == ">>"})
			} else if !known {
				out.Writes = append(out.Writes, AwkWrite{Path: "", Append: t.text == ">>"})
			}
		}
	}
	return out
}

// printArgs are the tokens of a print statement's operands: the
// parentheses of `print("x")` are dropped, `printf` formats are kept as text.
func printArgs(ts []awkTok) []awkTok {
	if len(ts) >= 2 && ts[0].text == "(" && ts[len(ts)-1].text == ")" {
		return ts[1 : len(ts)-1]
	}
	return ts
}

// awk walks the shell commands an awk invocation (any implementation,
// IsAwk; busybox awk is unwrapped to awk) hands to /bin/sh -c: system(),
// `print … | "CMD"` with the printed text as CMD's stdin (so `print "rm -rf
// x" | "sh"` runs rm), and `"CMD" | getline`, with the variables set by -v,
// --assign and name=value operands (testdata/corpus/README.md §2.1 "wherever the shell
// would execute it"). File writes are the path guard's (AwkScript.Writes).
// A program file of -f/-E (gawk, mawk, busybox) is read like make's -f:
// stdin (`-f /dev/stdin <<<'BEGIN{system("…")}'`, `-f -`), a descriptor or
// process substitution, or a file the command writes (scriptSource).
// The scans are kept on the recorded invocation idx (Invocation.Awk).
func (w *walker) awk(f *frame, st *state, prog string, vals []string, idx int, c cmdCtx) {
	assigns := AwkAssigns(vals)
	var records *string
	if c.stdin != nil && awkReadsStdin(vals) {
		r := strings.TrimSuffix(*c.stdin, "\n")
		records = &r
	}
	srcs, files, _ := awkArgs(vals)
	for _, fl := range files {
		w.scriptSource(st, c, fl, func(src string) { srcs = append(srcs, src) })
	}
	for _, src := range srcs {
		if !w.spend(len(src)) {
			return
		}
		s := awkScan(awkEnviron(src, c.knownValues()), assigns, records)
		if idx >= 0 && idx < len(w.res.Invocations) {
			w.res.Invocations[idx].Awk = append(w.res.Invocations[idx].Awk, s)
		}
		seen := make(map[string]bool, len(s.Commands))
		for _, cmd := range s.Commands {
			if seen[cmd] {
				continue // one pipe per command string
			}
			seen[cmd] = true
			var io ioCtx
			if in, ok := s.Input[cmd]; ok {
				io.stdin = &in
			}
			w.script(f.child(prog+" system"), st.clone(), cmd, io)
		}
	}
}

// awkEnvironRe matches awk's ENVIRON["NAME"]; compiled on first use, as
// the hook's package inits must stay small (cmd/harness-hook
// TestHookPackageInitIsSmall, docs/performance.md).
var awkEnvironRe = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`\bENVIRON\[\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\]`)
}}

// awkEnviron replaces ENVIRON["NAME"] in awk code by NAME's value as a
// string literal when the command's environment sets it to a known value
// (`C='git push -f' awk 'BEGIN { system(ENVIRON["C"]) }'`).
func awkEnviron(src string, env map[string]string) string {
	if len(env) == 0 || !strings.Contains(src, "ENVIRON") {
		return src
	}
	re := awkEnvironRe.Get()
	return re.ReplaceAllStringFunc(src, func(m string) string {
		v, ok := env[re.FindStringSubmatch(m)[1]]
		if !ok {
			return m
		}
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
		return `"` + r.Replace(v) + `"`
	})
}
