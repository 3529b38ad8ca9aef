package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestRulesYAMLOverridesThroughTheHook: a valid <root>/.harness/rules.yaml
// (rules/README.md) changes the hook's answers end to end — a disabled rule
// no longer fires, a rule switched to warn answers additionalContext without
// a permissionDecision, an allow glob exempts exactly its targets, and a
// project block/warn rule fires — while everything it does not name keeps
// the built-in verdict.
func TestRulesYAMLOverridesThroughTheHook(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	writeFile(t, filepath.Join(root, ".harness", "rules.yaml"), `disable: [git.commit-amend]
warn: [priv.sudo]
allow:
  - rule: fs.rm-recursive-force
    targets: ["build/**"]
block:
  - id: local.terraform-destroy
    program: terraform
    subcommand: destroy
    message: terraform destroy removes the shared infrastructure
    hint: run terraform plan and ask the user
  - id: local.npm-force
    program: npm
    subcommand: install
    flags: ["--force"]
    action: warn
`)
	for _, tc := range []struct{ cmd, want, rule string }{
		{"git commit --amend --no-edit", "allow", ""},
		{"sudo apt-get install jq", "warn", "priv.sudo"},
		{"rm -rf build/out", "allow", ""},
		{"rm -rf build", "allow", ""},
		{"rm -rf src", "block", "fs.rm-recursive-force"},
		{"rm -rf build src", "block", "fs.rm-recursive-force"},
		{`rm -rf "$X"`, "block", "fs.rm-recursive-force"},
		{"terraform destroy -auto-approve", "block", "local.terraform-destroy"},
		{"bash -c 'terraform destroy'", "block", "local.terraform-destroy"},
		{"terraform plan", "allow", ""},
		{"npm install --force left-pad", "warn", "local.npm-force"},
		{"git push --force origin main", "block", "git.push-force"},
	} {
		p, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root,
			"tool_name": "Bash", "tool_input": map[string]any{"command": tc.cmd}})
		res := runIn(runner{}, []string{"--root", root, "--feature", "f001"}, nil, strings.NewReader(string(p)))
		if got := corpusOutcome(t, tc.cmd, res); got != tc.want {
			t.Errorf("%s: got %s, want %s (%s)", tc.cmd, got, tc.want, res.stdout)
			continue
		}
		if tc.rule != "" && !strings.Contains(res.stdout, tc.rule) {
			t.Errorf("%s: answer does not name %s: %s", tc.cmd, tc.rule, res.stdout)
		}
	}
}
