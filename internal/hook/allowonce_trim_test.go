package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/testutil"
)

// TestAllowOnceMatchesTrimmedCommand: `harness allow --once ' rm -rf build'`
// and the Bash commands 'rm -rf build ', ' rm -rf build' and a CRLF variant
// are one command (both sides compared after allowonce.Normalise), so each
// authorisation is consumed by exactly one of them whatever its blanks; inner
// spacing still makes a different command.
func TestAllowOnceMatchesTrimmedCommand(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	for _, auth := range []string{" rm -rf build", "rm -rf build ", "\trm -rf build"} {
		if _, err := allowonce.Add(root, "f001", auth, "user approved"); err != nil {
			t.Fatal(err)
		}
	}
	call := func(command string) string {
		p, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root,
			"tool_name": "Bash", "tool_input": map[string]any{"command": command}})
		res := runIn(runner{}, []string{"--root", root, "--feature", "f001"}, nil, strings.NewReader(string(p)))
		return corpusOutcome(t, command, res)
	}
	if got := call("rm  -rf build"); got != "block" {
		t.Fatalf("inner spacing differs, must stay blocked: %s", got)
	}
	for _, c := range []string{"rm -rf build ", " rm -rf build", "rm -rf build\r\n"} {
		if got := call(c); got != "allow" {
			t.Fatalf("%q with three open authorisations: %s", c, got)
		}
	}
	if got := call("rm -rf build"); got != "block" {
		t.Fatalf("all three authorisations used, a fourth call must be blocked: %s", got)
	}
}
