package codelex

import "strings"

// lexLua tokenizes Lua 5.1–5.4: -- comments and --[==[ ]==] long comments,
// '…' / "…" with escapes (\z skips blanks), [==[ … ]==] long strings (a
// first newline dropped), names, numbers, operators (.., ..., ~=, ::).
func lexLua(l *lexer) {
	s := l.src
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		switch {
		case c == '\n':
			l.newline()
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			l.space = true
		case c == '-' && strings.HasPrefix(s[l.pos:], "--"):
			if body, end, ok := longBracket(s, l.pos+2); ok {
				l.line += strings.Count(body, "\n")
				l.pos = end
			} else {
				for l.pos < len(s) && s[l.pos] != '\n' {
					l.pos++
				}
			}
			l.space = true
		case c == '[' && (l.pos+1 < len(s) && (s[l.pos+1] == '[' || s[l.pos+1] == '=')):
			if body, end, ok := longBracket(s, l.pos); ok {
				l.emit(String, strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n"), l.pos)
				l.line += strings.Count(body, "\n")
				l.pos = end
				continue
			}
			l.op()
		case c == '\'' || c == '"':
			var h holes
			i := l.pos + 1
			for i < len(s) && s[i] != c && s[i] != '\n' {
				if s[i] == '\\' && i+1 < len(s) && s[i+1] == 'z' {
					i += 2
					for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
						i++
					}
					continue
				}
				if s[i] == '\\' {
					if i+1 < len(s) && isDigit(s[i+1]) {
						j := i + 1
						n := 0
						for j < len(s) && j < i+4 && isDigit(s[j]) {
							n = n*10 + int(s[j]-'0')
							j++
						}
						h.byte(byte(n))
						i = j
						continue
					}
					t, n := escape(s, i)
					h.lit(t)
					i = n
					continue
				}
				h.byte(s[i])
				i++
			}
			l.emitLit(String, &h, l.pos)
			l.pos = min(i+1, len(s))
		case isIdentStart(c):
			end := identEnd(s, l.pos)
			l.emit(Name, s[l.pos:end], l.pos)
			l.pos = end
		case isDigit(c):
			end := numberEnd(s, l.pos)
			l.emit(Number, s[l.pos:end], l.pos)
			l.pos = end
		case c == ';':
			l.emit(Newline, "", l.pos)
			l.pos++
		default:
			l.op()
		}
	}
}

// longBracket reads a Lua long bracket [==[ … ]==] starting at i.
func longBracket(s string, i int) (body string, end int, ok bool) {
	if i >= len(s) || s[i] != '[' {
		return "", 0, false
	}
	j := i + 1
	for j < len(s) && s[j] == '=' {
		j++
	}
	if j >= len(s) || s[j] != '[' {
		return "", 0, false
	}
	closeTok := "]" + strings.Repeat("=", j-i-1) + "]"
	k := strings.Index(s[j+1:], closeTok)
	if k < 0 {
		return s[j+1:], len(s), true
	}
	return s[j+1 : j+1+k], j + 1 + k + len(closeTok), true
}

// lexR tokenizes R: # comments, '…' / "…" with escapes, raw strings
// r"(…)" R"[…]" r"{…}" with dashes, `backtick names`, %op% operators,
// <- <<- -> |> assignments and pipes.
func lexR(l *lexer) {
	s := l.src
	depth := 0
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		switch {
		case c == '\n':
			if n := len(l.toks); depth == 0 && n > 0 && l.toks[n-1].Kind != Newline && !contOp(l.toks[n-1]) {
				l.emit(Newline, "", l.pos)
			}
			l.newline()
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			l.space = true
		case c == '#':
			for l.pos < len(s) && s[l.pos] != '\n' {
				l.pos++
			}
		case (c == 'r' || c == 'R') && l.pos+1 < len(s) && (s[l.pos+1] == '"' || s[l.pos+1] == '\'') && (l.pos == 0 || !isIdentByte(s[l.pos-1])):
			q := s[l.pos+1]
			j := l.pos + 2
			dashes := 0
			for j < len(s) && s[j] == '-' {
				dashes++
				j++
			}
			if j >= len(s) || strings.IndexByte("([{", s[j]) < 0 {
				l.emit(Name, "r", l.pos)
				l.pos++
				continue
			}
			closeTok := string(closer(s[j])) + strings.Repeat("-", dashes) + string(q)
			k := strings.Index(s[j+1:], closeTok)
			body := s[j+1:]
			end := len(s)
			if k >= 0 {
				body = s[j+1 : j+1+k]
				end = j + 1 + k + len(closeTok)
			}
			l.emit(String, body, l.pos)
			l.line += strings.Count(body, "\n")
			l.pos = end
		case c == '\'' || c == '"':
			l.cString(c)
		case c == '`':
			body, end := delimited(s, l.pos)
			l.emit(Name, body, l.pos)
			l.pos = end
		case c == '%':
			k := strings.IndexByte(s[l.pos+1:], '%')
			if k >= 0 && !strings.Contains(s[l.pos+1:l.pos+1+k], "\n") {
				l.emit(Op, s[l.pos:l.pos+k+2], l.pos)
				l.pos += k + 2
				continue
			}
			l.op()
		case isIdentStart(c) || c == '.' && l.pos+1 < len(s) && isIdentStart(s[l.pos+1]):
			end := l.pos
			for end < len(s) && (isIdentByte(s[end]) || s[end] == '.') {
				end++
			}
			l.emit(Name, s[l.pos:end], l.pos)
			l.pos = end
		case isDigit(c):
			end := numberEnd(s, l.pos)
			l.emit(Number, s[l.pos:end], l.pos)
			l.pos = end
		case c == ';':
			l.emit(Newline, "", l.pos)
			l.pos++
		default:
			switch c {
			case '(', '[', '{':
				if c != '{' {
					depth++
				}
			case ')', ']':
				if depth > 0 {
					depth--
				}
			}
			l.op()
		}
	}
}

// cString lexes a '…' or "…" literal with C escapes (no interpolation).
func (l *lexer) cString(q byte) {
	s := l.src
	var h holes
	i := l.pos + 1
	for i < len(s) && s[i] != q {
		if s[i] == '\\' {
			t, n := escape(s, i)
			h.lit(t)
			i = n
			continue
		}
		h.byte(s[i])
		i++
	}
	l.line += strings.Count(s[l.pos:min(i, len(s))], "\n")
	l.emitLit(String, &h, l.pos)
	l.pos = min(i+1, len(s))
}

// lexJulia tokenizes Julia: # comments and nested #= =# blocks, "…" and
// """…""" with $name / $(expr) holes, prefixed strings (raw"…", r"…" are
// literal), `…` and ```…``` command literals (Command tokens: values that
// run only when handed to run/read/success/pipeline), 'c' characters.
func lexJulia(l *lexer) {
	s := l.src
	depth := 0
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		switch {
		case c == '\n':
			if n := len(l.toks); depth == 0 && n > 0 && l.toks[n-1].Kind != Newline && !contOp(l.toks[n-1]) {
				l.emit(Newline, "", l.pos)
			}
			l.newline()
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			l.space = true
		case c == '#' && strings.HasPrefix(s[l.pos:], "#="):
			d := 0
			i := l.pos
			for i < len(s) {
				if strings.HasPrefix(s[i:], "#=") {
					d++
					i += 2
					continue
				}
				if strings.HasPrefix(s[i:], "=#") {
					d--
					i += 2
					if d == 0 {
						break
					}
					continue
				}
				i++
			}
			l.line += strings.Count(s[l.pos:i], "\n")
			l.pos = i
		case c == '#':
			for l.pos < len(s) && s[l.pos] != '\n' {
				l.pos++
			}
		case c == '"' || c == '`':
			l.juliaString(c, true)
		case c == '\'' && !valueEnd(l.lastSig(), nil):
			i := l.pos + 1
			if i < len(s) && s[i] == '\\' {
				i++
			}
			for i < len(s) && s[i] != '\'' && s[i] != '\n' {
				i++
			}
			l.emit(String, s[l.pos+1:min(i, len(s))], l.pos)
			l.pos = min(i+1, len(s))
		case isIdentStart(c):
			end := identEnd(s, l.pos)
			for end < len(s) && s[end] == '!' {
				end++ // rm! style names
			}
			if end < len(s) && (s[end] == '"' || s[end] == '`') {
				// a string macro: raw"…", r"…", b"…" – literal text
				l.pos = end
				l.juliaString(s[end], false)
				continue
			}
			l.emit(Name, s[l.pos:end], l.pos)
			l.pos = end
		case isDigit(c):
			end := numberEnd(s, l.pos)
			l.emit(Number, s[l.pos:end], l.pos)
			l.pos = end
		case c == ';':
			l.emit(Newline, "", l.pos)
			l.pos++
		default:
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
			l.op()
		}
	}
}

// juliaString lexes "…", """…""", `…` or ```…``` at l.pos; interp makes
// $ holes.
func (l *lexer) juliaString(q byte, interp bool) {
	s := l.src
	start := l.pos
	triple := strings.HasPrefix(s[l.pos:], strings.Repeat(string(q), 3))
	i := l.pos + 1
	if triple {
		i = l.pos + 3
	}
	var h holes
	for i < len(s) {
		c := s[i]
		if c == q && (!triple || strings.HasPrefix(s[i:], strings.Repeat(string(q), 3))) {
			if triple {
				i += 3
			} else {
				i++
			}
			break
		}
		if c == '\\' && interp {
			if q == '`' {
				// commands keep escapes for the word splitting
				h.byte(c)
				if i+1 < len(s) {
					h.byte(s[i+1])
				}
				i += 2
				continue
			}
			t, n := escape(s, i)
			h.lit(t)
			i = n
			continue
		}
		if c == '\\' && i+1 < len(s) && s[i+1] == q {
			h.byte(q)
			i += 2
			continue
		}
		if c == '$' && interp && i+1 < len(s) {
			if s[i+1] == '(' {
				_, e := delimited(s, i+1)
				h.hole(l.sub(s[i+2 : max(i+2, e-1)]))
				i = e
				continue
			}
			if isIdentStart(s[i+1]) {
				e := identEnd(s, i+1)
				h.hole(l.sub(s[i+1 : e]))
				i = e
				continue
			}
		}
		h.byte(c)
		i++
	}
	l.line += strings.Count(s[start:min(i, len(s))], "\n")
	k := String
	if q == '`' {
		k = Command
	}
	l.emitLit(k, &h, start)
	l.pos = min(i, len(s))
}

// lexAppleScript tokenizes AppleScript: -- and # comments, (* *) blocks,
// "…" with \" and \\ escapes, words, & concatenation, ¬ continuation.
func lexAppleScript(l *lexer) {
	s := l.src
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		switch {
		case c == '\n' || c == '\r':
			if n := len(l.toks); n > 0 && l.toks[n-1].Kind != Newline {
				l.emit(Newline, "", l.pos)
			}
			if c == '\r' {
				l.pos++
				continue
			}
			l.newline()
		case c == ' ' || c == '\t':
			l.pos++
			l.space = true
		case strings.HasPrefix(s[l.pos:], "¬"):
			l.pos += len("¬")
			for l.pos < len(s) && (s[l.pos] == ' ' || s[l.pos] == '\t' || s[l.pos] == '\r' || s[l.pos] == '\n') {
				l.pos++
			}
		case c == '-' && strings.HasPrefix(s[l.pos:], "--"), c == '#':
			for l.pos < len(s) && s[l.pos] != '\n' && s[l.pos] != '\r' {
				l.pos++
			}
		case c == '(' && strings.HasPrefix(s[l.pos:], "(*"):
			k := strings.Index(s[l.pos:], "*)")
			if k < 0 {
				return
			}
			l.line += strings.Count(s[l.pos:l.pos+k], "\n")
			l.pos += k + 2
		case c == '"':
			l.cString('"')
		case isIdentStart(c) && !strings.HasPrefix(s[l.pos:], "¬"):
			end := identEnd(s, l.pos)
			l.emit(Name, strings.ToLower(s[l.pos:end]), l.pos)
			l.pos = end
		case isDigit(c):
			end := numberEnd(s, l.pos)
			l.emit(Number, s[l.pos:end], l.pos)
			l.pos = end
		default:
			l.op()
		}
	}
}
