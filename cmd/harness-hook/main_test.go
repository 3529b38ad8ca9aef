package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVersionFlagPrintsVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, strings.NewReader(""), &out, &errb, nil); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got := strings.TrimSpace(out.String()); !strings.HasPrefix(got, "harness-hook "+version+" (commit ") {
		t.Fatalf("printed %q, want harness-hook %s (commit …)", got, version)
	}
}

// TestHelpExampleRuns: the example of --help names a payload of the
// repository, and the hook denies it as the help says (a new user found no
// example of piping a payload in --help or the README).
func TestHelpExampleRuns(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, strings.NewReader(""), &out, &errb, nil); code != 0 {
		t.Fatalf("exit %d", code)
	}
	const example = "harness-hook --event PreToolUse < testdata/hook-input/pretooluse-bash-subagent.json"
	if !strings.Contains(out.String(), "\n  "+example+"\n") {
		t.Fatalf("--help has no example line %q:\n%s", example, out.String())
	}
	payload, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hook-input", "pretooluse-bash-subagent.json"))
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"--event", "PreToolUse"}, bytes.NewReader(payload), &out, &errb, map[string]string{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out.String(), `"permissionDecision":"deny"`) || !strings.Contains(out.String(), "[fs.rm-recursive-force]") {
		t.Fatalf("the example is not denied as rm -rf: %s", out.String())
	}
}

func TestRunDeniesDestructiveBash(t *testing.T) {
	var out, errb bytes.Buffer
	payload := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"/"}`
	if code := run([]string{"--event", "PreToolUse"}, strings.NewReader(payload), &out, &errb, map[string]string{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("want deny, got %s (%v)", out.String(), err)
	}
}
