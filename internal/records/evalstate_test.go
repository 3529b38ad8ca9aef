package records

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
	"github.com/superagent-harness/harness/internal/workspace"
)

// evalAnswer is what the Stop checks 6–9 and the retry count read of
// eval_log for one feature and phase.
type evalAnswer struct {
	MarkLine     int
	MarkTS       string
	MarkTimeOK   bool
	LastLine     int
	Reason       string
	ReasonOK     bool
	ReasonLine   int
	Retries      int
	HaveLastEval bool
}

// referenceAnswer is the full scan the Stop hook did before the cache:
// every line that may concern the feature decoded, then RollbackMark,
// IsPhaseEval/EntryCounts and EffectiveReason over all of them.
func referenceAnswer(t *testing.T, path, f string, p int) evalAnswer {
	t.Helper()
	entries, err := workspace.ScanEvalLog(path, mayConcern(f))
	if err != nil {
		t.Fatal(err)
	}
	var a evalAnswer
	mark := RollbackMark(entries, f, p, 0)
	if mark != nil {
		a.MarkLine, a.MarkTS, a.MarkTimeOK = mark.Entry.Line, mark.Entry.Timestamp(), mark.TimeOK
	}
	var last *workspace.EvalEntry
	for _, e := range entries {
		if IsPhaseEval(e, f, p) && EntryCounts(e, mark) {
			last = e
		}
		if e.Result() == "retry" && e.FeatureID() == f {
			a.Retries++
		}
	}
	if last != nil {
		a.HaveLastEval, a.LastLine = true, last.Line
		a.Reason, a.ReasonOK, a.ReasonLine = EffectiveReason(entries, last)
	}
	return a
}

func cachedAnswer(t *testing.T, ws *workspace.Workspace, f string, p int, opts EvalStateOptions) evalAnswer {
	t.Helper()
	st, err := FeatureState(ws, f, opts)
	if err != nil {
		t.Fatal(err)
	}
	var a evalAnswer
	mark := st.Mark(p)
	if mark != nil {
		a.MarkLine, a.MarkTS, a.MarkTimeOK = mark.Entry.Line, mark.Entry.Timestamp(), mark.TimeOK
	}
	a.Retries = st.Retries
	if pe := st.LastPhaseEval(p, mark); pe != nil {
		eff := pe.Effective()
		a.HaveLastEval, a.LastLine = true, pe.Line
		a.Reason, a.ReasonOK, a.ReasonLine = eff.Reason, eff.ReasonOK, eff.Line
	}
	return a
}

// randomEvalLine is line n of a random eval_log: real shapes, wrong
// types, corrections (valid or not), escapes that spell the feature id,
// garbage.
func randomEvalLine(rng *rand.Rand, n int) string {
	return testutil.RandomEvalLine(rng, n, &testutil.EvalLineSpec{
		Features:    []string{`"f001"`, `"f002"`, `"f002"`, `"\u0066002"`, `"f0021"`, `2`},
		Phases:      []string{"1", "2", "3", "4", "2.0", `"2"`, "null", "1"},
		Events:      []string{`"phase_evaluation"`, `"phase_evaluation"`, `"checkpoint"`, `"retry"`, `"fail"`, `"reset"`, `"yolo_abort"`},
		Results:     []string{`"pass"`, `"retry"`, `"fail"`, `"pass"`, `null`},
		Reasons:     []string{`"拆出 3 个子任务并逐项核对 acceptance a1 a2 a3"`, `"ok"`, `""`, `"  "`, `42`, `"done"`, `"short"`, `"覆盖 a1:表驱动用例 12 个全部通过,耗时 0.4s"`},
		Timestamps:  []string{`"2026-04-21T03:00:00Z"`, `"2026-04-21T04:00:00Z"`, `"2026-04-21T02:00:00+08:00"`, `"2026-04-21T05:30:00.5Z"`, `17`},
		Decisions:   []string{`"approved"`, `"rejected"`, `"approved_with_changes"`},
		Corrections: []string{`"补录: 第 3 项已验证,日志见 build/test.log 第 12 行"`, `"补录:x"`, `"not a 补录 reason"`, `"补录：全角冒号也算"`},
	})
}

// TestFeatureStateEqualsFullScanOnRandomLogs appends random lines in random
// batches (a batch may end inside a line, as a writer caught mid-append) and
// after each batch compares the cached state with the full scan, for both
// features and every phase: the cache changes no answer.
func TestFeatureStateEqualsFullScanOnRandomLogs(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for trial := 0; trial < 60; trial++ {
		root := t.TempDir()
		ws := &workspace.Workspace{Root: root}
		if err := os.MkdirAll(ws.H(), 0o755); err != nil {
			t.Fatal(err)
		}
		var all bytes.Buffer
		n := 20 + rng.IntN(200)
		for i := 1; i <= n; i++ {
			all.WriteString(randomEvalLine(rng, i))
			if i < n || rng.IntN(3) > 0 {
				all.WriteByte('\n')
			}
		}
		data := all.Bytes()
		written := 0
		for written < len(data) {
			step := 1 + rng.IntN(len(data)/3+1)
			if written+step > len(data) {
				step = len(data) - written
			}
			f, err := os.OpenFile(ws.EvalLog(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(data[written : written+step])
			f.Close()
			written += step
			for _, fid := range []string{"f001", "f002"} {
				for p := 1; p <= 4; p++ {
					want := referenceAnswer(t, ws.EvalLog(), fid, p)
					got := cachedAnswer(t, ws, fid, p, EvalStateOptions{})
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("trial %d after %d/%d bytes, %s phase=%d:\n got %+v\nwant %+v\nlog:\n%s", trial, written, len(data), fid, p, got, want, data[:written])
					}
					if nc := cachedAnswer(t, ws, fid, p, EvalStateOptions{NoCache: true}); !reflect.DeepEqual(nc, want) {
						t.Fatalf("no-cache path differs: %+v vs %+v", nc, want)
					}
				}
			}
		}
	}
}

// A log that is rewritten instead of appended to (truncated, replaced by
// other lines of the same or a larger size) is noticed by the cache's
// checksums and read again.
func TestFeatureStateCacheNoticesRewrite(t *testing.T) {
	root := t.TempDir()
	ws := &workspace.Workspace{Root: root}
	os.MkdirAll(ws.H(), 0o755)
	pass := `{"timestamp":"2026-04-21T03:00:00Z","feature_id":"f002","phase":1,"event_type":"phase_evaluation","result":"pass","reason":"拆出 3 个子任务并逐项核对 acceptance a1 a2 a3"}` + "\n"
	retry := `{"timestamp":"2026-04-21T04:00:00Z","feature_id":"f002","phase":1,"event_type":"phase_evaluation","result":"retry","reason":"子任务 2 缺少超时分类,补充后重跑 a2 的用例"}` + "\n"
	os.WriteFile(ws.EvalLog(), []byte(pass+retry), 0o644)
	if a := cachedAnswer(t, ws, "f002", 1, EvalStateOptions{}); a.MarkLine != 2 || a.HaveLastEval || a.Retries != 1 {
		t.Fatalf("%+v", a)
	}
	if _, err := os.Stat(EvalCachePath(ws, "f002")); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	// same size, other content: the retry line becomes a pass
	other := strings.Replace(retry, `"result":"retry"`, `"result":"pass!"`, 1)
	os.WriteFile(ws.EvalLog(), []byte(pass+other), 0o644)
	if got, want := cachedAnswer(t, ws, "f002", 1, EvalStateOptions{}), referenceAnswer(t, ws.EvalLog(), "f002", 1); !reflect.DeepEqual(got, want) {
		t.Fatalf("rewrite not noticed: %+v vs %+v", got, want)
	}
	// truncated below the cached offset
	os.WriteFile(ws.EvalLog(), []byte(pass), 0o644)
	if got, want := cachedAnswer(t, ws, "f002", 1, EvalStateOptions{}), referenceAnswer(t, ws.EvalLog(), "f002", 1); !reflect.DeepEqual(got, want) || !got.HaveLastEval {
		t.Fatalf("truncation not noticed: %+v vs %+v", got, want)
	}
	// a cache planted for another feature, garbage, or another version is ignored
	os.WriteFile(EvalCachePath(ws, "f002"), []byte(`{"version":1,"feature":"f001","offset":5,"lines":1}`), 0o644)
	if got, want := cachedAnswer(t, ws, "f002", 1, EvalStateOptions{}), referenceAnswer(t, ws.EvalLog(), "f002", 1); !reflect.DeepEqual(got, want) {
		t.Fatalf("foreign cache trusted: %+v vs %+v", got, want)
	}
	os.WriteFile(EvalCachePath(ws, "f002"), []byte(`not json`), 0o644)
	if got, want := cachedAnswer(t, ws, "f002", 1, EvalStateOptions{}), referenceAnswer(t, ws.EvalLog(), "f002", 1); !reflect.DeepEqual(got, want) {
		t.Fatalf("garbage cache: %+v vs %+v", got, want)
	}
}

// On every fixture sprint, CheckPhase through the cache (cold, then warm)
// reports exactly what the uncached full scan reports, for every feature.
func TestCheckPhaseCachedEqualsFullScanOnFixtures(t *testing.T) {
	dirs, err := os.ReadDir(testutil.Testdata(t, "sprints"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		root := filepath.Join(t.TempDir(), d.Name())
		testutil.CopyTree(t, testutil.Testdata(t, "sprints", d.Name()), root)
		ws := &workspace.Workspace{Root: root}
		fl, err := ws.LoadFeatureList()
		if err != nil {
			continue
		}
		for _, f := range fl.Features {
			ref, rerr := check(ws, f.ID, true, EvalStateOptions{NoCache: true})
			for i := 0; i < 2; i++ {
				got, gerr := check(ws, f.ID, true, EvalStateOptions{})
				if fmt.Sprint(gerr) != fmt.Sprint(rerr) || !reflect.DeepEqual(got, ref) {
					t.Errorf("%s %s (call %d): cached report differs:\n got %+v %v\nwant %+v %v", d.Name(), f.ID, i, got, gerr, ref, rerr)
				}
			}
			if _, err := os.Stat(ws.EvalLog()); err == nil {
				for p := 1; p <= 4; p++ {
					if got, want := cachedAnswer(t, ws, f.ID, p, EvalStateOptions{}), referenceAnswer(t, ws.EvalLog(), f.ID, p); !reflect.DeepEqual(got, want) {
						t.Errorf("%s %s phase=%d: %+v vs %+v", d.Name(), f.ID, p, got, want)
					}
				}
			}
			checked++
		}
	}
	if checked < 8 {
		t.Fatalf("only %d features checked", checked)
	}
}

// TestGeneratorRetriesAreNoResetTrigger: the retries Reset trigger
// (docs/protocol.md §8.1) counts Hermes's retry verdicts only. A Generator
// may append retry entries itself (`harness eval append --event retry`, a
// needed tool): with the real client, two of them recorded a retries
// trigger, and a handoff.md then opened the Reset exception, so the session
// ended with its phase records unfinished. In a sprint that keeps a ledger
// those lines are evidence, not a count; the ledgered verdict counts, also
// through the cache.
func TestGeneratorRetriesAreNoResetTrigger(t *testing.T) {
	ws := &workspace.Workspace{Root: t.TempDir()}
	if err := os.MkdirAll(ws.H(), 0o755); err != nil {
		t.Fatal(err)
	}
	hermes := `{"timestamp":"2026-04-21T03:40:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"phase_evaluation","result":"retry","reason":"a3 未通过:子任务缺少 Retry-After 的 HTTP-date 解析,回到 phase=1 补上"}`
	gen := func(i int) string {
		return fmt.Sprintf(`{"timestamp":"2026-04-21T04:0%dZ","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"retry","result":"retry","reason":"need jq %d to parse the probe responses","generator":"claude-code"}`, i, i)
	}
	log := gen(1) + "\n" + hermes + "\n" + gen(2) + "\n"
	at := len(gen(1)) + 1
	ledger := fmt.Sprintf(`{"agent":"hermes","eval_log_ledger":{"since":0,"lines":[{"at":%d,"sha256":%q}]}}`, at, workspace.LineHash([]byte(hermes)))
	if err := os.WriteFile(ws.HermesContext(), []byte(ledger), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ws.EvalLog(), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, pass := range []string{"fresh", "cached"} {
		n, err := FeatureRetries(ws, "f002")
		if err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("%s: FeatureRetries = %d, want 1 (Hermes's verdict only, not the Generator's two retry entries)", pass, n)
		}
	}
	// a sprint without a ledger takes every line as written (Legacy)
	if err := os.WriteFile(ws.HermesContext(), []byte(`{"agent":"hermes"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, _ := FeatureRetries(ws, "f002"); n != 3 {
		t.Errorf("legacy sprint: FeatureRetries = %d, want 3", n)
	}
}
