package ops

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

// Each Hermes append adds its ledger entry after the earlier ones, which
// stay as they were read (an unknown member included), and the lines it
// records are Hermes's: from an empty ledger and from one with entries.
func TestLedgerAppendKeepsEarlierEntries(t *testing.T) {
	for _, prior := range []string{`[]`, `[ {"sha256": "0123456789abcdef", "at": 3, "note": "kept"},
	{"at": 9, "sha256": "fedcba9876543210"} ]`} {
		root := ledgeredFixture(t, t.TempDir())
		p := root + "/.harness/hermes_context_state.json"
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(data, []byte(`"lines":[]`), []byte(`"lines": `+prior), 1)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
		for i := 0; i < 2; i++ {
			if _, err := EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要登记 golang.org/x/time/rate 到 tooling 第 6 节"}); err != nil {
				t.Fatalf("append %d: %v", i, err)
			}
		}
		hc := readJSON(t, p)
		led, _ := hc[workspace.LedgerKey].(map[string]any)
		lines, _ := led["lines"].([]any)
		var want []any
		if err := json.Unmarshal([]byte(prior), &want); err != nil {
			t.Fatal(err)
		}
		if len(lines) != len(want)+2 {
			t.Fatalf("prior %s: %d ledger entries, want %d: %v", prior, len(lines), len(want)+2, lines)
		}
		for i, w := range want {
			if g, _ := json.Marshal(lines[i]); string(g) != string(mustJSON(t, w)) {
				t.Errorf("entry %d: %s, want %s as written", i, g, mustJSON(t, w))
			}
		}
		log, err := os.ReadFile(env.H("eval_log.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		prov, err := (&workspace.Workspace{Root: root}).LoadProvenance()
		if err != nil {
			t.Fatal(err)
		}
		all := strings.SplitAfter(string(log), "\n")
		all = all[:len(all)-1] // the empty tail after the last '\n'
		at := int64(len(log))
		for k := 1; k <= 2; k++ {
			line := all[len(all)-k]
			at -= int64(len(line))
			e := lines[len(lines)-k].(map[string]any)
			if e["at"] != float64(at) || e["sha256"] != workspace.LineHash([]byte(line)) {
				t.Errorf("entry for the line at %d: %v", at, e)
			}
			if v, _ := prov.Of(at, []byte(strings.TrimSuffix(line, "\n")), nil); v != workspace.Hermes {
				t.Errorf("line at %d: verdict %v, want Hermes", at, v)
			}
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
