package scaffold

import (
	"encoding/json"
	"testing"
)

// FuzzMergeSettings: whatever settings.json holds, MergeSettings either
// refuses it or returns JSON with exactly our five handlers, and merging
// again changes nothing.
func FuzzMergeSettings(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"hooks":{}}`, `{"hooks":{"Stop":[]}}`, `{"hooks":{"Stop":[{"hooks":[]}]}}`,
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/x/harness-hook","args":["--event","PreToolUse"]},{"type":"command","command":"lint"}]}]}}`,
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"\"/a b/harness-hook\" --event Stop"}]}]},"env":{"A":"1"}}`,
		`{"hooks":{"Stop":"nope"}}`, `{"hooks":{"Stop":[1,"x",null]}}`, `[]`, `null`, `{"hooks":null}`,
	} {
		f.Add([]byte(s))
	}
	const bin = "/opt/bin/harness-hook"
	f.Fuzz(func(t *testing.T, old []byte) {
		out, err := MergeSettings(old, bin, "/r", "f001", "sprint_20260421_1")
		if err != nil {
			return
		}
		var doc map[string]any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("output is not a JSON object: %v\n%s", err, out)
		}
		n := 0
		hooks, _ := doc["hooks"].(map[string]any)
		for _, v := range hooks {
			groups, _ := v.([]any)
			for _, g := range groups {
				gm, _ := g.(map[string]any)
				hs, _ := gm["hooks"].([]any)
				for _, h := range hs {
					if IsOurHandler(h, bin) {
						n++
					}
				}
			}
		}
		if n != 5 {
			t.Fatalf("%d harness-hook handlers after merge, want 5\n%s", n, out)
		}
		again, err := MergeSettings(out, bin, "/r", "f001", "sprint_20260421_1")
		if err != nil || string(again) != string(out) {
			t.Fatalf("second merge differs (err %v)\n%s\n---\n%s", err, out, again)
		}
	})
}
