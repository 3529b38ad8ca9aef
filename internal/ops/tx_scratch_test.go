package ops

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/workspace"
)

// harnessFindings keeps the findings a staged change under .harness/ can
// affect: files under .harness/ and the sprint's schema copies. Root-level
// layout findings (a flattened AGENTS.md, a misplaced f003/) are not in the
// scratch copy before or after, so they never count as added.
func harnessFindings(list []Finding) []Finding {
	var out []Finding
	for _, f := range list {
		if strings.HasPrefix(f.File, ".harness") || strings.HasPrefix(f.File, "schemas") {
			out = append(out, f)
		}
	}
	return out
}

// TestScratchCopyValidatesLikeTheSprint: validate and finalize --check on the
// dry run's scratch copy find what they find on the sprint itself, for every
// fixture sprint (valid and broken), so a refusal is computed on the findings
// a real `harness validate` reports.
func TestScratchCopyValidatesLikeTheSprint(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sprints", "*", ".harness"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sprints", "broken", "*", ".harness"))
	dirs = append(dirs, more...)
	if len(dirs) < 10 {
		t.Fatalf("found only %d fixture sprints", len(dirs))
	}
	for _, h := range dirs {
		root := filepath.Dir(h)
		tmp := t.TempDir()
		if err := scratchCopy(root, tmp); err != nil {
			t.Fatalf("%s: %v", root, err)
		}
		for _, v := range []Validator{EngineValidate, EngineFinalize} {
			want, err := v(root)
			if err != nil {
				t.Fatal(err)
			}
			got, err := v(tmp)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := harnessFindings(got), harnessFindings(want); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: scratch findings differ\n got %+v\nwant %+v", root, got, want)
			}
		}
	}
}

// TestDryRunUsesTheSprintSchemas: a sprint whose own schemas/ copy is
// stricter than the embedded one (session_pool.json must name "extra") is
// judged by that copy in the dry run, as `harness validate` judges it: the
// finding exists before and after, so eval append is not refused for it,
// and it is reported as a warning.
func TestDryRunUsesTheSprintSchemas(t *testing.T) {
	root := fixture(t, "valid-midway")
	data, err := fs.ReadFile(harness.Assets(), "schemas/session_pool.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var sch map[string]any
	if err := json.Unmarshal(data, &sch); err != nil {
		t.Fatal(err)
	}
	req, _ := sch["required"].([]any)
	sch["required"] = append(req, "extra")
	out, _ := json.MarshalIndent(sch, "", "  ")
	if err := os.MkdirAll(filepath.Join(root, "schemas"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "schemas", "session_pool.schema.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	real, err := EngineValidate(root)
	if err != nil {
		t.Fatal(err)
	}
	if !mentions(real, "extra") {
		t.Fatalf("the sprint's schema copy is not in force for harness validate: %+v", real)
	}
	for _, overlay := range []bool{false, true} {
		env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
		if overlay {
			env.ValidateOverlay = EngineValidateOverlay
		}
		rep, err := EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要登记 golang.org/x/time/rate"})
		if err != nil {
			t.Fatalf("overlay %v: eval append refused: %v", overlay, err)
		}
		if !mentions(rep.Warnings, "extra") {
			t.Fatalf("overlay %v: the dry run did not use the sprint's schema copy; warnings %+v", overlay, rep.Warnings)
		}
	}
}

// TestOverlayDryRunAgreesWithScratch: for staged changes that add findings
// (a schema-breaking feature_list, an eval line for an unknown feature, a
// removed state file, an emptied session_id.txt of a started feature) and
// ones that do not, the in-memory overlay and the scratch copy find the same
// added findings, and a refused change writes nothing.
func TestOverlayDryRunAgreesWithScratch(t *testing.T) {
	type change func(tx *Tx)
	fl := func(root string) string { return mustRead(t, filepath.Join(root, ".harness", "feature_list.json")) }
	cases := []struct {
		name   string
		stage  func(root string) change
		refuse bool
	}{
		{"bad status", func(root string) change {
			return func(tx *Tx) {
				tx.Write(".harness/feature_list.json", []byte(strings.Replace(fl(root), `"status": "in_progress"`, `"status": "doing"`, 1)))
			}
		}, true},
		{"eval line for unknown feature", func(string) change {
			return func(tx *Tx) {
				tx.steps = append(tx.steps, step{rel: ".harness/eval_log.jsonl", append: true,
					data: []byte(`{"timestamp":"2026-04-21T03:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f404","phase":1,"event_type":"retry","reason":"需要登记 golang.org/x/time/rate"}`)})
			}
		}, true},
		{"removed state file", func(string) change {
			return func(tx *Tx) { tx.Remove(".harness/hermes_context_state.json") }
		}, true},
		{"emptied session id", func(string) change {
			return func(tx *Tx) { tx.Write(".harness/features/f001/session_id.txt", []byte("\n")) }
		}, true},
		{"valid retry line", func(string) change {
			return func(tx *Tx) {
				tx.steps = append(tx.steps, step{rel: ".harness/eval_log.jsonl", append: true,
					data: []byte(`{"timestamp":"2026-04-21T03:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"retry","reason":"需要登记 golang.org/x/time/rate"}`)})
			}
		}, false},
		{"new handoff", func(string) change {
			return func(tx *Tx) { tx.Write(".harness/features/f002/handoff.md", []byte("# handoff\n")) }
		}, false},
	}
	for _, c := range cases {
		var added [2][]Finding
		for i, overlay := range []bool{false, true} {
			root := fixture(t, "valid-midway")
			env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
			if overlay {
				env.ValidateOverlay = EngineValidateOverlay
			}
			before := snapshot(t, root)
			tx := &Tx{env: env}
			c.stage(root)(tx)
			err := tx.commit(&Report{Command: "test"})
			var ref *Refusal
			if refused := errors.As(err, &ref); refused != c.refuse {
				t.Fatalf("%s (overlay %v): err %v, want refused %v", c.name, overlay, err, c.refuse)
			}
			if ref != nil {
				added[i] = ref.Findings
				if after := snapshot(t, root); !reflect.DeepEqual(after, before) {
					t.Fatalf("%s (overlay %v): a refused change wrote to the workspace", c.name, overlay)
				}
			}
		}
		if !reflect.DeepEqual(added[0], added[1]) {
			t.Errorf("%s: scratch and overlay disagree\n scratch %+v\n overlay %+v", c.name, added[0], added[1])
		}
	}
}

// snapshot maps every file under root/.harness to its content (the caches
// under .harness/logs/cache/ left out: the dry run refreshes its eval_log
// cache, which is not a change to the workspace).
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(filepath.Join(root, ".harness"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".lock") || strings.Contains(filepath.ToSlash(p), "/.harness/logs/cache/") {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mentions(list []Finding, s string) bool {
	for _, f := range list {
		if strings.Contains(f.Message, s) {
			return true
		}
	}
	return false
}

// BenchmarkEvalAppendOverlay is BenchmarkEvalAppend with the dry run the
// CLI uses (ValidateOverlay: the change overlaid in memory, nothing copied).
func BenchmarkEvalAppendOverlay(b *testing.B) {
	root := filepath.Join(b.TempDir(), "ws")
	if err := filepath.WalkDir(filepath.Join("..", "..", "testdata", "sprints", "valid-midway"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join("..", "..", "testdata", "sprints", "valid-midway"), p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		return copyFile(p, filepath.Join(root, rel))
	}); err != nil {
		b.Fatal(err)
	}
	env := &Env{Root: root, Now: time.Now, Validate: EngineValidate, ValidateOverlay: EngineValidateOverlay}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要登记 golang.org/x/time/rate"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDryRun is the before/after validation of one eval_log append
// alone (scratch copy, two validate runs), without the real write's fsync.
func BenchmarkDryRun(b *testing.B) {
	src := filepath.Join("..", "..", "testdata", "sprints", "valid-midway")
	tx := &Tx{env: &Env{Root: src, Validate: EngineValidate}}
	tx.steps = append(tx.steps, step{rel: ".harness/eval_log.jsonl", data: []byte(`{"x":1}`), append: true})
	for i := 0; i < b.N; i++ {
		if _, _, err := tx.dryRun(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDryRunReadsOneEvalLogSnapshot: a line appended to eval_log between
// the dry run's two validate runs by a writer that does not take the
// workspace lock (here: a line the schema refuses) is not a finding added
// by the change, and the change is written after it.
func TestDryRunReadsOneEvalLogSnapshot(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
	evalLog := filepath.Join(root, ".harness", "eval_log.jsonl")
	calls := 0
	env.ValidateOverlay = func(root string, overlay, appends map[string][]byte, evalSize int64, ledger *workspace.Provenance) ([]Finding, error) {
		if calls++; calls == 2 { // between before and after
			f, err := os.OpenFile(evalLog, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return nil, err
			}
			if _, err := f.WriteString(`{"id":"foreign-1"}` + "\n"); err != nil {
				return nil, err
			}
			if err := f.Close(); err != nil {
				return nil, err
			}
		}
		return EngineValidateOverlay(root, overlay, appends, evalSize, ledger)
	}
	line := `{"timestamp":"2026-04-21T03:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"retry","reason":"需要登记 golang.org/x/time/rate"}`
	tx := &Tx{env: env}
	tx.steps = append(tx.steps, step{rel: ".harness/eval_log.jsonl", append: true, data: []byte(line)})
	if err := tx.commit(&Report{Command: "test"}); err != nil {
		t.Fatalf("commit with a foreign line appended during the dry run: %v", err)
	}
	data, err := os.ReadFile(evalLog)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(data), `{"id":"foreign-1"}`+"\n"+line+"\n") {
		t.Fatalf("eval_log ends %q, want the foreign line then the change", data[max(0, len(data)-300):])
	}
	// read whole, the foreign line fails the schema (so the snapshot is what kept it out)
	if after, err := EngineValidateOverlay(root, nil, nil, -1, nil); err != nil || !mentions(after, "event_type") {
		t.Fatalf("the foreign line should fail the schema when read: %+v", after)
	}
}
