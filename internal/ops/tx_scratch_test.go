package ops

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	harness "github.com/superagent-harness/harness"
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
	env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
	rep, err := EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要登记 golang.org/x/time/rate"})
	if err != nil {
		t.Fatalf("eval append refused: %v", err)
	}
	if !mentions(rep.Warnings, "extra") {
		t.Fatalf("the dry run did not use the sprint's schema copy; warnings %+v", rep.Warnings)
	}
}

func mentions(list []Finding, s string) bool {
	for _, f := range list {
		if strings.Contains(f.Message, s) {
			return true
		}
	}
	return false
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
