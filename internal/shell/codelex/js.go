package codelex

import (
	"io"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/superagent-harness/harness/internal/lazy"
)

// jsKeywordsBeforeExpr are keywords after which "/" starts a regular
// expression literal, not a division.
var jsKeywordsBeforeExpr = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"return": true, "typeof": true, "instanceof": true, "in": true, "of": true,
		"new": true, "delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true}
}}

// maxJSErrors bounds the lexical errors tolerated in JavaScript code.
const maxJSErrors = 64

// lexJS tokenizes JavaScript and TypeScript with tdewolff/parse/v2/js (a
// maintained ECMAScript lexer with no init work): comments are dropped,
// "/" is read as a regular expression literal where an expression may
// start, and template literals become String tokens whose `${}` holes are
// lexed as code. `$`…“ (zx, Bun shell) becomes a Command token.
func lexJS(l *lexer) {
	defer func() {
		// tdewolff/parse v2.25.0 can index past its buffer after an invalid
		// byte at the end of the input; the guard never trusts a lexer that
		// failed: the code counts as too complex (Truncated)
		if recover() != nil {
			*l.trunc = true
		}
	}()
	src := l.src
	if strings.HasPrefix(src, "#!") {
		// a hashbang line is not JavaScript
		end := strings.IndexByte(src, '\n')
		if end < 0 {
			end = len(src)
		}
		src = strings.Repeat(" ", end) + src[end:]
	}
	lx := js.NewLexer(parse.NewInputString(src))
	type tmpl struct {
		h   holes
		cur []Token
		off int
	}
	var stack []*tmpl
	out := func(t Token) {
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if len(top.cur) < maxTokens {
				top.cur = append(top.cur, t)
			}
			return
		}
		if !l.full() {
			l.toks = append(l.toks, t)
		}
	}
	last := func() *Token {
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if len(top.cur) == 0 {
				return nil
			}
			return &top.cur[len(top.cur)-1]
		}
		if len(l.toks) == 0 {
			return nil
		}
		return &l.toks[len(l.toks)-1]
	}
	cur := func() []Token {
		if len(stack) > 0 {
			return stack[len(stack)-1].cur
		}
		return l.toks
	}
	finish := func(off int) {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		sub := &lexer{src: l.src, trunc: l.trunc}
		kind := String
		if p := last(); p != nil && p.Kind == Name && p.Text == "$" && p.Off+1 == top.off {
			// zx / Bun shell: $`cmd`
			kind = Command
			if len(stack) > 0 {
				stack[len(stack)-1].cur = stack[len(stack)-1].cur[:len(stack[len(stack)-1].cur)-1]
			} else {
				l.toks = l.toks[:len(l.toks)-1]
			}
		} else if shellTag(cur()) {
			// $.sync`cmd`, $({cwd})`cmd`, execa`cmd`, $$`cmd`: the tag stays
			// (a call or member the parser reads), the template runs
			kind = Command
		}
		sub.emitLit(kind, &top.h, top.off)
		for _, t := range sub.toks {
			out(t)
		}
	}
	offset := 0
	errs := 0
	line := 0
	space := false
	for steps := 0; steps < 4*len(l.src)+16; steps++ {
		if l.full() || offset >= len(src) {
			break
		}
		tt, data := lx.Next()
		off := offset
		offset += len(data)
		if tt == js.ErrorToken {
			if lx.Err() == io.EOF || len(data) == 0 {
				break
			}
			// each lexer error computes its line and column from the start
			// of the input: past a few, garbage would cost quadratic time
			if errs++; errs > maxJSErrors {
				*l.trunc = true
				break
			}
			continue
		}
		line += strings.Count(string(data), "\n")
		switch {
		case tt == js.WhitespaceToken || tt == js.CommentToken:
			space = true
			continue
		case tt == js.LineTerminatorToken || tt == js.CommentLineTerminatorToken:
			space = false
			continue
		case tt == js.DivToken || tt == js.DivEqToken:
			if p := last(); !valueEnd(p, jsKeywordsBeforeExpr.Get()) {
				rt, rdata := lx.RegExp()
				if rt == js.RegExpToken {
					offset = off + len(rdata)
					line += strings.Count(string(rdata), "\n")
					continue // a regular expression literal: data
				}
				offset = off + len(data) // RegExp failed: keep the operator
			}
			out(Token{Kind: Op, Text: string(data), Off: off, Line: line, Space: space})
		case tt == js.StringToken:
			out(Token{Kind: String, Text: jsUnquote(string(data)), Off: off, Line: line, Space: space})
		case tt == js.TemplateToken:
			t := &tmpl{off: off}
			t.h.lit(jsUnescape(string(data[1 : len(data)-1])))
			stack = append(stack, t)
			finish(off)
		case tt == js.TemplateStartToken:
			t := &tmpl{off: off}
			t.h.lit(jsUnescape(string(data[1 : len(data)-2])))
			stack = append(stack, t)
		case tt == js.TemplateMiddleToken && len(stack) > 0:
			top := stack[len(stack)-1]
			top.h.hole(top.cur)
			top.cur = nil
			top.h.lit(jsUnescape(string(data[1 : len(data)-2])))
		case tt == js.TemplateEndToken && len(stack) > 0:
			top := stack[len(stack)-1]
			top.h.hole(top.cur)
			top.cur = nil
			top.h.lit(jsUnescape(string(data[1 : len(data)-1])))
			finish(off)
		case js.IsNumeric(tt):
			out(Token{Kind: Number, Text: string(data), Off: off, Line: line, Space: space})
		case js.IsIdentifierName(tt) || tt == js.PrivateIdentifierToken:
			out(Token{Kind: Name, Text: string(data), Off: off, Line: line, Space: space})
		default:
			out(Token{Kind: Op, Text: string(data), Off: off, Line: line, Space: space})
		}
		space = false
	}
	for len(stack) > 0 {
		// an unterminated template: what was read of it is the literal
		top := stack[len(stack)-1]
		top.h.hole(top.cur)
		top.cur = nil
		finish(top.off)
	}
}

// jsUnquote returns the value of a '…' or "…" literal.
func jsUnquote(s string) string {
	if len(s) >= 2 && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	} else if len(s) >= 1 {
		s = s[1:]
	}
	return jsUnescape(s)
}

func jsUnescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '\r' {
			i += 2
			if i < len(s) && s[i] == '\n' {
				i++
			}
			continue
		}
		t, n := escape(s, i)
		b.WriteString(t)
		i = n
	}
	return b.String()
}

// shellTags are the template tags that run their template as a command
// line (zx and Bun's $, execa's execa/$$ and their sync forms).
var shellTags = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"$": true, "$$": true, "execa": true, "execaSync": true, "execaNode": true, "execaCommand": true}
}}

// shellTag reports that the tokens before a template end in a command tag:
// a name in shellTags, a member of $ ($.sync), or a call of one
// ($({cwd: d}), $.sync({…}), execa({stdio: 'inherit'})).
func shellTag(toks []Token) bool {
	i := len(toks) - 1
	if i >= 0 && toks[i].Kind == Op && toks[i].Text == ")" {
		depth := 0
		for ; i >= 0; i-- {
			if toks[i].Kind == Op && toks[i].Text == ")" {
				depth++
			} else if toks[i].Kind == Op && toks[i].Text == "(" {
				if depth--; depth == 0 {
					break
				}
			}
		}
		i--
	}
	if i < 0 || toks[i].Kind != Name {
		return false
	}
	if shellTags.Get()[toks[i].Text] {
		return true
	}
	// $.sync / $.noquote: a chain that starts at $
	for i >= 2 && toks[i-1].Kind == Op && toks[i-1].Text == "." && toks[i-2].Kind == Name {
		i -= 2
	}
	return toks[i].Text == "$" && i < len(toks)-1
}
