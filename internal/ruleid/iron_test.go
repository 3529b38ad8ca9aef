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
	n := 0
	walkStrings(t, func(pos token.Position, s string) {
		for _, c := range codeRe.FindAllString(s, -1) {
			n++
			if _, ok := Iron(c); !ok {
				t.Errorf("%s: %q cites %s, which docs/protocol.md §12 does not define", pos, s, c)
			}
		}
	})
	if n < 5 {
		t.Fatalf("found only %d iron-rule codes in string literals; the scan does not see the code", n)
	}
}

// walkStrings calls fn with every string literal of the module's Go code
// that is not a test or generated file (what harness can print).
func walkStrings(t *testing.T, fn func(pos token.Position, s string)) {
	t.Helper()
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
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
			if lit, ok := x.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					fn(fset.Position(lit.Pos()), s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSectionReferencesNameTheirDocument: a Go string that cites a section
// ("§4.5") names the document before it ("docs/protocol.md §4.5"), so a
// user reading a refusal or note knows where to look; 7 strings of
// next, preflight, reset and YOLO cited a bare "(§4.5)" or "(§13 #20)".
func TestSectionReferencesNameTheirDocument(t *testing.T) {
	docRe := regexp.MustCompile(`[A-Za-z0-9_./-]+\.(md|yaml|txtar) §`)
	n := 0
	walkStrings(t, func(pos token.Position, s string) {
		i := strings.Index(s, "§")
		if i < 0 {
			return
		}
		n++
		if loc := docRe.FindStringIndex(s); loc == nil || loc[1] > i+len("§") {
			t.Errorf("%s: %q cites a section without its document", pos, s)
		}
	})
	if n < 20 {
		t.Fatalf("found only %d section references; the scan does not see the code", n)
	}
}
