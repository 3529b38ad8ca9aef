package validate

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// randomLine is one eval_log line of many shapes: valid phase verdicts with
// acceptance_results, checkpoint entries with blockers_resolved, sprint
// gates, corrections, lazy reasons, wrong types, unknown features, broken
// JSON, blank lines.
func randomLine(rng *rand.Rand, n int) string {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	switch rng.IntN(16) {
	case 0:
		return ""
	case 1:
		return `{"timestamp":"2026-04-21T03:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002"` // torn JSON
	case 2:
		return fmt.Sprintf(`{"timestamp":"2026-04-21T03:10:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"phase_evaluation","supersedes_line":%d,"reason":"补录: 第 %d 行的理由补全,覆盖 a1 a2"}`, 1+rng.IntN(n), n)
	case 3:
		return fmt.Sprintf(`{"timestamp":"2026-04-21T03:20:00Z","sprint_id":"sprint_20260421_1","event_type":"checkpoint","checkpoint_id":%q,"checkpoint_type":"gate","decision":%q,"reason":"用户确认工具与 DAG,回复 1a 2b"}`,
			pick("cp-sprint-dag", "cp-sprint-tooling"), pick("approved", "rejected", "approved_with_changes"))
	}
	fid := pick(`"f001"`, `"f002"`, `"f009"`, `"f002"`)
	res := pick("pass", "retry", "fail")
	reason := pick(`"拆出 3 个子任务并逐项核对 acceptance a1 a2 a3,全部通过"`, `"ok"`, `""`, `"short"`, `7`)
	ts := pick(`"2026-04-21T03:00:00Z"`, `"2026-04-21T03:00:00+08:00"`, `"2026-04-21T03:00:00.25Z"`)
	ar := ""
	if rng.IntN(2) == 0 {
		ar = `,"acceptance_results":[{"id":"a1","criteria":"x","status":"pass","evidence":"go test ./... 12 passed"},{"id":"a2","criteria":"y","status":` +
			pick(`"pass"`, `"fail"`) + `,"evidence":` + pick(`"ok"`, `"见 build/test.log 第 40 行"`) + `}]`
	}
	if rng.IntN(5) == 0 {
		return fmt.Sprintf(`{"timestamp":%s,"sprint_id":"sprint_20260421_1","feature_id":%s,"phase":2,"event_type":"checkpoint","checkpoint_id":"cp-f002-2","checkpoint_type":"gate","decision":"approved","user_reply_raw":"1a 2b","blockers_resolved":[{"id":"q1","answer":"a","feedback":%s}],"reason":%s}`,
			ts, fid, pick(`null`, `"keep it"`), reason)
	}
	return fmt.Sprintf(`{"timestamp":%s,"sprint_id":%s,"generator":"claude-code","feature_id":%s,"phase":%s,"iteration":%d,"event_type":"phase_evaluation","result":%q,"reason":%s%s}`,
		ts, pick(`"sprint_20260421_1"`, `"sprint_x"`), fid, pick("1", "2", `"2"`), 1+rng.IntN(4), res, reason, ar)
}

// The eval_log cache (Options.EvalCache) with Options.Appends changes no
// finding: after every random batch of appended lines (a torn last line
// now and then), the cached run that overlays the batch reports exactly
// what a full validate of the file with the batch written reports.
func TestEvalCacheAndAppendsEqualFullValidate(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 12; trial++ {
		root := filepath.Join(t.TempDir(), "sprint_20260421_1")
		testutil.CopyTree(t, filepath.Join(sprints, "valid-midway"), root)
		logPath := filepath.Join(root, ".harness", "eval_log.jsonl")
		for batch := 0; batch < 12; batch++ {
			old, _ := os.ReadFile(logPath)
			n := bytes.Count(old, []byte("\n")) + 1
			var app bytes.Buffer
			if len(old) > 0 && old[len(old)-1] != '\n' {
				app.WriteByte('\n') // as fsutil.AppendLine after a torn line
			}
			for i := 0; i < 1+rng.IntN(4); i++ {
				app.WriteString(randomLine(rng, n+i) + "\n")
			}
			got, err := ValidateWith(root, false, Options{HarnessOnly: true, EvalCache: true,
				Appends: map[string][]byte{".harness/eval_log.jsonl": app.Bytes()}})
			if err != nil {
				t.Fatal(err)
			}
			data := append(append([]byte{}, old...), app.Bytes()...)
			if rng.IntN(6) == 0 {
				data = append(data, `{"timestamp":"2026-04-21T04:00:00Z","sprint_id":"sprint_2026`...) // a writer caught mid-line
			}
			if err := os.WriteFile(logPath, data[:len(old)+app.Len()], 0o644); err != nil {
				t.Fatal(err)
			}
			want, err := ValidateWith(root, false, Options{HarnessOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Findings, want.Findings) {
				t.Fatalf("trial %d batch %d: cached run with the append differs from the full validate:\n got %v\nwant %v\nappended:\n%s", trial, batch, got.Findings, want.Findings, app.Bytes())
			}
			// the cached run of the file as it now is equals the full one too
			again, err := ValidateWith(root, false, Options{HarnessOnly: true, EvalCache: true})
			if err != nil || !reflect.DeepEqual(again.Findings, want.Findings) {
				t.Fatalf("trial %d batch %d: cached run of the written file differs: %v", trial, batch, err)
			}
			if len(data) > len(old)+app.Len() {
				os.WriteFile(logPath, data, 0o644) // leave the torn line for the next batch
			}
		}
		if _, err := os.Stat(filepath.Join(root, ".harness", "logs", "cache", "validate-eval.json")); err != nil {
			t.Fatalf("no cache written: %v", err)
		}
	}
}

// A cache is ignored when the context of the one-line rules changed (a
// feature's acceptance list) or the log was rewritten.
func TestEvalCacheNoticesContextAndRewrite(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, filepath.Join(sprints, "valid-midway"), root)
	opts := Options{HarnessOnly: true, EvalCache: true}
	if _, err := ValidateWith(root, false, opts); err != nil {
		t.Fatal(err)
	}
	fl := filepath.Join(root, ".harness", "feature_list.json")
	b, _ := os.ReadFile(fl)
	os.WriteFile(fl, []byte(strings.Replace(string(b), `"acceptance": [`, `"acceptance": ["a new first item",`, 1)), 0o644)
	for name, mutate := range map[string]func(){
		"acceptance changed": func() {},
		"log rewritten": func() {
			lp := filepath.Join(root, ".harness", "eval_log.jsonl")
			d, _ := os.ReadFile(lp)
			os.WriteFile(lp, bytes.Replace(d, []byte(`"result":"pass"`), []byte(`"result":"PASS"`), 1), 0o644)
		},
	} {
		mutate()
		got, err := ValidateWith(root, false, opts)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ValidateWith(root, false, Options{HarnessOnly: true})
		if err != nil || !reflect.DeepEqual(got.Findings, want.Findings) {
			t.Errorf("%s: cached %v\nfull %v", name, got.Findings, want.Findings)
		}
	}
}
