package shell

import (
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

// fallback is the token scan of testdata/corpus/README.md §2.6 for text mvdan/sh
// rejects: heredoc bodies are data unless their owner is (or pipes into) a
// shell; tokens in command position start a simple command that is
// unwrapped and matched like any other.
func (w *walker) fallback(f *frame, st *state, src string) {
	lines := strings.SplitAfter(src, "\n")
	var text strings.Builder
	for li := 0; li < len(lines); li++ {
		line := lines[li]
		text.WriteString(line)
		// heredoc operators on this line
		for _, hd := range heredocOps(line) {
			keep := hd.shellOwned
			for li+1 < len(lines) {
				li++
				body := lines[li]
				if strings.TrimSpace(body) == hd.word {
					break
				}
				if keep {
					text.WriteString(body)
				}
			}
		}
	}
	for _, cmd := range tokenCommands(text.String()) {
		words := knownWords(cmd...)
		for len(words) > 0 && isAssign(words[0].Value) {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		w.runWords(f, st, words, nil, nil, nil, "unparsed")
	}
}

type hdOp struct {
	word       string
	shellOwned bool
}

func heredocOps(line string) []hdOp {
	var ops []hdOp
	owned := -1
	for i := 0; i+1 < len(line); i++ {
		if line[i] != '<' || line[i+1] != '<' {
			continue
		}
		if i+2 < len(line) && line[i+2] == '<' {
			i += 2
			continue
		}
		j := i + 2
		if j < len(line) && line[j] == '-' {
			j++
		}
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		k := j
		for k < len(line) && !strings.ContainsRune(" \t\n;|&<>()", rune(line[k])) {
			k++
		}
		word := strings.NewReplacer("'", "", "\"", "", "\\", "").Replace(line[j:k])
		if word == "" {
			continue
		}
		// owner: the simple command containing the operator, and the
		// rest of the pipeline on this line (computed once per line)
		if owned < 0 {
			owned = 0
			for _, c := range tokenCommands(line) {
				if len(c) > 0 && shells(ProgramName(c[0])) {
					owned = 1
				}
			}
		}
		ops = append(ops, hdOp{word: word, shellOwned: owned == 1})
		i = k - 1
	}
	return ops
}

var fbKeywords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"if": true, "then": true, "else": true, "elif": true, "do": true, "while": true, "until": true, "!": true, "fi": false, "done": false}
}}

// tokenCommands splits text into simple commands of tokens (§2.6 steps 2–4).
func tokenCommands(text string) [][]string {
	var cmds [][]string
	var cur []string
	var tok strings.Builder
	inTok := false
	endTok := func() {
		if inTok {
			cur = append(cur, tok.String())
			tok.Reset()
			inTok = false
		}
	}
	endCmd := func() {
		endTok()
		// strip leading keywords
		for len(cur) > 0 && fbKeywords.Get()[cur[0]] {
			cur = cur[1:]
		}
		if len(cur) > 0 {
			cmds = append(cmds, cur)
		}
		cur = nil
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case (c == '\'' || c == '"') && strings.IndexByte(text[i+1:], c) >= 0:
			// a quote pairs with the next same quote; one without a
			// partner is a literal character. Pairing is decided here, in
			// the same pass that consumes backslash escapes, so an escaped
			// quote (`0\""`) is never taken as an opening one.
			k := strings.IndexByte(text[i+1:], c)
			tok.WriteString(text[i+1 : i+1+k])
			inTok = true
			i = i + 1 + k
		case c == '#' && !inTok:
			// a comment: the rest of the line is not a command
			for i < len(text) && text[i] != '\n' {
				i++
			}
			i--
		case c == '\\' && i+1 < len(text):
			if text[i+1] != '\n' {
				tok.WriteByte(text[i+1])
				inTok = true
			}
			i++
		case c == ' ' || c == '\t':
			endTok()
			// a keyword token starts a new command
			if len(cur) == 1 && fbKeywords.Get()[cur[0]] {
				cur = nil
			}
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '{' || c == '}' || c == '`' || c == '\n':
			endCmd()
		case c == '$' && i+1 < len(text) && text[i+1] == '(':
			endCmd()
			i++
		default:
			tok.WriteByte(c)
			inTok = true
		}
	}
	endCmd()
	return cmds
}
