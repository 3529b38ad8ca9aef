package codelex

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Tcl (tclsh, wish, jimsh, expect) is a command language, not a language
// of call expressions: a script is commands separated by newlines and
// semicolons, a command is words, and the first word names the command.
// Its whole syntax is the twelve rules of Tcl(n): `{…}` quotes a word with
// no substitution, `"…"` and bare words substitute `$var`, `[script]` and
// backslashes, `{*}` expands a word into list elements, `#` starts a
// comment where a command may start. So the parser here reads commands,
// not tokens, and judges each command by what it does:
//
//   - `exec ARGS` and expect's `spawn ARGS` start a program (argv lists; a
//     `|` pipeline is one argv per stage, `>`/`>>` redirections write files,
//     `<< TEXT` into a shell is the shell's script, a trailing `&` starts it
//     in the background), `open "|CMD"` too (a handle opened for writing to
//     a shell takes its script from `puts`);
//   - `file delete -force` is a recursive delete that cannot prompt,
//     `file delete` deletes, `file rename|copy|mkdir|link` write, `file
//     attributes P -permissions M` is a chmod, `open P w|a` writes or
//     appends;
//   - script-taking commands run their script words: `eval`, `uplevel`,
//     `if`/`while`/`for`/`foreach`/`switch`/`catch`/`try`/`proc`/`apply`/
//     `after`/`time`/`namespace eval`/`interp eval`, expect's and Tk's
//     bodies (`expect {pat body}`, `bind`, `-command SCRIPT`), `source` of a
//     file the code wrote itself; `[…]` runs wherever it is substituted;
//   - `rename exec x` and `interp alias {} x {} exec` make `x` that command;
//   - `set` of literal values, `list`, `concat`, `join`, `format`,
//     `string cat|reverse|tolower|toupper`, `subst` and `binary decode
//     base64` are evaluated, so a command built from literals is judged by
//     its value; anything computed stays unknown.
//
// A braced word handed to a command that is not script-taking is data
// (`puts {exec rm -rf x}` prints). No maintained pure-Go Tcl parser exists
// (modernc.org/tcl is the C interpreter transpiled, megabytes, and it runs
// code); this one is bounded like the tokenizers: maxTokens words, scripts
// nested tclMaxDepth deep, tclMaxBytes of text parsed again as bodies.

// Tcl is the language of tclsh, wish, jimsh and expect.
const Tcl Lang = "tcl"

// tclMaxDepth bounds the nesting of scripts (bodies, `[…]`, eval'd
// text) parsed; tclMaxBytes the script text parsed again as bodies or
// eval'd values.
const (
	tclMaxDepth = 16
	tclMaxBytes = 1 << 20
)

// tclVal is a Tcl value: s with unknown parts as unknownMark (partial),
// optionally after the value of environment variable env.
type tclVal struct {
	s       string
	partial bool
	env     string
}

var tclUnknown = tclVal{s: unknownMark, partial: true}

func (v tclVal) known() bool { return !v.partial && v.env == "" }

func (v tclVal) value() Value {
	return Value{Kind: Str, S: v.s, Partial: v.partial, Env: v.env}
}

// tclWord is one word of a command.
type tclWord struct {
	tclVal
	braced, expand bool
}

// tclHandle is a channel the code opened: a file (path) or a pipeline
// (shell: a shell reading its script from the channel).
type tclHandle struct {
	path  tclVal
	file  bool
	shell bool
}

type tclParser struct {
	c     *Code
	vars  map[string]tclVal
	alias map[string][]tclWord
	// handles are the channels opened; a handle value is "\x00hN".
	handles []tclHandle
	// wrote is the text the code wrote to known paths through puts.
	wrote     map[string]string
	argv      []string
	argvKnown bool
	words     int
	bytes     int
	depth     int
	loop      int
	printed   strings.Builder
	havePrint bool
}

// analyzeTcl is Analyze for Tcl.
func analyzeTcl(code string, opts Options) *Code {
	c := &Code{Lang: Tcl}
	p := &tclParser{c: c, argv: opts.Argv, argvKnown: opts.ArgvKnown}
	p.run(code, 0, 0)
	if p.havePrint {
		s := p.printed.String()
		c.Printed = &s
	}
	return c
}

func (p *tclParser) stop() bool { return p.c.Truncated }

// run parses the commands of s from i up to close (']' inside `[…]`, 0
// for the whole text) and returns where it ended and the last command's
// result.
func (p *tclParser) run(s string, i int, close byte) (int, tclVal) {
	if p.depth >= tclMaxDepth {
		p.c.Truncated = true
		return len(s), tclUnknown
	}
	p.depth++
	defer func() { p.depth-- }()
	last := tclVal{}
	for !p.stop() {
		for i < len(s) {
			c := s[i]
			if tclBlank(c) || c == '\n' || c == ';' {
				i++
				continue
			}
			if c == '\\' && i+1 < len(s) && s[i+1] == '\n' {
				i += 2
				continue
			}
			break
		}
		if i >= len(s) {
			return i, last
		}
		if close != 0 && s[i] == close {
			return i + 1, last
		}
		if s[i] == '#' {
			for i < len(s) && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			continue
		}
		var ws []tclWord
		ws, i = p.cmdWords(s, i, close)
		last = p.command(ws)
	}
	return len(s), tclUnknown
}

func tclBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// cmdWords parses the words of one command; it stops before the newline,
// ';' or close that ends it.
func (p *tclParser) cmdWords(s string, i int, close byte) ([]tclWord, int) {
	var ws []tclWord
	for i < len(s) && !p.stop() {
		c := s[i]
		switch {
		case tclBlank(c):
			i++
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
			continue
		case c == '\n' || c == ';' || close != 0 && c == close:
			return ws, i
		}
		var w tclWord
		w, i = p.word(s, i, close)
		ws = append(ws, w)
		if p.words++; p.words > maxTokens {
			p.c.Truncated = true
		}
	}
	return ws, i
}

// word parses one word at s[i].
func (p *tclParser) word(s string, i int, close byte) (tclWord, int) {
	var w tclWord
	if strings.HasPrefix(s[i:], "{*}") && i+3 < len(s) && !tclBlank(s[i+3]) && s[i+3] != '\n' && s[i+3] != ';' {
		w.expand = true
		i += 3
	}
	switch s[i] {
	case '{':
		body, end := tclBraced(s, i)
		w.tclVal = tclVal{s: tclJoinLines(body)}
		w.braced = true
		p.literal(w.s)
		return w, end
	case '"':
		v, end := p.subst(s, i+1, func(c byte) bool { return c == '"' })
		if end < len(s) {
			end++
		}
		w.tclVal = v
		if v.known() {
			p.literal(v.s)
		}
		return w, end
	}
	v, end := p.subst(s, i, func(c byte) bool {
		return tclBlank(c) || c == '\n' || c == ';' || close != 0 && c == close
	})
	w.tclVal = v
	return w, end
}

// literal keeps a quoted word's value as a String token (what a pipe from
// the interpreter may carry: shell.producerLiterals).
func (p *tclParser) literal(s string) {
	if len(p.c.Tokens) < maxTokens && strings.ContainsAny(s, " \t") {
		p.c.Tokens = append(p.c.Tokens, Token{Kind: String, Text: s})
	}
}

// tclBraced returns the body of the braced word at s[i] and the offset
// after its closing brace (the end of s when it has none).
func tclBraced(s string, i int) (string, int) {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return s[i+1 : j], j + 1
			}
		}
	}
	return s[i+1:], len(s)
}

// tclJoinLines applies the one substitution braces keep: a backslash, a
// newline and the blanks after it are one space.
func tclJoinLines(s string) string {
	if !strings.Contains(s, "\\\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] == '\n' {
				i += 2
				for i < len(s) && tclBlank(s[i]) {
					i++
				}
				i--
				b.WriteByte(' ')
				continue
			}
			b.WriteByte(s[i])
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// subst reads a word's text from s[i] up to stop, substituting
// backslashes, variables and `[…]` scripts.
func (p *tclParser) subst(s string, i int, stop func(byte) bool) (tclVal, int) {
	var b strings.Builder
	v := tclVal{}
	add := func(x tclVal) {
		if x.env != "" {
			if b.Len() == 0 && v.env == "" && !v.partial {
				v.env = x.env
			} else {
				b.WriteString(unknownMark)
				v.partial = true
			}
		}
		if b.Len()+len(x.s) > maxValueLen {
			x = tclUnknown
		}
		b.WriteString(x.s)
		v.partial = v.partial || x.partial
	}
	for i < len(s) && !stop(s[i]) && !p.stop() {
		switch s[i] {
		case '\\':
			r, n := tclBackslash(s, i)
			b.WriteString(r)
			i += n
		case '$':
			x, n, ok := p.varSub(s, i)
			if !ok {
				b.WriteByte('$')
				i++
				continue
			}
			add(x)
			i += n
		case '[':
			end, r := p.run(s, i+1, ']')
			add(r)
			i = end
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	v.s = b.String()
	return v, i
}

// tclBackslash decodes the backslash sequence at s[i] (Tcl(n) rule 9).
func tclBackslash(s string, i int) (string, int) {
	if i+1 >= len(s) {
		return "\\", 1
	}
	c := s[i+1]
	switch c {
	case 'a':
		return "\a", 2
	case 'b':
		return "\b", 2
	case 'f':
		return "\f", 2
	case 'n':
		return "\n", 2
	case 'r':
		return "\r", 2
	case 't':
		return "\t", 2
	case 'v':
		return "\v", 2
	case '\n':
		n := 2
		for i+n < len(s) && tclBlank(s[i+n]) {
			n++
		}
		return " ", n
	case 'x', 'u', 'U':
		max := 2
		switch c {
		case 'u':
			max = 4
		case 'U':
			max = 8
		}
		j := i + 2
		for j < len(s) && j-i-2 < max && isHex(s[j]) {
			j++
		}
		if j == i+2 {
			return string(c), 2
		}
		n, _ := strconv.ParseUint(s[i+2:j], 16, 32)
		if c == 'x' {
			return string([]byte{byte(n)}), j - i
		}
		return string(rune(n)), j - i
	}
	if c >= '0' && c <= '7' {
		j := i + 1
		for j < len(s) && j-i-1 < 3 && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		n, _ := strconv.ParseUint(s[i+1:j], 8, 16)
		return string([]byte{byte(n)}), j - i
	}
	_, size := utf8.DecodeRuneInString(s[i+1:])
	return s[i+1 : i+1+size], 1 + size
}

// varSub substitutes the variable reference at s[i] ('$'): $name,
// ${name}, $name(index), namespace-qualified names; ok is false when '$'
// starts none.
func (p *tclParser) varSub(s string, i int) (tclVal, int, bool) {
	j := i + 1
	var name string
	if j < len(s) && s[j] == '{' {
		k := strings.IndexByte(s[j:], '}')
		if k < 0 {
			return tclVal{}, 0, false
		}
		return p.lookup(s[j+1:j+k], nil), k + 2, true
	}
	for j < len(s) {
		c := s[j]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			j++
		} else if c == ':' && j+1 < len(s) && s[j+1] == ':' {
			j += 2
		} else {
			break
		}
	}
	name = s[i+1 : j]
	if name == "" {
		return tclVal{}, 0, false
	}
	if j < len(s) && s[j] == '(' {
		idx, end := p.subst(s, j+1, func(c byte) bool { return c == ')' })
		if end < len(s) {
			end++
		}
		return p.lookup(name, &idx), end - i, true
	}
	return p.lookup(name, nil), j - i, true
}

// lookup is the value of a variable (an array element when idx is set).
func (p *tclParser) lookup(name string, idx *tclVal) tclVal {
	name = strings.TrimPrefix(name, "::")
	if idx != nil {
		if !idx.known() {
			return tclUnknown
		}
		if name == "env" {
			if v, ok := p.vars["env("+idx.s+")"]; ok {
				return v
			}
			return tclVal{env: idx.s}
		}
		name += "(" + idx.s + ")"
	}
	if v, ok := p.vars[name]; ok {
		return v
	}
	switch name {
	case "argv":
		if p.argvKnown {
			return tclVal{s: tclList(p.argv)}
		}
	case "argc":
		if p.argvKnown {
			return tclVal{s: strconv.Itoa(len(p.argv))}
		}
	}
	return tclUnknown
}

func (p *tclParser) set(name string, v tclVal) {
	if p.vars == nil {
		p.vars = map[string]tclVal{}
	}
	if len(p.vars) < 256 {
		p.vars[strings.TrimPrefix(name, "::")] = v
	}
}

// tclListElems splits a known Tcl list into its elements (braces and
// quotes group, backslashes escape).
func tclListElems(s string) []string {
	var out []string
	i := 0
	for len(out) < maxTokens {
		for i < len(s) && (tclBlank(s[i]) || s[i] == '\n') {
			i++
		}
		if i >= len(s) {
			break
		}
		switch s[i] {
		case '{':
			body, end := tclBraced(s, i)
			out = append(out, body)
			i = end
		case '"':
			var b strings.Builder
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					r, n := tclBackslash(s, j)
					b.WriteString(r)
					j += n
					continue
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, b.String())
			i = j + 1
		default:
			var b strings.Builder
			j := i
			for j < len(s) && !tclBlank(s[j]) && s[j] != '\n' {
				if s[j] == '\\' {
					r, n := tclBackslash(s, j)
					b.WriteString(r)
					j += n
					continue
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, b.String())
			i = j
		}
	}
	return out
}

// tclList formats elements as a Tcl list.
func tclList(elems []string) string {
	var b strings.Builder
	for k, e := range elems {
		if k > 0 {
			b.WriteByte(' ')
		}
		switch {
		case e == "":
			b.WriteString("{}")
		case strings.ContainsAny(e, " \t\n;\"$[]\\{}"):
			if strings.ContainsAny(e, "{}\\") {
				for i := 0; i < len(e); i++ {
					if strings.IndexByte(" \t\n;\"$[]\\{}", e[i]) >= 0 {
						b.WriteByte('\\')
					}
					b.WriteByte(e[i])
				}
			} else {
				b.WriteString("{" + e + "}")
			}
		default:
			b.WriteString(e)
		}
	}
	return b.String()
}

// expandWords applies {*}: a known word becomes its list elements.
func (p *tclParser) expandWords(ws []tclWord) []tclWord {
	has := false
	for _, w := range ws {
		has = has || w.expand
	}
	if !has {
		return ws
	}
	out := make([]tclWord, 0, len(ws))
	for _, w := range ws {
		if !w.expand {
			out = append(out, w)
			continue
		}
		if !w.known() {
			out = append(out, tclWord{tclVal: tclUnknown})
			continue
		}
		for _, e := range tclListElems(w.s) {
			out = append(out, tclWord{tclVal: tclVal{s: e}})
		}
	}
	return out
}

// concatWords is Tcl's concat of the words' values (eval, uplevel, after).
func concatWords(ws []tclWord) tclVal {
	v := tclVal{}
	parts := make([]string, 0, len(ws))
	for k, w := range ws {
		if w.env != "" {
			if k == 0 {
				v.env = w.env
			} else {
				v.partial = true
			}
		}
		v.partial = v.partial || w.partial
		parts = append(parts, strings.TrimSpace(w.s))
	}
	v.s = strings.Join(parts, " ")
	return v
}

// script runs a script value: a body, eval'd text. A value with unknown
// parts is still read (its unknown parts are unknown words).
func (p *tclParser) script(v tclVal) {
	if v.s == "" || p.stop() {
		return
	}
	if p.bytes += len(v.s); p.bytes > tclMaxBytes {
		p.c.Truncated = true
		return
	}
	src := v.s
	if v.partial {
		src = strings.ReplaceAll(src, unknownMark, "$"+UnknownWord[1:])
	}
	p.run(src, 0, 0)
}

// exprScripts runs the `[…]` scripts of a braced expression (if, while,
// for, expr conditions); braces inside it still quote.
func (p *tclParser) exprScripts(w tclWord) {
	if !w.braced {
		return // substituted when the word was read
	}
	s := w.s
	for i := 0; i < len(s) && !p.stop(); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			_, end := tclBraced(s, i)
			i = end - 1
		case '[':
			end, _ := p.run(s, i+1, ']')
			i = end - 1
		}
	}
}

func (p *tclParser) body(w tclWord) {
	p.script(w.tclVal)
}

// endlessCond reports a loop condition that is always true.
func endlessCond(w tclWord) bool {
	if !w.known() {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(w.s)) {
	case "", "1", "true", "yes", "on", "!0":
		return true
	}
	n, err := strconv.Atoi(strings.TrimSpace(w.s))
	return err == nil && n != 0
}

func (p *tclParser) loopBody(w tclWord, endless bool) {
	if endless {
		p.loop++
		defer func() { p.loop-- }()
	}
	p.body(w)
}

// started notes a process the code starts; in an endless loop that is
// unbounded process creation.
func (p *tclParser) started(fn string, background bool) {
	if p.loop > 0 && background && p.c.ForkLoop == "" {
		p.c.ForkLoop = fn
	}
}

// command judges one command and returns its result when known.
func (p *tclParser) command(ws []tclWord) tclVal {
	ws = p.expandWords(ws)
	for n := 0; len(ws) > 0 && n < 8; n++ {
		a, ok := p.alias[strings.TrimPrefix(ws[0].s, "::")]
		if !ok || !ws[0].known() {
			break
		}
		ws = append(append([]tclWord{}, a...), ws[1:]...)
	}
	if len(ws) == 0 || !ws[0].known() {
		return tclUnknown
	}
	name := strings.TrimPrefix(ws[0].s, "::")
	args := ws[1:]
	arg := func(k int) tclWord {
		if k < len(args) {
			return args[k]
		}
		return tclWord{tclVal: tclUnknown}
	}
	switch name {
	case "set", "variable":
		if len(args) >= 2 && args[0].known() {
			p.set(args[0].s, args[1].tclVal)
			return args[1].tclVal
		}
		if len(args) == 1 && args[0].known() {
			return p.lookup(args[0].s, nil)
		}
	case "append":
		if len(args) >= 1 && args[0].known() {
			v := p.lookup(args[0].s, nil)
			if _, ok := p.vars[args[0].s]; !ok {
				v = tclVal{}
			}
			for _, w := range args[1:] {
				v.s += w.s
				v.partial = v.partial || w.partial || w.env != ""
			}
			p.set(args[0].s, v)
			return v
		}
	case "unset":
		for _, w := range args {
			delete(p.vars, w.s)
		}
	case "list":
		return p.listOf(args)
	case "concat":
		return concatWords(args)
	case "join":
		if len(args) >= 1 && args[0].known() {
			sep := " "
			if len(args) > 1 {
				if !args[1].known() {
					return tclUnknown
				}
				sep = args[1].s
			}
			return tclVal{s: strings.Join(tclListElems(args[0].s), sep)}
		}
	case "lindex":
		if len(args) == 2 && args[0].known() && args[1].known() {
			if n, err := strconv.Atoi(args[1].s); err == nil {
				if es := tclListElems(args[0].s); n >= 0 && n < len(es) {
					return tclVal{s: es[n]}
				}
			}
		}
	case "string":
		return p.stringCmd(args)
	case "format":
		return tclFormat(args)
	case "subst":
		if w := arg(len(args) - 1); w.known() {
			v, _ := p.subst(w.s, 0, func(byte) bool { return false })
			return v
		}
	case "binary":
		if len(args) == 3 && args[0].s == "decode" && args[1].s == "base64" && args[2].known() {
			if b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(args[2].s), "")); err == nil {
				return tclVal{s: string(b)}
			}
		}
	case "exec":
		p.started("exec &", p.exec("exec", skipOpts(args, "-ignorestderr -keepnewline")))
	case "spawn":
		// spawn [-noecho -console -nottycopy -nottyinit -pty -ignore SIG] PROG ARGS
		rest := args
		for len(rest) > 0 && rest[0].known() && strings.HasPrefix(rest[0].s, "-") {
			switch rest[0].s {
			case "-open", "-leaveopen":
				return tclUnknown // an existing channel, no process
			case "-ignore":
				rest = rest[1:]
			}
			rest = rest[1:]
		}
		p.exec("spawn", rest)
		p.started("spawn", true)
	case "fork":
		p.started("fork", true)
	case "open":
		return p.open(args)
	case "puts":
		p.puts(args)
	case "file":
		p.fileCmd(args)
	case "eval", "uplevel", "namespace", "interp", "after", "time", "timerate", "catch", "apply", "source",
		"if", "while", "for", "foreach", "lmap", "dict", "switch", "try", "proc", "rename",
		"expect", "expect_after", "expect_before", "expect_background", "interact", "bind", "fileevent", "chan":
		p.control(name, args)
	default:
		// Tk and other commands taking a script as an option value
		// (`button .b -command {exec rm -rf x}`, `-postcommand`,
		// `-validatecommand`)
		for k := 0; k+1 < len(args); k++ {
			if o := args[k].s; strings.HasPrefix(o, "-") && strings.HasSuffix(o, "command") && len(o) > len("command") {
				p.body(args[k+1])
			}
		}
	}
	return tclUnknown
}

// skipOpts drops leading options named in names (and a "--").
func skipOpts(ws []tclWord, names string) []tclWord {
	for len(ws) > 0 && ws[0].known() && strings.HasPrefix(ws[0].s, "-") {
		if ws[0].s == "--" {
			return ws[1:]
		}
		if !strings.Contains(" "+names+" ", " "+ws[0].s+" ") {
			break
		}
		ws = ws[1:]
	}
	return ws
}

func (p *tclParser) listOf(ws []tclWord) tclVal {
	es := make([]string, len(ws))
	v := tclVal{}
	for k, w := range ws {
		if !w.known() {
			v.partial = true
			es[k] = unknownMark
			continue
		}
		es[k] = w.s
	}
	v.s = tclList(es)
	return v
}

func (p *tclParser) stringCmd(args []tclWord) tclVal {
	if len(args) < 2 {
		return tclUnknown
	}
	switch args[0].s {
	case "cat":
		v := tclVal{}
		for _, w := range args[1:] {
			if !w.known() {
				return tclUnknown
			}
			v.s += w.s
		}
		return v
	case "reverse", "tolower", "toupper", "trim":
		w := args[len(args)-1]
		if len(args) != 2 || !w.known() {
			return tclUnknown
		}
		switch args[0].s {
		case "reverse":
			r := []rune(w.s)
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return tclVal{s: string(r)}
		case "tolower":
			return tclVal{s: strings.ToLower(w.s)}
		case "toupper":
			return tclVal{s: strings.ToUpper(w.s)}
		}
		return tclVal{s: strings.TrimSpace(w.s)}
	case "map":
		if len(args) == 3 && args[1].known() && args[2].known() {
			es := tclListElems(args[1].s)
			if len(es)%2 == 0 {
				return tclVal{s: strings.NewReplacer(es...).Replace(args[2].s)}
			}
		}
	}
	return tclUnknown
}

// tclFormat evaluates format with %s/%d/%% conversions of known words.
func tclFormat(args []tclWord) tclVal {
	if len(args) == 0 || !args[0].known() {
		return tclUnknown
	}
	f := args[0].s
	rest := args[1:]
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case '%':
			b.WriteByte('%')
		case 's', 'd', 'c':
			if len(rest) == 0 || !rest[0].known() {
				return tclUnknown
			}
			if f[i] == 'c' {
				n, err := strconv.Atoi(rest[0].s)
				if err != nil {
					return tclUnknown
				}
				b.WriteRune(rune(n))
			} else {
				b.WriteString(rest[0].s)
			}
			rest = rest[1:]
		default:
			return tclUnknown
		}
	}
	return tclVal{s: b.String()}
}

// exec judges the argument words of exec, spawn or an `open "|…"`
// pipeline (Tcl exec(n)): each `|`/`|&` stage is one argv, redirections
// write or feed files; background reports a trailing `&`.
func (p *tclParser) exec(fn string, ws []tclWord) (background bool) {
	var stage []Value
	var stdin *tclVal
	if n := len(ws); n > 0 && ws[n-1].known() && ws[n-1].s == "&" {
		background = true
		ws = ws[:n-1]
	}
	flush := func() {
		if len(stage) == 0 {
			return
		}
		if stdin != nil {
			p.c.stdinScript(fn+" <<", Value{Kind: List, List: stage}, stdin.value())
		}
		p.c.argv(fn, stage)
		stage, stdin = nil, nil
	}
	for k := 0; k < len(ws); k++ {
		w := ws[k]
		if !w.known() {
			stage = append(stage, w.value())
			continue
		}
		s := w.s
		if s == "|" || s == "|&" {
			flush()
			continue
		}
		op := execRedirect(s)
		if op == "" {
			stage = append(stage, w.value())
			continue
		}
		var target tclVal
		if len(s) > len(op) {
			target = tclVal{s: s[len(op):]}
		} else if strings.HasSuffix(op, "@1") {
			continue
		} else if k+1 < len(ws) {
			k++
			target = ws[k].tclVal
		} else {
			continue
		}
		switch {
		case strings.Contains(op, "@"):
			// a channel, not a file
		case op == "<<":
			t := target
			stdin = &t
		case op == "<":
		case strings.Contains(op, ">>"):
			p.c.file(fn+" "+op, Append, target.value())
		default:
			p.c.file(fn+" "+op, Write, target.value())
		}
	}
	flush()
	return background
}

// execRedirects are exec(n)'s redirection operators, longest first.
var execRedirects = []string{"2>@1", ">&@", "2>>", ">>&", "2>@", "<<", ">>", ">&", ">@", "<@", "2>", "<", ">"}

func execRedirect(s string) string {
	for _, op := range execRedirects {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

// open judges `open NAME ?ACCESS?`: a name starting with | is a pipeline
// (a shell opened for writing reads its script from the channel); a file
// opened for writing or appending is written.
func (p *tclParser) open(args []tclWord) tclVal {
	if len(args) == 0 {
		return tclUnknown
	}
	n := args[0]
	mode := "r"
	if len(args) > 1 {
		if !args[1].known() {
			mode = "w" // an access mode the guard cannot read: judged as a write
		} else {
			mode = args[1].s
		}
	}
	h := tclHandle{path: n.tclVal, file: true}
	if n.known() && strings.HasPrefix(n.s, "|") {
		elems := tclListElems(n.s[1:])
		ws := make([]tclWord, len(elems))
		for k, e := range elems {
			ws[k] = tclWord{tclVal: tclVal{s: e}}
		}
		p.exec("open |", ws)
		p.started("open |", true)
		h = tclHandle{shell: strings.ContainsAny(mode, "wa+") && isShellLine(elems)}
	} else if op := tclOpenMode(mode); op != 0 {
		p.c.file("open", op, n.value())
	}
	if len(p.handles) >= 64 {
		return tclUnknown
	}
	p.handles = append(p.handles, h)
	return tclVal{s: "\x00h" + strconv.Itoa(len(p.handles)-1)}
}

// tclOpenMode maps an open access mode (r, w, a+, or a list of POSIX
// flags) to what it does to the file (0 when it only reads).
func tclOpenMode(m string) FileEffect {
	if strings.ContainsAny(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		switch {
		case strings.Contains(m, "APPEND") && !strings.Contains(m, "TRUNC"):
			return Append
		case strings.Contains(m, "WRONLY"), strings.Contains(m, "RDWR"), strings.Contains(m, "CREAT"), strings.Contains(m, "TRUNC"):
			return Write
		}
		return 0
	}
	return openMode(m)
}

func (p *tclParser) handle(v tclVal) (*tclHandle, bool) {
	if !v.known() || !strings.HasPrefix(v.s, "\x00h") {
		return nil, false
	}
	k, err := strconv.Atoi(v.s[2:])
	if err != nil || k < 0 || k >= len(p.handles) {
		return nil, false
	}
	return &p.handles[k], true
}

// puts writes to stdout (what the code prints), to a file (remembered for
// a later `source`), or to a shell's stdin (the shell's script).
func (p *tclParser) puts(args []tclWord) {
	nl := "\n"
	if len(args) > 0 && args[0].s == "-nonewline" {
		args, nl = args[1:], ""
	}
	var ch tclVal
	switch len(args) {
	case 1:
		ch = tclVal{s: "stdout"}
	case 2:
		ch = args[0].tclVal
	default:
		return
	}
	text := args[len(args)-1].tclVal
	if ch.known() && ch.s == "stdout" {
		if text.known() {
			p.havePrint = true
			p.printed.WriteString(text.s + nl)
		}
		return
	}
	h, ok := p.handle(ch)
	if !ok {
		return
	}
	switch {
	case h.shell:
		p.c.shell("puts", text.value())
	case h.file && h.path.known() && text.known():
		if p.wrote == nil {
			p.wrote = map[string]string{}
		}
		if len(p.wrote[h.path.s])+len(text.s) < maxValueLen {
			p.wrote[h.path.s] += text.s + nl
		}
	}
}

// fileCmd judges the file command's writing subcommands.
func (p *tclParser) fileCmd(args []tclWord) {
	if len(args) < 2 || !args[0].known() {
		return
	}
	sub, rest := args[0].s, args[1:]
	force := false
	for len(rest) > 0 && rest[0].known() && strings.HasPrefix(rest[0].s, "-") {
		o := rest[0].s
		rest = rest[1:]
		if o == "--" {
			break
		}
		if o == "-force" {
			force = true
		}
		if sub == "link" {
			break
		}
	}
	fn := "file " + sub
	switch sub {
	case "delete":
		for _, w := range rest {
			if force {
				p.c.tree(fn+" -force", w.value())
			} else {
				p.c.file(fn, Delete, w.value())
			}
		}
	case "rename":
		if len(rest) >= 2 {
			for _, w := range rest[:len(rest)-1] {
				p.c.file(fn, Tree, w.value())
			}
			p.c.file(fn, Write, rest[len(rest)-1].value())
		}
	case "copy":
		if len(rest) >= 2 {
			p.c.file(fn, Write, rest[len(rest)-1].value())
		}
	case "mkdir":
		for _, w := range rest {
			p.c.file(fn, Write, w.value())
		}
	case "link":
		if len(rest) == 2 {
			if len(args) > 1 && args[1].s == "-hard" {
				p.c.file(fn, Write, rest[1].value())
				p.c.file(fn, Write, rest[0].value())
			} else {
				p.c.link(fn, rest[1].value(), rest[0].value())
			}
		}
	case "attributes":
		path := args[1]
		for k := 2; k+1 < len(args); k += 2 {
			if args[k].s == "-permissions" {
				p.c.chmod(fn+" -permissions", path.value(), tclMode(args[k+1]))
			}
		}
	}
}

// tclMode is a -permissions value: octal, rwxrwxrwx, or symbolic
// (a+rwx, ugo=rwx) read as 0777 when everyone gets read, write and
// execute.
func tclMode(w tclWord) Value {
	if !w.known() {
		return Value{}
	}
	s := strings.TrimSpace(w.s)
	if n, err := strconv.ParseInt(strings.TrimPrefix(s, "0o"), 8, 64); err == nil {
		return Value{Kind: Num, N: n}
	}
	if n, ok := symbolicMode(s); ok {
		return Value{Kind: Num, N: n}
	}
	return Value{}
}

// control runs the script words of script-taking commands.
func (p *tclParser) control(name string, args []tclWord) {
	at := func(k int) (tclWord, bool) {
		if k >= 0 && k < len(args) {
			return args[k], true
		}
		return tclWord{}, false
	}
	evalText := func(ws []tclWord) { p.script(concatWords(ws)) }
	switch name {
	case "eval":
		evalText(args)
	case "uplevel":
		if len(args) > 1 && (args[0].s == "#0" || strings.HasPrefix(args[0].s, "#") || strings.Trim(args[0].s, "0123456789") == "") {
			args = args[1:]
		}
		evalText(args)
	case "namespace":
		if len(args) >= 3 && (args[0].s == "eval" || args[0].s == "inscope") {
			evalText(args[2:])
		}
	case "interp":
		switch {
		case len(args) >= 3 && args[0].s == "eval":
			evalText(args[2:])
		case len(args) >= 5 && args[0].s == "alias" && args[2].known():
			if p.alias == nil {
				p.alias = map[string][]tclWord{}
			}
			if len(p.alias) < 64 {
				p.alias[strings.TrimPrefix(args[2].s, "::")] = append([]tclWord{}, args[4:]...)
			}
		}
	case "rename":
		if len(args) == 2 && args[0].known() && args[1].known() && args[1].s != "" {
			if p.alias == nil {
				p.alias = map[string][]tclWord{}
			}
			old := strings.TrimPrefix(args[0].s, "::")
			target := []tclWord{args[0]}
			if a, ok := p.alias[old]; ok {
				target = a
			}
			if len(p.alias) < 64 {
				p.alias[strings.TrimPrefix(args[1].s, "::")] = target
			}
		}
	case "after":
		if len(args) >= 2 {
			evalText(args[1:])
		}
	case "time", "timerate", "catch":
		if w, ok := at(0); ok {
			p.body(w)
		}
	case "apply":
		if w, ok := at(0); ok && w.known() {
			if es := tclListElems(w.s); len(es) >= 2 {
				p.script(tclVal{s: es[1]})
			}
		}
	case "source":
		rest := args
		if len(rest) == 3 && rest[0].s == "-encoding" {
			rest = rest[2:]
		}
		if len(rest) == 1 && rest[0].known() {
			if src, ok := p.wrote[rest[0].s]; ok {
				evalText([]tclWord{{tclVal: tclVal{s: src}}})
			}
		}
	case "if":
		for k := 0; k < len(args); {
			if args[k].s == "else" && k+1 < len(args) {
				p.body(args[k+1])
				return
			}
			if args[k].s == "elseif" {
				k++
			}
			if k >= len(args) {
				return
			}
			p.exprScripts(args[k])
			k++
			if k < len(args) && args[k].s == "then" {
				k++
			}
			if k < len(args) {
				p.body(args[k])
				k++
			}
			if k < len(args) && args[k].s != "else" && args[k].s != "elseif" {
				p.body(args[k]) // `if c b1 b2`: else is optional
				return
			}
		}
	case "while":
		if len(args) == 2 {
			p.exprScripts(args[0])
			p.loopBody(args[1], endlessCond(args[0]))
		}
	case "for":
		if len(args) == 4 {
			p.body(args[0])
			p.exprScripts(args[1])
			p.body(args[2])
			p.loopBody(args[3], endlessCond(args[1]))
		}
	case "foreach", "lmap":
		if len(args) >= 3 {
			p.body(args[len(args)-1])
		}
	case "dict":
		if len(args) >= 4 && (args[0].s == "for" || args[0].s == "map" || args[0].s == "with" || args[0].s == "update") {
			p.body(args[len(args)-1])
		}
	case "proc":
		if len(args) == 3 {
			p.body(args[2])
		}
	case "try":
		if len(args) >= 1 {
			p.body(args[0])
		}
		for k := 1; k < len(args); k++ {
			switch args[k].s {
			case "on", "trap":
				if k+3 < len(args) {
					p.body(args[k+3])
					k += 3
				}
			case "finally":
				if k+1 < len(args) {
					p.body(args[k+1])
					k++
				}
			}
		}
	case "switch":
		rest := args
		for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") {
			o := rest[0].s
			rest = rest[1:]
			if o == "--" {
				break
			}
			if o == "-matchvar" || o == "-indexvar" {
				if len(rest) > 0 {
					rest = rest[1:]
				}
			}
		}
		if len(rest) < 2 {
			return
		}
		pairs := rest[1:]
		if len(pairs) == 1 && pairs[0].known() {
			es := tclListElems(pairs[0].s)
			pairs = make([]tclWord, len(es))
			for k, e := range es {
				pairs[k] = tclWord{tclVal: tclVal{s: e}}
			}
		}
		for k := 1; k < len(pairs); k += 2 {
			if pairs[k].s != "-" {
				p.body(pairs[k])
			}
		}
	case "expect", "expect_after", "expect_before", "expect_background", "interact":
		ws := args
		if len(ws) == 1 && ws[0].known() {
			es := tclListElems(ws[0].s)
			ws = make([]tclWord, len(es))
			for k, e := range es {
				ws[k] = tclWord{tclVal: tclVal{s: e}}
			}
		}
		// [flags] pattern body … (flags -re -ex -gl -nocase -i ID -timeout N)
		for k := 0; k < len(ws); k++ {
			s := ws[k].s
			if strings.HasPrefix(s, "-") && len(s) > 1 {
				if s == "-i" || s == "-timeout" {
					k++
				}
				continue
			}
			if k+1 < len(ws) {
				p.body(ws[k+1])
				k++
			}
		}
	case "bind":
		if len(args) >= 3 {
			p.body(args[len(args)-1])
		}
	case "fileevent":
		if len(args) == 3 {
			p.body(args[2])
		}
	case "chan":
		if len(args) == 4 && args[0].s == "event" {
			p.body(args[3])
		}
	}
}
