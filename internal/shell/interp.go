package shell

import (
	"strings"

	"github.com/superagent-harness/harness/internal/shell/codelex"
)

// interpLang maps an interpreter program to the language of its inline
// code ("" when prog is not one).
func interpLang(prog string) codelex.Lang {
	prog = strings.TrimSuffix(strings.ToLower(prog), ".exe")
	switch {
	case isRow(prog, "python") || strings.HasPrefix(prog, "python3.") || strings.HasPrefix(prog, "python2."):
		// the python row's names (python2, python3, pypy, pypy3 and the
		// launcher py): one list of them, in the program table
		return codelex.Python
	case prog == "node" || prog == "nodejs" || prog == "bun" || prog == "deno" || prog == "tsx" || prog == "ts-node" || prog == "esno" || prog == "zx":
		return codelex.Node
	case prog == "perl" || strings.HasPrefix(prog, "perl5"):
		return codelex.Perl
	case prog == "php" || strings.HasPrefix(prog, "php8") || strings.HasPrefix(prog, "php7") || prog == "php-cli":
		return codelex.PHP
	case prog == "lua" || prog == "luajit" || strings.HasPrefix(prog, "lua5"):
		return codelex.Lua
	case prog == "ruby" || prog == "jruby":
		return codelex.Ruby
	case prog == "rscript" || prog == "r":
		return codelex.R
	case prog == "julia":
		return codelex.Julia
	case prog == "osascript":
		return codelex.AppleScript
	case prog == "tclsh" || prog == "wish" || prog == "jimsh" || prog == "expect" ||
		strings.HasPrefix(prog, "tclsh8") || strings.HasPrefix(prog, "tclsh9") || strings.HasPrefix(prog, "wish8") || strings.HasPrefix(prog, "wish9"):
		return codelex.Tcl
	}
	return ""
}

// tclCode is InterpreterCode for the Tcl shells: every expect -c and
// jimsh -e script joined by newlines, else the script on stdin when no
// script file is named (tclsh FILE, expect -f FILE run a file).
func tclCode(inv Invocation, vals []string) (string, bool) {
	var codes []string
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		switch {
		case v == "--":
			i = len(vals)
		case v == "-c" || v == "-e":
			if i+1 < len(vals) {
				codes = append(codes, vals[i+1])
				i++
			}
		case v == "-f" || v == "-b":
			return "", false // a script file
		case v == "-encoding" || v == "-D":
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			if len(codes) > 0 {
				i = len(vals) // the script's own arguments
				continue
			}
			if v != "-" {
				return "", false // a script file
			}
			i = len(vals)
		}
	}
	if len(codes) > 0 {
		return strings.Join(codes, "\n"), true
	}
	if inv.Stdin != nil {
		return *inv.Stdin, true
	}
	return "", false
}

// InterpreterCode returns the code an interpreter invocation runs inline
// (`-c`/`-e`/`-r`/`--eval` code, every `-e` of perl/ruby/osascript/Rscript
// joined by newlines, `deno eval CODE`, or a script on stdin), its language,
// and ok=false when the program is not an interpreter or the code is not
// inline (a script file, `python -m MODULE`). `osascript -l JavaScript` is
// JavaScript (JXA).
func InterpreterCode(inv Invocation) (code string, lang codelex.Lang, ok bool) {
	lang = interpLang(inv.Program)
	if lang == "" {
		return "", "", false
	}
	vals := make([]string, len(inv.Args))
	for i, a := range inv.Args {
		vals[i] = a.Value
	}
	if lang == codelex.Tcl {
		code, ok := tclCode(inv, vals)
		return code, lang, ok
	}
	flag := byte('e')
	switch lang {
	case codelex.Python:
		flag = 'c'
	case codelex.PHP:
		flag = 'r'
	}
	multi := lang == codelex.Perl || lang == codelex.Ruby || lang == codelex.AppleScript || lang == codelex.R
	var codes []string
	take := func(c string) bool {
		codes = append(codes, c)
		return !multi
	}
	done := false
	for i := 0; i < len(vals) && !done; i++ {
		v := vals[i]
		if v == "--" {
			break
		}
		if lang == codelex.Node {
			switch {
			case v == "--eval" || v == "-p" || v == "--print" || v == "-e" || v == "-pe":
				if i+1 < len(vals) {
					done = take(vals[i+1])
					i++
				}
				continue
			case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
				done = take(v[strings.IndexByte(v, '=')+1:])
				continue
			case v == "eval" && strings.EqualFold(strings.TrimSuffix(inv.Program, ".exe"), "deno") && i+1 < len(vals):
				done = take(vals[i+1])
				i++
				continue
			case v == "-r" || v == "--require" || v == "--import" || v == "--loader" || v == "-C" || v == "--conditions":
				i++
				continue
			}
		}
		if lang == codelex.AppleScript && v == "-l" && i+1 < len(vals) {
			if strings.EqualFold(vals[i+1], "JavaScript") {
				lang = codelex.Node
				multi = true
			}
			i++
			continue
		}
		if lang == codelex.Julia && (v == "--eval" || v == "-E" || v == "--print") && i+1 < len(vals) {
			done = take(vals[i+1])
			i++
			continue
		}
		if lang == codelex.PHP && v == "--run" && i+1 < len(vals) {
			done = take(vals[i+1])
			i++
			continue
		}
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1 {
			if lang == codelex.Python && (v == "-m" || v == "-W" || v == "-X") {
				if v == "-m" {
					return "", lang, false
				}
				i++
				continue
			}
			// options with an attached value (-Wignore, -Mstrict, -rjson, -I/lib)
			if (lang == codelex.Python && (v[1] == 'W' || v[1] == 'X' || v[1] == 'm')) ||
				((lang == codelex.Perl || lang == codelex.Ruby) && strings.IndexByte("MmIrxC", v[1]) >= 0) ||
				(lang == codelex.Node && (v == "-r" || v == "--require")) {
				if len(v) == 2 && v[1] != 'x' {
					i++
				}
				if lang == codelex.Python && v[1] == 'm' {
					return "", lang, false
				}
				continue
			}
			k := strings.IndexByte(v, flag)
			if lang == codelex.Perl && k < 0 {
				k = strings.IndexByte(v, 'E')
			}
			if lang == codelex.Julia && k < 0 {
				k = strings.IndexByte(v, 'E')
			}
			if k > 0 {
				if k < len(v)-1 {
					done = take(v[k+1:])
				} else if i+1 < len(vals) {
					done = take(vals[i+1])
					i++
				}
			}
			continue
		}
		if v == "-" {
			break
		}
		if len(codes) > 0 {
			break // the script's own arguments
		}
		if !strings.HasPrefix(v, "-") {
			if stdinPath(v) && inv.Stdin != nil {
				return *inv.Stdin, lang, true // `python3 /dev/stdin <<< CODE`
			}
			return "", lang, false // a script file
		}
	}
	if len(codes) > 0 {
		return strings.Join(codes, "\n"), lang, true
	}
	if inv.Stdin != nil {
		src := *inv.Stdin
		return src, lang, true
	}
	return "", lang, false
}

// AnalyzeCode lexes the inline code of an interpreter invocation once
// (internal/shell/codelex) with the script's own literal arguments; nil
// when inv runs no inline code. The walker stores the result in
// Invocation.Code; other callers use that field.
func AnalyzeCode(inv Invocation) *codelex.Code {
	code, lang, ok := InterpreterCode(inv)
	if !ok || strings.TrimSpace(code) == "" {
		return nil
	}
	argv, known := scriptArgv(inv.Args, code, lang)
	return codelex.Analyze(lang, code, codelex.Options{Argv: argv, ArgvKnown: known})
}

// scriptArgv returns the literal words after the inline code word (the
// script's own arguments); known is false when the code came from stdin
// without `-` or an argument is not literal.
func scriptArgv(args []Word, code string, lang codelex.Lang) ([]string, bool) {
	for k := len(args) - 1; k >= 0; k-- {
		v := args[k].Value
		if v != code && !(strings.HasPrefix(v, "-") && strings.HasSuffix(v, code) && len(v) > len(code)) &&
			!(len(code) > len(v) && strings.HasSuffix(code, v) && strings.HasSuffix(code, "\n"+v)) {
			continue
		}
		return literalWords(args[k+1:])
	}
	// `python3 - ARGS <<EOF … EOF`: the script reads stdin, the words
	// after "-" are its arguments
	for k, a := range args {
		if a.Value == "-" {
			return literalWords(args[k+1:])
		}
		if !strings.HasPrefix(a.Value, "-") {
			break
		}
	}
	return nil, false
}

func literalWords(rest []Word) ([]string, bool) {
	if len(rest) > 0 && rest[0].Value == "--" {
		rest = rest[1:]
	}
	out := make([]string, len(rest))
	for i, a := range rest {
		if !a.Known {
			return nil, false
		}
		out[i] = a.Value
	}
	return out, true
}

// interpreter walks the commands run by an interpreter's inline code
// (testdata/corpus/README.md §2.1 "Interpreters", §9.2): the code is lexed once, the
// result is kept on the recorded invocation idx, its shell strings are
// walked as shell code and its argv lists as simple commands. It returns
// what the code prints, for a pipe into a shell.
func (w *walker) interpreter(f *frame, st *state, prog string, c cmdCtx, idx int) *string {
	if r := c.cmd.Prog; r != nil && r.Name == "python" {
		// python -m MODULE ARGS… runs the module as a program
		// (`python -m twine upload`, `python3 -m pip install --target D`)
		if mod, ok := c.cmd.Last("m"); ok && mod != "" {
			ws := append(knownWords(mod), c.words[c.cmd.First()+1:]...)
			return w.runWords(f, st, ws, c.env, c.stdin, nil, prog+" -m")
		}
	}
	inv := Invocation{Program: prog, Args: c.words[1:], Stdin: c.stdin}
	if c.fields != nil {
		// `python3 <(echo CODE)`: a script operand from a process
		// substitution is read as /dev/stdin holding its text
		for i := 1; i < len(c.words) && i < len(c.fields); i++ {
			if c.fields[i].proc != nil {
				args := append([]Word{}, c.words[1:]...)
				args[i-1] = Word{Value: "/dev/stdin", Known: true}
				inv = Invocation{Program: prog, Args: args, Stdin: c.fields[i].proc}
				break
			}
			if !strings.HasPrefix(c.words[i].Value, "-") {
				break
			}
		}
	}
	code, _, ok := InterpreterCode(inv)
	if !ok || code == "" {
		return nil
	}
	if !w.spend(len(code)) {
		return nil
	}
	lexed := AnalyzeCode(inv)
	if lexed == nil {
		return nil
	}
	if idx >= 0 && idx < len(w.res.Invocations) {
		w.res.Invocations[idx].Code = lexed
	}
	if lexed.Truncated {
		w.overflow("interpreter code too complex to scan for process calls")
	}
	for _, e := range lexed.Execs {
		via := prog + " " + e.Func
		if e.Shell != "" {
			w.script(f.child(via), st.clone(), e.Shell, ioCtx{})
		} else if len(e.Argv) > 0 {
			w.runWords(f, st, codeWords(e.Argv), c.env, nil, nil, via)
		}
	}
	if lexed.Printed == nil && lexed.Lang == codelex.Node && nodePrints(c.words[1:]) {
		// node -p / --print prints the value of the code: a lone string
		// literal prints itself (`node -p '"git push --force"' | bash`)
		if v, ok := loneString(lexed.Tokens); ok {
			v += "\n"
			return &v
		}
	}
	return lexed.Printed
}

// nodePrints reports Node's print mode (-p, --print, -pe, --print=CODE).
func nodePrints(args []Word) bool {
	for _, a := range args {
		v := a.Value
		if v == "--" {
			break
		}
		if v == "-p" || v == "-pe" || v == "--print" || strings.HasPrefix(v, "--print=") {
			return true
		}
	}
	return false
}

// loneString is the value of code that is one string literal without
// holes (a trailing ";" allowed).
func loneString(toks []codelex.Token) (string, bool) {
	if n := len(toks); n == 2 && toks[1].Kind == codelex.Op && toks[1].Text == ";" {
		toks = toks[:1]
	}
	if len(toks) != 1 || toks[0].Kind != codelex.String || toks[0].Parts != nil {
		return "", false
	}
	return toks[0].Text, true
}

// codeWords makes the words of an argv list from interpreter code; an
// element the code computes is an unknown word.
func codeWords(argv []string) []Word {
	ws := knownWords(argv...)
	for i := range ws {
		if strings.Contains(ws[i].Value, codelex.UnknownWord) {
			ws[i].Known = false
			ws[i].Value = strings.ReplaceAll(ws[i].Value, codelex.UnknownWord, "")
		}
	}
	return ws
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c == '@' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// isRow reports whether prog is one of the names of the program table's
// row name.
func isRow(prog, name string) bool {
	p := Lookup(prog)
	return p != nil && p.Name == name
}
