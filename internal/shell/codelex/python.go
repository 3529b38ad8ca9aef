package codelex

import "strings"

// lexPython tokenizes Python 3: comments, string literals with any prefix
// (r, b, u, f and combinations; raw strings keep backslashes), triple
// quotes (docstrings are ordinary String tokens: data unless passed to a
// call), f-string replacement fields as holes (`{{`/`}}` are braces), line
// joining inside brackets and after a backslash. Newline tokens end logical
// lines; Indent carries the block structure.
func lexPython(l *lexer) {
	depth := 0
	s := l.src
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		switch {
		case c == '\n':
			if depth == 0 {
				if t := l.lastSig(); len(l.toks) > 0 && l.toks[len(l.toks)-1].Kind != Newline && t != nil {
					l.emit(Newline, "", l.pos)
				}
			}
			l.newline()
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			l.pos++
			l.space = true
		case c == '\\' && l.pos+1 < len(s) && (s[l.pos+1] == '\n' || s[l.pos+1] == '\r'):
			l.pos += 2
			if l.pos < len(s) && s[l.pos-1] == '\r' && s[l.pos] == '\n' {
				l.pos++
			}
			l.line++
		case c == '#':
			for l.pos < len(s) && s[l.pos] != '\n' {
				l.pos++
			}
			l.space = true
		case c == '\'' || c == '"':
			l.pyString(l.pos, l.pos, "")
		case isIdentStart(c):
			end := identEnd(s, l.pos)
			word := s[l.pos:end]
			if end < len(s) && (s[end] == '\'' || s[end] == '"') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbuf") == "" {
				l.pyString(l.pos, end, strings.ToLower(word))
				continue
			}
			l.emit(Name, word, l.pos)
			l.pos = end
		case isDigit(c) || c == '.' && l.pos+1 < len(s) && isDigit(s[l.pos+1]):
			end := numberEnd(s, l.pos)
			l.emit(Number, s[l.pos:end], l.pos)
			l.pos = end
		default:
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
			if c == ';' && depth == 0 {
				l.emit(Newline, "", l.pos)
				l.pos++
				continue
			}
			l.op()
		}
	}
}

// pyString lexes the string literal whose quote is at q (the prefix starts
// at start).
func (l *lexer) pyString(start, q int, prefix string) {
	s := l.src
	quote := s[q]
	triple := q+2 < len(s) && s[q+1] == quote && s[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	raw := strings.Contains(prefix, "r")
	fmtStr := strings.Contains(prefix, "f")
	var h holes
	for i < len(s) {
		c := s[i]
		if c == quote && (!triple || i+2 < len(s) && s[i+1] == quote && s[i+2] == quote) {
			if triple {
				i += 3
			} else {
				i++
			}
			l.pos = i
			l.line += strings.Count(s[start:i], "\n")
			l.emitLit(String, &h, start)
			return
		}
		if c == '\n' && !triple {
			break // unterminated: the literal ends at the line
		}
		if c == '\\' {
			if raw {
				h.byte(c)
				if i+1 < len(s) {
					h.byte(s[i+1])
				}
				i += 2
				continue
			}
			if i+1 < len(s) && s[i+1] == 'N' && i+2 < len(s) && s[i+2] == '{' {
				if k := strings.IndexByte(s[i:], '}'); k > 0 {
					h.lit("?")
					i += k + 1
					continue
				}
			}
			t, n := escape(s, i)
			h.lit(t)
			i = n
			continue
		}
		if fmtStr && c == '{' {
			if i+1 < len(s) && s[i+1] == '{' {
				h.byte('{')
				i += 2
				continue
			}
			end := fieldEnd(s, i+1, quote, triple)
			expr := s[i+1 : end]
			// drop a conversion (!r) and a format spec (:>10) at top level
			expr = strings.TrimSuffix(fieldExpr(expr), "=")
			h.hole(l.sub(expr))
			i = min(end+1, len(s))
			continue
		}
		if fmtStr && c == '}' && i+1 < len(s) && s[i+1] == '}' {
			h.byte('}')
			i += 2
			continue
		}
		h.byte(c)
		i++
	}
	i = min(i, len(s))
	l.pos = i
	l.line += strings.Count(s[start:i], "\n")
	l.emitLit(String, &h, start)
}

// fieldEnd returns the index of the '}' closing an f-string replacement
// field that starts at i, skipping nested brackets and strings.
func fieldEnd(s string, i int, quote byte, triple bool) int {
	depth := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' && !triple:
			return i
		case c == quote && !triple:
			return i
		case c == '\'' || c == '"':
			for j := i + 1; j < len(s); j++ {
				if s[j] == c || s[j] == '\n' {
					i = j
					break
				}
			}
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return len(s)
}

// fieldExpr returns the expression of a replacement field without its
// conversion and format spec.
func fieldExpr(f string) string {
	depth := 0
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\'', '"':
			if k := strings.IndexByte(f[i+1:], f[i]); k >= 0 {
				i += k + 1
			}
		case '!':
			if depth == 0 && (i+1 >= len(f) || f[i+1] != '=') {
				return f[:i]
			}
		case ':':
			if depth == 0 {
				return f[:i]
			}
		}
	}
	return f
}
