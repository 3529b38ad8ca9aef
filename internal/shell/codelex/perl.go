package codelex

import "strings"

var perlKeywords = map[string]bool{"if": true, "unless": true, "while": true, "until": true, "and": true, "or": true,
	"not": true, "return": true, "print": true, "say": true, "split": true, "grep": true, "map": true, "join": true,
	"push": true, "unshift": true, "x": true, "lt": true, "gt": true, "le": true, "ge": true, "eq": true, "ne": true, "cmp": true}

// lexPerl tokenizes Perl 5: # comments, POD blocks, __END__/__DATA__,
// '…' and "…" (with $var, @var, ${…} holes), q qq qw qx with any
// delimiter, backticks, heredocs (<<"ID", <<'ID', <<ID, <<~ID, <<`ID`),
// m// s/// tr/// y/// qr// and bare /…/ patterns skipped, $var @var %var
// &sub and Pkg::name as Name tokens, `=>` quoting the bareword before it.
func lexPerl(l *lexer) {
	s := l.src
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		atLineStart := l.pos == 0 || s[l.pos-1] == '\n'
		switch {
		case atLineStart && c == '=' && l.pos+1 < len(s) && isIdentStart(s[l.pos+1]):
			// POD: up to a line starting with =cut
			k := strings.Index(s[l.pos:], "\n=cut")
			if k < 0 {
				return
			}
			l.line += strings.Count(s[l.pos:l.pos+k+1], "\n")
			l.pos += k + 1
			for l.pos < len(s) && s[l.pos] != '\n' {
				l.pos++
			}
		case atLineStart && (strings.HasPrefix(s[l.pos:], "__END__") || strings.HasPrefix(s[l.pos:], "__DATA__")):
			return
		case c == '\n':
			l.newline()
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			l.space = true
		case c == '#':
			for l.pos < len(s) && s[l.pos] != '\n' {
				l.pos++
			}
			l.space = true
		case c == ';':
			l.emit(Newline, "", l.pos)
			l.pos++
		case c == '\'':
			body, end := delimited(s, l.pos)
			l.emit(String, unescapeDelims(body, '\''), l.pos)
			l.line += strings.Count(body, "\n")
			l.pos = end
		case c == '"' || c == '`':
			body, end := delimited(s, l.pos)
			k := String
			if c == '`' {
				k = Command
			}
			l.perlInterp(k, body, l.pos, lexPerl)
			l.line += strings.Count(body, "\n")
			l.pos = end
		case c == '<' && strings.HasPrefix(s[l.pos:], "<<") && l.perlHeredoc():
		case c == '/' && !valueEnd(l.lastSig(), perlKeywords):
			l.skipPattern(l.pos, 1)
		case c == '$' || c == '@' || c == '&' && !valueEnd(l.lastSig(), perlKeywords) || c == '%' && !valueEnd(l.lastSig(), perlKeywords) && l.pos+1 < len(s) && (isIdentStart(s[l.pos+1]) || s[l.pos+1] == '{' || s[l.pos+1] == '$'):
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
				continue
			}
			l.emit(Name, word, l.pos)
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
		return true
	case "s", "tr", "y":
		l.skipPattern(k, 2)
		return true
	}
	body, e := delimited(s, k)
	l.line += strings.Count(body, "\n")
	l.pos = e
	switch word {
	case "q":
		l.emit(String, unescapeDelims(body, d), off)
	case "qq":
		l.perlInterp(String, body, off, lexPerl)
	case "qx":
		if d == '\'' {
			l.emit(Command, body, off)
		} else {
			l.perlInterp(Command, body, off, lexPerl)
		}
	case "qw":
		words := strings.Fields(body)
		if t := l.emit(Words, strings.Join(words, " "), off); t != nil {
			t.List = words
		}
	}
	return true
}

// skipPattern skips a pattern literal with n delimited parts starting at
// the delimiter at i (s{a}{b} has two bracketed parts), and its flags.
func (l *lexer) skipPattern(i, n int) {
	s := l.src
	open := s[i]
	body, end := delimited(s, i)
	l.line += strings.Count(body, "\n")
	if n == 2 {
		if closer(open) != open {
			for end < len(s) && (s[end] == ' ' || s[end] == '\t' || s[end] == '\n') {
				end++
			}
			if end < len(s) {
				b2, e2 := delimited(s, end)
				l.line += strings.Count(b2, "\n")
				end = e2
			}
		} else {
			b2, e2 := delimited(s, end-1)
			l.line += strings.Count(b2, "\n")
			end = e2
		}
	}
	for end < len(s) && isIdentByte(s[end]) {
		end++
	}
	l.pos = end
}

// perlInterp emits an interpolating literal: $name, ${name}, $name[…] /
// $name{…} subscripts, @name, @{[ … ]} become holes; escapes are decoded.
// PHP uses it too ({$x}, $x->y).
func (l *lexer) perlInterp(k Kind, body string, off int, lex func(*lexer)) {
	var h holes
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			t, n := escape(body, i)
			h.lit(t)
			i = n
		case (c == '$' || c == '@') && i+1 < len(body) && (isIdentStart(body[i+1]) || body[i+1] == '{'):
			j := i + 1
			if body[j] == '{' {
				_, e := delimited(body, j)
				inner := body[j+1 : max(j+1, e-1)]
				if strings.HasPrefix(inner, "[") {
					h.hole(l.sub(inner, lex)) // @{[ expr ]}
				} else {
					h.hole(l.sub(string(c)+inner, lex))
				}
				i = e
				continue
			}
			e := perlNameEnd(body, j)
			for e < len(body) && (body[e] == '[' || body[e] == '{') {
				_, e2 := delimited(body, e)
				e = e2
			}
			if e+1 < len(body) && body[e] == '-' && body[e+1] == '>' && e+2 < len(body) && isIdentStart(body[e+2]) {
				e = identEnd(body, e+2) // PHP "$o->name"
			}
			h.hole(l.sub(body[i:e], lex))
			i = e
		case c == '{' && i+1 < len(body) && body[i+1] == '$':
			_, e := delimited(body, i)
			h.hole(l.sub(body[i+1:max(i+1, e-1)], lex)) // PHP "{$x}"
			i = e
		default:
			h.byte(c)
			i++
		}
	}
	l.emitLit(k, &h, off)
}

// perlHeredoc lexes a heredoc operator at l.pos.
func (l *lexer) perlHeredoc() bool {
	s := l.src
	i := l.pos + 2
	indented := false
	if i < len(s) && s[i] == '~' {
		indented = true
		i++
	}
	if i >= len(s) {
		return false
	}
	quote := byte(0)
	if s[i] == '\'' || s[i] == '"' || s[i] == '`' {
		quote = s[i]
		i++
	}
	end := identEnd(s, i)
	if end == i || quote == 0 && valueEnd(l.lastSig(), perlKeywords) {
		return false
	}
	return l.heredoc(i, quote, indented, indented, func(k Kind, body string, off int) { l.perlInterp(k, body, off, lexPerl) })
}
