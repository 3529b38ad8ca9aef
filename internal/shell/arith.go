package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic evaluation runs code (testdata/corpus/README.md §9.2): bash
// evaluates the value of a variable named in an arithmetic expression as
// an arithmetic expression itself, and expands the subscript of an array
// element written there (parameters, command substitutions), so `x='a[$(rm
// -rf b)]'; echo $((x))` runs rm. Arithmetic context is `$(( ))`, `$[ ]`,
// `(( ))`, `let`, a C-style for header, an indexed array's subscript, a
// substring offset, the operands of [[ -eq -ne -lt -le -gt -ge ]], and the
// value assigned to a `declare -i` variable. A name operand (`[[ -v
// NAME ]]`, `test -v`, `printf -v`, `read`) expands its subscript too.
// `[ "$x" -eq 0 ]`, `test "$x" -gt 0` and [[ == ]] do not evaluate
// (checked with bash 5.2).

// maxArithDepth bounds the variable values followed from one expression.
const maxArithDepth = 6

// arithNode evaluates the arithmetic expression x (its substitutions are
// walked by generic): every word of it is expanded and its text evaluated
// (arithText).
func (w *walker) arithNode(f *frame, st *state, x syntax.Node) {
	if x == nil {
		return
	}
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.Word:
			if v, ok := w.quietValue(f, st, n); ok {
				w.arithText(f, st, v, 0)
			}
			return false
		}
		return true
	})
}

// quietValue is the literal value of word wd without walking its
// substitutions again.
func (w *walker) quietValue(f *frame, st *state, wd *syntax.Word) (string, bool) {
	e := &expander{f: f, st: st, nosplit: true, b: w}
	e.parts(wd.Parts, false)
	var b strings.Builder
	for i, fl := range e.fields {
		if !fl.known {
			return "", false
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fl.val)
	}
	return b.String(), true
}

// arithText evaluates s as bash evaluates arithmetic text: a subscript
// NAME[SUB] is expanded (subscript), a NAME alone stands for its value,
// evaluated in turn.
func (w *walker) arithText(f *frame, st *state, s string, depth int) {
	if depth > maxArithDepth || !strings.ContainsAny(s, "[_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") || !w.spend(len(s)) {
		return
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= '0' && c <= '9' || c == '#':
			// a number: 42, 0x1f, 16#ff, 64#_@
			i++
			for i < len(s) && (identByte(s[i]) || s[i] == '#' || s[i] == '@') {
				i++
			}
		case identByte(c):
			j := i
			for j < len(s) && identByte(s[j]) {
				j++
			}
			name := s[i:j]
			if j < len(s) && s[j] == '[' {
				k := closeBracket(s, j)
				if k < 0 {
					return
				}
				w.subscript(f, st, name, s[j+1:k], depth)
				i = k + 1
				continue
			}
			if v, ok := st.vars[name]; ok && v.known && !v.isAssoc && v.val != "" {
				w.arithText(f, st, v.val, depth+1)
			}
			i = j
		default:
			i++
		}
	}
}

// arithName expands the subscript of a variable name operand NAME[SUB]
// (`[[ -v $x ]]`, `printf -v "$x"`, `read "$x"`).
func (w *walker) arithName(f *frame, st *state, s string) {
	j := 0
	for j < len(s) && identByte(s[j]) {
		j++
	}
	if j == 0 || j >= len(s) || s[j] != '[' {
		return
	}
	if k := closeBracket(s, j); k > 0 {
		w.subscript(f, st, s[:j], s[j+1:k], 0)
	}
}

// subscript expands the subscript sub of array name (parameters, command
// and arithmetic substitutions, as in a here-document) and, for an indexed
// array, evaluates the result.
func (w *walker) subscript(f *frame, st *state, name, sub string, depth int) {
	if !strings.ContainsAny(sub, "$`") {
		if st.indexed(name) {
			w.arithText(f, st, sub, depth+1)
		}
		return
	}
	if !w.spend(len(sub)) {
		return
	}
	wd, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(sub))
	if err != nil {
		return
	}
	nf := *f
	nf.src = sub
	v := w.singleWord(nf.child("arithmetic "+name+"[ ]"), st.clone(), wd, false)
	if v.Known && st.indexed(name) {
		w.arithText(f, st, v.Value, depth+1)
	}
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// closeBracket is the index of the ']' closing the '[' at s[open], or -1.
func closeBracket(s string, open int) int {
	n := 0
	for k := open; k < len(s); k++ {
		switch s[k] {
		case '[':
			n++
		case ']':
			n--
			if n == 0 {
				return k
			}
		}
	}
	return -1
}

// arithTest evaluates the arithmetic operands of a [[ ]] expression
// (-eq -ne -lt -le -gt -ge) and the names of -v.
func (w *walker) arithTest(f *frame, st *state, x syntax.TestExpr) {
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				w.arithNode(f, st, n.X)
				w.arithNode(f, st, n.Y)
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsVarSet {
				if wd, ok := n.X.(*syntax.Word); ok {
					if v, ok := w.quietValue(f, st, wd); ok {
						w.arithName(f, st, v)
					}
				}
			}
		}
		return true
	})
}
