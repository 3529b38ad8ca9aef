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
)

// docIDs returns the ids of the `rule id` column of every Markdown table in
// docs/protocol.md, with the line each is documented on.
func docIDs(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	cells := func(line string) []string {
		parts := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	idRe := regexp.MustCompile("^`([a-z_]+\\.[a-z0-9_-]+)`$")
	ids := map[string]int{}
	col := -1
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "|") {
			col = -1
			continue
		}
		c := cells(line)
		if col < 0 {
			for k, h := range c {
				if h == "rule id" {
					col = k
				}
			}
			continue
		}
		if strings.HasPrefix(line, "|---") || col >= len(c) {
			continue
		}
		m := idRe.FindStringSubmatch(c[col])
		if m == nil {
			t.Errorf("docs/protocol.md:%d: the rule id cell %q is not one `id`", i+1, c[col])
			continue
		}
		if prev, dup := ids[m[1]]; dup {
			t.Errorf("docs/protocol.md:%d: %s is documented twice (also line %d)", i+1, m[1], prev)
		}
		ids[m[1]] = i + 1
	}
	return ids
}

// TestRegistryMatchesDocs: every registered id is documented in a rule-id
// table of docs/protocol.md §14, and every documented id is registered.
func TestRegistryMatchesDocs(t *testing.T) {
	doc := docIDs(t)
	if len(doc) < 80 {
		t.Fatalf("docs/protocol.md documents only %d rule ids", len(doc))
	}
	reg := map[string]bool{}
	for _, r := range All() {
		if reg[r.ID] {
			t.Errorf("%s is registered twice", r.ID)
		}
		reg[r.ID] = true
		if _, ok := doc[r.ID]; !ok {
			t.Errorf("%s (%s) is not documented in docs/protocol.md §14", r.ID, r.Source)
		}
	}
	for id, line := range doc {
		if !reg[id] {
			t.Errorf("docs/protocol.md:%d documents %s, which no registry lists", line, id)
		}
	}
}

// TestGeneratedIDsPresent: the generated parts are not empty (a generator
// that wrote nothing would pass the comparison above only if the docs lost
// the same rows).
func TestGeneratedIDsPresent(t *testing.T) {
	if len(bashIDs) < 25 || len(pathIDs) < 10 {
		t.Fatalf("generated ids: %d bash, %d path", len(bashIDs), len(pathIDs))
	}
	if !Known(FsRmRecursiveForce) || !Known(PathEvalLogAppendOnly) || Known("no.such-rule") {
		t.Fatal("Known")
	}
}

// TestCodeUsesOnlyRegisteredIDs: every string literal in the module's Go
// code (tests included) that has the shape of a rule id of a registered
// prefix ("stop.…", "eval.…", "path.…") is a registered id, so a new id
// cannot be emitted without being added to the registry and the docs.
func TestCodeUsesOnlyRegisteredIDs(t *testing.T) {
	prefixes := map[string]bool{}
	for _, r := range All() {
		p, _, _ := strings.Cut(r.ID, ".")
		prefixes[p] = true
	}
	notIDs := map[string]bool{"json": true, "jsonl": true, "md": true, "yaml": true, "yml": true, "log": true, "go": true,
		"lock": true, "txt": true, "sh": true, "html": true, "exe": true, "mjs": true, "js": true, "py": true, "toml": true,
		"tool": true} // json.tool is the Python module run by python -m (internal/shell programs)
	shape := regexp.MustCompile(`^([a-z]+)\.([a-z0-9_]+(?:-[a-z0-9_]+)*)$`)
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
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
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
			m := shape.FindStringSubmatch(s)
			if m == nil || !prefixes[m[1]] || notIDs[m[2]] {
				return true
			}
			n++
			if !Known(s) {
				t.Errorf("%s: %q looks like a rule id but is not registered in internal/ruleid (and docs/protocol.md §14)", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("found only %d rule-id literals; the scan does not see the code", n)
	}
}
