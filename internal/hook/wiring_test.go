package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestHookWiringIsReadOnly: inside a workspace, the user-level Claude Code
// settings (HOME and CLAUDE_CONFIG_DIR from the hook's env) and the running
// hook executable are refused to Bash writes and the file tools with rule
// path.hook-wiring; outside a workspace the path guard stays off, and other
// files outside the root stay writable.
func TestHookWiringIsReadOnly(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	home := filepath.Join(t.TempDir(), "home")
	cfg := filepath.Join(t.TempDir(), "cfg")
	exe := filepath.Join(t.TempDir(), "bin", "harness-hook")
	mustMkdir(t, filepath.Join(home, ".claude"))
	mustMkdir(t, cfg)
	mustMkdir(t, filepath.Dir(exe))
	if err := os.WriteFile(exe, []byte("bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := runner{executable: func() (string, error) { return exe, nil }}
	proj := filepath.Join(t.TempDir(), "proj")
	mustMkdir(t, filepath.Join(proj, ".claude"))
	env := map[string]string{"HOME": home, "CLAUDE_CONFIG_DIR": cfg, "CLAUDE_PROJECT_DIR": proj}
	call := func(args []string, tool string, input map[string]any) (string, string) {
		p, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root,
			"tool_name": tool, "tool_input": input})
		res := runIn(r, args, env, strings.NewReader(string(p)))
		return corpusOutcome(t, tool, res), res.stdout
	}
	inWS := []string{"--root", root, "--feature", "f001"}
	for _, c := range []struct {
		tool  string
		input map[string]any
		want  string
	}{
		{"Bash", map[string]any{"command": `mkdir -p "$HOME/.claude" && echo '{"disableAllHooks":true}' > "$HOME/.claude/settings.json"`}, "block"},
		{"Bash", map[string]any{"command": `echo '{}' > ~/.claude/settings.local.json`}, "block"},
		{"Bash", map[string]any{"command": "echo '{}' > " + cfg + "/settings.json"}, "block"},
		{"Bash", map[string]any{"command": "cp /bin/true $(which harness-hook)"}, "block"},
		{"Write", map[string]any{"file_path": filepath.Join(proj, ".claude", "settings.local.json"), "content": `{"disableAllHooks":true}`}, "block"},
		{"Bash", map[string]any{"command": "cp /bin/true " + exe}, "block"},
		{"Write", map[string]any{"file_path": filepath.Join(home, ".claude", "settings.json"), "content": `{"disableAllHooks":true}`}, "block"},
		{"Edit", map[string]any{"file_path": exe, "old_string": "bin", "new_string": "x"}, "block"},
		{"Bash", map[string]any{"command": "echo x > " + home + "/notes.txt"}, "allow"},
		{"Write", map[string]any{"file_path": filepath.Join(home, ".claude", "notes.md"), "content": "x"}, "allow"}, // CLAUDE.md there is a memory file: path.claude-config
	} {
		got, out := call(inWS, c.tool, c.input)
		if got != c.want || (c.want == "block" && !strings.Contains(out, "path.hook-wiring")) {
			t.Errorf("%s %v: got %s, want %s (path.hook-wiring)\n%s", c.tool, c.input, got, c.want, out)
		}
	}
	// outside a workspace the wiring stays protected (pathguard.NewPlain);
	// nothing else is (TestPlainProjectProtectsHookWiring)
	outside := t.TempDir()
	p, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": outside,
		"tool_name": "Write", "tool_input": map[string]any{"file_path": filepath.Join(home, ".claude", "settings.json"), "content": "{}"}})
	res := runIn(r, nil, map[string]string{"HOME": home}, strings.NewReader(string(p)))
	if got := corpusOutcome(t, "outside", res); got != "block" || !strings.Contains(res.stdout, "path.hook-wiring") {
		t.Fatalf("outside a workspace: %s\n%s", got, res.stdout)
	}
}

// TestPathsCorpusWithHookWiring: the hook wiring extension blocks nothing
// the corpus expects to be allowed. Every paths.jsonl case runs twice,
// with the root at HOME/work/sprint_20260421_1 (the corpus layout,
// /home/user/work/…): without HOME and executable, and with HOME,
// CLAUDE_CONFIG_DIR and the executable known; the answers must be equal.
func TestPathsCorpusWithHookWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("setup snippets are POSIX sh")
	}
	const prefix = "/home/user/work/sprint_20260421_1"
	n := 0
	readJSONL(t, "paths.jsonl", func(line []byte) {
		var c pathsCase
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("bad corpus line: %s", line)
		}
		home := filepath.Join(t.TempDir(), "home", "user")
		root := filepath.Join(home, "work", "sprint_20260421_1")
		mustMkdir(t, filepath.Join(home, ".claude"))
		writeFile(t, filepath.Join(home, ".claude", "settings.json"), "{}")
		exe := filepath.Join(home, ".local", "bin", "harness-hook")
		mustMkdir(t, filepath.Dir(exe))
		writeFile(t, exe, "bin")
		input, cwd, hroot := preparePathsCase(t, c, prefix, root)
		rawInput, _ := json.Marshal(input)
		payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.Tool,
			"tool_input": json.RawMessage(rawInput), "cwd": cwd})
		env := map[string]string{"HARNESS_ROOT": hroot, "FEATURE_ID": "f002"}
		plain := corpusOutcome(t, c.ID, runIn(runner{}, nil, env, strings.NewReader(string(payload))))
		wenv := map[string]string{"HARNESS_ROOT": hroot, "FEATURE_ID": "f002", "HOME": home, "CLAUDE_CONFIG_DIR": filepath.Join(home, ".config", "claude"),
			"CLAUDE_PROJECT_DIR": filepath.Join(root, ".harness", "features", "f002")}
		wired := corpusOutcome(t, c.ID, runIn(runner{executable: func() (string, error) { return exe, nil }}, nil, wenv, strings.NewReader(string(payload))))
		if plain != wired {
			t.Errorf("%s: %s without the hook wiring, %s with it", c.ID, plain, wired)
		}
		n++
	})
	if n < 360 {
		t.Fatalf("only %d corpus cases", n)
	}
}
