package codelex

import (
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

// luaGrammar is Lua 5.1–5.4: -- comments, statements ended by ";" only.
var luaGrammar = grammar{
	special:      luaSpecial,
	blanks:       " \t\r",
	lineComments: []string{"--"},
	semicolon:    semiAlways,
}

// luaSpecial lexes Lua's own forms: --[==[ … ]==] long comments,
// [==[ … ]==] long strings (a first newline dropped), and '…' / "…" with
// escapes (\z skips blanks, \ddd is decimal). A quoted literal ends,
// unterminated, at its line's end, and that newline is part of it.
func luaSpecial(l *lexer, c byte) bool {
	s := l.src
	switch {
	case c == '-' && strings.HasPrefix(s[l.pos:], "--"):
		body, end, ok := longBracket(s, l.pos+2)
		if !ok {
			return false // a line comment
		}
		l.line += strings.Count(body, "\n")
		l.pos = end
		l.space = true
	case c == '[' && (l.pos+1 < len(s) && (s[l.pos+1] == '[' || s[l.pos+1] == '=')):
		body, end, ok := longBracket(s, l.pos)
		if !ok {
			return false // an operator
		}
		l.emit(String, strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n"), l.pos)
		l.line += strings.Count(body, "\n")
		l.pos = end
	case c == '\'' || c == '"':
		h := l.literal()
		i, _ := l.decode(h, s, l.pos+1, s[l.pos:l.pos+1], true, escLua, nil)
		l.emitLit(String, h, l.pos)
		end := min(i+1, len(s))
		l.line += strings.Count(s[l.pos:end], "\n")
		l.pos = end
	default:
		return false
	}
	return true
}

// escLua decodes a Lua escape: \z skips the blanks after it, \ddd is a
// decimal byte, else C escapes.
func escLua(h *holes, s string, i int) int {
	if i+1 < len(s) && s[i+1] == 'z' {
		i += 2
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
		return i
	}
	if i+1 < len(s) && isDigit(s[i+1]) {
		j := i + 1
		n := 0
		for j < len(s) && j < i+4 && isDigit(s[j]) {
			n = n*10 + int(s[j]-'0')
			j++
		}
		h.byte(byte(n))
		return j
	}
	return escC(h, s, i)
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

// rGrammar is R: # comments, newlines ending statements outside ( and [
// unless an operator continues the line, ";", '…' / "…" with C escapes.
var rGrammar = grammar{
	special:      rSpecial,
	blanks:       " \t\r",
	lineComments: []string{"#"},
	newlines:     nlUnlessContinued,
	brackets:     "([",
	semicolon:    semiAlways,
	quotes:       map[byte]*quote{'\'': cQuoted, '"': cQuoted},
}

// rSpecial lexes R's own forms: raw strings r"(…)" R"[…]" r"{…}" with
// dashes, `backtick names`, %op% operators, names with dots (.x, a.b).
func rSpecial(l *lexer, c byte) bool {
	s := l.src
	switch {
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
			return true
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
	case c == '`':
		body, end := delimited(s, l.pos)
		l.emit(Name, body, l.pos)
		l.pos = end
	case c == '%':
		k := strings.IndexByte(s[l.pos+1:], '%')
		if k < 0 || strings.Contains(s[l.pos+1:l.pos+1+k], "\n") {
			return false // an operator
		}
		l.emit(Op, s[l.pos:l.pos+k+2], l.pos)
		l.pos += k + 2
	case isIdentStart(c) || c == '.' && l.pos+1 < len(s) && isIdentStart(s[l.pos+1]):
		end := l.pos
		for end < len(s) && (isIdentByte(s[end]) || s[end] == '.') {
			end++
		}
		l.emit(Name, s[l.pos:end], l.pos)
		l.pos = end
	default:
		return false
	}
	return true
}

// juliaGrammar is Julia: # comments and nested #= =# blocks, newlines
// ending statements outside brackets unless an operator continues the
// line, ";", "…" and """…""" with C escapes and $name / $(expr) holes,
// `…` and ```…``` command literals (Command tokens: values that run only
// when handed to run/read/success/pipeline; their escapes stay for the
// word splitting).
var juliaGrammar = grammar{
	special:       juliaSpecial,
	blanks:        " \t\r",
	blockComments: []blockComment{{open: "#=", close: "=#", nested: true}},
	lineComments:  []string{"#"},
	newlines:      nlUnlessContinued,
	brackets:      "([{",
	semicolon:     semiAlways,
	quotes: map[byte]*quote{
		'"': {kind: String, triple: true, esc: escC, hole: juliaHole},
		'`': {kind: Command, triple: true, esc: escRaw, hole: juliaHole},
	},
}

// juliaMacroQuotes are the literals of string macros (raw"…", r"…",
// b"…"; also on commands): literal text where only \" (\`) escapes.
var juliaMacroQuotes = lazy.Value[map[byte]*quote]{New: func() map[byte]*quote {
	return map[byte]*quote{
		'"': {kind: String, triple: true, esc: escQuoteOnly('"')},
		'`': {kind: Command, triple: true, esc: escQuoteOnly('`')},
	}
}}

// juliaSpecial lexes Julia's own forms: 'c' characters (where a value
// cannot end before them: x' is an adjoint), names ending in ! (rm!),
// and string macros.
func juliaSpecial(l *lexer, c byte) bool {
	s := l.src
	switch {
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
			// a string macro: literal text, its token where the quote is
			l.quoted(end, end, juliaMacroQuotes.Get()[s[end]])
			return true
		}
		l.emit(Name, s[l.pos:end], l.pos)
		l.pos = end
	default:
		return false
	}
	return true
}

// juliaHole cuts a $name or $(expr) hole.
func juliaHole(l *lexer, h *holes, s string, i int, _ string) (int, bool) {
	if s[i] != '$' || i+1 >= len(s) {
		return i, false
	}
	if s[i+1] == '(' {
		_, e := delimited(s, i+1)
		h.hole(l.sub(s[i+2 : max(i+2, e-1)]))
		return e, true
	}
	if isIdentStart(s[i+1]) {
		e := identEnd(s, i+1)
		h.hole(l.sub(s[i+1 : e]))
		return e, true
	}
	return i, false
}

// appleScriptGrammar is AppleScript: -- and # comments, newlines (and a
// lone carriage return) ending statements, "…" with C escapes.
var appleScriptGrammar = grammar{
	special:      appleScriptSpecial,
	blanks:       " \t",
	lineComments: []string{"--", "#"},
	commentStops: []string{"\r"},
	newlines:     nlStatement,
	quotes:       map[byte]*quote{'"': cQuoted},
}

// appleScriptSpecial lexes AppleScript's own forms: a carriage return ends
// a statement like a newline (not counted as a line), ¬ continues the
// line (the blanks and newlines after it are skipped), (* *) comments,
// names case-insensitive (lowercased). The first "*)" closes a comment,
// even the one in "(*)", and comments do not nest: the reading that
// leaves the most code to judge.
func appleScriptSpecial(l *lexer, c byte) bool {
	s := l.src
	switch {
	case c == '\r':
		if n := len(l.toks); n > 0 && l.toks[n-1].Kind != Newline {
			l.emit(Newline, "", l.pos)
		}
		l.pos++
	case strings.HasPrefix(s[l.pos:], "¬"):
		l.pos += len("¬")
		for l.pos < len(s) && (s[l.pos] == ' ' || s[l.pos] == '\t' || s[l.pos] == '\r' || s[l.pos] == '\n') {
			if s[l.pos] == '\n' {
				l.line++
			}
			l.pos++
		}
	case c == '(' && strings.HasPrefix(s[l.pos:], "(*"):
		end := len(s)
		if k := strings.Index(s[l.pos:], "*)"); k >= 0 {
			end = l.pos + k + 2
		}
		l.line += strings.Count(s[l.pos:end], "\n")
		l.pos = end
		l.space = true
	case isIdentStart(c):
		end := identEnd(s, l.pos)
		l.emit(Name, strings.ToLower(s[l.pos:end]), l.pos)
		l.pos = end
	default:
		return false
	}
	return true
}
