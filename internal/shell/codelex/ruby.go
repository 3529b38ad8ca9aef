package codelex

import (
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

// rubyKeywords are keywords after which a literal (regexp, %-literal) may
// start.
var rubyKeywords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"if": true, "unless": true, "while": true, "until": true, "and": true, "or": true,
		"not": true, "return": true, "when": true, "then": true, "do": true, "else": true, "elsif": true, "puts": true,
		"print": true, "p": true, "system": true, "exec": true, "spawn": true, "in": true, "case": true, "yield": true}
}}

// rubyGrammar is Ruby: # comments and =begin/=end blocks, __END__ on a
// line of its own, newlines ending statements unless an operator
// continues the line, a backslash joining lines, '…' (only \\ and \'
// escape) and "…" / `…` (C escapes, #{} holes) as delimited bodies.
var rubyGrammar = grammar{
	special:       rubySpecial,
	blanks:        " \t\r",
	lineJoin:      "\n",
	endMarkers:    []endMarker{{text: "__END__", wholeLine: true}},
	blockComments: []blockComment{{open: "=begin", close: "\n=end", lineStart: true, toLineEnd: true}},
	lineComments:  []string{"#"},
	newlines:      nlUnlessContinued,
	semicolon:     semiAlways,
	quotes:        shellQuotes(rubyHole),
}

// rubySpecial lexes Ruby's own forms: %q %Q %() %w %W %i %I %s literals,
// %x() as a Command, %r{} and /…/ regexps skipped, heredocs (<<ID,
// <<-ID, <<~ID, quoted, and <<`ID` as a command), :symbols and ?c
// characters as strings, $globals, @ivars and names ending in ? or !.
func rubySpecial(l *lexer, c byte) bool {
	s := l.src
	switch {
	case c == '%' && l.rubyPercentLiteral():
	case c == '<' && strings.HasPrefix(s[l.pos:], "<<") && l.rubyHeredoc():
	case c == '/' && !valueEnd(l.lastSig(), rubyKeywords.Get()) || c == '/' && l.space && l.pos+1 < len(s) && s[l.pos+1] != ' ' && l.lastSig() != nil && l.lastSig().Kind == Name:
		l.skipPattern(l.pos, 1)
	case c == ':' && l.pos+1 < len(s) && (isIdentStart(s[l.pos+1]) || s[l.pos+1] == '"') && !(l.pos > 0 && s[l.pos-1] == ':') && !valueEnd(l.lastSig(), rubyKeywords.Get()) || c == ':' && l.space && l.pos+1 < len(s) && isIdentStart(s[l.pos+1]):
		// a symbol: its name is its value
		if s[l.pos+1] == '"' {
			body, end := delimited(s, l.pos+1)
			l.emit(String, body, l.pos)
			l.pos = end
			return true
		}
		end := identEnd(s, l.pos+1)
		if end < len(s) && (s[end] == '?' || s[end] == '!' || s[end] == '=') {
			end++
		}
		l.emit(String, s[l.pos+1:end], l.pos)
		l.pos = end
	case c == '?' && l.pos+2 <= len(s) && l.pos+1 < len(s) && isIdentByte(s[l.pos+1]) && (l.pos+2 == len(s) || !isIdentByte(s[l.pos+2])) && !valueEnd(l.lastSig(), rubyKeywords.Get()):
		l.emit(String, s[l.pos+1:l.pos+2], l.pos) // ?c character literal
		l.pos += 2
	case c == '$' || c == '@' || isIdentStart(c):
		start := l.pos
		i := l.pos
		for i < len(s) && (s[i] == '$' || s[i] == '@') && i-start < 2 {
			i++
		}
		end := identEnd(s, i)
		if end == i && c == '$' && end < len(s) {
			end++ // $0, $!, $?
		}
		if end < len(s) && (s[end] == '?' || s[end] == '!') && !(end+1 < len(s) && s[end+1] == '=') {
			end++
		}
		if end == start {
			end = start + 1
		}
		l.emit(Name, s[start:end], start)
		l.pos = end
	default:
		return false
	}
	return true
}

// rubyHole cuts a #{…} hole of an interpolating body.
func rubyHole(l *lexer, h *holes, body string, i int, _ string) (int, bool) {
	if body[i] != '#' || i+1 >= len(body) || body[i+1] != '{' {
		return i, false
	}
	_, end := delimited(body, i+1)
	h.hole(l.sub(body[i+2 : max(i+2, end-1)]))
	return end, true
}

// rubyPercentLiteral lexes %q(…) %Q(…) %(…) %w[…] %W %i %I %x(…) %r{…}
// %s() at l.pos; false when "%" is the modulo operator.
func (l *lexer) rubyPercentLiteral() bool {
	s := l.src
	i := l.pos + 1
	if i >= len(s) {
		return false
	}
	typ := byte('Q')
	if strings.IndexByte("qQwWiIxrs", s[i]) >= 0 && i+1 < len(s) && !isIdentByte(s[i+1]) && s[i+1] != ' ' {
		typ = s[i]
		i++
	} else if !strings.ContainsRune("({[<|!/^", rune(s[i])) {
		return false
	}
	prev := l.lastSig()
	if valueEnd(prev, rubyKeywords.Get()) {
		// `x % (3)` is modulo; `puts %(x)` (a name, blank before, none
		// after) is a literal
		if !(prev.Kind == Name && l.space && s[l.pos+1] != ' ' && s[l.pos+1] != '=') {
			return false
		}
	}
	if i >= len(s) {
		return false
	}
	off := l.pos
	switch typ {
	case 'q', 's':
		l.bracketed(off, i, String, escDelims(s[i]), nil)
	case 'Q':
		l.bracketed(off, i, String, escC, rubyHole)
	case 'x':
		l.bracketed(off, i, Command, escC, rubyHole)
	case 'w', 'W', 'i', 'I':
		body, end := delimited(s, i)
		l.words(body, off)
		l.line += strings.Count(body, "\n")
		l.pos = end
	case 'r':
		l.skipPattern(i, 1)
	}
	return true
}

// rubyHeredoc lexes <<ID, <<-ID (indented terminator), <<~ID (and the
// body's indentation removed), quoted, at l.pos; after a value, "<<ID" is
// a shift (x <<EOF) unless it follows a name and a blank (puts <<EOF).
func (l *lexer) rubyHeredoc() bool {
	i, flag, quote, ok := l.heredocOpener("~-")
	if !ok {
		return false
	}
	if flag == 0 && quote == 0 && valueEnd(l.lastSig(), rubyKeywords.Get()) && !(l.space && l.lastSig().Kind == Name) {
		return false
	}
	return l.heredoc(i, quote, flag != 0, flag == '~', rubyHole)
}
