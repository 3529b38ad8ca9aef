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

// An inline ledger (eval_log_ledger.lines) moves into the ledger file on
// the first Hermes append: the earlier entries stay as they were written
// (an unknown member included), compacted, one per line, in order; the
// member becomes {"since", "format": 2} without lines; each later append
// only adds its line to the file; the lines recorded are Hermes's. From an
// empty ledger and from one with entries.
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
		// the sprint's own schema copy from before format 2, which requires
		// lines: the move must not add a finding under it (schema.SprintCopies)
		sch, err := os.ReadFile("../../schemas/hermes_context_state.schema.json")
		if err != nil {
			t.Fatal(err)
		}
		old := bytes.Replace(sch, []byte(`"required": ["since"],`), []byte(`"required": ["since", "lines"],`), 1)
		if bytes.Equal(old, sch) {
			t.Fatal("the schema's eval_log_ledger requirement moved: update this test")
		}
		if err := os.MkdirAll(root+"/schemas", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(root+"/schemas/hermes_context_state.schema.json", old, 0o644); err != nil {
			t.Fatal(err)
		}
		env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
		var afterFirst []byte
		for i := 0; i < 2; i++ {
			if _, err := EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要登记 golang.org/x/time/rate 到 tooling 第 6 节"}); err != nil {
				t.Fatalf("append %d: %v", i, err)
			}
			if i == 0 {
				afterFirst, _ = os.ReadFile(env.H("logs", "eval_ledger.jsonl"))
			}
		}
		hc := readJSON(t, p)
		led, _ := hc[workspace.LedgerKey].(map[string]any)
		if ls, _ := led["lines"].([]any); ls == nil || len(ls) != 0 || led["format"] != float64(2) || led["since"] == nil {
			t.Fatalf("prior %s: eval_log_ledger %v, want since, format 2 and empty lines", prior, led)
		}
		file, err := os.ReadFile(env.H("logs", "eval_ledger.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(file, afterFirst) || len(afterFirst) == 0 || len(file) <= len(afterFirst) {
			t.Errorf("the second append rewrote the ledger file instead of appending to it:\n%s\nthen\n%s", afterFirst, file)
		}
		lines := strings.Split(strings.TrimSuffix(string(file), "\n"), "\n")
		var want []json.RawMessage
		if err := json.Unmarshal([]byte(prior), &want); err != nil {
			t.Fatal(err)
		}
		if len(lines) != len(want)+2 {
			t.Fatalf("prior %s: %d ledger entries, want %d: %q", prior, len(lines), len(want)+2, lines)
		}
		for i, w := range want {
			var c bytes.Buffer
			if err := json.Compact(&c, w); err != nil {
				t.Fatal(err)
			}
			if lines[i] != c.String() {
				t.Errorf("entry %d: %s, want %s as written", i, lines[i], c.String())
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
			if got, want := lines[len(lines)-k], string(workspace.LedgerLine(at, workspace.LineHash([]byte(line)))); got != want {
				t.Errorf("entry for the line at %d: %s, want %s", at, got, want)
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
