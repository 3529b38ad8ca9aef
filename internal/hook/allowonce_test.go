package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/testutil"
)

// TestAllowOnceTurnsOneBlockIntoAllow: an exact-match authorisation of the
// running feature lets the blocked command through once (logged with its
// reason); the next identical call, another feature's authorisation and a
// different spelling are still denied.
func TestAllowOnceTurnsOneBlockIntoAllow(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	const cmd = "rm -rf build"
	if _, err := allowonce.Add(root, "f001", cmd, "user approved wiping the build folder"); err != nil {
		t.Fatal(err)
	}
	if _, err := allowonce.Add(root, "f002", "git push --force origin main", "other feature"); err != nil {
		t.Fatal(err)
	}
	call := func(command string) string {
		p, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root,
			"tool_name": "Bash", "tool_input": map[string]any{"command": command}})
		res := runIn(runner{}, []string{"--root", root, "--feature", "f001"}, nil, strings.NewReader(string(p)))
		return corpusOutcome(t, command, res)
	}
	if got := call("rm -rf  build"); got != "block" {
		t.Fatalf("a different spelling must not use the authorisation: %s", got)
	}
	if got := call(cmd); got != "allow" {
		t.Fatalf("authorised command: %s", got)
	}
	if got := call(cmd); got != "block" {
		t.Fatalf("the authorisation is single-use: %s", got)
	}
	if got := call("git push --force origin main"); got != "block" {
		t.Fatalf("another feature's authorisation must not apply: %s", got)
	}
	recs := hookLogRecords(t, root)
	var used []Record
	for _, r := range recs {
		if r.AllowOnce != "" {
			used = append(used, r)
		}
	}
	if len(used) != 1 || used[0].Verdict != "allow" || used[0].Rule == "" || used[0].AllowOnce != "user approved wiping the build folder" {
		t.Fatalf("allow-once use not logged as expected: %+v", used)
	}
}

// TestInvalidRulesYAMLKeepsBuiltinPolicy: a broken .harness/rules.yaml never
// weakens the policy, and the error is in the hook.log record.
func TestInvalidRulesYAMLKeepsBuiltinPolicy(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	writeFile(t, filepath.Join(root, ".harness", "rules.yaml"), "allow: [: not yaml\n\t- x")
	p, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root,
		"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf ~"}})
	res := runIn(runner{}, []string{"--root", root, "--feature", "f001"}, nil, strings.NewReader(string(p)))
	if got := corpusOutcome(t, "rules.yaml", res); got != "block" {
		t.Fatalf("rm -rf ~ with a broken rules.yaml: %s", got)
	}
	recs := hookLogRecords(t, root)
	if len(recs) != 1 || !strings.Contains(strings.Join(recs[0].Errors, " "), "rules.yaml") {
		t.Fatalf("rules.yaml error not logged: %+v", recs)
	}
}
