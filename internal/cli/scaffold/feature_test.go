package scaffold

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func decodeSettings(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("settings not JSON: %v\n%s", err, b)
	}
	return m
}

// ourHandlers collects (event, matcher, args) of every harness-hook handler.
func ourHandlers(t *testing.T, doc map[string]any, hookBin string) [][3]any {
	var out [][3]any
	hooks := doc["hooks"].(map[string]any)
	for ev, v := range hooks {
		for _, g := range v.([]any) {
			gm := g.(map[string]any)
			for _, h := range gm["hooks"].([]any) {
				if IsOurHandler(h, hookBin) {
					out = append(out, [3]any{ev, gm["matcher"], h.(map[string]any)["args"]})
				}
			}
		}
	}
	return out
}

func TestMergeSettingsFresh(t *testing.T) {
	b, err := MergeSettings(nil, "/opt/bin/harness-hook", "/s/sprint_20260421_1", "f003", "sprint_20260421_1")
	if err != nil {
		t.Fatal(err)
	}
	doc := decodeSettings(t, b)
	hooks := doc["hooks"].(map[string]any)
	for _, ev := range []string{"SessionStart", "PreToolUse", "Stop", "SubagentStop"} {
		if hooks[ev] == nil {
			t.Errorf("no %s registration", ev)
		}
	}
	pre := hooks["PreToolUse"].([]any)
	if len(pre) != 2 {
		t.Fatalf("PreToolUse groups = %d, want 2", len(pre))
	}
	matchers := []any{pre[0].(map[string]any)["matcher"], pre[1].(map[string]any)["matcher"]}
	if !reflect.DeepEqual(matchers, []any{"Bash", "Edit|Write|MultiEdit|NotebookEdit"}) {
		t.Fatalf("matchers = %v", matchers)
	}
	h := pre[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
	want := map[string]any{"type": "command", "command": "/opt/bin/harness-hook",
		"args":    []any{"--event", "PreToolUse", "--root", "/s/sprint_20260421_1", "--feature", "f003", "--sprint", "sprint_20260421_1"},
		"timeout": float64(preToolUseTimeout), "onFailure": "block"}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("handler = %v\nwant %v", h, want)
	}
	// both PreToolUse groups fail closed (a missing or hung hook denies)
	for i, g := range pre {
		if hh := g.(map[string]any)["hooks"].([]any)[0].(map[string]any); hh["onFailure"] != "block" {
			t.Errorf("PreToolUse group %d handler = %v, want onFailure block", i, hh)
		}
	}
	for _, ev := range []string{"SessionStart", "Stop", "SubagentStop"} {
		g := hooks[ev].([]any)[0].(map[string]any)
		if _, has := g["matcher"]; has {
			t.Errorf("%s group has a matcher", ev)
		}
		hh := g["hooks"].([]any)[0].(map[string]any)
		if hh["timeout"].(float64) <= 0 || hh["args"].([]any)[1] != ev {
			t.Errorf("%s handler = %v", ev, hh)
		}
		if _, has := hh["onFailure"]; has {
			t.Errorf("%s handler has onFailure (only PreToolUse honours it): %v", ev, hh)
		}
	}
}

func TestMergeSettingsIdempotentAndKeepsForeign(t *testing.T) {
	old := []byte(`{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "env": {"X": "1"},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "/old/place/harness-hook", "args": ["--event", "PreToolUse", "--feature", "f003"]},
        {"type": "command", "command": "lint-hook"}
      ]},
      {"matcher": "Read", "hooks": [{"type": "command", "command": "audit-read"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "/old/place/harness-hook --event Stop"}]}],
    "PostToolUse": [{"hooks": [{"type": "command", "command": "harness-hook"}]}]
  }
}`)
	bin := "/new/harness-hook"
	b1, err := MergeSettings(old, bin, "/r", "f003", "sprint_20260421_1")
	if err != nil {
		t.Fatal(err)
	}
	b2, err := MergeSettings(b1, bin, "/r", "f003", "sprint_20260421_1")
	if err != nil {
		t.Fatal(err)
	}
	if string(b1) != string(b2) {
		t.Fatalf("second merge changed the file:\n%s\n---\n%s", b1, b2)
	}
	doc := decodeSettings(t, b2)
	if doc["permissions"] == nil || doc["env"] == nil {
		t.Fatal("foreign top-level keys dropped")
	}
	ours := ourHandlers(t, doc, bin)
	if len(ours) != 5 {
		t.Fatalf("our handlers = %d (%v), want 5", len(ours), ours)
	}
	for _, o := range ours {
		if o[2].([]any)[0] != "--event" {
			t.Fatalf("stale handler kept: %v", o)
		}
	}
	hooks := doc["hooks"].(map[string]any)
	s := string(b2)
	for _, keep := range []string{"lint-hook", "audit-read", `"PostToolUse"`} {
		if !contains(s, keep) {
			t.Errorf("foreign entry %s dropped", keep)
		}
	}
	if contains(s, "/old/place") {
		t.Error("old harness-hook registration kept")
	}
	// The plain `harness-hook` without --event under PostToolUse is not ours.
	if len(hooks["PostToolUse"].([]any)) != 1 {
		t.Error("PostToolUse changed")
	}
}

func TestMergeSettingsRejectsBadJSON(t *testing.T) {
	for _, old := range []string{"[1,2]", "{", `{"hooks": 3}`} {
		if _, err := MergeSettings([]byte(old), "/b/harness-hook", "/r", "f001", "sprint_20260421_1"); err == nil {
			t.Errorf("MergeSettings(%s) accepted", old)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestArtifactPaths(t *testing.T) {
	log := "# Generator Log: f001\n\n## phase=1 plan — 2026-04-21T02:08:30Z\n\n### 产出物\n" +
		"- 子任务清单(本段)\n- `linkcheck/internal/extract/doc.go`(仅包注释)\n* linkcheck/a.go (stub)\n" +
		"1. `x/y.go` and `x/z.go`\n\n### 关键决策\n- `not/an/artifact.go`\n" +
		"## phase=2 implement — 2026-04-21T03:00:00Z\n### 产出物\n```\n- `in/fence.go`\n    ```\n- `in/fence2.go`\n```\n- `linkcheck/b.go`\n"
	got := artifactPaths([]byte(log))
	want := []string{"linkcheck/internal/extract/doc.go", "linkcheck/a.go", "x/y.go", "x/z.go", "linkcheck/b.go"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("artifactPaths = %q\nwant %q", got, want)
	}
}

func TestFindHookBin(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PATH": dir}
	if _, err := FindHookBin("", env, dir); !errors.Is(err, ErrNoHookBin) {
		t.Fatalf("no hook anywhere: err = %v", err)
	}
	bin := filepath.Join(dir, HookBinName())
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := FindHookBin("", env, dir)
	if err != nil || got != bin {
		t.Fatalf("PATH lookup = %q, %v; want %q", got, err, bin)
	}
	got, err = FindHookBin(HookBinName(), env, dir)
	if err != nil || got != bin {
		t.Fatalf("relative --hook-bin = %q, %v; want %q", got, err, bin)
	}
	if _, err := FindHookBin(dir, env, dir); err == nil {
		t.Fatal("a directory accepted as --hook-bin")
	}
}
