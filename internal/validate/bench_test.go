package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// BenchmarkValidate measures `harness validate` on the finished fixture
// sprint (read-only, so it runs in place).
func BenchmarkValidate(b *testing.B) {
	root := filepath.Join(sprints, "valid-complete")
	for b.Loop() {
		r, err := Validate(root)
		if err != nil || !r.Valid() {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkFinalizeCheck measures `harness finalize --check` on it.
func BenchmarkFinalizeCheck(b *testing.B) {
	root := filepath.Join(sprints, "valid-complete")
	for b.Loop() {
		r, err := FinalizeCheck(root)
		if err != nil || !r.Valid() {
			b.Fatal(err, r)
		}
	}
}

// largeEvalLog copies the fixture sprint name into a temporary folder and
// pads its eval_log.jsonl to lines lines of realistic retry entries of f001
// (the workspace scripts/benchlatency measures `harness validate` on).
func largeEvalLog(b *testing.B, name string, lines int) string {
	b.Helper()
	root := filepath.Join(b.TempDir(), "sprint")
	if err := testutil.CopyDir(filepath.Join(sprints, name), root); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(root, ".harness", "eval_log.jsonl")
	old, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	buf.Write(old)
	for i := bytes.Count(old, []byte("\n")); i < lines; i++ {
		fmt.Fprintf(&buf, `{"timestamp":"2026-04-21T02:%02d:%02dZ","sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f001","phase":2,"iteration":%d,"event_type":"retry","result":"retry","reason":"第 %d 次重试:解析器在引用式链接定义上漏报,补充表驱动用例后重跑 a2"}`+"\n", (i/60)%60, i%60, i+1, i+1)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkValidateLargeEvalLog measures `harness validate` on a workspace
// whose eval_log.jsonl has 100,000 lines (docs/performance.md); B/op is the
// memory a run allocates, not its peak.
func BenchmarkValidateLargeEvalLog(b *testing.B) {
	root := largeEvalLog(b, "valid-midway", 100000)
	want, err := Validate(filepath.Join(sprints, "valid-midway"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r, err := Validate(root)
		if err != nil || r.Errors() != want.Errors() {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkFinalizeCheckLargeEvalLog is FinalizeCheck on valid-complete
// padded to 100,000 lines.
func BenchmarkFinalizeCheckLargeEvalLog(b *testing.B) {
	root := largeEvalLog(b, "valid-complete", 100000)
	for b.Loop() {
		if _, err := FinalizeCheck(root); err != nil {
			b.Fatal(err)
		}
	}
}

// realShapedEvalLog is valid-midway made Stop-ready with its eval_log padded
// to lines real-shaped lines (testutil.EvalRealShapedLine: phase verdicts
// with acceptance_results, checkpoint entries with blockers_resolved), the
// workspace `scripts/benchlatency -scaling` measures `harness validate` on.
func realShapedEvalLog(tb testing.TB, lines int) string {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), "sprint_20260421_1")
	if err := testutil.StopReadyWorkspace(filepath.Join(sprints, "valid-midway"), root); err != nil {
		tb.Fatal(err)
	}
	if err := testutil.PadEvalLog(root, lines, testutil.EvalRealShapedLine); err != nil {
		tb.Fatal(err)
	}
	return root
}

// BenchmarkValidateRealShaped measures `harness validate` on 100,000
// real-shaped lines; the metric µs/line is the time per eval_log line.
func BenchmarkValidateRealShaped(b *testing.B) {
	const lines = 100000
	root := realShapedEvalLog(b, lines)
	for b.Loop() {
		if _, err := Validate(root); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/lines, "µs/line")
}
