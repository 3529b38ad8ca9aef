package ccsettings

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testHookBin = "/opt/harness/bin/harness-hook"

func testGroups() []EventGroup {
	w := Wiring{HookBin: testHookBin, Preset: "standard"}
	return append(w.GuardGroups(), EventGroup{"SessionStart", Group{Hooks: []Handler{w.Handler("SessionStart")}}})
}

func ours(raw []byte) bool { return IsOursJSON(raw, testHookBin) }

// TestSpliceHooksRealWorldFiles installs into settings files of varied
// layout (two/four spaces, tabs, CRLF, compact, other hooks, hooks null,
// empty): the result is valid JSON holding our handlers, installing again
// changes nothing, and uninstalling gives back the original bytes, which
// shows that nothing outside our entries changed.
func TestSpliceHooksRealWorldFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "splice", "*.json"))
	if len(files) < 6 {
		t.Fatalf("only %d sample files", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			orig, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in, err := SpliceHooks(orig, testHookBin, testGroups())
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(in) {
				t.Fatalf("installed file is not JSON:\n%s", in)
			}
			var doc struct {
				Hooks map[string][]struct {
					Matcher string            `json:"matcher"`
					Hooks   []json.RawMessage `json:"hooks"`
				} `json:"hooks"`
			}
			if err := json.Unmarshal(in, &doc); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, gs := range doc.Hooks {
				for _, g := range gs {
					for _, h := range g.Hooks {
						if ours(h) {
							n++
						}
					}
				}
			}
			if n != 3 {
				t.Fatalf("%d of our handlers after install, want 3:\n%s", n, in)
			}
			if bytes.Contains(orig, []byte("\r\n")) && bytes.Count(in, []byte("\n")) != bytes.Count(in, []byte("\r\n")) {
				t.Errorf("mixed line endings:\n%q", in)
			}
			again, err := SpliceHooks(in, testHookBin, testGroups())
			if err != nil || !bytes.Equal(again, in) {
				t.Fatalf("second install changed the file (err %v):\n%s\n---\n%s", err, in, again)
			}
			out, err := SpliceHooks(in, testHookBin, nil)
			if err != nil {
				t.Fatal(err)
			}
			// A "hooks" member the removal leaves empty is dropped, so an
			// empty or null "hooks" does not come back: the one place the
			// bytes differ (the meaning does not).
			want := map[string][]byte{
				"empty-hooks-object.json": []byte("{\n  \"apiKeyHelper\": \"/bin/generate_temp_api_key.sh\"\n}\n"),
				"hooks-null.json":         []byte("{ \"outputStyle\": \"Explanatory\" }\n"),
			}[filepath.Base(f)]
			if want == nil {
				want = orig
			}
			if len(bytes.TrimSpace(orig)) == 0 {
				// a file install created: uninstall leaves an empty object
				var m map[string]any
				if json.Unmarshal(out, &m) != nil || len(m) != 0 {
					t.Fatalf("uninstall of a new file left %q", out)
				}
				return
			}
			if !bytes.Equal(out, want) {
				t.Fatalf("uninstall did not restore the file:\n--- original\n%s\n--- installed\n%s\n--- uninstalled\n%s", orig, in, out)
			}
		})
	}
}

// TestSpliceHooksReplacesAndKeepsMixedGroups: an old harness handler in a
// group shared with a user's handler is removed from that group only; a
// stale handler of ours (other args) is replaced.
func TestSpliceHooksReplacesAndKeepsMixedGroups(t *testing.T) {
	orig := []byte(`{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "/usr/local/bin/harness-hook", "args": ["--event", "PreToolUse"]},
          {"type": "command", "command": "/opt/lint/bash-lint"}
        ]
      }
    ]
  }
}
`)
	out, err := SpliceHooks(orig, testHookBin, testGroups())
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Contains(s, "/usr/local/bin/harness-hook") || !strings.Contains(s, `{"type": "command", "command": "/opt/lint/bash-lint"}`) {
		t.Fatalf("mixed group not edited as expected:\n%s", s)
	}
	if strings.Count(s, testHookBin) != 3 {
		t.Fatalf("want 3 handlers of ours:\n%s", s)
	}
	removed, _ := SpliceHooks(out, testHookBin, nil)
	if !strings.Contains(string(removed), "/opt/lint/bash-lint") || strings.Contains(string(removed), "harness-hook") {
		t.Fatalf("uninstall:\n%s", removed)
	}
}

func TestSpliceHooksRefusesWhatIsNotAnObject(t *testing.T) {
	for _, bad := range []string{`[]`, `null`, `{"hooks": []}`, `{"hooks": 1}`, `{`, `{} {}`} {
		if _, err := SpliceHooks([]byte(bad), testHookBin, testGroups()); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestIsOursJSON(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"command": "/opt/harness/bin/harness-hook"}`:                            true,
		`{"command": "/x/harness-hook", "args": ["--event", "Stop"]}`:             true,
		`{"command": "'/x y/harness-hook' --event PreToolUse"}`:                   true,
		`{"command": "C:\\tools\\HARNESS-HOOK.EXE", "args": ["--event", "Stop"]}`: true,
		`{"command": "/x/harness-hook"}`:                                          false,
		`{"command": "/x/other-hook", "args": ["--event", "Stop"]}`:               false,
		`{"command": ""}`: false,
		`{"args": 3}`:     false,
	} {
		if got := IsOursJSON([]byte(raw), testHookBin); got != want {
			t.Errorf("%s: %v, want %v", raw, got, want)
		}
	}
}
