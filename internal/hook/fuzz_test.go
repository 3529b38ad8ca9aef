package hook

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzPreToolUsePayload: whatever arrives on stdin, a PreToolUse call exits
// 0 with one contract-valid JSON object, never permissionDecision allow/ask,
// and denies whenever the payload does not decode.
// Run: go test -run '^$' -fuzz FuzzPreToolUsePayload -fuzztime 20s ./internal/hook
func FuzzPreToolUsePayload(f *testing.F) {
	for _, s := range []string{
		"",
		"{}",
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/x/schemas/a","old_string":"a","new_string":"b"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo \u0000"}}`,
		"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"\xff\"}}",
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"x"}`,
		`[1,2]`, `{"a":`, "null",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stdin []byte) {
		res := runIn(runner{}, []string{"--event", "PreToolUse"}, map[string]string{"FEATURE_ID": "f002"}, bytes.NewReader(stdin))
		if res.code != 0 {
			t.Fatalf("exit %d", res.code)
		}
		obj := checkContract(t, EventPreToolUse, res.stdout)
		if _, err := decodeInput(stdin); err != nil {
			hso, _ := obj["hookSpecificOutput"].(map[string]any)
			if hso == nil || hso["permissionDecision"] != "deny" {
				t.Fatalf("undecodable payload %q not denied: %s", stdin, res.stdout)
			}
		}
		if strings.Count(strings.TrimSpace(res.stdout), "\n") != 0 {
			t.Fatalf("stdout is not one line: %q", res.stdout)
		}
	})
}
