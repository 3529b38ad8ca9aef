package codelex

import "strings"

// rubyKeywords are keywords after which a literal (regexp, %-literal) may
// start.
var rubyKeywords = map[string]bool{"if": true, "unless": true, "while": true, "until": true, "and": true, "or": true,
	"not": true, "return": true, "when": true, "then": true, "do": true, "else": true, "elsif": true, "puts": true,
	"print": true, "p": true, "system": true, "exec": true, "spawn": true, "in": true, "case": true, "yield": true}

// lexRuby tokenizes Ruby: # comments and =begin/=end blocks, '…' and "…"
// (with #{} holes), %q %Q %() %w %W %i %I literals, %x() and backticks as
// Command tokens, heredocs (<<ID, <<-ID, <<~ID, quoted, and <<`ID` as a
// command), :symbols as strings, regexp literals skipped, __END__.
func lexRuby(l *lexer) {
	s := l.src
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		atLineStart := l.pos == 0 || s[l.pos-1] == '\n'
		switch {
		case atLineStart && strings.HasPrefix(s[l.pos:], "=begin"):
			k := strings.Index(s[l.pos:], "\n=end")
			if k < 0 {
				return
			}
			l.line += strings.Count(s[l.pos:l.pos+k+1], "\n")
			l.pos += k + 1
			for l.pos < len(s) && s[l.pos] != '\n' {
				l.pos++
			}
		case atLineStart && (strings.HasPrefix(s[l.pos:], "__END__\n") || s[l.pos:] == "__END__"):
			return
		case c == '\n':
			if n := len(l.toks); n > 0 && l.toks[n-1].Kind != Newline && !contOp(l.toks[n-1]) {
				l.emit(Newline, "", l.pos)
			}
			l.newline()
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			l.space = true
		case c == '\\' && l.pos+1 < len(s) && s[l.pos+1] == '\n':
			l.pos += 2
			l.line++
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
			l.rubyInterp(k, body, l.pos)
			l.line += strings.Count(body, "\n")
			l.pos = end
		case c == '%' && l.rubyPercentLiteral():
		case c == '<' && strings.HasPrefix(s[l.pos:], "<<") && l.rubyHeredoc():
		case c == '/' && !valueEnd(l.lastSig(), rubyKeywords) || c == '/' && l.space && l.pos+1 < len(s) && s[l.pos+1] != ' ' && l.lastSig() != nil && l.lastSig().Kind == Name:
			_, end := delimited(s, l.pos)
			for end < len(s) && isIdentByte(s[end]) {
				end++ // flags
			}
			l.pos = end
		case c == ':' && l.pos+1 < len(s) && (isIdentStart(s[l.pos+1]) || s[l.pos+1] == '"') && !(l.pos > 0 && s[l.pos-1] == ':') && !valueEnd(l.lastSig(), rubyKeywords) || c == ':' && l.space && l.pos+1 < len(s) && isIdentStart(s[l.pos+1]):
			// a symbol: its name is its value
			if s[l.pos+1] == '"' {
				body, end := delimited(s, l.pos+1)
				l.emit(String, body, l.pos)
				l.pos = end
				continue
			}
			end := identEnd(s, l.pos+1)
			if end < len(s) && (s[end] == '?' || s[end] == '!' || s[end] == '=') {
				end++
			}
			l.emit(String, s[l.pos+1:end], l.pos)
			l.pos = end
		case c == '?' && l.pos+2 <= len(s) && l.pos+1 < len(s) && isIdentByte(s[l.pos+1]) && (l.pos+2 == len(s) || !isIdentByte(s[l.pos+2])) && !valueEnd(l.lastSig(), rubyKeywords):
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
			// a keyword argument or hash key `name: value` is a symbol key
			l.emit(Name, s[start:end], start)
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

// contOp reports an operator that continues the expression on the next line.
func contOp(t Token) bool {
	if t.Kind != Op {
		return false
	}
	switch t.Text {
	case ",", "(", "[", "{", "+", "-", "*", "/", ".", "&&", "||", "=", "|", "\\", "=>", "?", ":", "&", "<<":
		return true
	}
	return false
}

// rubyInterp emits a double-quoted or backtick literal body with #{} holes
// and escapes.
func (l *lexer) rubyInterp(k Kind, body string, off int) {
	var h holes
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			t, n := escape(body, i)
			h.lit(t)
			i = n
		case c == '#' && i+1 < len(body) && body[i+1] == '{':
			_, end := delimited(body, i+1)
			inner := body[i+2 : max(i+2, end-1)]
			h.hole(l.sub(inner, lexRuby))
			i = end
		default:
			h.byte(c)
			i++
		}
	}
	l.emitLit(k, &h, off)
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
	if valueEnd(prev, rubyKeywords) {
		// `x % (3)` is modulo; `puts %(x)` (a name, blank before, none
		// after) is a literal
		if !(prev.Kind == Name && l.space && s[l.pos+1] != ' ' && s[l.pos+1] != '=') {
			return false
		}
	}
	if i >= len(s) {
		return false
	}
	open := s[i]
	body, end := delimited(s, i)
	off := l.pos
	l.line += strings.Count(body, "\n")
	l.pos = end
	switch typ {
	case 'q', 's':
		l.emit(String, unescapeDelims(body, open), off)
	case 'Q':
		l.rubyInterp(String, body, off)
	case 'w', 'W', 'i', 'I':
		words := strings.Fields(body)
		if t := l.emit(Words, strings.Join(words, " "), off); t != nil {
			t.List = words
		}
	case 'x':
		l.rubyInterp(Command, body, off)
	case 'r':
		for l.pos < len(s) && isIdentByte(s[l.pos]) {
			l.pos++
		}
	}
	return true
}

// rubyHeredoc lexes <<ID, <<-ID, <<~ID, <<'ID', <<"ID", <<`ID` at l.pos.
func (l *lexer) rubyHeredoc() bool {
	s := l.src
	i := l.pos + 2
	squiggly, indented := false, false
	if i < len(s) && (s[i] == '~' || s[i] == '-') {
		squiggly = s[i] == '~'
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
	if end == i {
		return false
	}
	if !indented && quote == 0 && valueEnd(l.lastSig(), rubyKeywords) && !(l.space && l.lastSig().Kind == Name) {
		return false // x <<EOF with x a value: a shift
	}
	return l.heredoc(i, quote, indented, squiggly, l.rubyInterp)
}
