package ruleid

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/ruleid/ruleidgen"
)

// TestIronRulesInSync: iron_gen.go is what gen_iron.go writes from the
// table of docs/protocol.md §12 today (run `go generate ./internal/ruleid`
// after editing the table).
func TestIronRulesInSync(t *testing.T) {
	md, err := os.ReadFile(filepath.Join("..", "..", "docs", "protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	rules, err := ruleidgen.IronRules(md)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) < 20 {
		t.Fatalf("docs/protocol.md §12 has %d iron rules", len(rules))
	}
	want, err := ruleidgen.IronSource(rules)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("iron_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("iron_gen.go is stale: run go generate ./internal/ruleid")
	}
	if r, ok := Iron("Z11"); !ok || !strings.Contains(r.Rule, "cp-sprint-dag") {
		t.Fatalf("Iron(Z11) = %+v, %v", r, ok)
	}
	if _, ok := Iron("Z99"); ok {
		t.Fatal("Iron(Z99) found")
	}
}

// TestIronCodesInCodeAreKnown: every iron-rule code a Go string literal of
// the module cites ("… (Z11)") is a row of the table, so each code a user
// reads in a refusal can be looked up with `harness explain Zn`.
func TestIronCodesInCodeAreKnown(t *testing.T) {
	codeRe := regexp.MustCompile(`\bZ[0-9]+\b`)
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || strings.HasSuffix(p, "_gen.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(x ast.Node) bool {
			lit, ok := x.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, c := range codeRe.FindAllString(s, -1) {
				n++
				if _, ok := Iron(c); !ok {
					t.Errorf("%s: %q cites %s, which docs/protocol.md §12 does not define", fset.Position(lit.Pos()), s, c)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Fatalf("found only %d iron-rule codes in string literals; the scan does not see the code", n)
	}
}
