package e2e

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestRealClaudeInitFeatureWiringFailsClosed: the settings `harness
// init-feature` writes make the real CLI refuse Bash and Write calls when
// the hook binary it names has disappeared (a missing hook exits 127, which
// without "onFailure": "block" lets the tool run).
func TestRealClaudeInitFeatureWiringFailsClosed(t *testing.T) {
	claude, bins := setup(t)
	// wire a copy of the hook, then delete the copy
	hookCopy := filepath.Join(t.TempDir(), "bin", "harness-hook")
	copyExecutable(t, bins.Hook, hookCopy)
	wired := bins
	wired.Hook = hookCopy
	ws := newWorkspace(t, wired, true)
	if ws.Wiring != "init-feature" {
		t.Fatalf("hooks wired by %s, want init-feature", ws.Wiring)
	}
	if err := os.Remove(hookCopy); err != nil {
		t.Fatal(err)
	}
	bashMarker := filepath.Join(ws.Root, "src", "bash-ran")
	writeTarget := filepath.Join(ws.Root, "src", "written.txt")
	s := runSession(t, claude, ws, Script{Turns: [][]Block{
		{ToolUse("toolu_bash", "Bash", map[string]any{"command": "touch " + bashMarker})},
		{ToolUse("toolu_write", "Write", map[string]any{"file_path": writeTarget, "content": "x\n"})},
	}, FinalText: "done"})
	for _, c := range []struct{ id, path string }{{"toolu_bash", bashMarker}, {"toolu_write", writeTarget}} {
		tr, _ := s.toolResult(t, c.id)
		t.Logf("%s with the hook binary gone: is_error=%v result=%.200q", c.id, tr.IsError, tr.Text)
		if exists(c.path) || !tr.IsError {
			t.Errorf("%s ran although the hook binary is missing (init-feature wiring must fail closed)", c.id)
		}
	}
}

func copyExecutable(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
