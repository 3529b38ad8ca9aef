package hook

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlainProjectProtectsHookWiring: outside a sprint workspace the hook
// still refuses every write to the settings files that wire it — the
// project's .claude/settings*.json (the session's cwd) and the user's
// ~/.claude/settings*.json, through Bash and the file tools — and judges no
// other path (an ordinary project has no protected files).
func TestPlainProjectProtectsHookWiring(t *testing.T) {
	dir := t.TempDir()
	proj, home := filepath.Join(dir, "proj"), filepath.Join(dir, "home")
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(dir, "state"), "PATH": "/usr/bin:/bin"}
	call := func(tool string, input map[string]any) (deny bool, out string) {
		t.Helper()
		payload, _ := json.Marshal(map[string]any{"session_id": "plain", "hook_event_name": "PreToolUse", "cwd": proj,
			"tool_name": tool, "tool_input": input})
		var stdout, stderr bytes.Buffer
		code := Run([]string{"--event", "PreToolUse", "--preset", "standard"}, bytes.NewReader(payload), &stdout, &stderr, env)
		if code != 0 && code != 2 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		return code == 2 || strings.Contains(stdout.String(), `"deny"`), stdout.String() + stderr.String()
	}
	for _, c := range []struct {
		tool  string
		input map[string]any
		deny  bool
	}{
		{"Bash", map[string]any{"command": "echo x > .claude/settings.json"}, true},
		{"Bash", map[string]any{"command": "echo x > ~/.claude/settings.json"}, true},
		{"Bash", map[string]any{"command": "cp /tmp/evil.json " + filepath.Join(proj, ".claude", "settings.local.json")}, true},
		{"Bash", map[string]any{"command": "rm .claude/settings.json"}, true},
		{"Write", map[string]any{"file_path": filepath.Join(proj, ".claude", "settings.json"), "content": "{}"}, true},
		{"Edit", map[string]any{"file_path": filepath.Join(home, ".claude", "settings.json"), "old_string": "block", "new_string": "continue"}, true},
		{"Bash", map[string]any{"command": "echo x > notes.txt && mkdir -p schemas && echo '{}' > schemas/a.json"}, false},
		{"Write", map[string]any{"file_path": filepath.Join(proj, "src", "main.go"), "content": "package main"}, false},
		{"Write", map[string]any{"file_path": filepath.Join(proj, ".claude", "notes.md"), "content": "x"}, false},
		{"Bash", map[string]any{"command": "cat .claude/settings.json"}, false},
		{"Bash", map[string]any{"command": "find . -name '*.pyc' -delete"}, false},
		{"Bash", map[string]any{"command": "rm -r .claude"}, true},
	} {
		deny, out := call(c.tool, c.input)
		if deny != c.deny {
			t.Errorf("%s %v: deny=%v, want %v\n%s", c.tool, c.input, deny, c.deny, out)
		}
		if deny && !strings.Contains(out, "path.hook-wiring") {
			t.Errorf("%s %v: denied, but not by path.hook-wiring:\n%s", c.tool, c.input, out)
		}
	}
}
