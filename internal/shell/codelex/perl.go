package codelex

import (
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

var perlKeywords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"if": true, "unless": true, "while": true, "until": true, "and": true, "or": true,
		"not": true, "return": true, "print": true, "say": true, "split": true, "grep": true, "map": true, "join": true,
		"push": true, "unshift": true, "x": true, "lt": true, "gt": true, "le": true, "ge": true, "eq": true, "ne": true, "cmp": true}
}}

// perlGrammar is Perl 5: # comments, POD blocks (a line starting "=name"
// up to the line starting "=cut"), __END__/__DATA__, statements ended by
// ";" only, '…' (only \\ and \' escape) and "…" / `…` (C escapes,
// $var, @var, ${…}, @{[ … ]} holes) as delimited bodies.
var perlGrammar = grammar{
	special:       perlSpecial,
	blanks:        " \t\r",
	endMarkers:    []endMarker{{text: "__END__"}, {text: "__DATA__"}},
	blockComments: []blockComment{{open: "=", close: "\n=cut", lineStart: true, openName: true, toLineEnd: true}},
	lineComments:  []string{"#"},
	semicolon:     semiAlways,
	quotes:        shellQuotes(perlHole),
}

// perlSpecial lexes Perl's own forms: heredocs (<<"ID", <<'ID', <<ID,
// <<~ID, <<`ID`), q qq qw qx with any delimiter, m// s/// tr/// y///
// qr// and bare /…/ patterns skipped (where a value cannot end before
// them), $var @var %var &sub (and $$ref, $#array, punctuation variables)
// and Pkg::name as Name tokens.
func perlSpecial(l *lexer, c byte) bool {
	s := l.src
	switch {
	case c == '<' && strings.HasPrefix(s[l.pos:], "<<") && l.perlHeredoc():
	case c == '/' && !valueEnd(l.lastSig(), perlKeywords.Get()):
		l.skipPattern(l.pos, 1)
	case c == '$' || c == '@' || c == '&' && !valueEnd(l.lastSig(), perlKeywords.Get()) || c == '%' && !valueEnd(l.lastSig(), perlKeywords.Get()) && l.pos+1 < len(s) && (isIdentStart(s[l.pos+1]) || s[l.pos+1] == '{' || s[l.pos+1] == '$'):
		start := l.pos
		i := l.pos + 1
		for i < len(s) && (s[i] == '$' || s[i] == '#') && i-start < 3 {
			i++ // $$ref, $#array
		}
		end := perlNameEnd(s, i)
		if end == i && end < len(s) && strings.IndexByte("_0123456789!@/\\,;.&`'+^", s[end]) >= 0 {
			end++ // punctuation variables: $_, $0, $!, $@
		}
		l.emit(Name, s[start:end], start)
		l.pos = end
	case isIdentStart(c):
		end := perlNameEnd(s, l.pos)
		word := s[l.pos:end]
		if l.perlQuoteOp(word, end) {
			return true
		}
		l.emit(Name, word, l.pos)
		l.pos = end
	default:
		return false
	}
	return true
}

// perlNameEnd returns the end of a (package-qualified) name at i.
func perlNameEnd(s string, i int) int {
	for {
		i = identEnd(s, i)
		if i+2 < len(s) && s[i] == ':' && s[i+1] == ':' && isIdentStart(s[i+2]) {
			i += 2
			continue
		}
		return i
	}
}

// perlQuoteOp lexes q qq qw qx m s tr y qr when word is one of them and a
// delimiter follows; end is the index after the word.
func (l *lexer) perlQuoteOp(word string, end int) bool {
	switch word {
	case "q", "qq", "qw", "qx", "m", "s", "tr", "y", "qr":
	default:
		return false
	}
	s := l.src
	k := end
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k >= len(s) {
		return false
	}
	d := s[k]
	if k > end && strings.IndexByte("({[<", d) < 0 && d != '/' && d != '|' && d != '!' {
		return false // `q => 1`, `s = …`
	}
	if d <= ' ' || d >= 0x7f || isIdentByte(d) || strings.IndexByte("=,;)]}", d) >= 0 {
		return false
	}
	if k+1 < len(s) && s[k] == '=' && s[k+1] == '>' {
		return false
	}
	if p := l.lastSig(); p != nil && p.Kind == Op && (p.Text == "->" || p.Text == "{" && k < len(s) && s[k] == '}') {
		return false // a method or hash key named q, s, …
	}
	off := l.pos
	switch word {
	case "m", "qr":
		l.skipPattern(k, 1)
	case "s", "tr", "y":
		l.skipPattern(k, 2)
	case "q":
		l.bracketed(off, k, String, escDelims(d), nil)
	case "qq":
		l.bracketed(off, k, String, escC, perlHole)
	case "qx":
		if d == '\'' {
			l.bracketed(off, k, Command, nil, nil) // qx'…' does not interpolate
		} else {
			l.bracketed(off, k, Command, escC, perlHole)
		}
	case "qw":
		body, e := delimited(s, k)
		l.words(body, off)
		l.line += strings.Count(body, "\n")
		l.pos = e
	}
	return true
}

// perlHole cuts a hole of a Perl (or PHP) interpolating body: $name,
// ${name}, $name[…] / $name{…} subscripts, @name, @{[ … ]}; PHP's {$x}
// and $x->name.
func perlHole(l *lexer, h *holes, body string, i int, _ string) (int, bool) {
	c := body[i]
	switch {
	case (c == '$' || c == '@') && i+1 < len(body) && (isIdentStart(body[i+1]) || body[i+1] == '{'):
		j := i + 1
		if body[j] == '{' {
			_, e := delimited(body, j)
			inner := body[j+1 : max(j+1, e-1)]
			if strings.HasPrefix(inner, "[") {
				h.hole(l.sub(inner)) // @{[ expr ]}
			} else {
				h.hole(l.sub(string(c) + inner))
			}
			return e, true
		}
		e := perlNameEnd(body, j)
		for e < len(body) && (body[e] == '[' || body[e] == '{') {
			_, e2 := delimited(body, e)
			e = e2
		}
		if e+1 < len(body) && body[e] == '-' && body[e+1] == '>' && e+2 < len(body) && isIdentStart(body[e+2]) {
			e = identEnd(body, e+2) // PHP "$o->name"
		}
		h.hole(l.sub(body[i:e]))
		return e, true
	case c == '{' && i+1 < len(body) && body[i+1] == '$':
		_, e := delimited(body, i)
		h.hole(l.sub(body[i+1 : max(i+1, e-1)])) // PHP "{$x}"
		return e, true
	}
	return i, false
}

// perlHeredoc lexes a heredoc operator at l.pos (<<~ removes the body's
// indentation); after a value, "<<" is a shift unless a quote follows.
func (l *lexer) perlHeredoc() bool {
	i, flag, quote, ok := l.heredocOpener("~")
	if !ok || quote == 0 && valueEnd(l.lastSig(), perlKeywords.Get()) {
		return false
	}
	return l.heredoc(i, quote, flag != 0, flag != 0, perlHole)
}
