package codelex

import "strings"

// grammar is the lexical grammar of one hand-lexed language as data: the
// forms the languages share (blanks, line and block comments, an end
// marker, statement-ending newlines and semicolons, bracket depth, quoted
// literals with their escape and interpolation rules). scan reads a
// language's code with it. What a language has beyond these forms is its
// special hook, documented with the language (perl.go, ruby.go, php.go,
// python.go, small.go).
//
// scan tries, at each position: the end markers and block comments, the
// special hook, a newline, blanks, a backslash line join, line comments,
// ";", the quote table, a name, a number, and else an operator.
type grammar struct {
	// source, when set, turns the code into the text scan reads (PHP:
	// the inline output around the tags blanked out).
	source func(string) string
	// special lexes a form of the language's own at l.pos (c is the byte
	// there) and reports whether it did. Nil when the language has none.
	special func(l *lexer, c byte) bool
	// blanks are the bytes skipped as white space; they set Token.Space.
	blanks string
	// lineJoin lists the bytes that, after a backslash, join two lines
	// ("\n": Ruby; "\n\r": Python, where "\\\r\n" joins too).
	lineJoin string
	// endMarkers end the code where they start a line (Perl __END__).
	endMarkers []endMarker
	// blockComments are tried before the line comments.
	blockComments []blockComment
	// lineComments start a comment that runs to the end of the line, or
	// to one of commentStops (PHP "?>", AppleScript "\r"). A comment is
	// blank space: it sets Token.Space.
	lineComments []string
	commentStops []string
	// newlines says where a newline ends a statement (a Newline token).
	newlines newlineRule
	// brackets are the openers inside which a newline does not end a
	// statement (Python "([{"; R "(["); "" when depth is not tracked.
	brackets string
	// semicolon says where ";" ends a statement.
	semicolon semicolonRule
	// quotes are the quoted literals by their opening byte.
	quotes map[byte]*quote
}

// newlineRule is how a newline ends a statement.
type newlineRule uint8

const (
	// nlNone: newlines emit nothing (Perl, PHP, Lua end statements at ";").
	nlNone newlineRule = iota
	// nlStatement: a newline outside brackets ends a statement.
	nlStatement
	// nlUnlessContinued: as nlStatement, but not after an operator that
	// continues the expression (contOp: Ruby, R, Julia).
	nlUnlessContinued
)

// semicolonRule is where ";" ends a statement.
type semicolonRule uint8

const (
	semiNone     semicolonRule = iota // ";" is an operator (AppleScript)
	semiAlways                        // a Newline token at any depth
	semiTopLevel                      // a Newline token outside brackets, else an operator (Python)
)

// endMarker ends the code when it starts a line.
type endMarker struct {
	text string
	// wholeLine: only when the line holds nothing else (Ruby __END__).
	wholeLine bool
}

// blockComment is a comment between open and close.
type blockComment struct {
	open, close string
	// lineStart: open counts only at the start of a line (POD, =begin).
	lineStart bool
	// openName: open must be followed by a name (POD "=head1").
	openName bool
	// toLineEnd: the rest of the closing line is comment too (=cut …).
	toLineEnd bool
	// nested: open inside the comment nests (Julia #= #= =# =#).
	nested bool
}

// quote is one quoted-literal form: it runs from its opening quote to the
// same quote (or three of them, when triple and opened by three),
// decoding escapes with esc (nil: kept as written) and cutting holes with
// hole (nil: none).
type quote struct {
	kind Kind
	// bracketed: the literal is a delimited body (Perl, Ruby, PHP: see
	// bracketed) rather than a scanned one.
	bracketed bool
	// triple: three quotes open a literal that ends at three quotes.
	triple bool
	// oneLine: a single-quote literal ends, unterminated, at a newline.
	oneLine bool
	esc     escapeFunc
	hole    holeFunc
}

// escapeFunc decodes the backslash at s[i] into h and returns the index
// after the escape.
type escapeFunc func(h *holes, s string, i int) int

// holeFunc cuts an interpolation hole at s[i] into h (lexing it with
// l.sub) and returns the index after it, or false when none starts there.
// closer is the literal's closing quote ("" for a bracketed body).
type holeFunc func(l *lexer, h *holes, s string, i int, closer string) (int, bool)

// run lexes l.src with its grammar l.g.
func (l *lexer) run() {
	if l.g.source != nil {
		l.src = l.g.source(l.src)
	}
	l.scan(l.g)
}

// scan lexes l.src with g.
func (l *lexer) scan(g *grammar) {
	s := l.src
	depth := 0
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		atLineStart := l.pos == 0 || s[l.pos-1] == '\n'
		if atLineStart && g.endsAt(s, l.pos) {
			return
		}
		if l.blockComment(g, atLineStart) {
			continue
		}
		if g.special != nil && g.special(l, c) {
			continue
		}
		switch {
		case c == '\n':
			if l.endsStatement(g, depth) {
				l.emit(Newline, "", l.pos)
			}
			l.newline()
		case strings.IndexByte(g.blanks, c) >= 0:
			l.pos++
			l.space = true
		case c == '\\' && l.pos+1 < len(s) && strings.IndexByte(g.lineJoin, s[l.pos+1]) >= 0:
			l.pos += 2
			if s[l.pos-1] == '\r' && l.pos < len(s) && s[l.pos] == '\n' {
				l.pos++
			}
			l.line++
		case hasAnyPrefix(s[l.pos:], g.lineComments):
			l.lineComment(g)
		case c == ';' && (g.semicolon == semiAlways || g.semicolon == semiTopLevel && depth == 0):
			l.emit(Newline, "", l.pos)
			l.pos++
		case g.quotes[c] != nil:
			if q := g.quotes[c]; q.bracketed {
				l.bracketed(l.pos, l.pos, q.kind, q.esc, q.hole)
			} else {
				l.quoted(l.pos, l.pos, q)
			}
		case isIdentStart(c):
			end := identEnd(s, l.pos)
			l.emit(Name, s[l.pos:end], l.pos)
			l.pos = end
		case isDigit(c):
			end := numberEnd(s, l.pos)
			l.emit(Number, s[l.pos:end], l.pos)
			l.pos = end
		default:
			if strings.IndexByte(g.brackets, c) >= 0 {
				depth++
			} else if depth > 0 && c != 0 && strings.IndexByte(g.brackets, opener(c)) >= 0 {
				depth--
			}
			l.op()
		}
	}
}

// endsAt reports an end marker at s[i:].
func (g *grammar) endsAt(s string, i int) bool {
	for _, m := range g.endMarkers {
		if strings.HasPrefix(s[i:], m.text) && (!m.wholeLine || i+len(m.text) == len(s) || s[i+len(m.text)] == '\n') {
			return true
		}
	}
	return false
}

// endsStatement reports whether a newline at l.pos ends a statement.
func (l *lexer) endsStatement(g *grammar, depth int) bool {
	n := len(l.toks)
	if g.newlines == nlNone || depth > 0 || n == 0 || l.toks[n-1].Kind == Newline {
		return false
	}
	return g.newlines != nlUnlessContinued || !contOp(l.toks[n-1])
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

// blockComment skips a block comment of g at l.pos; an unclosed one runs
// to the end of the code.
func (l *lexer) blockComment(g *grammar, atLineStart bool) bool {
	s := l.src
	for _, b := range g.blockComments {
		if b.lineStart && !atLineStart || !strings.HasPrefix(s[l.pos:], b.open) {
			continue
		}
		if b.openName && !(l.pos+len(b.open) < len(s) && isIdentStart(s[l.pos+len(b.open)])) {
			continue
		}
		end := len(s)
		if b.nested {
			end = nestedEnd(s, l.pos, b.open, b.close)
		} else if k := strings.Index(s[l.pos+len(b.open):], b.close); k >= 0 {
			end = l.pos + len(b.open) + k + len(b.close)
			if b.toLineEnd {
				end = lineEnd(s, end)
			}
		}
		l.line += strings.Count(s[l.pos:end], "\n")
		l.pos = end
		l.space = true
		return true
	}
	return false
}

// nestedEnd returns the index after the comment opened at i whose opens
// and closes nest.
func nestedEnd(s string, i int, open, close string) int {
	d := 0
	for i < len(s) {
		switch {
		case strings.HasPrefix(s[i:], open):
			d++
			i += len(open)
		case strings.HasPrefix(s[i:], close):
			d--
			i += len(close)
			if d == 0 {
				return i
			}
		default:
			i++
		}
	}
	return i
}

// lineEnd returns the index of the newline ending the line at i (len(s)
// on the last line).
func lineEnd(s string, i int) int {
	if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(s)
}

// lineComment skips a line comment at l.pos up to the newline or one of
// g.commentStops.
func (l *lexer) lineComment(g *grammar) {
	s := l.src
	for l.pos < len(s) && s[l.pos] != '\n' && !hasAnyPrefix(s[l.pos:], g.commentStops) {
		l.pos++
	}
	l.space = true
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// quoted lexes a literal of form q whose opening quote is at i (a prefix
// such as Python's f or Julia's raw starts at start): the token's value is
// the decoded text and its holes follow it.
func (l *lexer) quoted(start, i int, q *quote) {
	s := l.src
	closer := s[i : i+1]
	if q.triple && i+2 < len(s) && s[i+1] == s[i] && s[i+2] == s[i] {
		closer = s[i : i+3]
	}
	h := l.literal()
	end, closed := l.decode(h, s, i+len(closer), closer, q.oneLine && len(closer) == 1, q.esc, q.hole)
	if closed {
		end += len(closer)
	}
	l.emitLit(q.kind, h, start)
	l.pos = end
	l.line += strings.Count(s[start:end], "\n")
}

// decode reads literal text from s[i:] into h up to closer (not consumed;
// "" reads to the end of s), or up to a newline when oneLine; a backslash
// goes to esc (nil: kept), and hole cuts interpolation holes. It returns
// where it stopped (at most len(s)) and whether at closer.
func (l *lexer) decode(h *holes, s string, i int, closer string, oneLine bool, esc escapeFunc, hole holeFunc) (int, bool) {
	for i < len(s) {
		c := s[i]
		switch {
		case closer != "" && c == closer[0] && strings.HasPrefix(s[i:], closer):
			return i, true
		case c == '\n' && oneLine:
			return i, false
		case c == '\\' && esc != nil:
			i = esc(h, s, i)
			continue
		}
		if hole != nil {
			if n, ok := hole(l, h, s, i, closer); ok {
				i = n
				continue
			}
		}
		h.byte(c)
		i++
	}
	return min(i, len(s)), false
}

// bracketed lexes a quote-like literal whose delimiter is at i (Perl '…',
// "…", q{…}; Ruby %Q(…); PHP "…"): its body runs to the matching closer
// (brackets nest, a backslash skips the next byte) and is then decoded
// with esc and hole; off is where the literal's token starts.
func (l *lexer) bracketed(off, i int, k Kind, esc escapeFunc, hole holeFunc) {
	body, end := delimited(l.src, i)
	l.body(k, body, off, esc, hole)
	l.line += strings.Count(body, "\n")
	l.pos = end
}

// body emits a literal whose body is known (a bracketed or heredoc body),
// decoded with esc and hole.
func (l *lexer) body(k Kind, body string, off int, esc escapeFunc, hole holeFunc) {
	h := l.literal()
	l.decode(h, body, 0, "", false, esc, hole)
	l.emitLit(k, h, off)
}

// words emits a word-list literal (Perl qw(), Ruby %w[]).
func (l *lexer) words(body string, off int) {
	words := strings.Fields(body)
	if t := l.emit(Words, strings.Join(words, " "), off); t != nil {
		t.List = words
	}
}

// Escape rules.

// escC decodes C escapes (escape).
func escC(h *holes, s string, i int) int {
	t, n := escape(s, i)
	h.lit(t)
	return n
}

// escRaw keeps the backslash and the byte after it (Python r"…", Julia
// commands, whose escapes the word splitting reads).
func escRaw(h *holes, s string, i int) int {
	h.byte('\\')
	if i+1 < len(s) {
		h.byte(s[i+1])
	}
	return i + 2
}

// escDelims returns the rule of a single-quoted body delimited by open:
// a backslash before a backslash or a delimiter is dropped, any other is
// kept (Perl '…' and q(), Ruby '…' and %q(), PHP '…').
func escDelims(open byte) escapeFunc {
	cl := closer(open)
	return func(h *holes, s string, i int) int {
		if i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == open || s[i+1] == cl) {
			h.byte(s[i+1])
			return i + 2
		}
		h.byte('\\')
		return i + 1
	}
}

// escQuoteOnly returns the rule of a raw literal closed by q (Julia
// raw"…"): a backslash before q gives q, any other is kept.
func escQuoteOnly(q byte) escapeFunc {
	return func(h *holes, s string, i int) int {
		if i+1 < len(s) && s[i+1] == q {
			h.byte(q)
			return i + 2
		}
		h.byte('\\')
		return i + 1
	}
}

// Literal forms several languages share.
var (
	// singleQuoted is '…' in Perl, Ruby and PHP: no escapes but \\ and \'.
	singleQuoted = &quote{kind: String, bracketed: true, esc: escDelims('\'')}
	// cQuoted is a literal with C escapes and no holes (R, AppleScript).
	cQuoted = &quote{kind: String, esc: escC}
)

// shellQuotes are the quotes Perl, Ruby and PHP took from the shell:
// '…' (only \\ and \' escape), "…" and `…` (a Command) with C escapes and
// the language's holes, each a delimited body (bracketed).
func shellQuotes(hole holeFunc) map[byte]*quote {
	return map[byte]*quote{
		'\'': singleQuoted,
		'"':  {kind: String, bracketed: true, esc: escC, hole: hole},
		'`':  {kind: Command, bracketed: true, esc: escC, hole: hole},
	}
}

// skipPattern skips a pattern literal with n delimited parts starting at
// the delimiter at i (Perl s{a}{b} has two bracketed parts, m// and Ruby
// %r{} one), and its flags: a pattern is data.
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

// closer returns the closing delimiter of a bracketing opener, or the
// opener itself.
func closer(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return open
}

// opener returns the opening bracket of a closer, or 0.
func opener(cl byte) byte {
	switch cl {
	case ')':
		return '('
	case ']':
		return '['
	case '}':
		return '{'
	case '>':
		return '<'
	}
	return 0
}

// delimited returns the body of a quote-like literal whose opening
// delimiter is at s[i] (nesting brackets, skipping backslash escapes) and
// the index after the closer; the body runs to the end of s when unclosed.
func delimited(s string, i int) (body string, end int) {
	open := s[i]
	cl := closer(open)
	depth := 0
	for k := i + 1; k < len(s); k++ {
		c := s[k]
		switch {
		case c == '\\':
			k++
		case c == cl && depth == 0:
			return s[i+1 : k], k + 1
		case c == cl:
			depth--
		case c == open && open != cl:
			depth++
		}
	}
	return s[i+1:], len(s)
}

// Heredocs (Perl, Ruby, PHP).

// nextLine returns the line of s that starts at i, without its newline,
// and the index after that newline (len(s)+1 after the last line).
func nextLine(s string, i int) (line string, next int) {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return s[i : i+j], i + j + 1
	}
	return s[i:], len(s) + 1
}

// heredocBody finds the body of a heredoc whose operator is on the line
// that ends at lineEnd: the lines after it up to a line equal to delim
// (after trimming leading blanks when indented). It returns the body and
// the offset just after the terminator line (len(s) when unterminated).
func heredocBody(s string, lineEnd int, delim string, indented bool) (string, int) {
	var b strings.Builder
	for i := lineEnd + 1; i < len(s); {
		line, next := nextLine(s, i)
		cmp := strings.TrimRight(line, "\r")
		if indented {
			cmp = strings.TrimLeft(cmp, " \t")
		}
		if cmp == delim {
			return b.String(), min(next, len(s))
		}
		b.WriteString(line)
		b.WriteByte('\n')
		i = next
	}
	return b.String(), len(s)
}

// flexHeredocBody reads a PHP heredoc body after the line ending at nl, up
// to a line whose text after its blanks starts with delim (PHP 7.3
// flexible closing), and removes the closing line's indentation from
// every line. It returns the body and the offset just after delim, where
// lexing continues ("EOT;").
func flexHeredocBody(s string, nl int, delim string) (string, int) {
	var lines []string
	for i := nl + 1; i <= len(s); {
		line, next := nextLine(s, i)
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, delim) && (len(t) == len(delim) || !isIdentByte(t[len(delim)])) {
			ind := len(line) - len(t)
			for k, ln := range lines {
				if len(ln) >= ind {
					lines[k] = ln[ind:]
				}
			}
			return strings.Join(lines, "\n"), i + ind + len(delim)
		}
		lines = append(lines, line)
		i = next
	}
	return strings.Join(lines, "\n"), len(s)
}

// dedent removes the common leading blanks of the body's lines (Ruby <<~).
func dedent(body string) string {
	lines := strings.Split(body, "\n")
	common := -1
	for _, ln := range lines {
		if strings.TrimSpace(ln) == "" {
			continue
		}
		n := leadingBlanks(ln, 0)
		if common < 0 || n < common {
			common = n
		}
	}
	if common <= 0 {
		return body
	}
	for i, ln := range lines {
		if len(ln) >= common {
			lines[i] = ln[common:]
		} else {
			lines[i] = strings.TrimLeft(ln, " \t")
		}
	}
	return strings.Join(lines, "\n")
}

// registerHeredoc makes the lexer jump from the end of the current line to
// to when it reaches that line end; several heredocs on one line chain.
func (l *lexer) registerHeredoc(lineEnd, to int) {
	if l.skip == nil {
		l.skip = map[int]int{}
	}
	// a second heredoc on the same line: its body starts where the
	// first one's ends
	l.skip[lineEnd] = to
}

// heredocStart returns where the body of a heredoc on the current line
// begins: just after the current line, or after the bodies already
// registered for it.
func (l *lexer) heredocStart() (lineEnd, bodyFrom int) {
	lineEnd = strings.IndexByte(l.src[l.pos:], '\n')
	if lineEnd < 0 {
		return len(l.src), len(l.src)
	}
	lineEnd += l.pos
	if to, ok := l.skip[lineEnd]; ok {
		return lineEnd, to - 1
	}
	return lineEnd, lineEnd
}

// heredocOpener reads a heredoc operator "<<" at l.pos: an optional flag
// byte from flags (Perl "~", Ruby "~-"), an optional quote, a name. It
// returns where the name starts, the flag and the quote (0 when none); ok
// is false when no name follows.
func (l *lexer) heredocOpener(flags string) (name int, flag, quote byte, ok bool) {
	s := l.src
	i := l.pos + 2
	if i < len(s) && strings.IndexByte(flags, s[i]) >= 0 {
		flag = s[i]
		i++
	}
	if i >= len(s) {
		return 0, 0, 0, false
	}
	if s[i] == '\'' || s[i] == '"' || s[i] == '`' {
		quote = s[i]
		i++
	}
	if identEnd(s, i) == i {
		return 0, 0, 0, false
	}
	return i, flag, quote, true
}

// heredoc reads a heredoc delimiter at src[i:] (closed by quote when quote
// is not 0), registers the body that follows the current line and emits
// it: a single-quoted delimiter gives a literal String, a backquoted one
// a Command, any other an interpolating String (C escapes, holes by hole).
// dedentBody removes the body's common indentation (Ruby <<~, Perl <<~).
func (l *lexer) heredoc(i int, quote byte, indented, dedentBody bool, hole holeFunc) bool {
	s := l.src
	end := identEnd(s, i)
	if end == i {
		return false
	}
	delim := s[i:end]
	if quote != 0 {
		if end >= len(s) || s[end] != quote {
			return false
		}
		end++
	}
	off := l.pos
	lineEnd, from := l.heredocStart()
	body, to := heredocBody(s, from, delim, indented)
	l.registerHeredoc(lineEnd, to)
	if dedentBody {
		body = dedent(body)
	}
	l.pos = end
	switch quote {
	case '\'':
		l.emit(String, body, off)
	case '`':
		l.body(Command, body, off, escC, hole)
	default:
		l.body(String, body, off, escC, hole)
	}
	return true
}
