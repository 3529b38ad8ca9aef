package codelex

import "strings"

// pythonGrammar is Python 3: # comments, newlines ending logical lines
// outside brackets (Indent carries the block structure), a backslash
// joining lines, ";" outside brackets; '…' and "…" and their triple-quoted
// forms (docstrings are ordinary String tokens: data unless passed to a
// call), with C escapes and \N{…}.
var pythonGrammar = grammar{
	special:      pythonSpecial,
	blanks:       " \t\r\f",
	lineJoin:     "\n\r",
	lineComments: []string{"#"},
	newlines:     nlStatement,
	brackets:     "([{",
	semicolon:    semiTopLevel,
	quotes:       map[byte]*quote{'\'': &pyQuotes[0], '"': &pyQuotes[0]},
}

// pyQuotes are Python's string literals by prefix: plain, raw (r: the
// backslash stays), formatted (f: replacement fields are holes, {{ and }}
// are braces), raw formatted. A single-quote literal ends, unterminated,
// at its line's end.
var pyQuotes = [4]quote{
	{kind: String, triple: true, oneLine: true, esc: escPython},
	{kind: String, triple: true, oneLine: true, esc: escRaw},
	{kind: String, triple: true, oneLine: true, esc: escPython, hole: pyField},
	{kind: String, triple: true, oneLine: true, esc: escRaw, hole: pyField},
}

// pythonSpecial lexes Python's own forms: string prefixes (r, b, u, f and
// their combinations, any case) and numbers starting with a dot.
func pythonSpecial(l *lexer, c byte) bool {
	s := l.src
	switch {
	case isIdentStart(c):
		end := identEnd(s, l.pos)
		word := s[l.pos:end]
		if end < len(s) && (s[end] == '\'' || s[end] == '"') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbuf") == "" {
			prefix := strings.ToLower(word)
			k := 0
			if strings.Contains(prefix, "r") {
				k |= 1
			}
			if strings.Contains(prefix, "f") {
				k |= 2
			}
			l.quoted(l.pos, end, &pyQuotes[k])
			return true
		}
		l.emit(Name, word, l.pos)
		l.pos = end
	case c == '.' && l.pos+1 < len(s) && isDigit(s[l.pos+1]):
		end := numberEnd(s, l.pos)
		l.emit(Number, s[l.pos:end], l.pos)
		l.pos = end
	default:
		return false
	}
	return true
}

// escPython decodes a Python escape: \N{name} (a named character, read
// as "?"), else C escapes.
func escPython(h *holes, s string, i int) int {
	if i+2 < len(s) && s[i+1] == 'N' && s[i+2] == '{' {
		if k := strings.IndexByte(s[i:], '}'); k > 0 {
			h.lit("?")
			return i + k + 1
		}
	}
	return escC(h, s, i)
}

// pyField cuts an f-string replacement field into a hole (its conversion
// !r and format spec :>10 dropped) and reads {{ and }} as braces.
func pyField(l *lexer, h *holes, s string, i int, closer string) (int, bool) {
	switch {
	case s[i] == '{' && i+1 < len(s) && s[i+1] == '{':
		h.byte('{')
		return i + 2, true
	case s[i] == '{':
		end := fieldEnd(s, i+1, closer[0], len(closer) == 3)
		expr := strings.TrimSuffix(fieldExpr(s[i+1:end]), "=")
		h.hole(l.sub(expr))
		return min(end+1, len(s)), true
	case s[i] == '}' && i+1 < len(s) && s[i+1] == '}':
		h.byte('}')
		return i + 2, true
	}
	return i, false
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
