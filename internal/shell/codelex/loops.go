package codelex

import "github.com/superagent-harness/harness/internal/lazy"

// Fork loops (testdata/corpus/README.md §9.3 forkbomb): a call that creates a process
// made inside a loop that never ends (`while 1: os.fork()`, `fork while 1`,
// `loop { fork }`, `for(;;) cp.fork(…)`).

// forkCall reports a call that creates a process without waiting for it.
func forkCall(lang Lang, call *Call) bool {
	switch call.Func {
	case "os.fork", "os.forkpty", "pty.fork", "fork", "Process.fork", "Kernel.fork", "pcntl_fork", "CORE.fork", "POSIX.fork":
		return true
	case "child_process.fork", "child_process.spawn", "child_process.exec", "child_process.execFile", "subprocess.Popen",
		"os.spawnl", "os.spawnv", "os.posix_spawn", "os.posix_spawnp", "Process.spawn", "spawn", "Bun.spawn":
		return true
	}
	return false
}

// forkLoop returns the first process-creating call inside an endless loop.
func forkLoop(c *Code) string {
	var forks []*Call
	for _, call := range c.Calls {
		if forkCall(c.Lang, call) {
			forks = append(forks, call)
		}
	}
	if len(forks) == 0 {
		return ""
	}
	toks := c.Tokens
	in := func(from, to int) string {
		for _, f := range forks {
			if f.Tok >= from && f.Tok < to {
				return f.Func
			}
		}
		return ""
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Kind != Name {
			continue
		}
		switch t.Text {
		case "while", "until":
			want := t.Text == "while"
			if i > 0 && !stmtBoundary(toks, i) {
				// a statement modifier: BODY while COND (Perl, Ruby)
				end := condEnd(toks, i+1, c.Lang)
				if want {
					// the condition forks on every test and the parent
					// sees a pid, a true value (`1 while fork // 1`)
					if f := in(i+1, end); f != "" {
						return f
					}
				}
				if constTruth(toks[i+1:end], want) {
					if f := in(stmtStart(toks, i), i); f != "" {
						return f
					}
				}
				continue
			}
			condFrom, condTo, bodyFrom := loopHeader(toks, i+1, c.Lang)
			if want {
				// while (fork()) …: a fork on every test, true in the parent
				if f := in(condFrom, condTo); f != "" {
					return f
				}
			}
			if !constTruth(toks[condFrom:condTo], want) {
				continue
			}
			if f := in(bodyFrom, bodyEnd(toks, bodyFrom, i, c.Lang)); f != "" {
				return f
			}
		case "loop", "repeat":
			if t.Text == "loop" && c.Lang != Ruby || t.Text == "repeat" && c.Lang != R && c.Lang != Lua {
				continue
			}
			from := i + 1
			if from < len(toks) && toks[from].Kind == Name && toks[from].Text == "do" {
				from++
			}
			end := bodyEnd(toks, from, i, c.Lang)
			if c.Lang == Lua && t.Text == "repeat" {
				end = blockEnd(toks, from, "until")
				if end < len(toks) && !constTruth(toks[end+1:condEnd(toks, end+1, c.Lang)], false) {
					continue
				}
			}
			if f := in(from, end); f != "" {
				return f
			}
		case "for":
			if c.Lang == Python {
				// for _ in itertools.count(): / iter(int, 1) / itertools.cycle(…)
				if f := pyEndlessFor(toks, i, c, in); f != "" {
					return f
				}
				continue
			}
			// for (;;) / for (init; ; step): no condition
			if i+1 < len(toks) && isOpTok(toks[i+1], "(") {
				k := i + 2
				semis := 0
				condEmpty := true
				depth := 0
				for ; k < len(toks); k++ {
					if isOpTok(toks[k], "(") {
						depth++
					}
					if isOpTok(toks[k], ")") {
						if depth == 0 {
							break
						}
						depth--
					}
					if toks[k].Kind == Newline || isOpTok(toks[k], ";") {
						semis++
						continue
					}
					if semis == 1 {
						condEmpty = false
					}
				}
				if semis == 2 && condEmpty {
					if f := in(k+1, bodyEnd(toks, k+1, i, c.Lang)); f != "" {
						return f
					}
				}
			}
		case "do":
			// do { … } while (true)
			if c.Lang == Node || c.Lang == PHP || c.Lang == Perl {
				if i+1 < len(toks) && isOpTok(toks[i+1], "{") {
					end := matchClose(toks, i+1)
					if end+1 < len(toks) && toks[end+1].Kind == Name && (toks[end+1].Text == "while" || toks[end+1].Text == "until") {
						from, to, _ := loopHeader(toks, end+2, c.Lang)
						if constTruth(toks[from:to], toks[end+1].Text == "while") {
							if f := in(i+1, end); f != "" {
								return f
							}
						}
					}
				}
			}
		}
	}
	return ""
}

func isOpTok(t Token, s string) bool { return t.Kind == Op && t.Text == s }

func stmtBoundary(toks []Token, i int) bool {
	if i == 0 {
		return true
	}
	p := toks[i-1]
	switch p.Kind {
	case Newline:
		return true
	case Op:
		return p.Text == ";" || p.Text == "{" || p.Text == "}" || p.Text == ":" || p.Text == ")"
	case Name:
		return p.Text == "do" || p.Text == "then" || p.Text == "else" || p.Text == "begin" || p.Text == "end"
	}
	return false
}

// stmtStart returns the index of the first token of the statement that
// contains index i.
func stmtStart(toks []Token, i int) int {
	depth := 0
	for k := i - 1; k >= 0; k-- {
		t := toks[k]
		if t.Kind == Op && (t.Text == ")" || t.Text == "]") {
			depth++
		}
		if t.Kind == Op && (t.Text == "(" || t.Text == "[") {
			if depth == 0 {
				return k + 1
			}
			depth--
		}
		if depth == 0 && (t.Kind == Newline || t.Kind == Op && (t.Text == ";" || t.Text == "{" || t.Text == "}")) {
			return k + 1
		}
	}
	return 0
}

// condEnd returns the end of a modifier's condition (the statement end).
func condEnd(toks []Token, i int, lang Lang) int {
	for ; i < len(toks); i++ {
		t := toks[i]
		if t.Kind == Newline || t.Kind == Op && (t.Text == ";" || t.Text == "}") {
			return i
		}
	}
	return len(toks)
}

// loopHeader finds a loop's condition and where its body starts, for
// `while (COND) BODY`, `while COND: BODY`, `while COND do BODY end`,
// `while COND BODY end` (from just after the keyword).
func loopHeader(toks []Token, i int, lang Lang) (condFrom, condTo, bodyFrom int) {
	if i < len(toks) && isOpTok(toks[i], "(") && lang != Python && lang != Ruby && lang != Lua && lang != Julia {
		end := matchClose(toks, i)
		return i + 1, end, end + 1
	}
	condFrom = i
	depth := 0
	for k := i; k < len(toks); k++ {
		t := toks[k]
		if t.Kind == Op && (t.Text == "(" || t.Text == "[" || t.Text == "{") {
			if t.Text == "{" && depth == 0 && lang != Python {
				return condFrom, k, k
			}
			depth++
		}
		if t.Kind == Op && (t.Text == ")" || t.Text == "]" || t.Text == "}") {
			depth--
		}
		if depth > 0 {
			continue
		}
		switch {
		case lang == Python && isOpTok(t, ":"):
			return condFrom, k, k + 1
		case t.Kind == Name && t.Text == "do":
			return condFrom, k, k + 1
		case t.Kind == Newline || isOpTok(t, ";"):
			return condFrom, k, k + 1
		}
	}
	return condFrom, len(toks), len(toks)
}

// matchClose returns the index of the bracket closing the one at i.
func matchClose(toks []Token, i int) int {
	open := toks[i].Text
	cl := string(closer(open[0]))
	depth := 0
	for k := i; k < len(toks); k++ {
		if isOpTok(toks[k], open) {
			depth++
		} else if isOpTok(toks[k], cl) {
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return len(toks)
}

// bodyEnd returns the end of a loop body starting at from: a bracketed
// block, a keyword block up to its `end`, a Python suite (the rest of the
// line or the more indented lines), or one statement.
func bodyEnd(toks []Token, from, header int, lang Lang) int {
	if from >= len(toks) {
		return len(toks)
	}
	if isOpTok(toks[from], "{") {
		return matchClose(toks, from)
	}
	switch lang {
	case Python:
		if from < len(toks) && toks[from].Line == toks[header].Line && toks[from].Kind != Newline {
			for k := from; k < len(toks); k++ {
				if toks[k].Kind == Newline {
					return k
				}
			}
			return len(toks)
		}
		ind := toks[header].Indent
		k := from
		for k < len(toks) && toks[k].Kind == Newline {
			k++
		}
		for ; k < len(toks); k++ {
			if toks[k].Kind != Newline && toks[k].Indent <= ind && toks[k].Line != toks[header].Line && (k == 0 || toks[k-1].Kind == Newline) {
				return k
			}
		}
		return len(toks)
	case Ruby, Lua, Julia:
		return blockEnd(toks, from, "end")
	}
	for k := from; k < len(toks); k++ {
		if toks[k].Kind == Newline || isOpTok(toks[k], ";") {
			return k
		}
	}
	return len(toks)
}

// blockOpeners open a keyword block closed by `end`.
var blockOpeners = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"do": true, "def": true, "while": true, "until": true, "for": true, "begin": true,
		"case": true, "class": true, "module": true, "function": true, "let": true, "struct": true, "try": true, "quote": true,
		"macro": true, "if": true, "unless": true}
}}

// blockEnd returns the index of the keyword closing the block that starts
// at from (nested openers counted when they start a statement).
func blockEnd(toks []Token, from int, end string) int {
	depth := 0
	for k := from; k < len(toks); k++ {
		t := toks[k]
		if t.Kind != Name {
			continue
		}
		if t.Text == end && depth == 0 {
			return k
		}
		if t.Text == "end" && depth > 0 {
			depth--
			continue
		}
		if blockOpeners.Get()[t.Text] && (t.Text == "do" || stmtBoundary(toks, k)) {
			depth++
		}
	}
	return len(toks)
}

// constTruth reports whether a condition is constantly want (true for
// while, false for until).
func constTruth(cond []Token, want bool) bool {
	var parts []Token
	for _, t := range cond {
		if t.Kind == Op && (t.Text == "(" || t.Text == ")") {
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 1 && parts[0].Kind == Name && (parts[0].Text == "fork" || parts[0].Text == "pcntl_fork") {
		return want // `fork while fork`: the parent always gets a pid
	}
	neg := false
	for len(parts) > 1 && (isOpTok(parts[0], "!") || parts[0].Kind == Name && parts[0].Text == "not") {
		neg = !neg
		parts = parts[1:]
	}
	if len(parts) != 1 {
		return false
	}
	t := parts[0]
	var truth bool
	switch t.Kind {
	case Number:
		n, ok := parseInt(t.Text, false)
		if !ok {
			return false
		}
		truth = n != 0
	case String:
		truth = t.Text != "" && t.Text != "0"
	case Name:
		switch t.Text {
		case "True", "true", "TRUE", "T":
			truth = true
		case "False", "false", "FALSE", "nil", "None", "null", "undef", "F":
			truth = false
		default:
			return false
		}
	default:
		return false
	}
	if neg {
		truth = !truth
	}
	return truth == want
}

// pyEndlessFor judges `for X in ITER:` whose iterator never ends
// (itertools.count(), itertools.cycle(…), itertools.repeat(x) without a
// count, iter(callable, sentinel)).
func pyEndlessFor(toks []Token, i int, c *Code, in func(int, int) string) string {
	k := i + 1
	for k < len(toks) && !(toks[k].Kind == Name && toks[k].Text == "in") && toks[k].Kind != Newline {
		k++
	}
	if k+1 >= len(toks) {
		return ""
	}
	var iter *Call
	for _, call := range c.Calls {
		if call.Tok == k+1 {
			iter = call
			break
		}
	}
	if iter == nil {
		return ""
	}
	switch iter.Func {
	case "itertools.count", "itertools.cycle", "count", "cycle":
	case "itertools.repeat", "repeat":
		if len(iter.Args) > 1 {
			return ""
		}
	case "iter":
		if len(iter.Args) != 2 {
			return ""
		}
	default:
		return ""
	}
	// a comprehension (`[os.fork() for _ in iter(int, 1)]`): its element
	// expression, before the for, runs on every turn
	if open := enclosingOpen(toks, i); open >= 0 {
		if f := in(open+1, i); f != "" {
			return f
		}
	}
	_, _, bodyFrom := loopHeader(toks, iter.End, c.Lang)
	return in(bodyFrom, bodyEnd(toks, bodyFrom, i, c.Lang))
}

// enclosingOpen is the index of the bracket that encloses token i on its
// logical line, -1 when there is none.
func enclosingOpen(toks []Token, i int) int {
	depth := 0
	for k := i - 1; k >= 0; k-- {
		t := toks[k]
		if t.Kind == Newline && depth == 0 {
			return -1
		}
		if t.Kind != Op {
			continue
		}
		switch t.Text {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			if depth == 0 {
				return k
			}
			depth--
		}
	}
	return -1
}
