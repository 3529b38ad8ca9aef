package corpustest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/pathguard"
	"github.com/superagent-harness/harness/internal/verdict"
)

// TestPathsCorpus runs every case of testdata/corpus/paths.jsonl through the
// path guard following testdata/corpus/README.md §5: a fresh root named
// sprint_20260421_1 in a fresh parent, the skeleton, prefix substitution,
// setup (sh -c, in the root), mkdir of the cwd, file_content, and
// harness_root. Edit/Write/MultiEdit/NotebookEdit cases call CheckTool; Bash
// cases are parsed and every invocation goes through CheckInvocation. It
// logs accuracy per rule, kind and tool and fails on every miss.
func TestPathsCorpus(t *testing.T) {
	cases := loadPathCases(t)
	if len(cases) < 300 {
		t.Fatalf("corpus has %d cases, expected the 365 of testdata/corpus/README.md §7", len(cases))
	}
	byRule, byKind, byTool := newPathTally(), newPathTally(), newPathTally()
	var failed []string
	for _, c := range cases {
		got, skip := runPathCase(t, c)
		if skip != "" {
			t.Logf("%s skipped: %s", c.ID, skip)
			continue
		}
		ok := got.Action.String() == c.Expect
		byRule.add(c.Rule+"/"+c.Expect, ok)
		byKind.add(c.Kind, ok)
		byTool.add(c.Tool, ok)
		if !ok {
			failed = append(failed, c.ID)
			t.Errorf("%s (%s %s, rule %s, kind %s): expect %s, got %s %s: %s\n  input: %s",
				c.ID, c.Tool, c.Expect, c.Rule, c.Kind, c.Expect, got.Action, got.Rule, got.Message, string(c.ToolInput))
		}
		if got.Action == verdict.Warn {
			t.Errorf("%s: the path guard never warns", c.ID)
		}
	}
	t.Log("\n" + byRule.table("accuracy by rule/expect") + byKind.table("accuracy by kind") + byTool.table("accuracy by tool"))
	if len(failed) > 0 {
		t.Logf("failing ids: %s", strings.Join(failed, " "))
	}
}

// runPathCase prepares the workspace for c and returns the guard's decision.
func runPathCase(t *testing.T, c pathCase) (verdict.Decision, string) {
	t.Helper()
	p := preparePathCase(t, c)
	g, err := pathguard.New(p.harnessRoot, "f002")
	if err != nil {
		t.Fatalf("%s: New: %v", c.ID, err)
	}
	before := pathSnapshot(t, filepath.Dir(p.root))
	var d verdict.Decision
	skip := ""
	if c.Tool == "Bash" {
		d, skip = runPathBashCase(t, g, c, p)
	} else {
		d = g.CheckTool(c.Tool, p.toolInput, p.cwd)
	}
	if after := pathSnapshot(t, filepath.Dir(p.root)); after != before {
		t.Errorf("%s: the guard changed the workspace (testdata/corpus/README.md §5 step 5)", c.ID)
	}
	return d, skip
}
