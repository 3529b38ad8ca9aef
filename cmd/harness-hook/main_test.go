package main

import (
	"bytes"
	"encoding/json"
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
