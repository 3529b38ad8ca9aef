package corpustest

import (
	"strings"
	"testing"
)

// TestPathsCorpus runs every case of testdata/corpus/paths.jsonl through
// harness-hook following testdata/corpus/README.md §5: a fresh root named
// sprint_20260421_1 in a fresh parent, the skeleton, prefix substitution,
// setup (sh -c, in the root), mkdir of the cwd, file_content, harness_root,
// and the hook's environment (HARNESS_ROOT, FEATURE_ID=f002, HOME). It logs
// accuracy per rule, kind and tool and fails on every miss.
func TestPathsCorpus(t *testing.T) {
	cases := loadPathCases(t, sharedPathsFile)
	if len(cases) < 300 {
		t.Fatalf("corpus has %d cases, expected the 365 of testdata/corpus/README.md §7", len(cases))
	}
	byRule, byKind, byTool := newPathTally(), newPathTally(), newPathTally()
	var failed []string
	for _, c := range cases {
		got := runPathCase(t, c)
		ok := got.Outcome == c.Expect
		byRule.add(c.Rule+"/"+c.Expect, ok)
		byKind.add(c.Kind, ok)
		byTool.add(c.Tool, ok)
		if !ok {
			failed = append(failed, c.ID)
			t.Errorf("%s (%s %s, rule %s, kind %s): expect %s, got %s %s%s: %s\n  input: %s",
				c.ID, c.Tool, c.Expect, c.Rule, c.Kind, c.Expect, got.Outcome, got.Rule, got.Problem, got.Text, string(c.ToolInput))
		}
		if got.Outcome == "warn" {
			t.Errorf("%s: the path guard never warns", c.ID)
		}
	}
	t.Log("\n" + byRule.table("accuracy by rule/expect") + byKind.table("accuracy by kind") + byTool.table("accuracy by tool"))
	if len(failed) > 0 {
		t.Logf("failing ids: %s", strings.Join(failed, " "))
	}
}

// TestPathSubstitute: the corpus's /home/user is the hook's HOME H = T/home/user,
// and every other /home/… path is the same path below T/home, H's parent, so
// a case naming an ancestor of the root above HOME (/home/.claude/…, round
// 15 fp0156) reaches an ancestor of R, as it would on the machine the
// corpus describes; a path outside /home (/tmp, /etc) is kept.
func TestPathSubstitute(t *testing.T) {
	home := "/T/home/user"
	for _, c := range []struct{ in, want string }{
		{"/home/user/work/sprint_20260421_1", "/T/home/user/work/sprint_20260421_1"},
		{"/home/user", "/T/home/user"},
		{"cd /home/user/.claude && cat /home/user/x", "cd /T/home/user/.claude && cat /T/home/user/x"},
		{"/home/.claude/agents/reviewer.md", "/T/home/.claude/agents/reviewer.md"},
		{"/home/other/.claude/skills/x/SKILL.md", "/T/home/other/.claude/skills/x/SKILL.md"},
		{"/tmp/home/x", "/tmp/home/x"},
		{"/etc/passwd", "/etc/passwd"},
	} {
		if got := pathSubstitute(c.in, home); got != c.want {
			t.Errorf("pathSubstitute(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
