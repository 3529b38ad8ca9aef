package ccsettings

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("settings not JSON: %v\n%s", err, b)
	}
	return m
}

// isOurs applies Handler.IsOurs to a handler decoded by encoding/json.
func isOurs(h any, hookBin string) bool {
	b, _ := json.Marshal(h)
	var hh Handler
	if json.Unmarshal(b, &hh) != nil {
		return false
	}
	return hh.IsOurs(hookBin)
}

// ourHandlers collects (event, matcher, args) of every harness-hook handler.
func ourHandlers(doc map[string]any, hookBin string) [][3]any {
	var out [][3]any
	hooks, _ := doc["hooks"].(map[string]any)
	for ev, v := range hooks {
		groups, _ := v.([]any)
		for _, g := range groups {
			gm, _ := g.(map[string]any)
			hs, _ := gm["hooks"].([]any)
			for _, h := range hs {
				if isOurs(h, hookBin) {
					out = append(out, [3]any{ev, gm["matcher"], h.(map[string]any)["args"]})
				}
			}
		}
	}
	return out
}

func wiring(bin string) Wiring {
	return Wiring{HookBin: bin, Root: "/s/sprint_20260421_1", Feature: "f003", Sprint: "sprint_20260421_1"}
}

func TestMergeFresh(t *testing.T) {
	b, err := Merge(nil, wiring("/opt/bin/harness-hook"))
	if err != nil {
		t.Fatal(err)
	}
	doc := decode(t, b)
	hooks := doc["hooks"].(map[string]any)
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "Stop", "SubagentStop"} {
		if hooks[ev] == nil {
			t.Errorf("no %s registration", ev)
		}
	}
	pre := hooks["PreToolUse"].([]any)
	if len(pre) != 3 {
		t.Fatalf("PreToolUse groups = %d, want 3", len(pre))
	}
	matchers := []any{pre[0].(map[string]any)["matcher"], pre[1].(map[string]any)["matcher"], pre[2].(map[string]any)["matcher"]}
	if !reflect.DeepEqual(matchers, []any{"Bash", "Edit|Write|MultiEdit|NotebookEdit", "*"}) {
		t.Fatalf("matchers = %v", matchers)
	}
	h := pre[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
	want := map[string]any{"type": "command", "command": "/opt/bin/harness-hook",
		"args":    []any{"--event", "PreToolUse", "--root", "/s/sprint_20260421_1", "--feature", "f003", "--sprint", "sprint_20260421_1"},
		"timeout": float64(PreToolUseTimeout), "onFailure": "block"}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("handler = %v\nwant %v", h, want)
	}
	for i, g := range pre {
		if hh := g.(map[string]any)["hooks"].([]any)[0].(map[string]any); hh["onFailure"] != "block" {
			t.Errorf("PreToolUse group %d handler = %v, want onFailure block", i, hh)
		}
	}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "PreCompact", "Stop", "SubagentStop"} {
		g := hooks[ev].([]any)[0].(map[string]any)
		if _, has := g["matcher"]; has {
			t.Errorf("%s group has a matcher", ev)
		}
		hh := g["hooks"].([]any)[0].(map[string]any)
		if hh["timeout"].(float64) != OtherHookTimeout || hh["args"].([]any)[1] != ev {
			t.Errorf("%s handler = %v", ev, hh)
		}
		if _, has := hh["onFailure"]; has {
			t.Errorf("%s handler has onFailure (only PreToolUse honours it): %v", ev, hh)
		}
	}
}

const foreign = `{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "env": {"X": "1", "BIG": 12345678901234567890},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "/old/place/harness-hook", "args": ["--event", "PreToolUse", "--feature", "f003"]},
        {"type": "command", "command": "lint-hook", "custom": {"keep": [1, 2.50]}}
      ]},
      {"matcher": "Read", "hooks": [{"type": "command", "command": "audit-read"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "/old/place/harness-hook --event Stop"}]}],
    "PostToolUse": [{"hooks": [{"type": "command", "command": "harness-hook"}]}]
  },
  "zLast": "\u00e9<b>"
}`

func TestMergeIdempotentAndKeepsForeign(t *testing.T) {
	bin := "/new/harness-hook"
	w := Wiring{HookBin: bin, Root: "/r", Feature: "f003", Sprint: "sprint_20260421_1"}
	b1, err := Merge([]byte(foreign), w)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := Merge(b1, w)
	if err != nil {
		t.Fatal(err)
	}
	if string(b1) != string(b2) {
		t.Fatalf("second merge changed the file:\n%s\n---\n%s", b1, b2)
	}
	doc := decode(t, b2)
	if doc["permissions"] == nil || doc["env"] == nil {
		t.Fatal("foreign top-level keys dropped")
	}
	ours := ourHandlers(doc, bin)
	if len(ours) != len(w.Groups()) {
		t.Fatalf("our handlers = %d (%v), want %d", len(ours), ours, len(w.Groups()))
	}
	for _, o := range ours {
		if o[2].([]any)[0] != "--event" {
			t.Fatalf("stale handler kept: %v", o)
		}
	}
	s := string(b2)
	// Foreign values keep their exact content: big integers, number
	// spellings, escapes, unknown handler fields, key order.
	for _, keep := range []string{"lint-hook", "audit-read", `"PostToolUse"`, `12345678901234567890`, `2.50`, `"custom"`, `\u00e9<b>`} {
		if !strings.Contains(s, keep) {
			t.Errorf("foreign content %s lost:\n%s", keep, s)
		}
	}
	if i, j, k := strings.Index(s, `"permissions"`), strings.Index(s, `"env"`), strings.Index(s, `"zLast"`); !(i < j && j < k) {
		t.Errorf("top-level key order changed:\n%s", s)
	}
	if strings.Contains(s, "/old/place") {
		t.Error("old harness-hook registration kept")
	}
	hooks := doc["hooks"].(map[string]any)
	post := hooks["PostToolUse"].([]any)
	first := post[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
	if len(post) != 2 || first["command"] != "harness-hook" || first["args"] != nil {
		t.Errorf("PostToolUse: the foreign group (a harness-hook without --event is not ours) must stay first, ours after it: %v", post)
	}
}

func TestUnchangedKeepsBytes(t *testing.T) {
	w := wiring("/opt/bin/harness-hook")
	b, err := Merge(nil, w)
	if err != nil {
		t.Fatal(err)
	}
	// the same content written compactly by someone else: the merge keeps it byte for byte
	var v any
	_ = json.Unmarshal(b, &v)
	compact, _ := json.Marshal(v)
	d, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetHooks(w); err != nil {
		t.Fatal(err)
	}
	out, _ := d.Bytes()
	if string(out) != string(b) {
		t.Fatalf("an unchanged document was rewritten:\n%s\n---\n%s", b, out)
	}
	if again, _ := Merge(compact, w); string(again) == string(compact) {
		// key order of encoding/json's map output differs from ours, so
		// this one does change; what matters is that it is then stable
		t.Log("compact form kept as is")
	}
}

func TestRemoveHooks(t *testing.T) {
	w := Wiring{HookBin: "/new/harness-hook", Root: "/r", Feature: "f003", Sprint: "s"}
	b, err := Merge([]byte(foreign), w)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := Parse(b)
	if err := d.RemoveHooks(w.HookBin); err != nil {
		t.Fatal(err)
	}
	out, _ := d.Bytes()
	doc := decode(t, out)
	if n := len(ourHandlers(doc, w.HookBin)); n != 0 {
		t.Fatalf("%d handlers left:\n%s", n, out)
	}
	hooks := doc["hooks"].(map[string]any)
	if _, ok := hooks["Stop"]; ok {
		t.Errorf("Stop kept though it only held our handler:\n%s", out)
	}
	if _, ok := hooks["SessionStart"]; ok {
		t.Errorf("SessionStart kept:\n%s", out)
	}
	for _, keep := range []string{"lint-hook", "audit-read", "PostToolUse"} {
		if !strings.Contains(string(out), keep) {
			t.Errorf("%s dropped", keep)
		}
	}
}

func TestMergeRejectsBadJSON(t *testing.T) {
	for _, old := range []string{"[1,2]", "{", `{"hooks": 3}`, "null", `{} {}`} {
		if _, err := Merge([]byte(old), wiring("/b/harness-hook")); err == nil {
			t.Errorf("Merge(%s) accepted", old)
		}
	}
	for _, ok := range []string{"", "  \n", `{"hooks": null}`} {
		if _, err := Merge([]byte(ok), wiring("/b/harness-hook")); err != nil {
			t.Errorf("Merge(%q) = %v", ok, err)
		}
	}
}

func TestIsOurs(t *testing.T) {
	cases := []struct {
		h    Handler
		want bool
	}{
		{Handler{Command: "/opt/harness-hook"}, true}, // same binary
		{Handler{Command: "/x/harness-hook", Args: []string{"--event", "Stop"}}, true},
		{Handler{Command: `"/a b/harness-hook" --event Stop`}, true},
		{Handler{Command: `/x/HARNESS-HOOK.exe --event Stop`}, true},
		{Handler{Command: "/x/harness-hook"}, false},
		{Handler{Command: "/x/other --event Stop"}, false},
		{Handler{Command: ""}, false},
	}
	for _, c := range cases {
		if got := c.h.IsOurs("/opt/harness-hook"); got != c.want {
			t.Errorf("IsOurs(%+v) = %v, want %v", c.h, got, c.want)
		}
	}
}

func TestMatcherMatches(t *testing.T) {
	cases := []struct {
		m, tool string
		want    bool
	}{
		{"", "Bash", true}, {"*", "Read", true}, {"Bash", "Bash", true}, {"Bash", "BashOutput", false},
		{"Edit|Write", "Write", true}, {"Edit, Write", "Write", true}, {"Edit.*", "EditNotebook", true},
		{"^Wr", "Write", true}, {"Wri", "Write", false}, {"Edit|Write", "NotebookEdit", false},
		{"Edit.*", "NotebookEdit", true}, {"^Edit$", "NotebookEdit", false},
	}
	for _, c := range cases {
		got, err := MatcherMatches(c.m, c.tool)
		if err != nil || got != c.want {
			t.Errorf("MatcherMatches(%q, %q) = %v, %v; want %v", c.m, c.tool, got, err, c.want)
		}
	}
	if _, err := MatcherMatches("(", "Bash"); err == nil {
		t.Error("an invalid regex was accepted")
	}
}

func TestSandboxAndPermissionsBlocks(t *testing.T) {
	d, err := Parse([]byte(`{"model": "x", "sandbox": {"enabled": false, "custom": 1}}`))
	if err != nil {
		t.Fatal(err)
	}
	sb := Sandbox{Enabled: Bool(true), FailIfUnavailable: Bool(true), AllowUnsandboxedCommands: Bool(false),
		ExcludedCommands: []string{"/b/harness eval append *"},
		Filesystem:       &Filesystem{AllowWrite: []string{SandboxPath("/r")}, DenyWrite: []string{SandboxPath("/r/.harness/eval_log.jsonl")}}}
	if err := d.SetSandbox(sb); err != nil {
		t.Fatal(err)
	}
	if err := d.SetPermissions(Permissions{Deny: []string{EditRule("/r/schemas", true), EditRule("/r/SKILL.md", false)}}); err != nil {
		t.Fatal(err)
	}
	s, err := d.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if !IsTrue(s.Sandbox.Enabled) || !IsFalse(s.Sandbox.AllowUnsandboxedCommands) || s.Sandbox.Filesystem.AllowWrite[0] != "//r" {
		t.Fatalf("sandbox = %+v", s.Sandbox)
	}
	if got := s.Permissions.Deny; !reflect.DeepEqual(got, []string{"Edit(//r/schemas/**)", "Edit(//r/SKILL.md)"}) {
		t.Fatalf("deny = %v", got)
	}
	out, _ := d.Bytes()
	if !strings.HasPrefix(string(out), "{\n  \"model\": \"x\",\n  \"sandbox\"") {
		t.Fatalf("key order lost:\n%s", out)
	}
	if _, err := Decode([]byte(`{"sandbox": {"enabled": "yes"}}`)); err == nil {
		t.Error("a sandbox.enabled string was accepted (Claude Code rejects the file)")
	}
}

func TestSandboxPath(t *testing.T) {
	for in, want := range map[string]string{"/r/a": "//r/a", `C:\x\y`: "//C:/x/y", "//r": "//r"} {
		if got := SandboxPath(in); got != want {
			t.Errorf("SandboxPath(%q) = %q, want %q", in, got, want)
		}
	}
}
