package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestHarnessSelfAuthorisation: testdata/corpus/README.md §2.4 harness_admin — in a
// Generator session the harness CLI runs with the session's environment,
// and eval append carries only the session's own, checkable entries.
func TestHarnessSelfAuthorisation(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want verdict.Action
		rule string
	}{
		{`env -u FEATURE_ID harness eval append --feature f002 --phase 1 --event checkpoint --checkpoint-id cp-f002-1 --decision approved --reason 'ok'`, verdict.Block, "harness.session-env"},
		{`env --unset=FEATURE_ID harness phase complete f002`, verdict.Block, "harness.session-env"},
		{`env -uCLAUDECODE harness eval append --feature f002 --event retry --reason x`, verdict.Block, "harness.session-env"},
		{`env -S "-u FEATURE_ID harness phase complete f002"`, verdict.Block, "harness.session-env"},
		{`env -i harness phase complete f002`, verdict.Block, "harness.session-env"},
		{`HARNESS_ROOT=/tmp/x harness phase complete f002`, verdict.Block, "harness.session-env"},
		{`bash -c "FEATURE_ID= harness phase complete f002"`, verdict.Block, "harness.session-env"},
		{`unset FEATURE_ID; harness phase complete f002`, verdict.Block, "harness.session-env"},
		{`typeset +x CLAUDECODE; harness phase complete f002`, verdict.Block, "harness.session-env"},
		{`declare +x FEATURE_ID; harness phase complete f002`, verdict.Block, "harness.session-env"},
		{`export -n FEATURE_ID; harness phase complete f002`, verdict.Block, "harness.session-env"},
		{`export HARNESS_NOW=2020-01-01T00:00:00Z; harness eval append --feature f002 --event phase_evaluation --reason ok`, verdict.Block, "harness.session-env"},
		{`harness eval append --entry - <<< '{"feature_id":"f001"}'`, verdict.Block, "harness.generator-entry"},
		{`harness eval append --entry=e.json`, verdict.Block, "harness.generator-entry"},
		{`harness eval append --feature=f002 --event=checkpoint --reason x`, verdict.Block, "harness.generator-entry"},
		{`harness eval append --feature f002 --event yolo_enter --reason x`, verdict.Block, "harness.generator-entry"},
		{`harness eval append --feature f002 --event "$E" --reason x`, verdict.Block, "harness.generator-entry"},
		{`harness eval append --feature f002 --event phase_evaluation --decision approved --reason x`, verdict.Block, "harness.generator-entry"},
		{`harness phase complete $(cat /tmp/fid)`, verdict.Block, "harness.generator-entry"},
		{`harness phase complete --feature "$(cat x)"`, verdict.Block, "harness.generator-entry"},
		// allowed: the session's own entries
		{`harness eval append --feature f002 --phase 1 --event phase_evaluation --result pass --reason "$(cat notes.txt)"`, verdict.Allow, ""},
		{`harness --feature f002 eval append --event retry --reason 'need jq'`, verdict.Allow, ""},
		{`harness eval append --feature f002 --event pass --reason 'all tests pass'`, verdict.Allow, ""},
		{`harness phase complete "$FEATURE_ID"`, verdict.Allow, ""},
		{`env FOO=1 harness validate`, verdict.Allow, ""},
		// read-only commands cannot act as Hermes, whatever their environment
		{`env -u FEATURE_ID harness validate`, verdict.Allow, ""},
		{`HARNESS_ROOT=/tmp/other harness status`, verdict.Allow, ""},
		{`export HARNESS_ROOT=/srv/sprint_1 && harness finalize --check`, verdict.Allow, ""},
		{`unset FOO; harness validate`, verdict.Allow, ""},
		{`env -u FEATURE_ID make test`, verdict.Allow, ""},
	} {
		res := Decide(tc.cmd, Context{Feature: "f002"})
		if res.Decision.Action != tc.want || tc.rule != "" && res.Decision.Rule != tc.rule {
			t.Errorf("%s: got %s %s (%s), want %s %s", tc.cmd, res.Decision.Action, res.Decision.Rule, res.Decision.Message, tc.want, tc.rule)
		}
	}
	// outside a Generator session (Hermes) none of this applies
	for _, cmd := range []string{`env -u FEATURE_ID harness eval append --feature f002 --event checkpoint --decision approved --reason ok`, `harness eval append --entry -`} {
		if res := Decide(cmd, Context{}); res.Decision.Action != verdict.Allow {
			t.Errorf("no feature: %s: %s %s", cmd, res.Decision.Action, res.Decision.Rule)
		}
	}
}
