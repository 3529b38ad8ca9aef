package cli_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/cli"
)

// TestExplainIronRuleCode: a code that refusals cite in parentheses
// ("… (Z11)") is looked up by `harness explain`, in each form a user may
// paste, with the row of docs/protocol.md §12; an unknown code is a usage
// error that names the range.
func TestExplainIronRuleCode(t *testing.T) {
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := cli.Run(args, strings.NewReader(""), &out, &errb, map[string]string{}, "test")
		return code, out.String(), errb.String()
	}
	for _, arg := range []string{"Z11", "(Z11)", "z11"} {
		code, out, errs := run("explain", arg)
		if code != 0 || !strings.HasPrefix(out, "Z11 (iron rule of the protocol): The DAG gate cp-sprint-dag is approved") ||
			!strings.Contains(out, "checked:  M: ") || !strings.Contains(out, "docs/protocol.md §12") {
			t.Errorf("explain %s: exit %d\n%s%s", arg, code, out, errs)
		}
	}
	code, out, _ := run("explain", "--json", "Z5")
	var env struct {
		OK   bool
		Data struct{ Code, Rule, Check, Source string }
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 0 || !env.OK || env.Data.Code != "Z5" ||
		env.Data.Rule != "Checkpoints follow the protocol" || env.Data.Source != "docs/protocol.md §12" {
		t.Errorf("explain --json Z5: exit %d, %v\n%s", code, err, out)
	}
	if code, _, errs := run("explain", "Z99"); code != 2 || !strings.Contains(errs, "the codes are Z1–Z20") {
		t.Errorf("explain Z99: exit %d: %s", code, errs)
	}
	// A command is still judged as a command.
	if code, out, _ := run("explain", "rm -rf build"); code != 0 || !strings.Contains(out, "verdict: block") {
		t.Errorf("explain 'rm -rf build': exit %d\n%s", code, out)
	}
}
