package pathguard

import (
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestBackslashAsSeparator (round 12 cp0152): a target whose backslashes
// name a protected path when read as directory separators is judged that
// way on every OS, as Windows reads it (docs/protocol.md §14.6, the
// testdata/corpus/README.md §3.1 rule that verdicts do not depend on where
// the guard runs); on Linux `templates\page.md` is a root file of that
// name, which stays allowed by the literal reading alone.
func TestBackslashAsSeparator(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	for _, c := range []struct {
		path, want string
	}{
		{`templates\page.md`, "block"},
		{filepath.Join(root, `templates\page.md`), "block"},
		{`.harness\eval_log.jsonl`, "block"},
		{`spec\guides\x.md`, "block"},
		{`.harness\features\f003\handoff.md`, "block"},
		{`.harness\features\f002\notes.md`, "allow"},
		{`src\main.go`, "allow"},
		{`build\out\x.txt`, "allow"},
		{`notes\templates.md`, "allow"},
	} {
		d := g.CheckTool("Write", write(c.path), root)
		got := "allow"
		if d.Action == verdict.Block {
			got = "block"
		}
		if got != c.want {
			t.Errorf("Write %q: %s (%s), want %s", c.path, got, d.Rule, c.want)
		}
	}
	checkBashCases(t, g, root, []bashCase{
		{`touch 'templates\page.md'`, "block"},
		{`echo x > 'spec\index.md'`, "block"},
		{`printf x >> ".harness\\eval_log.jsonl"`, "block"},
		{`echo x > 'build\out.txt'`, "allow"},
		{`touch templates\page.md`, "allow"}, // unquoted: the shell removes the backslash (templatespage.md)
	})
}
