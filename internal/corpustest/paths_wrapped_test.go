package corpustest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/pathguard"
)

// TestPathsCorpusWrapped re-runs every Bash case of paths.jsonl inside the
// wrappers of testdata/corpus/README.md §2.1/§2.3 that run it unchanged (bash -c, a
// subshell, eval, a pipe into sh, an if body, a function that is called,
// timeout): §3.3 says "the same walk as in 2.1 applies", so each wrapped
// command must get the case's own verdict. Commands with a heredoc or a
// top-level cd (whose effect a bash -c would confine) are wrapped only in
// the forms that keep them intact.
func TestPathsCorpusWrapped(t *testing.T) {
	sq := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	wraps := []struct {
		name     string
		wrap     func(string) string
		heredocs bool // safe for commands holding a heredoc
	}{
		{"bash -c", func(c string) string { return "bash -c " + sq(c) }, true},
		{"subshell", func(c string) string { return "( " + c + "\n)" }, true},
		{"eval", func(c string) string { return "eval " + sq(c) }, true},
		{"pipe to sh", func(c string) string { return "printf '%s\\n' " + sq(c) + " | sh" }, true},
		{"if body", func(c string) string { return "if true; then\n" + c + "\nfi" }, true},
		{"called function", func(c string) string { return "f() {\n" + c + "\n}; f" }, true},
		{"timeout bash -c", func(c string) string { return "timeout 30 bash -c " + sq(c) }, true},
	}
	n := 0
	for _, c := range loadPathCases(t) {
		if c.Tool != "Bash" {
			continue
		}
		p := preparePathCase(t, c)
		var in struct {
			Command string `json:"command"`
		}
		if err := json.Unmarshal(p.toolInput, &in); err != nil {
			t.Fatalf("%s: tool_input: %v", c.ID, err)
		}
		if strings.TrimSpace(in.Command) == "" {
			continue
		}
		g, err := pathguard.New(p.harnessRoot, "f002")
		if err != nil {
			t.Fatalf("%s: New: %v", c.ID, err)
		}
		for _, w := range wraps {
			if strings.Contains(in.Command, "<<") && !w.heredocs {
				continue
			}
			cmd := w.wrap(in.Command)
			res := bashguard.Decide(cmd, bashguard.Context{Feature: "f002", Paths: g, Cwd: p.cwd,
				Vars: map[string]string{"HARNESS_ROOT": p.harnessRoot}})
			n++
			if got := res.Decision.Action.String(); got != c.Expect {
				t.Errorf("%s wrapped in %s: expect %s, got %s %s\n  %q", c.ID, w.name, c.Expect, got, res.Decision.Rule, cmd)
			}
		}
	}
	t.Logf("%d wrapped path cases", n)
}
