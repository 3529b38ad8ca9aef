package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/workspace"
)

// Checking a long eval_log keeps nothing per line: 20,000 valid retry lines
// of one feature leave no finding and at most a handful of kept entries
// (validate and finalize alike), and the report equals the one of the
// same log given as an overlay (the bytes.Reader path of loadEvalLog).
func TestLongEvalLogKeepsNothingPerLine(t *testing.T) {
	root := copyTree(t, filepath.Join(sprints, "valid-midway"))
	p := filepath.Join(root, ".harness", "eval_log.jsonl")
	old, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.Write(old)
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&buf, `{"timestamp":"2026-04-21T02:%02d:%02dZ","sprint_id":"sprint_20260421_1","feature_id":"f001","phase":2,"iteration":%d,"event_type":"retry","result":"retry","reason":"第 %d 次重试:补充表驱动用例后重跑 a2"}`+"\n", (i/60)%60, i%60, i+1, i+1)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, finalize := range []bool{false, true} {
		ws, err := workspace.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		c := &checker{ws: ws, rep: &Report{}, finalize: finalize, docs: map[string]any{}, schemas: embeddedSchemas()}
		c.load()
		if n := len(c.entries); n > 10 {
			t.Errorf("finalize=%v: %d entries kept for 20,000 retry lines", finalize, n)
		}
		if n := len(c.evalFound.first.Findings) + len(c.evalFound.rules.Findings) + len(c.evalFound.final.Findings); n > 10 {
			t.Errorf("finalize=%v: %d line findings on valid lines", finalize, n)
		}
		onDisk, err := runWith(root, finalize, Options{})
		if err != nil {
			t.Fatal(err)
		}
		overlaid, err := runWith(root, finalize, Options{Overlay: map[string][]byte{".harness/eval_log.jsonl": buf.Bytes()}})
		if err != nil {
			t.Fatal(err)
		}
		if onDisk.String() != overlaid.String() {
			t.Errorf("finalize=%v: overlay and file differ:\n%s\n%s", finalize, onDisk, overlaid)
		}
	}
}
