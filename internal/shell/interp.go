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

// langRows names, for each language, the program table row whose option
// grammar an interpreter of that language is read with when its own name
// has no row (a versioned or renamed binary the table does not list).
var langRows = map[codelex.Lang]string{
	codelex.Python: "python", codelex.Node: "node", codelex.Perl: "perl", codelex.PHP: "php", codelex.Lua: "lua",
	codelex.Ruby: "ruby", codelex.R: "rscript", codelex.Julia: "julia", codelex.AppleScript: "osascript", codelex.Tcl: "tclsh",
}

// inline is the inline code of an interpreter invocation (inlineCode).
type inline struct {
	code string
	lang codelex.Lang
	// script is, when the interpreter runs a script file instead, 1 + the
	// index (into the invocation's Args) of the script's operand; 0 otherwise.
	script int
	// argv are the indexes (into the invocation's Args) of the script's
	// own arguments: the operands after the code, the "-" or the stdin
	// path.
	argv []int
	// bare: the code is the script on stdin and no "-" or stdin path
	// stands for it (`python3 <<EOF`): its arguments are not known.
	bare bool
}

// inlineCode reads an interpreter invocation by its row's option grammar
// (the program table, programs.go: where the options stop, which take a
// value) and returns the code it runs inline: the value of its code
// option (python -c; node -e/--eval/-p/--print, the last of several as
// node runs only that one, or with a bare -p the first operand; perl -e/-E,
// ruby/Rscript/lua/osascript -e, expect -c and jimsh -e, every one joined by
// newlines; php -r/--run; julia -e/-E), `deno eval CODE`, else the script
// on stdin when the first operand is "-", a stdin path or missing. ok is
// false for a script file or a module (`python -m MODULE`, `expect -f F`).
// `osascript -l JavaScript` is JavaScript (JXA).
func inlineCode(inv Invocation) (in inline, ok bool) {
	in.lang = interpLang(inv.Program)
	if in.lang == "" {
		return in, false
	}
	vals := make([]string, len(inv.Args))
	for i, a := range inv.Args {
		vals[i] = a.Value
	}
	name := strings.TrimSuffix(strings.ToLower(inv.Program), ".exe")
	if Lookup(name) == nil {
		name = langRows[in.lang]
	}
	cmd := ParseCommand(name, vals)
	var codes []string
	switch in.lang {
	case codelex.Python:
		if cmd.Has("m") {
			return in, false
		}
		codes = cmd.Values("c")
	case codelex.Node:
		if cmd.Is("eval") && len(cmd.Operands) > 0 { // deno eval CODE
			cmd.Opts = append(cmd.Opts, Opt{Name: "e", HasValue: true, Value: vals[cmd.Operands[0]]})
			cmd.Operands = cmd.Operands[1:]
		}
		if c, ok := cmd.Last("e", "eval", "print"); ok {
			codes = []string{c}
		} else if cmd.Has("p", "print") && len(cmd.Operands) > 0 && cmd.End < 0 {
			// node -p CODE: a bare -p takes the next word that is no option
			codes = []string{vals[cmd.Operands[0]]}
			cmd.Operands = cmd.Operands[1:]
		}
	case codelex.PHP:
		codes = cmd.Values("r", "run")
	case codelex.Julia:
		codes = cmd.Values("eE", "eval", "print")
	case codelex.Tcl:
		if cmd.Has("fb") {
			return in, false // a script file
		}
		codes = cmd.Values("ce")
	case codelex.AppleScript:
		if l, ok := cmd.Last("l"); ok && strings.EqualFold(l, "JavaScript") {
			in.lang = codelex.Node
		}
		codes = cmd.Values("e")
	default: // perl, ruby, lua, Rscript
		codes = cmd.Values("eE")
	}
	in.argv = cmd.Operands
	if len(codes) > 0 {
		in.code = strings.Join(codes, "\n")
		return in, true
	}
	if len(in.argv) > 0 {
		first := vals[in.argv[0]]
		if first != "-" && !stdinPath(first) {
			in.script = in.argv[0] + 1
			return in, false // a script file
		}
		in.argv = in.argv[1:]
	}
	if inv.Stdin == nil {
		return in, false
	}
	in.code, in.bare = *inv.Stdin, len(cmd.Operands) == 0
	return in, true
}

// ScriptFile returns the index (into inv.Args) of the script file an
// interpreter or shell invocation runs (`node scripts/x.js --out-dir
// spec/`, `python3 tools/gen.py OUT`, `bash build.sh DIR`): the words after
// it are that script's arguments. ok is false for inline code, a module
// (`python -m M`), a script on stdin, and other programs.
func ScriptFile(inv Invocation) (int, bool) {
	if p := Lookup(inv.Program); p != nil && p.Kind == KindShell {
		cmd := inv.Command()
		if cmd.Prog != p || cmd.Has("cs") || len(cmd.Operands) == 0 {
			return 0, false
		}
		k := cmd.Operands[0]
		if k >= len(inv.Args) || inv.Args[k].Value == "-" || stdinPath(inv.Args[k].Value) {
			return 0, false
		}
		return k, true
	}
	in, _ := inlineCode(inv)
	if in.script == 0 || in.script > len(inv.Args) {
		return 0, false
	}
	return in.script - 1, true
}

// InterpreterCode returns the code an interpreter invocation runs inline,
// its language, and ok=false when the program is not an interpreter or the
// code is not inline (inlineCode).
func InterpreterCode(inv Invocation) (code string, lang codelex.Lang, ok bool) {
	in, ok := inlineCode(inv)
	return in.code, in.lang, ok
}

// AnalyzeCode lexes the inline code of an interpreter invocation once
// (internal/shell/codelex) with the script's own literal arguments; nil
// when inv runs no inline code. The walker stores the result in
// Invocation.Code; other callers use that field.
func AnalyzeCode(inv Invocation) *codelex.Code {
	return analyzeCode(inv, nil)
}

// analyzeCode is AnalyzeCode with the environment variables whose values
// are known (codelex.Options.Env).
func analyzeCode(inv Invocation, env map[string]string) *codelex.Code {
	in, ok := inlineCode(inv)
	if !ok || strings.TrimSpace(in.code) == "" {
		return nil
	}
	rest := make([]Word, len(in.argv))
	for k, i := range in.argv {
		rest[k] = inv.Args[i]
	}
	argv, known := literalWords(rest)
	known = known && !in.bare
	return codelex.Analyze(in.lang, in.code, codelex.Options{Argv: argv, ArgvKnown: known, Env: env})
}

// literalWords returns the values of words, false when one is not literal.
func literalWords(rest []Word) ([]string, bool) {
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
	if i := c.cmd.First() + 1; i < len(c.words) && i < len(c.fields) && c.fields[i].proc != nil {
		// `python3 <(echo CODE)`: a script operand from a process
		// substitution is read as /dev/stdin holding its text
		args := append([]Word{}, c.words[1:]...)
		args[i-1] = Word{Value: "/dev/stdin", Known: true}
		inv = Invocation{Program: prog, Args: args, Stdin: c.fields[i].proc}
	}
	code, _, ok := InterpreterCode(inv)
	if !ok || code == "" {
		return nil
	}
	if !w.spend(len(code)) {
		return nil
	}
	lexed := analyzeCode(inv, c.knownValues())
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
	if lexed.Printed == nil && lexed.Lang == codelex.Node && c.cmd.Has("p", "print") {
		// node -p / --print prints the value of the code: a lone string
		// literal prints itself (`node -p '"git push --force"' | bash`)
		if v, ok := loneString(lexed.Tokens); ok {
			v += "\n"
			return &v
		}
	}
	return lexed.Printed
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
