package shell

import "strings"

// The cautious default for code handed to a program the table does not
// know (testdata/corpus/README.md §9 "judge the effect, not the spelling",
// §9.1 unknown programs, §2.1 "Interpreters"). An unknown program may be
// an interpreter, a shell, an editor or a debugger of a language the guard
// cannot lex; what it runs is unknown, but when the code it is given holds
// a command the policy blocks, that command is judged as run by it. The
// code is not lexed: candidate commands are taken from what most languages
// share (codeCandidates):
//
//   - the whole text of a code option's value, when it reads as a command
//     line (its first word is a program the table knows that is not a
//     printer: `xterm -e 'rm -rf x'`); an operand holding a whole command
//     is data (`dcg test 'git reset --hard'`, round 1's rb0255);
//   - the rest of a line after a shell escape: `!CMD`, `:!CMD`, `shell
//     CMD`, `system CMD`, `platform shell CMD`, `run-shell CMD`;
//   - every quoted string literal ("…", '…', `…`) with a blank in it, as a
//     command line, unless it is an argument of a printing call
//     (`(display "…")`, `print("…")`, `puts "…"`: printIdent);
//   - every run of two or more adjacent string literals whose first names
//     a known program, as an argv (`(sh "rm" "-rf" "b")`,
//     `System.cmd("rm", ["-rf", "b"])`), unless printed;
//   - a PowerShell Remove-Item with -Recurse and -Force, as `rm -r -f`.
//
// Code words are the values of code options (`-c`, `-e`, `-x`, `-g`,
// `-o`, `--eval`, `-ex`, `--command`, `--run`, `--exec`, … and the last
// letter of a cluster: `-qc`), `--opt=CODE` and `--opt:CODE`, vi-style
// `+CMD` words and operands; the value of any other option (`--title T`)
// is searched for literals and escapes, but not read as a command line.
// Candidates are walked in a frame that names the program (Invocation.
// Inferred with InferredCode) and that runs neither this default nor the
// unknown-wrapper default again; a candidate that does not parse as shell
// code is dropped (it was not a command line). Comments of the unknown
// language are not recognised: a commented call counts (the cost of not
// knowing the language).

// maxUnknownCode bounds the candidates taken from one invocation and the
// bytes of code scanned per word.
const (
	maxUnknownCandidates = 32
	maxUnknownCodeBytes  = 16 << 10
)

// codeOptLetters are single-letter options of unknown programs taken as
// code options: -c (shells, editors), -e/-x/-g (interpreters' eval, clisp,
// swipl goals), -o (lldb one-liners), -E.
func codeOptLetter(c byte) bool {
	return c == 'c' || c == 'e' || c == 'x' || c == 'g' || c == 'o' || c == 'E'
}

// codeOptName reports long (or single-dash long) option names of unknown
// programs taken as code options.
func codeOptName(n string) bool {
	switch strings.ToLower(n) {
	case "eval", "eval-command", "evaluate", "ex", "exec", "execute", "command", "commands", "run", "do",
		"script", "batch", "batch-string", "code", "expr", "one-line", "source-string", "eval-string", "init-eval-command", "iex":
		return true
	}
	return false
}

// unknownCodeWord is one word of an unknown program to search: text, and
// whether it is code that may be a command line as a whole.
type unknownCodeWord struct {
	text  string
	whole bool
}

// unknownCodeWords picks the words of an unknown program's arguments that
// may hold code (see the package comment above).
func unknownCodeWords(args []Word) []unknownCodeWord {
	var out []unknownCodeWord
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if !a.Known || v == "" {
			continue
		}
		if v == "--" {
			continue
		}
		if v[0] == '-' && len(v) > 1 {
			name := strings.TrimLeft(v, "-")
			if v[1] != '-' && codeOptLetter(v[1]) && len(v) > 2 && strings.ContainsAny(v[2:], " \t\n") {
				if n, _, ok := cutAny(name, "=:"); !ok || !codeOptName(n) && len(n) != 1 {
					// -cCODE: code attached to a code letter (python3
					// -c'…', getopt's attached value); no cluster of
					// option letters holds a blank
					out = append(out, unknownCodeWord{text: v[2:], whole: true})
					continue
				}
			}
			if n, val, ok := cutAny(name, "=:"); ok {
				// --eval=CODE, --eval:CODE (nim), -eval=CODE
				out = append(out, unknownCodeWord{text: val, whole: codeOptName(n) || len(n) == 1 && codeOptLetter(n[0])})
				continue
			}
			code := codeOptName(name) ||
				(v[1] != '-' && name != "" && codeOptLetter(name[len(name)-1]) && isLetters(name))
			if i+1 < len(args) && args[i+1].Known && (len(args[i+1].Value) == 0 || args[i+1].Value[0] != '-') {
				// the next word is this option's value: code for a code
				// option, text searched for literals otherwise
				i++
				out = append(out, unknownCodeWord{text: args[i].Value, whole: code})
			}
			continue
		}
		if v[0] == '+' && len(v) > 1 && (v[1] < '0' || v[1] > '9') {
			out = append(out, unknownCodeWord{text: v[1:], whole: true}) // vi's +CMD
			continue
		}
		// an operand: searched for code, but one quoted word holding a
		// whole command is data (`dcg test 'git reset --hard'`, rb0255)
		out = append(out, unknownCodeWord{text: v})
	}
	return out
}

// cutAny cuts s around the first byte of seps.
func cutAny(s, seps string) (before, after string, ok bool) {
	if i := strings.IndexAny(s, seps); i > 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// codeCandidate is a command found in code: a shell command line, or an
// argv (no shell parsing).
type codeCandidate struct {
	shell string
	argv  []string
}

// codeCandidates returns the candidate commands of code text t (whole:
// t may be a command line as a whole); at most max of them.
func codeCandidates(t string, whole bool, max int) []codeCandidate {
	if len(t) > maxUnknownCodeBytes {
		t = t[:maxUnknownCodeBytes]
	}
	var out []codeCandidate
	add := func(c codeCandidate) {
		if len(out) < max {
			out = append(out, c)
		}
	}
	line := func(s string) {
		if ps, ok := powershellRemove(s); ok {
			add(codeCandidate{argv: ps})
			return
		}
		if readsAsCommand(s) {
			add(codeCandidate{shell: s})
		}
	}
	if whole && readsAsCommand(t) {
		add(codeCandidate{shell: t})
	} else if whole {
		if ps, ok := powershellRemove(t); ok {
			add(codeCandidate{argv: ps})
		}
	}
	for _, l := range strings.Split(t, "\n") {
		if rest, ok := shellEscape(l); ok {
			line(rest)
		}
	}
	lits := stringLiterals(t)
	for k := 0; k < len(lits) && len(out) < max; k++ {
		l := lits[k]
		if l.printed {
			continue
		}
		if v := strings.TrimSpace(l.value); strings.ContainsAny(v, " \t\n") {
			if rest, ok := shellEscape(v); ok {
				v = rest
			}
			if ps, ok := powershellRemove(v); ok {
				add(codeCandidate{argv: ps})
			} else {
				add(codeCandidate{shell: v})
			}
		}
		// a run of adjacent literals is an argv
		j := k
		for j+1 < len(lits) && lits[j].runNext && !lits[j+1].printed {
			j++
		}
		if j > k && !strings.ContainsAny(l.value, " \t\n") && Lookup(Identity(l.value)) != nil {
			argv := make([]string, 0, j-k+1)
			for m := k; m <= j; m++ {
				argv = append(argv, lits[m].value)
			}
			add(codeCandidate{argv: argv})
		}
	}
	return out
}

// readsAsCommand reports whether s reads as a command line: its first word
// is a program the table knows and more words follow.
func readsAsCommand(s string) bool {
	s = strings.TrimSpace(s)
	sp := strings.IndexAny(s, " \t\n")
	if sp <= 0 {
		return false
	}
	if first := s[:sp]; !strings.ContainsAny(first, "()[]{}\"'`;,=$") {
		if p := Lookup(Identity(first)); p != nil && p.Kind != KindData { // `say "…"`, `echo "…"` print
			return true
		}
	}
	// shell code whose first word does not name the program: a list, a
	// group or compound command, an assignment first (`true; rm -rf x`,
	// `echo hi; rm -rf x`, `x=rm; $x -rf y`, `{ rm -rf x; }`, `if …; then
	// rm …; fi`): some word of it outside quotes names one (a quoted
	// string is another language's literal: `(display "rm -rf x")`, and
	// a text that is not shell code is dropped when the candidate is
	// parsed)
	if !strings.ContainsAny(s, ";&|\n(){}=") {
		return false
	}
	for _, t := range strings.FieldsFunc(unquoted(s), codeWordSep) {
		if p := Lookup(Identity(t)); p != nil && p.Kind != KindData {
			return true
		}
	}
	return false
}

// unquoted is s with its quoted spans ('…', "…", `…`) blanked out.
func unquoted(s string) string {
	b := []byte(s)
	var q byte
	for i, c := range b {
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
			b[i] = ' '
		case c == '\'' || c == '"' || c == '`':
			q = c
			b[i] = ' '
		}
	}
	return string(b)
}

// codeWordSep separates the words readsAsCommand looks at: blanks, shell
// list and grouping punctuation, '=' and quotes.
func codeWordSep(r rune) bool { return strings.ContainsRune(" \t\n;&|(){}=\"'`", r) }

// shellEscape returns the shell command after a shell escape at the start
// of line l (`!CMD`, `:!CMD`, `shell CMD`, `system CMD`, `platform shell
// CMD`, `run-shell CMD`, `sh CMD`), spaces and ':' before it skipped.
func shellEscape(l string) (string, bool) {
	t := strings.TrimLeft(l, " \t:")
	if strings.HasPrefix(t, "!") {
		r := strings.TrimLeft(t, "!")
		return r, strings.TrimSpace(r) != ""
	}
	for _, p := range [...]string{"platform shell ", "shell ", "system ", "run-shell ", "sh "} {
		if len(t) > len(p) && strings.EqualFold(t[:len(p)], p) {
			r := strings.TrimSpace(t[len(p):])
			if r != "" && r[0] != '"' && r[0] != '\'' && r[0] != '(' {
				return r, true
			}
		}
	}
	return "", false
}

// codeLiteral is a quoted string literal of code: its value, whether a
// printing call takes it (printIdent), and whether the next literal follows
// it with only list punctuation between (an argv run).
type codeLiteral struct {
	value   string
	printed bool
	runNext bool
}

// stringLiterals finds the quoted literals of t ("…" and `…` with
// backslash escapes, '…' with backslash escapes or ” doubled). A quote
// that is not closed on its line is not a literal (lisp's 'sym, an
// apostrophe in prose).
func stringLiterals(t string) []codeLiteral {
	var out []codeLiteral
	var opens []int // indices of unclosed '('
	lastEnd := -1
	for i := 0; i < len(t) && len(out) < 64; i++ {
		switch c := t[i]; c {
		case '(':
			opens = append(opens, i)
		case ')':
			if len(opens) > 0 {
				opens = opens[:len(opens)-1]
			}
		case '"', '\'', '`':
			end := closeQuote(t, i)
			if end < 0 {
				continue
			}
			val := unquoteCall(t[i+1:end], c)
			if c == '`' {
				val = t[i+1 : end]
			}
			open := -1
			if len(opens) > 0 {
				open = opens[len(opens)-1]
			}
			lit := codeLiteral{value: val, printed: printedAt(t, i, open)}
			if n := len(out); n > 0 && lastEnd >= 0 && listGap(t[lastEnd:i]) {
				out[n-1].runNext = true
			}
			out = append(out, lit)
			lastEnd = end + 1
			i = end
		}
	}
	return out
}

// closeQuote returns the index of the quote closing the literal opened at
// t[i], -1 when it is not closed before the end of its line.
func closeQuote(t string, i int) int {
	q := t[i]
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\n':
			if q != '`' {
				return -1
			}
		case '\\':
			j++
		case q:
			if q == '\'' && j+1 < len(t) && t[j+1] == '\'' {
				j++
				continue
			}
			return j
		}
	}
	return -1
}

// listGap reports whether s, the text between two literals, is list
// punctuation only: blanks, ',', brackets and `name:` labels (Gleam,
// Swift and Elixir keyword arguments).
func listGap(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '(' || c == ')':
		case isIdentByte(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			if j >= len(s) || s[j] != ':' {
				return false
			}
			i = j
		default:
			return false
		}
	}
	return true
}

// printedAt reports whether the literal at t[q] is an argument of a
// printing call: the function of the innermost '(' around it (open, -1 for
// none: the name before it, C style, or the first symbol after it, lisp
// style), or the name right before the literal when no '(' encloses it
// (`puts "…"`), or Forth's `."`.
func printedAt(t string, q, open int) bool {
	if q > 0 && t[q] == '"' && t[q-1] == '.' && (q == 1 || t[q-2] == ' ' || t[q-2] == '\t' || t[q-2] == '\n') {
		return true // Forth ." text"
	}
	if open >= 0 {
		if n := identBefore(t, open); n != "" {
			return printIdent(n)
		}
		return printIdent(identAfter(t, open+1))
	}
	return printIdent(identBefore(t, q))
}

// identBefore is the name that ends right before t[i] (blanks skipped).
func identBefore(t string, i int) string {
	j := i
	for j > 0 && (t[j-1] == ' ' || t[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && nameByte(t[k-1]) {
		k--
	}
	return t[k:j]
}

// identAfter is the name that starts at t[i] (blanks skipped).
func identAfter(t string, i int) string {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	j := i
	for j < len(t) && nameByte(t[j]) {
		j++
	}
	return t[i:j]
}

func nameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == ':' || c == '/' || c == '!' || c == '?' || c == '$' || c == '@' ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// printIdent reports whether n (a qualified name: console.log, io:format,
// IO.puts) names a function that prints or formats text.
func printIdent(n string) bool {
	if i := strings.LastIndexAny(n, ".:/"); i >= 0 {
		n = n[i+1:]
	}
	n = strings.ToLower(strings.TrimRight(n, "!?"))
	switch n {
	case "print", "println", "printf", "printfn", "printn", "prin", "princ", "prin1", "print_string", "print_endline", "print_newline",
		"puts", "put", "putstrln", "putstr", "putln", "display", "displayln", "write", "writeln", "writeline", "write-line", "write-string",
		"echo", "say", "message", "disp", "log", "info", "warn", "warning", "debug", "trace", "error", "notice", "alert",
		"format", "fprintf", "sprintf", "eprintf", "eprintln", "eprint", "fmt", "pp", "pprint", "inspect", "show", "dump", "msgbox", "tell",
		"write-output", "write-host", "write-verbose", "write-warning", "write-error", "write-information", "write-debug", "out-host":
		return true
	}
	return false
}

// powershellRemove reads s as a PowerShell Remove-Item (also its aliases
// ri, rm, del, erase, rd, rmdir) and returns `rm -r -f TARGETS…` when it
// is given -Recurse and -Force (parameter names abbreviate to a unique
// prefix: -r, -rec, -fo; -f alone is ambiguous with -Filter).
func powershellRemove(s string) ([]string, bool) {
	ws := strings.Fields(s)
	if len(ws) < 3 {
		return nil, false
	}
	switch strings.ToLower(ws[0]) {
	case "remove-item", "ri", "del", "erase", "rd":
	case "rm", "rmdir":
		// a POSIX rm reads the same words itself; only PowerShell's
		// spelled-out parameters are translated
	default:
		return nil, false
	}
	var rec, force bool
	var targets []string
	for _, w := range ws[1:] {
		lw := strings.ToLower(strings.Trim(w, ";"))
		if strings.HasPrefix(lw, "-") && len(lw) > 1 {
			p := lw[1:]
			switch {
			case strings.HasPrefix("recurse", p):
				rec = true
			case len(p) >= 2 && strings.HasPrefix("force", p):
				force = true
			}
			continue
		}
		targets = append(targets, strings.Trim(w, `;"'`))
	}
	if !rec || !force {
		return nil, false
	}
	return append([]string{"rm", "-r", "-f"}, targets...), true
}

// unknownCode applies the default to the invocation of an unknown program
// (c.words[0] is its name): every candidate command of its code words is
// walked as run by it.
func (w *walker) unknownCode(f *frame, st *state, c cmdCtx) {
	if len(c.words) < 2 {
		return
	}
	var cands []codeCandidate
	for _, cw := range unknownCodeWords(c.words[1:]) {
		if !strings.ContainsAny(cw.text, " \t\n\"'`!") {
			continue
		}
		if !w.spend(len(cw.text)) {
			return
		}
		cands = append(cands, codeCandidates(cw.text, cw.whole, maxUnknownCandidates-len(cands))...)
		if len(cands) >= maxUnknownCandidates {
			break
		}
	}
	if len(cands) == 0 {
		return
	}
	name := Identity(c.words[0].Value)
	if name == "" {
		name = c.words[0].Raw
	}
	nf := f.child(c.words[0].Value + " (unknown code)")
	nf.calls = 4 // neither default again inside its candidates
	nf.inferred = name
	nf.inferredCode = true
	w.walkCandidates(nf, st, cands, c.env)
}

// walkCandidates walks candidate commands in frame f: an argv as a simple
// command, a command line when it parses as shell code.
func (w *walker) walkCandidates(f *frame, st *state, cands []codeCandidate, env map[string]string) {
	for _, cd := range cands {
		if cd.argv != nil {
			w.run(f, st, cmdCtx{words: knownWords(cd.argv...), env: env})
			continue
		}
		w.quietScript(f, st.clone(), cd.shell)
	}
}
