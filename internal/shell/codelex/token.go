package codelex

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the class of a Token.
type Kind uint8

// Token kinds. Comments, POD, whitespace and inline HTML produce no token:
// they are data.
const (
	// Name is an identifier or keyword; Perl/PHP/Ruby sigils are kept
	// ("$cmd", "@ARGV", "@ivar"), Perl package separators too
	// ("File::Path::rmtree").
	Name Kind = iota + 1
	// Number is a numeric literal in its source spelling ("0o777", "0777", "511").
	Number
	// String is a string literal; Text is its value after escapes. When it
	// interpolates (f-string, "#{x}", "$x", `${x}`), Parts holds the literal
	// pieces around the holes and each hole follows the token as HoleOpen,
	// the hole's tokens, HoleClose.
	String
	// Words is a word-list literal (Perl qw(), Ruby %w[] / %i[]); Text
	// holds the words separated by single spaces and List the words.
	Words
	// Command is a literal that runs a shell command when evaluated (Ruby,
	// Perl, PHP backticks, qx//, %x(), zx/Bun $`…`), or Julia's `…` command
	// object; Text and Parts as for String.
	Command
	// Op is punctuation or an operator; Text is its spelling.
	Op
	// Newline ends a logical line (a statement boundary) where the language
	// ends statements at newlines (outside brackets).
	Newline
	// HoleOpen and HoleClose bracket the tokens of one interpolated
	// expression of the String or Command token before them.
	HoleOpen
	HoleClose
)

// Token is one lexical token of interpreter code.
type Token struct {
	Kind Kind
	// Text is the spelling (Name, Number, Op) or the literal value
	// (String, Command, Words).
	Text string
	// Parts are the literal pieces of an interpolating String or Command:
	// len(Parts) is the number of holes plus one. Nil when it has no holes.
	Parts []string
	// List holds the words of a Words token.
	List []string
	// Off is the byte offset of the token in the code (for a hole's
	// tokens: in the hole's own text).
	Off int
	// Indent is the indentation (columns of leading blanks) of the line the
	// token starts on; Python blocks use it.
	Indent int
	// Line is the 0-based line the token starts on.
	Line int
	// Space is true when blanks or a comment come before the token on its
	// line (Ruby and Perl read `puts %(x)` and `x %(3)` apart by it).
	Space bool
}

// Work bounds of one lexing: the tokens kept, and the nesting of
// interpolation holes lexed recursively. Past them the result is marked
// truncated and callers treat the code as too complex (never as harmless).
const (
	maxTokens  = 1 << 16
	maxNesting = 8
)

// lexer is the state shared by the hand-written tokenizers.
type lexer struct {
	src    string
	pos    int
	toks   []Token
	line   int
	indent int
	space  bool
	nest   int
	trunc  *bool
	// g is the language's grammar (holes are lexed with it too).
	g *grammar
	// lit is the literal being decoded (literal), kept here so that
	// decoding through the grammar's escape and hole functions does not
	// allocate it per literal.
	lit holes
	// skip maps a line's end offset to the offset lexing continues from
	// (heredoc bodies that follow the line).
	skip map[int]int
}

func newLexer(src string, nest int, trunc *bool) *lexer {
	l := &lexer{src: src, nest: nest, trunc: trunc}
	l.indent = leadingBlanks(src, 0)
	return l
}

func leadingBlanks(s string, i int) int {
	n := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		n++
		i++
	}
	return n
}

func (l *lexer) full() bool {
	if len(l.toks) >= maxTokens {
		*l.trunc = true
		return true
	}
	return false
}

func (l *lexer) emit(k Kind, text string, off int) *Token {
	if l.full() {
		return nil
	}
	l.toks = append(l.toks, Token{Kind: k, Text: text, Off: off, Indent: l.indent, Line: l.line, Space: l.space})
	l.space = false
	return &l.toks[len(l.toks)-1]
}

// newline advances over "\n" at l.pos, counting the line and its indent,
// and jumps over heredoc bodies registered for this line end.
func (l *lexer) newline() {
	if to, ok := l.skip[l.pos]; ok {
		l.line += strings.Count(l.src[l.pos:min(to, len(l.src))], "\n")
		l.pos = to
		delete(l.skip, l.pos)
	} else {
		l.pos++
		l.line++
	}
	l.indent = leadingBlanks(l.src, l.pos)
	l.space = false
}

// lastSig returns the last token that is not a Newline, or nil.
func (l *lexer) lastSig() *Token {
	for i := len(l.toks) - 1; i >= 0; i-- {
		if l.toks[i].Kind != Newline {
			return &l.toks[i]
		}
	}
	return nil
}

// valueEnd reports whether the previous token ends a value, so that a
// following "/" or "%" is an operator rather than a literal.
func valueEnd(t *Token, keywords map[string]bool) bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case Number, String, Command, Words:
		return true
	case Name:
		return !keywords[t.Text]
	case Op:
		return t.Text == ")" || t.Text == "]" || t.Text == "}"
	case HoleClose:
		return false
	}
	return false
}

// holes is the output of an interpolating literal: the literal parts and
// the tokens of each hole.
type holes struct {
	parts []string
	toks  [][]Token
	cur   strings.Builder
}

func (h *holes) lit(s string) { h.cur.WriteString(s) }
func (h *holes) byte(c byte)  { h.cur.WriteByte(c) }
func (h *holes) hole(t []Token) {
	h.parts = append(h.parts, h.cur.String())
	h.cur.Reset()
	h.toks = append(h.toks, t)
}

// literal returns the lexer's literal buffer, emptied. A token's Parts
// keep the slice of the literal they came from: it is not reused.
func (l *lexer) literal() *holes {
	l.lit.parts, l.lit.toks = nil, nil
	l.lit.cur.Reset()
	return &l.lit
}

// emitLit emits a String or Command token for h, followed by its holes.
func (l *lexer) emitLit(k Kind, h *holes, off int) {
	t := l.emit(k, "", off)
	if t == nil {
		return
	}
	if len(h.toks) == 0 {
		t.Text = h.cur.String()
		return
	}
	t.Parts = append(h.parts, h.cur.String())
	t.Text = strings.Join(t.Parts, "")
	for _, ht := range h.toks {
		l.emit(HoleOpen, "", off)
		for _, x := range ht {
			if l.full() {
				return
			}
			l.toks = append(l.toks, x)
		}
		l.emit(HoleClose, "", off)
	}
}

// sub lexes the text of one interpolation hole in the same language, one
// level deeper.
func (l *lexer) sub(text string) []Token {
	if l.nest+1 >= maxNesting {
		*l.trunc = true
		return nil
	}
	s := newLexer(text, l.nest+1, l.trunc)
	s.g = l.g
	s.run()
	return s.toks
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ident returns the end of the identifier starting at i.
func identEnd(s string, i int) int {
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return i
}

// number returns the end of the numeric literal starting at i (digits,
// letters for bases/exponents/suffixes, underscores, one dot).
func numberEnd(s string, i int) int {
	for i < len(s) && (isIdentByte(s[i]) || s[i] == '.' && i+1 < len(s) && isDigit(s[i+1])) {
		i++
	}
	return i
}

// ops are the multi-byte operators every tokenizer recognises (longest
// first); anything else is a one-byte Op.
var ops = []string{"**=", "...", "<<=", ">>=", "===", "!==", "<=>", "=>", "->", "::", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", ".=", "&&", "||", "**", "//", "..", "<-", "<<", ">>", ":=", "?.", "|>", "~="}

// op emits the operator at l.pos and advances over it.
func (l *lexer) op() {
	for _, o := range ops {
		if strings.HasPrefix(l.src[l.pos:], o) {
			l.emit(Op, o, l.pos)
			l.pos += len(o)
			return
		}
	}
	_, n := utf8.DecodeRuneInString(l.src[l.pos:])
	if n < 1 {
		n = 1
	}
	l.emit(Op, l.src[l.pos:l.pos+n], l.pos)
	l.pos += n
}

// escape decodes the backslash escape at s[i] (s[i] == '\\') the way C-like
// languages do and returns the text and the index after it. Unknown
// escapes keep the escaped character.
func escape(s string, i int) (string, int) {
	if i+1 >= len(s) {
		return "\\", i + 1
	}
	c := s[i+1]
	switch c {
	case 'n':
		return "\n", i + 2
	case 't':
		return "\t", i + 2
	case 'r':
		return "\r", i + 2
	case '0', '1', '2', '3', '4', '5', '6', '7':
		j := i + 1
		for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		n, _ := strconv.ParseUint(s[i+1:j], 8, 16)
		return string(rune(n)), j
	case 'x':
		j := i + 2
		for j < len(s) && j < i+4 && isHex(s[j]) {
			j++
		}
		if j == i+2 {
			return "x", i + 2
		}
		n, _ := strconv.ParseUint(s[i+2:j], 16, 8)
		return string(rune(n)), j
	case 'u', 'U':
		j := i + 2
		if j < len(s) && s[j] == '{' {
			k := strings.IndexByte(s[j:], '}')
			if k > 0 {
				n, err := strconv.ParseUint(s[j+1:j+k], 16, 32)
				if err == nil {
					return string(rune(n)), j + k + 1
				}
			}
			return string(c), i + 2
		}
		max := 4
		if c == 'U' {
			max = 8
		}
		for j < len(s) && j < i+2+max && isHex(s[j]) {
			j++
		}
		if j == i+2 {
			return string(c), i + 2
		}
		n, _ := strconv.ParseUint(s[i+2:j], 16, 32)
		return string(rune(n)), j
	case '\n':
		return "", i + 2
	}
	_, n := utf8.DecodeRuneInString(s[i+1:])
	return s[i+1 : i+1+n], i + 1 + n
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
