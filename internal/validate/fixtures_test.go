package validate

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

const sprints = "../../testdata/sprints"

// copyTree copies a fixture workspace into a fresh temp dir.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	testutil.CopyTree(t, src, dst)
	return dst
}

// snapshot maps every file of root to its content.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			m[p] = string(b)
		}
		return nil
	})
	return m
}

func TestFixtures(t *testing.T) {
	n, pass := 0, 0
	for _, e := range testutil.SprintCases(t) {
		if e.Command != "validate" && e.Command != "finalize-check" {
			continue
		}
		n++
		e := e
		ok := t.Run(e.Case+"/"+e.Command, func(t *testing.T) {
			root := copyTree(t, e.Dir)
			before := snapshot(t, root)
			run := Validate
			if e.Command == "finalize-check" {
				run = FinalizeCheck
			}
			rep, err := run(root)
			if err != nil {
				t.Fatal(err)
			}
			out := rep.String()
			if got := map[bool]string{true: "pass", false: "fail"}[rep.Valid()]; got != e.Expect {
				t.Fatalf("expect %s, got %s:\n%s", e.Expect, got, out)
			}
			for _, m := range e.MustMention {
				if !strings.Contains(out, m) {
					t.Errorf("output lacks %q:\n%s", m, out)
				}
			}
			if e.Rule != nil && e.Expect == "fail" && !strings.Contains(out, "["+*e.Rule+"]") {
				t.Errorf("rule %s not reported:\n%s", *e.Rule, out)
			}
			after := snapshot(t, root)
			if len(after) != len(before) {
				t.Errorf("workspace changed: %d files before, %d after", len(before), len(after))
			}
			for p, s := range before {
				if after[p] != s {
					t.Errorf("%s modified", p)
				}
			}
		})
		if ok {
			pass++
		}
	}
	t.Logf("validate/finalize fixtures: %d/%d", pass, n)
}
