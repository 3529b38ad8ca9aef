package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRealClaudeMatcherSyntax: which PreToolUse matchers Claude Code
// 2.1.332 fires for a Bash call — the evidence behind harness doctor's
// matcher checks (internal/doctor): comma lists ("Write,Bash", "Write,
// Bash") and | lists fire, a wrong-case name ("bash") and a partial name
// ("Bas") never do.
func TestRealClaudeMatcherSyntax(t *testing.T) {
	claude, _ := setup(t)
	dir := t.TempDir()
	proj, home := filepath.Join(dir, "proj"), filepath.Join(dir, "home")
	seen := filepath.Join(dir, "seen.txt")
	matchers := map[string]bool{"Write,Bash": true, "Write, Bash": true, "Edit|Bash": true, "Bash": true, "bash": false, "Bas": false}
	var groups []any
	label := 0
	labels := map[string]string{}
	for m := range matchers {
		label++
		l := "m" + string(rune('0'+label))
		labels[l] = m
		groups = append(groups, map[string]any{"matcher": m, "hooks": []any{map[string]any{"type": "command", "command": "/bin/sh",
			"args": []string{"-c", "echo " + l + " >> " + seen}, "timeout": 5}}})
	}
	data, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": groups}})
	mustWrite(t, filepath.Join(proj, ".claude", "settings.json"), string(data))
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	mock := NewMockAPI(Script{Turns: [][]Block{{ToolUse("toolu_ls", "Bash", map[string]any{"command": "true"})}}, FinalText: "ok"},
		filepath.Join(dir, "mock.jsonl"))
	t.Cleanup(mock.Close)
	run, err := Run(context.Background(), RunOptions{Claude: claude, Dir: proj, Home: home, BaseURL: mock.URL(), Prompt: "run true",
		Path: os.Getenv("PATH"), Lang: "C.UTF-8", Timeout: 120 * time.Second})
	if err != nil || run.TimedOut {
		t.Fatalf("claude: %v (timed out %v)\n%s", err, run.TimedOut, run.Stderr)
	}
	got, _ := os.ReadFile(seen)
	fired := map[string]bool{}
	for _, l := range strings.Fields(string(got)) {
		fired[labels[l]] = true
	}
	t.Logf("matchers fired for a Bash call: %v", fired)
	for m, want := range matchers {
		if fired[m] != want {
			t.Errorf("matcher %q: fired=%v, want %v", m, fired[m], want)
		}
	}
}
