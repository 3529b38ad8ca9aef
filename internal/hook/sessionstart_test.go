package hook

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/testutil"
)

// sessionStart runs SessionStart in-process and returns additionalContext.
func runSessionStart(t *testing.T, root, feature, session string) string {
	t.Helper()
	payload := `{"hook_event_name":"SessionStart","source":"startup","session_id":"` + session + `","cwd":"` + filepath.ToSlash(root) + `"}`
	args := []string{"--root", root, "--sprint", "sprint_20260421_1"}
	if feature != "" {
		args = append(args, "--feature", feature)
	}
	res := runIn(runner{}, args, nil, strings.NewReader(payload))
	obj := checkContract(t, EventSessionStart, res.stdout)
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	ctx, _ := hso["additionalContext"].(string)
	if ctx == "" {
		t.Fatalf("no additionalContext: %s", res.stdout)
	}
	return ctx
}

func writeFile(t testing.TB, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSessionStartContext: feature, sprint, root, the feature's AGENTS.md,
// context_snapshot.md, tooling.md and the phase-completion command; the
// session id fills an empty session_id.txt and never overwrites one.
func TestSessionStartContext(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	fdir := filepath.Join(root, ".harness", "features", "f002")
	writeFile(t, filepath.Join(fdir, "session_id.txt"), "  \n")
	writeFile(t, filepath.Join(fdir, "AGENTS.md"), "# Feature rules\nMARKER-AGENTS\n")

	ctx := runSessionStart(t, root, "f002", "sess-123")
	for _, want := range []string{"f002", "sprint_20260421_1", root, "MARKER-AGENTS", "harness phase complete f002",
		"Sprint Tooling", "schemas/"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("context lacks %q", want)
		}
	}
	snap, _ := os.ReadFile(filepath.Join(fdir, "context_snapshot.md"))
	if line := strings.SplitN(strings.TrimSpace(string(snap)), "\n", 2)[0]; !strings.Contains(ctx, line) {
		t.Errorf("context lacks the snapshot's first line %q", line)
	}
	if got, _ := os.ReadFile(filepath.Join(fdir, "session_id.txt")); strings.TrimSpace(string(got)) != "sess-123" {
		t.Fatalf("session_id.txt = %q", got)
	}
	runSessionStart(t, root, "f002", "sess-999")
	if got, _ := os.ReadFile(filepath.Join(fdir, "session_id.txt")); strings.TrimSpace(string(got)) != "sess-123" {
		t.Fatalf("session_id.txt overwritten: %q", got)
	}
	// The feature copy of AGENTS.md wins; without it spec/AGENTS.md of the root.
	os.Remove(filepath.Join(fdir, "AGENTS.md"))
	writeFile(t, filepath.Join(root, "spec", "AGENTS.md"), "ROOT-SPEC-AGENTS\n")
	if ctx := runSessionStart(t, root, "f002", "x"); !strings.Contains(ctx, "ROOT-SPEC-AGENTS") {
		t.Fatal("spec/AGENTS.md fallback missing")
	}
	// Neither: the AGENTS.md embedded in the binary.
	os.Remove(filepath.Join(root, "spec", "AGENTS.md"))
	embedded, err := fs.ReadFile(harness.Assets(), "spec/AGENTS.md")
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(strings.TrimSpace(string(embedded)), "\n", 2)[0]
	if ctx := runSessionStart(t, root, "f002", "x"); !strings.Contains(ctx, first) || !strings.Contains(ctx, "embedded") {
		t.Fatalf("embedded spec/AGENTS.md fallback missing (want %q)", first)
	}
}

// TestSessionStartBudget: a huge AGENTS.md and a long Chinese snapshot are
// cut to stay under Claude Code's 10,000-character cap (counted in runes and
// in UTF-16 units), each with a marker naming the file to read; the header
// and the rules survive whole.
func TestSessionStartBudget(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	fdir := filepath.Join(root, ".harness", "features", "f001")
	writeFile(t, filepath.Join(fdir, "AGENTS.md"), strings.Repeat("Generator rule line: never edit schemas. 😀\n", 3000))
	writeFile(t, filepath.Join(fdir, "context_snapshot.md"), "# 功能上下文\n"+strings.Repeat("这是一个很长的中文上下文说明，用于测试预算。\n", 2000))
	tooling := filepath.Join(root, ".harness", "sprint_contracts", "sprint_20260421_1", "tooling.md")
	writeFile(t, tooling, strings.Repeat("- 工具选择：Go 标准库，理由：无依赖。\n", 1000))

	ctx := runSessionStart(t, root, "f001", "s")
	if n := utf8.RuneCountInString(ctx); n > 10000 || n < 8000 {
		t.Fatalf("context is %d runes; want ≤ 10000 and the budget used", n)
	}
	if n := utf16Len(ctx); n > contextBudget {
		t.Fatalf("context is %d UTF-16 units, over the %d budget", n, contextBudget)
	}
	if !utf8.ValidString(ctx) {
		t.Fatal("truncation split a character")
	}
	for _, want := range []string{
		"truncated", filepath.Join(fdir, "AGENTS.md"), filepath.Join(fdir, "context_snapshot.md"),
		"这是一个很长的中文上下文说明", "harness phase complete f001", "Sprint root",
	} {
		if !strings.Contains(ctx, want) {
			t.Errorf("context lacks %q", want)
		}
	}
	if strings.Count(ctx, "[… truncated") < 3 {
		t.Errorf("expected the three long sections to be truncated:\n%s", ctx[:500])
	}
}

// TestSessionStartHandoff: handoff.md is injected while it is newer than the
// last phase section and the session start; once a phase section follows
// it, it is not injected again.
func TestSessionStartHandoff(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway-reset"), root)
	handoff := filepath.Join(root, ".harness", "features", "f001", "handoff.md")
	now := time.Now()
	if err := os.Chtimes(handoff, now, now); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(handoff)
	first := strings.SplitN(strings.TrimSpace(string(data)), "\n", 2)[0]
	if ctx := runSessionStart(t, root, "f001", "s"); !strings.Contains(ctx, first) || !strings.Contains(ctx, "Handoff") {
		t.Fatalf("fresh handoff not injected")
	}
	// A phase section written after the handoff: already acted on.
	gl := filepath.Join(root, ".harness", "features", "f001", "generator_log.md")
	f, err := os.OpenFile(gl, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n## phase=2 implement — " + now.Add(time.Minute).UTC().Format("2006-01-02T15:04:05Z") + "\n\nresumed work\n")
	f.Close()
	if ctx := runSessionStart(t, root, "f001", "s"); strings.Contains(ctx, "Handoff from the previous session") {
		t.Fatalf("acted-on handoff injected again")
	}
	// An old handoff (before the last phase section) is never injected.
	old := now.Add(-48 * time.Hour)
	os.Chtimes(handoff, old, old)
	if ctx := runSessionStart(t, root, "f001", "s"); strings.Contains(ctx, "Handoff from the previous session") {
		t.Fatalf("stale handoff injected")
	}
}

// TestSessionStartOutsideWorkspace answers {} and writes nothing.
func TestSessionStartOutsideWorkspace(t *testing.T) {
	dir := t.TempDir()
	res := runIn(runner{}, nil, map[string]string{"FEATURE_ID": "f001"}, strings.NewReader(`{"hook_event_name":"SessionStart","session_id":"s","cwd":"`+filepath.ToSlash(dir)+`"}`))
	if strings.TrimSpace(res.stdout) != "{}" {
		t.Fatalf("got %s", res.stdout)
	}
}
