package validate

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	harness "github.com/superagent-harness/harness"
)

// The schema fast path for eval_log entries (schema.quickAccepts) changes no
// finding: every fixture sprint, with random mutations of its eval_log
// lines, gives byte-identical Validate and FinalizeCheck reports with the
// embedded schemas (fast path on) and with a sprint copy of
// eval_log.schema.json that differs only in its bytes (fast path off, every
// line through the general validator).
func TestSchemaFastPathChangesNoFinding(t *testing.T) {
	var roots []string
	for _, pat := range []string{"*", "broken/*"} {
		m, _ := filepath.Glob(filepath.Join(sprints, pat, ".harness", "eval_log.jsonl"))
		for _, p := range m {
			roots = append(roots, filepath.Dir(filepath.Dir(p)))
		}
	}
	if len(roots) < 10 {
		t.Fatalf("only %d fixture sprints found", len(roots))
	}
	emb, err := fs.ReadFile(harness.Assets(), "schemas/eval_log.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	slowCopy := append(bytes.TrimRight(emb, "\n"), "\n\n"...)
	num := func(s string) json.Number { return json.Number(s) }
	values := []any{"", "x", "f001", "f9", "f1-", "pass", "retry", "fail", "phase_evaluation", "checkpoint", "reset",
		"gate", "notify", "approved", "rejected", "revoked", "cp-sprint-dag", "cp-sprint-tooling", "2026-04-21T02:00:00Z",
		"2026-04-21T02:00:00+08:00", "2026-04-21T02:00:00.5Z", "sprint_20260421_1", "sprint_x", "补录: 改正", "ok", "abc1234",
		num("1"), num("3"), num("4"), num("0"), num("5"), num("2.0"), num("-1"), num("99"), nil, true,
		map[string]any{}, []any{}, []any{map[string]any{"id": "a1", "criteria": "c", "status": "fail", "evidence": ""}}}
	keys := []string{"timestamp", "sprint_id", "feature_id", "phase", "iteration", "event_type", "result", "reason",
		"acceptance_results", "commit", "checkpoint_id", "checkpoint_type", "decision", "supersedes_line", "created_at",
		"yolo_context", "blockers_resolved", "agent", "extra"}
	r := rand.New(rand.NewPCG(3, 5))
	runs := 0
	for round := 0; round < 3; round++ {
		for _, src := range roots {
			root := copyTree(t, src)
			logPath := filepath.Join(root, ".harness", "eval_log.jsonl")
			data, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.Split(data, []byte("\n"))
			if round > 0 {
				for i, l := range lines {
					var m map[string]any
					d := json.NewDecoder(bytes.NewReader(l))
					d.UseNumber()
					if d.Decode(&m) != nil || r.IntN(3) != 0 {
						continue
					}
					for k := r.IntN(3); k >= 0; k-- {
						key := keys[r.IntN(len(keys))]
						if r.IntN(5) == 0 {
							delete(m, key)
						} else {
							m[key] = values[r.IntN(len(values))]
						}
					}
					lines[i], _ = json.Marshal(m)
				}
			}
			if err := os.WriteFile(logPath, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			report := func() (string, string) {
				v, err := Validate(root)
				if err != nil {
					t.Fatal(err)
				}
				f, err := FinalizeCheck(root)
				if err != nil {
					t.Fatal(err)
				}
				return v.String(), f.String()
			}
			fastV, fastF := report()
			if err := os.MkdirAll(filepath.Join(root, "schemas"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "schemas", "eval_log.schema.json"), slowCopy, 0o644); err != nil {
				t.Fatal(err)
			}
			slowV, slowF := report()
			if fastV != slowV || fastF != slowF {
				t.Fatalf("%s round %d: the fast path changes the findings\nvalidate fast:\n%s\nslow:\n%s\nfinalize fast:\n%s\nslow:\n%s\neval_log:\n%s",
					src, round, fastV, slowV, fastF, slowF, bytes.Join(lines, []byte("\n")))
			}
			runs++
		}
	}
	t.Logf("%d workspaces compared", runs)
}
