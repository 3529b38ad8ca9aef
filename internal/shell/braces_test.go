package shell

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// bracesOf parses src as `echo SRC` and returns its words after
// syntax.SplitBraces, the way expandWord hands them to bracesSeq; nil when
// src does not parse as words.
func bracesOf(src string) []*syntax.Word {
	f, err := syntax.NewParser().Parse(strings.NewReader("echo "+src), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return nil
	}
	var out []*syntax.Word
	for _, w := range call.Args[1:] {
		cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
		if syntax.SplitBraces(cp) {
			out = append(out, cp)
		}
	}
	return out
}

// expansion prints every (word, error) a brace sequence yields, stopping
// after limit of them.
func expansion(seq func(func(*syntax.Word, error) bool), limit int) string {
	var b strings.Builder
	pr := syntax.NewPrinter()
	n := 0
	seq(func(w *syntax.Word, err error) bool {
		if err != nil {
			fmt.Fprintf(&b, "error %v\n", err)
		} else if perr := pr.Print(&b, w); perr != nil {
			fmt.Fprintf(&b, "unprintable %v\n", perr)
		} else {
			b.WriteByte('\n')
		}
		n++
		return n < limit
	})
	return b.String()
}

// TestBracesSeqIsExpandBracesSeq holds bracesSeq (the copy the hook links)
// to mvdan.cc/sh/v3/expand.BracesSeq, the original: the same words, in the
// same order, and the same error past 16 Ki words, on hand-picked
// sequences and lists and on random words of brace syntax, each side
// stopping early as the walker does.
func TestBracesSeqIsExpandBracesSeq(t *testing.T) {
	cases := []string{
		"{a,b}", "x{a,b{c,d}}y", "{a,b}{,c}", "{1..10}", "{01..10..3}", "{-05..5}", "{5..-5..2}", "{a..e}",
		"{z..a..2}", "{1..3..0}", "{1..3..-1}", "{9223372036854775806..9223372036854775807}", "{a..9}", "{1..b}",
		"{1..100}{1..100}{1..2}", "{1..20000}", "pre{x,'y z',\"$v\"}post", "{a,b}$(echo {c,d})", "{,}", "{a}",
		"{a,b", "a,b}", "{{a,b},{c,d}}", "{a,b}{1..3}{x,y}", "\\{a,b}", "{$x,$y}", "{a,b}/{c,d}/e",
	}
	rng := rand.New(rand.NewPCG(11, 13))
	const alpha = "{},.ab0123-9z$x\\'\" /"
	for range 30000 {
		var b strings.Builder
		for range 1 + rng.IntN(16) {
			b.WriteByte(alpha[rng.IntN(len(alpha))])
		}
		cases = append(cases, b.String())
	}
	checked := 0
	for _, src := range cases {
		for i, w := range bracesOf(src) {
			w2 := bracesOf(src)[i] // a parse of its own: expansion may share and rebuild parts
			for _, limit := range []int{1, 3, 1 << 20} {
				got := expansion(bracesSeq(w), limit)
				want := expansion(expand.BracesSeq(nil, w2), limit)
				if got != want {
					t.Fatalf("%q (word %d, limit %d):\nbracesSeq:\n%.600s\nexpand.BracesSeq:\n%.600s", src, i, limit, got, want)
				}
			}
			checked++
		}
	}
	if checked < 3000 {
		t.Fatalf("only %d words with braces were compared", checked)
	}
}
