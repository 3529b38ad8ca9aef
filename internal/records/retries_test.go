package records

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// TestFeatureRetriesEqualsFeatureState holds FeatureRetries' own fold (its
// byte filter, its cache) to the count of FeatureState's full scan, and
// FeatureState's fixed-shape path (foldFlat) to its map of every line, on
// random logs (the lines of TestFeatureStateEqualsFullScanOnRandomLogs plus
// Generator-shaped retries and \u-spelt results) appended in random batches
// that may end inside a line, with no ledger (every line Legacy) and with a
// ledger recording a random part of the lines (the rest judged by shape).
func TestFeatureRetriesEqualsFeatureState(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 8))
	extra := []string{
		`{"timestamp":"2026-04-21T04:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"retry","result":"retry","reason":"need jq to parse the probe responses","generator":"claude-code"}`,
		`{"timestamp":"2026-04-21T04:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"phase_evaluation","result":"r\u0065try","reason":"a3 未通过,回到 phase=1"}`,
		`{"timestamp":"2026-04-21T04:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":2,"event_type":"checkpoint","result":"retry","decision":"rejected","reason":"用户要求重做 a2"}`,
		`{"timestamp":"2026-04-21T04:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f001","phase":2,"event_type":"retry","result":"retry","reason":"f002 的接口变了,f001 跟着重试"}`,
	}
	counted := 0
	for trial := 0; trial < 60; trial++ {
		ws := &workspace.Workspace{Root: t.TempDir()}
		if err := os.MkdirAll(ws.H(), 0o755); err != nil {
			t.Fatal(err)
		}
		var all bytes.Buffer
		type ledgerLine struct {
			At     int64  `json:"at"`
			SHA256 string `json:"sha256"`
		}
		var ledger []ledgerLine
		n := 20 + rng.IntN(200)
		for i := 1; i <= n; i++ {
			line := randomEvalLine(rng, i)
			if rng.IntN(5) == 0 {
				line = extra[rng.IntN(len(extra))]
			}
			if rng.IntN(2) == 0 {
				ledger = append(ledger, ledgerLine{int64(all.Len()), workspace.LineHash([]byte(line))})
			}
			all.WriteString(line)
			if i < n || rng.IntN(3) > 0 {
				all.WriteByte('\n')
			}
		}
		if trial%2 == 1 {
			doc, _ := json.Marshal(map[string]any{"agent": "hermes", workspace.LedgerKey: map[string]any{"since": 0, "lines": ledger}})
			if err := os.WriteFile(ws.HermesContext(), doc, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		data := all.Bytes()
		for written := 0; written < len(data); {
			step := min(1+rng.IntN(len(data)/3+1), len(data)-written)
			f, err := os.OpenFile(ws.EvalLog(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(data[written : written+step])
			f.Close()
			written += step
			for _, fid := range []string{"f001", "f002"} {
				st, err := FeatureState(ws, fid, EvalStateOptions{NoCache: true})
				if err != nil {
					t.Fatal(err)
				}
				got, err := FeatureRetries(ws, fid)
				if err != nil {
					t.Fatal(err)
				}
				full, err := featureRetries(ws, fid, true)
				if err != nil {
					t.Fatal(err)
				}
				// the fixed-shape fold against the map of every line
				gen, err := FeatureState(ws, fid, EvalStateOptions{NoCache: true, generalOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(st, gen) {
					t.Fatalf("trial %d after %d/%d bytes, %s: FeatureState %+v, on the map of every line %+v\nlog:\n%s", trial, written, len(data), fid, st, gen, data[:written])
				}
				if got != st.Retries || full != st.Retries {
					t.Fatalf("trial %d after %d/%d bytes, %s: FeatureRetries %d (no cache %d), FeatureState %d\nlog:\n%s", trial, written, len(data), fid, got, full, st.Retries, data[:written])
				}
				counted += st.Retries
			}
		}
	}
	if counted == 0 {
		t.Error("no retry counted in any log")
	}
}

// TestMayBeRetryIsContains: mayBeRetry is bytes.Contains of "retry" or
// `\u`, on random strings of the pieces that make it hard.
func TestMayBeRetryIsContains(t *testing.T) {
	pieces := []string{"r", "e", "t", "y", "retr", "retry", "etry", "\\", "u", "\\u", "yy", "ry", `"`, "x", "type"}
	rng := rand.New(rand.NewPCG(4, 4))
	for i := 0; i < 200000; i++ {
		var b []byte
		for k := rng.IntN(8); k >= 0; k-- {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		if got, want := mayBeRetry(b), bytes.Contains(b, []byte("retry")) || bytes.Contains(b, []byte(`\u`)); got != want {
			t.Fatalf("mayBeRetry(%q) = %v, want %v", b, got, want)
		}
	}
}

// TestColdFeatureRetriesDecodesOnlyRetryLines guards the cold path of the
// first PreToolUse by allocations, not time: without a cache, counting the
// retries of a 20,000-line log whose every line names the feature (and none
// is a retry) decodes no line, so its allocations do not grow with the log
// (a decode of each line would be ~10 allocations per line); the two retry
// lines appended are decoded and counted.
func TestColdFeatureRetriesDecodesOnlyRetryLines(t *testing.T) {
	ws := &workspace.Workspace{Root: t.TempDir()}
	if err := os.MkdirAll(ws.H(), 0o755); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for i := 0; i < 20000; i++ {
		b.WriteString(testutil.EvalMentionLine(i) + "\n")
	}
	b.WriteString(`{"timestamp":"2026-04-21T04:00:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"phase_evaluation","result":"retry","reason":"a3 未通过,回到 phase=1 补上 HTTP-date 解析"}` + "\n")
	b.WriteString(`{"timestamp":"2026-04-21T04:01:00Z","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"retry","result":"retry","reason":"第二次重试:超时分类仍漏掉 ECONNRESET"}` + "\n")
	if err := os.WriteFile(ws.EvalLog(), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var n int
	allocs := testing.AllocsPerRun(3, func() {
		var err error
		if n, err = featureRetries(ws, "f002", true); err != nil {
			t.Fatal(err)
		}
	})
	if n != 2 {
		t.Errorf("retries = %d, want 2", n)
	}
	if allocs > 2000 {
		t.Errorf("a cold count of 20,000 lines took %.0f allocations: lines that cannot be retries are being decoded", allocs)
	}
	t.Logf("%.0f allocations", allocs)
}
