package ops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

// TestLedgerFileVerdictsEqualInline is the differential test of the two
// ledger formats on random logs: a ledger written inline
// (eval_log_ledger.lines, with entries for some lines, stale hashes, wrong
// offsets, unknown members), the same entries in the ledger file
// (inlineAsFile), and the sprint after a Hermes append moved the inline
// ledger into the file give every old line the same verdict (and reason),
// the same provenance key (so no cache keyed by it is invalidated by the
// move), and the appended line is Hermes's.
func TestLedgerFileVerdictsEqualInline(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 13))
	for trial := 0; trial < 40; trial++ {
		var log bytes.Buffer
		var ats []int64
		var entries []any
		n := 1 + rng.IntN(200)
		since := int64(0)
		for i := 1; i <= n; i++ {
			if i == n/3 && rng.IntN(2) == 0 {
				since = int64(log.Len())
			}
			line := randomOpsLine(rng, i)
			at := int64(log.Len())
			ats = append(ats, at)
			log.WriteString(line + "\n")
			switch rng.IntN(6) {
			case 0, 1, 2:
				entries = append(entries, map[string]any{"at": at, "sha256": workspace.LineHash([]byte(line))})
			case 3:
				entries = append(entries, map[string]any{"sha256": workspace.LineHash([]byte(line)), "at": at, "note": "kept"})
			case 4:
				entries = append(entries, map[string]any{"at": at + 1, "sha256": workspace.LineHash([]byte(line))})
			}
		}
		rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		inline := map[string]any{"since": since, "lines": entries}

		mk := func(name string, led any, file []byte) *Env {
			root := filepath.Join(t.TempDir(), name)
			if err := os.MkdirAll(filepath.Join(root, ".harness", "logs"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, ".harness", "eval_log.jsonl"), log.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			hc, _ := json.Marshal(map[string]any{"agent": "hermes", workspace.LedgerKey: led})
			if err := os.WriteFile(filepath.Join(root, ".harness", "hermes_context_state.json"), hc, 0o644); err != nil {
				t.Fatal(err)
			}
			if file != nil {
				if err := os.WriteFile(filepath.Join(root, ".harness", "logs", "eval_ledger.jsonl"), file, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
			env.Validate = nil
			return env
		}
		inlineDoc, _ := json.Marshal(inline)
		ledObj, err := parseObj(inlineDoc)
		if err != nil {
			t.Fatal(err)
		}
		file, err := inlineAsFile(ledObj)
		if err != nil {
			t.Fatal(err)
		}
		envInline := mk("inline", inline, nil)
		envFile := mk("file", map[string]any{"since": since, "format": workspace.LedgerFormatFile}, file)
		envMoved := mk("moved", inline, nil)
		entry := NewObj().With("event_type", "phase_evaluation").With("feature_id", "f001").With("phase", 1)
		if err := envMoved.update(&Report{Command: "eval append"}, func(tx *Tx) error { return tx.AppendEval(entry) }); err != nil {
			t.Fatal(err)
		}
		load := func(env *Env) *workspace.Provenance {
			p, err := (&workspace.Workspace{Root: env.Root}).LoadProvenance()
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		pi, pf, pm := load(envInline), load(envFile), load(envMoved)
		if !pm.InFile || pi.InFile || !pf.InFile {
			t.Fatalf("trial %d: formats inline %v file %v moved %v", trial, pi.InFile, pf.InFile, pm.InFile)
		}
		lines := bytes.SplitAfter(log.Bytes(), []byte("\n"))
		for k, at := range ats {
			line := bytes.TrimSuffix(lines[k], []byte("\n"))
			var e *workspace.EvalEntry
			if m, err := workspace.DecodeEvalLine(line); err == nil {
				e = &workspace.EvalEntry{Line: k + 1, At: at, Fields: m}
			}
			vi, wi := pi.Of(at, line, e)
			vf, wf := pf.Of(at, line, e)
			vm, wm := pm.Of(at, line, e)
			if vi != vf || wi != wf || vi != vm || wi != wm {
				t.Fatalf("trial %d line %d: inline %v %q, file %v %q, moved %v %q", trial, k+1, vi, wi, vf, wf, vm, wm)
			}
		}
		end := int64(log.Len())
		if pi.KeyBefore(end) != pf.KeyBefore(end) || pi.KeyBefore(end) != pm.KeyBefore(end) || pi.Key() != pf.Key() {
			t.Fatalf("trial %d: keys differ: inline %s file %s moved %s", trial, pi.KeyBefore(end), pf.KeyBefore(end), pm.KeyBefore(end))
		}
		after, err := os.ReadFile(envMoved.H("eval_log.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		added := bytes.TrimSuffix(after[end:], []byte("\n"))
		if v, _ := pm.Of(end, added, nil); v != workspace.Hermes {
			t.Fatalf("trial %d: the appended line %s is %v, want Hermes", trial, added, v)
		}
		hc := readJSON(t, envMoved.H("hermes_context_state.json"))
		if got := fmt.Sprint(hc[workspace.LedgerKey]); got != fmt.Sprintf("map[format:2 lines:[] since:%d]", since) {
			t.Fatalf("trial %d: moved eval_log_ledger %s", trial, got)
		}
	}
}

// A crash at every step of a Hermes append in the file format, the next
// operation completing it from the journal: afterwards every eval_log line
// since the ledger started is recorded exactly once, and one of the crash
// points left the eval_log line without its ledger line (the window the
// journal closes).
func TestLedgerFileCrashBetweenAppends(t *testing.T) {
	window := false
	for n := 1; n <= 6; n++ {
		root := ledgeredFixture(t, t.TempDir())
		env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
		in := EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要登记 golang.org/x/time/rate 到 tooling 第 6 节"}
		if _, err := EvalAppend(env, in); err != nil { // moves the inline ledger into the file
			t.Fatal(err)
		}
		setCrash(t, root, n)
		_, err := EvalAppend(env, in)
		crashed := errors.Is(err, errCrash)
		if err != nil && !crashed {
			t.Fatalf("n=%d: %v", n, err)
		}
		setCrash(t, root, 0)
		log, _ := os.ReadFile(env.H("eval_log.jsonl"))
		file, _ := os.ReadFile(env.H("logs", "eval_ledger.jsonl"))
		lastAt := int64(bytes.LastIndexByte(log[:len(log)-1], '\n') + 1)
		if crashed && !bytes.Contains(file, []byte(fmt.Sprintf(`{"at":%d,`, lastAt))) {
			window = true
		}
		if _, err := EvalAppend(env, in); err != nil { // replays the journal first
			t.Fatalf("n=%d: after the crash: %v", n, err)
		}
		log, _ = os.ReadFile(env.H("eval_log.jsonl"))
		file, _ = os.ReadFile(env.H("logs", "eval_ledger.jsonl"))
		hc := readJSON(t, env.H("hermes_context_state.json"))
		since := int64(hc[workspace.LedgerKey].(map[string]any)["since"].(float64))
		count := map[int64]int{}
		for _, l := range bytes.Split(bytes.TrimSuffix(file, []byte("\n")), []byte("\n")) {
			at, sha, ok := workspace.ParseLedgerLine(l)
			if !ok {
				t.Fatalf("n=%d: ledger line %q", n, l)
			}
			count[at]++
			end := bytes.IndexByte(log[at:], '\n')
			if end < 0 || workspace.LineHash(log[at:at+int64(end)]) != sha {
				t.Fatalf("n=%d: entry %q names no eval_log line", n, l)
			}
		}
		for at := 0; at < len(log); {
			end := bytes.IndexByte(log[at:], '\n')
			if int64(at) >= since && count[int64(at)] != 1 {
				t.Fatalf("n=%d: the line at %d is recorded %d times:\n%s", n, at, count[int64(at)], file)
			}
			at += end + 1
		}
	}
	if !window {
		t.Fatal("no crash point fell between the eval_log append and its ledger line: the test did not exercise the journal")
	}
}
