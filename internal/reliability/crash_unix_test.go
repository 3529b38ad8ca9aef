//go:build !windows

package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

// TestCrashSafetySIGKILL kills writers with SIGKILL at random moments and
// checks after every kill that each state file is a complete old or new
// version and that the logs hold whole lines only: no line lost or
// duplicated, and at most an isolated strict prefix of the line that was
// being written when the kill landed inside write(2) (a kernel short write),
// which the next append seals and validate reports.
//
// Writers: a helper process looping fsutil.WriteFileAtomic + fsutil.AppendLine
// (the only write paths of harness), and the real harness-hook doing the
// Stop Reset bookkeeping (session_pool.json replace + eval_log append +
// hook.log append), and `harness eval append` when the CLI has it.
func TestCrashSafetySIGKILL(t *testing.T) {
	trials := 150
	if testing.Short() {
		trials = 30
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 42))
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	lastN, lastLog := -1, -1
	killedMidRun, tornFragments := 0, 0
	for i := 0; i < trials; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := helperCmd(ctx, "crash", state, fmt.Sprint(lastLog+1), 0)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(25000)) * time.Microsecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		cancel()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killedMidRun++
		} else if err != nil {
			t.Fatalf("helper failed on its own: %v %s", err, stderr.Bytes())
		}
		// state file: absent (killed before the first write) or a whole version
		data, err := os.ReadFile(state)
		if os.IsNotExist(err) && lastN < 0 {
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: read state: %v", i, err)
		}
		var doc struct {
			N   int    `json:"n"`
			Pad string `json:"pad"`
			Len int    `json:"len"`
		}
		if err := json.Unmarshal(data, &doc); err != nil || len(doc.Pad) != doc.Len {
			t.Fatalf("trial %d: state file torn (%d bytes, err %v)", i, len(data), err)
		}
		if doc.N < lastN {
			t.Fatalf("trial %d: state went back from version %d to %d", i, lastN, doc.N)
		}
		lastN = doc.N
		// log: whole lines, strictly increasing n, and every version whose
		// state replace finished has its line (the append follows the replace,
		// so the log may lag the state by exactly one)
		logData, err := os.ReadFile(state + ".log")
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		// A SIGKILL that lands inside write(2) can leave a short write: Linux
		// stops a killable write between page-cache pages and returns what
		// it copied. No user-space append can prevent that, so the contract
		// is: such a fragment is only ever a strict prefix of the line being
		// written, it never merges with another line (the next AppendLine
		// seals it with a newline first), no whole line is lost or
		// duplicated, and validate reports the fragment (eval.jsonl-parse;
		// see internal/validate). Anything else is a failure.
		prev := -1
		lines := strings.Split(string(logData), "\n")
		for li, l := range lines {
			if l == "" {
				continue
			}
			var o map[string]any
			if err := json.Unmarshal([]byte(l), &o); err != nil {
				if want := crashLogLine(prev + 1); !strings.HasPrefix(want, l) || l == want {
					t.Fatalf("trial %d: log line %d is torn but is not a prefix of the line being written (n=%d): %.80q", i, li+1, prev+1, l)
				}
				tornFragments++
				continue
			}
			n := int(o["n"].(float64))
			if n != prev+1 {
				t.Fatalf("trial %d: log line n=%d follows n=%d (lost or duplicated line)", i, n, prev)
			}
			prev = n
		}
		if prev != lastN && prev != lastN-1 {
			t.Fatalf("trial %d: log ends at n=%d but state is at n=%d", i, prev, lastN)
		}
		lastLog = prev
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".state.json.tmp-*"))
	t.Logf("%d helper trials, %d killed mid-run, final version %d, %d temp files left by killed atomic writes, %d short-write fragments (isolated)", trials, killedMidRun, lastN, len(leftovers), tornFragments)
	if killedMidRun < trials/2 {
		t.Errorf("only %d of %d helpers were killed mid-run: the test did not exercise crashes", killedMidRun, trials)
	}

	t.Run("real hook Stop reset bookkeeping", func(t *testing.T) { crashHookTrials(t, rng, 60) })
	t.Run("real harness eval append", func(t *testing.T) { crashEvalAppendTrials(t, rng, 30) })
}

// crashLogLine is the log line the "crash" helper writes for version n
// (main_test.go).
func crashLogLine(n int) string {
	pad := strings.Repeat(strconv.Itoa(n%10), 4096+n%8192)
	return fmt.Sprintf(`{"n":%d,"pad":"%s"}`, n, pad[:n%2000])
}

// crashHookTrials SIGKILLs the real hook while it records a Reset (check 1 of
// the Stop rules: handoff.md > 50 bytes and fresh → session_pool.json status
// resetting + a reset eval entry + a hook.log line).
func crashHookTrials(t *testing.T, rng *rand.Rand, trials int) {
	hook := needHook(t)
	root := newWorkspace(t)
	h := filepath.Join(root, ".harness")
	pristinePool, _ := os.ReadFile(filepath.Join(h, "session_pool.json"))
	handoff := "**Generated at**: 2026-04-21T03:00:00Z\n**Feature**: f002\n**Trigger reason**: token usage 0.72 > 0.70\n\n## 当前状态\n"
	payload := []byte(`{"session_id":"sess-crash","hook_event_name":"Stop","stop_hook_active":false}`)
	// kill window: 0 … 0.9 × the time of one complete call, measured first
	window := 6 * time.Millisecond
	{
		cmd := exec.Command(hook, "--event", "Stop", "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1")
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = cleanEnv()
		if err := os.WriteFile(filepath.Join(h, "features", "f002", "handoff.md"), []byte(handoff), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if out, err := cmd.Output(); err != nil {
			t.Fatalf("hook Stop: %v %s", err, out)
		}
		window = max(window, time.Since(start)*9/10)
	}
	completed := 0
	for i := 0; i < trials; i++ {
		// fresh Reset each trial: pristine pool, fresh handoff.md
		if err := os.WriteFile(filepath.Join(h, "session_pool.json"), pristinePool, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(h, "features", "f002", "handoff.md"), []byte(handoff), 0o644); err != nil {
			t.Fatal(err)
		}
		// remove the previous trial's reset entry so the bookkeeping runs again
		trimResetEntries(t, filepath.Join(h, "eval_log.jsonl"))
		cmd := exec.Command(hook, "--event", "Stop", "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1")
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = cleanEnv()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(window))))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && !ws.Signaled() {
			completed++
		}
		var pool map[string]any
		data, err := os.ReadFile(filepath.Join(h, "session_pool.json"))
		if err != nil || json.Unmarshal(data, &pool) != nil {
			t.Fatalf("trial %d: session_pool.json torn or missing (%v, %d bytes)", i, err, len(data))
		}
		st := pool["active"].(map[string]any)["f002"].(map[string]any)["status"]
		if st != "running" && st != "resetting" {
			t.Fatalf("trial %d: session_pool f002 status %v is neither old nor new", i, st)
		}
		for _, f := range []string{"eval_log.jsonl", filepath.Join("logs", "hook.log")} {
			data, _ := os.ReadFile(filepath.Join(h, f))
			if _, bad := jsonLines(data); len(bad) > 0 {
				t.Fatalf("trial %d: %s has torn lines: %q", i, f, bad)
			}
			if len(data) > 0 && data[len(data)-1] != '\n' {
				t.Fatalf("trial %d: %s does not end in a newline", i, f)
			}
		}
	}
	t.Logf("%d hook trials, kill window %s, %d finished before the kill", trials, window, completed)
}

// trimResetEntries drops reset lines from eval_log (test setup between trials).
func trimResetEntries(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.Contains(l, `"event_type":"reset"`) {
			keep = append(keep, l)
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(keep, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// crashEvalAppendTrials SIGKILLs `harness eval append` at random moments.
func crashEvalAppendTrials(t *testing.T, rng *rand.Rand, trials int) {
	needSubcommand(t, "eval", "append")
	root := newWorkspace(t)
	path := filepath.Join(root, ".harness", "eval_log.jsonl")
	for i := 0; i < trials; i++ {
		cmd := exec.Command(bins.Harness, "eval", "append", "--root", root, "--feature", "f002", "--phase", "1",
			"--event", "retry", "--result", "retry", "--reason", fmt.Sprintf("crash trial %d of the reliability test", i))
		cmd.Env = cleanEnv()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(15000)) * time.Microsecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		data, _ := os.ReadFile(path)
		if _, bad := jsonLines(data); len(bad) > 0 {
			t.Fatalf("trial %d: eval_log has torn lines: %q", i, bad)
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			t.Fatalf("trial %d: eval_log does not end in a newline", i)
		}
		for _, f := range []string{"feature_list.json", "session_pool.json", "runtime_state.json", "hermes_context_state.json"} {
			b, err := os.ReadFile(filepath.Join(root, ".harness", f))
			if err != nil || !json.Valid(b) {
				t.Fatalf("trial %d: %s torn or missing", i, f)
			}
		}
		checkLedgerFile(t, root, i, false)
	}
	// one append that is not killed completes the last interrupted one from
	// its journal: then every line since the ledger started is Hermes's,
	// recorded exactly once
	cmd := exec.Command(bins.Harness, "eval", "append", "--root", root, "--feature", "f002", "--phase", "1",
		"--event", "retry", "--result", "retry", "--reason", "the crash trials' closing append")
	cmd.Env = cleanEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("closing append: %v\n%s", err, out)
	}
	checkLedgerFile(t, root, trials, true)
}

// checkLedgerFile checks the provenance ledger's file after a kill: whole
// lines (the last may be a strict prefix a kill left mid-write, which the
// next append seals), no offset recorded twice, and each entry the offset
// and hash of an eval_log line (the ledger line is appended after its
// eval_log line, never before). complete: also every eval_log line from
// eval_log_ledger.since on has its entry (the journal was replayed).
func checkLedgerFile(t *testing.T, root string, trial int, complete bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".harness", filepath.FromSlash(workspace.LedgerFile)))
	if err != nil {
		if os.IsNotExist(err) && !complete {
			return // killed before the first ledger write
		}
		t.Fatalf("trial %d: ledger file: %v", trial, err)
	}
	log, err := os.ReadFile(filepath.Join(root, ".harness", "eval_log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	starts := map[int64]string{}
	for at := 0; at < len(log); {
		end := bytes.IndexByte(log[at:], '\n')
		if end < 0 {
			end = len(log) - at
		}
		starts[int64(at)] = workspace.LineHash(log[at : at+end])
		at += end + 1
	}
	seen := map[int64]bool{}
	lines := strings.Split(string(data), "\n")
	for k, l := range lines {
		if l == "" {
			continue
		}
		at, sha, ok := workspace.ParseLedgerLine([]byte(l))
		if !ok {
			// a kill inside write(2) can leave a strict prefix of the line
			// (see TestCrashSafetySIGKILL); the next append seals it and
			// every reader skips it (workspace.Provenance.SetLedgerFile)
			if !strings.HasPrefix(l, `{"at":`) || json.Valid([]byte(l)) {
				t.Fatalf("trial %d: ledger line %d is not an entry: %q", trial, k+1, l)
			}
			continue
		}
		if seen[at] {
			t.Fatalf("trial %d: ledger records the line at %d twice", trial, at)
		}
		seen[at] = true
		if starts[at] != sha {
			t.Fatalf("trial %d: ledger entry %q names no eval_log line", trial, l)
		}
	}
	if !complete {
		return
	}
	hc, err := os.ReadFile(filepath.Join(root, ".harness", "hermes_context_state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Ledger struct {
			Since  int64 `json:"since"`
			Format int   `json:"format"`
		} `json:"eval_log_ledger"`
	}
	if err := json.Unmarshal(hc, &doc); err != nil || doc.Ledger.Format != workspace.LedgerFormatFile {
		t.Fatalf("eval_log_ledger %s: %v", hc, err)
	}
	for at := range starts {
		if at >= doc.Ledger.Since && at < int64(len(log)) && !seen[at] {
			t.Fatalf("after the closing append the eval_log line at %d (since %d) has no ledger entry", at, doc.Ledger.Since)
		}
	}
}
