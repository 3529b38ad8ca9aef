package ccsettings

import (
	"encoding/json"
	"testing"
)

// FuzzMerge: whatever settings.json holds, Merge either refuses it or
// returns JSON with exactly our five handlers, and merging again changes
// nothing.
func FuzzMerge(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"hooks":{}}`, `{"hooks":{"Stop":[]}}`, `{"hooks":{"Stop":[{"hooks":[]}]}}`,
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/x/harness-hook","args":["--event","PreToolUse"]},{"type":"command","command":"lint"}]}]}}`,
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"\"/a b/harness-hook\" --event Stop"}]}]},"env":{"A":"1"}}`,
		`{"hooks":{"Stop":"nope"}}`, `{"hooks":{"Stop":[1,"x",null]}}`, `[]`, `null`, `{"hooks":null}`,
		`{"hooks":{"Stop":[{"hooks":[{"command":"/x/harness-hook --event Stop","args":[1]}]}]}}`,
	} {
		f.Add([]byte(s))
	}
	w := Wiring{HookBin: "/opt/bin/harness-hook", Root: "/r", Feature: "f001", Sprint: "sprint_20260421_1"}
	f.Fuzz(func(t *testing.T, old []byte) {
		out, err := Merge(old, w)
		if err != nil {
			return
		}
		var doc map[string]any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("output is not a JSON object: %v\n%s", err, out)
		}
		if n := len(ourHandlers(doc, w.HookBin)); n != len(w.Groups()) {
			t.Fatalf("%d harness-hook handlers after merge, want %d\n%s", n, len(w.Groups()), out)
		}
		again, err := Merge(out, w)
		if err != nil || string(again) != string(out) {
			t.Fatalf("second merge differs (err %v)\n%s\n---\n%s", err, out, again)
		}
	})
}
