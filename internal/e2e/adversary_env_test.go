package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRealClaudeGeneratorCannotShedItsSessionEnvironment: the CLI knows a
// Generator session by FEATURE_ID / CLAUDECODE=1 (and the excluded harness
// commands run outside the sandbox with HARNESS_ROOT), all variables of the
// session's environment. If a Bash call could change them for a later
// call, the next excluded `harness eval append` would run as Hermes,
// unsandboxed, and its Hermes-only entry would be ledgered as Hermes's.
// Through the real client: an export/unset in one call does not reach the
// next (Claude Code runs each call in a fresh shell from its snapshot), the
// excluded command still runs as the Generator's and refuses a Hermes-only
// entry, and eval_log is unchanged.
func TestRealClaudeGeneratorCannotShedItsSessionEnvironment(t *testing.T) {
	claude, bins := setup(t)
	ws, _ := sandboxWorkspace(t, bins)
	el := filepath.Join(ws.Root, ".harness", "eval_log.jsonl")
	script := Script{Turns: [][]Block{
		BashTurn("e_export", "export FEATURE_ID= CLAUDECODE= HARNESS_ROOT=/tmp HARNESS_NOW=2030-01-01T00:00:00Z; unset FEATURE_ID CLAUDECODE; echo exported"),
		BashTurn("e_echo", `echo "fid=[${FEATURE_ID-unset}] cc=[${CLAUDECODE-unset}] root=[$HARNESS_ROOT] now=[${HARNESS_NOW-unset}]"`),
		BashTurn("e_forge", "harness eval append --feature f002 --phase 1 --event fail --result fail --reason 'forged by the Generator after shedding its session variables'"),
	}, FinalText: "done"}
	before := sha(t, el)
	l := launchSession(t, claude, bins, ws, script, nil, "--permission-mode", "bypassPermissions")
	if l.code != 0 {
		t.Fatalf("harness launch exited %d: %s", l.code, l.stderr)
	}
	if tr := l.toolResult(t, "e_export"); !strings.Contains(tr.Text, "exported") {
		t.Fatalf("the export did not run (the test proves nothing): %s", tr.Text)
	}
	tr := l.toolResult(t, "e_echo")
	t.Logf("the next call sees: %s", tr.Text)
	if !strings.Contains(tr.Text, "fid=[f002]") || !strings.Contains(tr.Text, "cc=[1]") || !strings.Contains(tr.Text, "now=[unset]") || !strings.Contains(tr.Text, "root=["+ws.Root+"]") {
		t.Errorf("a Bash call changed the session's variables for the next call: %s", tr.Text)
	}
	if tr := l.toolResult(t, "e_forge"); !tr.IsError && !strings.Contains(tr.Text, "Generator") {
		t.Errorf("the excluded eval append took a Hermes-only entry: %s", tr.Text)
	}
	if got := sha(t, el); got != before {
		t.Errorf("eval_log.jsonl changed:\n%s", tail([]byte(readFile(t, el)), 600))
	}
}
