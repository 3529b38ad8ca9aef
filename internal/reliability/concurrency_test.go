package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentAppendsAndStateUpdates runs 8 writer streams of 500 appends
// each at the same time against one workspace: 4 streams of real hook calls
// (PreToolUse Bash and Write payloads, each logging one hook.log line),
// 2 streams of eval_log appends (`harness eval append`, then fsutil.AppendLine
// in a helper process), 2 helper processes doing locked read-modify-write of
// session_pool.json plus an eval_log append, and `harness session start`.
// Every eval_log line any writer appends is a valid entry: ops refuses a
// change that adds findings, and judges the log as it is when it validates,
// so another writer's invalid line appended between its two validations would
// be taken for its own (that was an ordering dependence, not a race to wait
// out).
// A reader checks that the state files parse as JSON at every moment.
// Afterwards every line must be whole JSON and present exactly once, and the
// counter must show no lost update.
func TestConcurrentAppendsAndStateUpdates(t *testing.T) {
	hook := needHook(t)
	const perStream = 500
	hookStreams, n := 4, perStream
	if testing.Short() {
		n = 60
	}
	root := newWorkspace(t)
	h := filepath.Join(root, ".harness")
	hookLogBefore, _ := os.ReadFile(filepath.Join(h, "logs", "hook.log"))
	evalBefore, _ := os.ReadFile(filepath.Join(h, "eval_log.jsonl"))
	needSubcommand(t, "eval", "append")
	needSubcommand(t, "session", "start")
	// `harness eval append` takes ~90 ms (it validates the workspace and
	// fsyncs under the workspace lock): 100 calls per stream keep the test
	// under a minute; the stream's other lines come from a helper process.
	cliAppends := min(n, 100)

	// Deadlines: each command has its own (commandLimit), so a command that
	// hangs — a lock never released — fails the test at that command; the
	// streams together have the test binary's (testDeadline), because the
	// work is fixed and its wall time is the machine's: on two cores shared
	// with other builds it took 114 s of the former fixed 120 s for all.
	ctx, cancel := testDeadline(t)
	defer cancel()
	command := func(name string, args ...string) (*exec.Cmd, context.CancelFunc) {
		c, stop := context.WithTimeout(ctx, commandLimit)
		return exec.CommandContext(c, name, args...), stop
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	start := time.Now()

	// hook streams
	for w := 0; w < hookStreams; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < n; i++ {
				var payload []byte
				id := fmt.Sprintf("uniq-%d-%d", w, i)
				if i%2 == 0 {
					payload, _ = json.Marshal(map[string]any{"session_id": "sess-conc", "hook_event_name": "PreToolUse",
						"cwd": filepath.Join(h, "features", "f002"), "tool_name": "Bash", "tool_use_id": id,
						"tool_input": map[string]any{"command": "echo " + id}})
				} else {
					payload, _ = json.Marshal(map[string]any{"session_id": "sess-conc", "hook_event_name": "PreToolUse",
						"cwd": filepath.Join(h, "features", "f002"), "tool_name": "Write", "tool_use_id": id,
						"tool_input": map[string]any{"file_path": filepath.Join(root, "src", id+".txt"), "content": "x"}})
				}
				cmd, stop := command(hook, "--event", "PreToolUse", "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1")
				cmd.Stdin = strings.NewReader(string(payload))
				cmd.Env = cleanEnv()
				out, err := cmd.Output()
				stop()
				if err != nil {
					errs <- fmt.Errorf("hook %s: %v", id, err)
					return
				}
				if len(out) > 0 && !json.Valid(out) {
					errs <- fmt.Errorf("hook %s printed non-JSON %q", id, out)
					return
				}
			}
		}(w)
	}
	// eval streams
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			prefix := fmt.Sprintf("eval-%d", w)
			for i := 0; i < n; i++ {
				if i >= cliAppends {
					// the rest of this stream through fsutil.AppendLine
					if out, err := helperCmd(ctx, "append", filepath.Join(h, "eval_log.jsonl"), fmt.Sprintf("%s-cli", prefix), n-i).CombinedOutput(); err != nil {
						errs <- fmt.Errorf("append helper: %v %s", err, out)
					}
					return
				}
				cmd, stop := command(bins.Harness, "eval", "append", "--root", root, "--feature", "f002",
					"--phase", "1", "--event", "retry", "--result", "retry",
					"--reason", fmt.Sprintf("%s-%d concurrent append from the reliability test", prefix, i))
				cmd.Env = cleanEnv()
				out, err := cmd.CombinedOutput()
				stop()
				if err != nil {
					errs <- fmt.Errorf("harness eval append: %v %s", err, out)
					return
				}
			}
		}(w)
	}
	// state streams
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			if out, err := helperCmd(ctx, "update", filepath.Join(h, "session_pool.json"), fmt.Sprintf("state-%d", w), n).CombinedOutput(); err != nil {
				errs <- fmt.Errorf("update helper: %v %s", err, out)
			}
		}(w)
	}
	// ops stream: `harness session start` rewrites session_pool.json and
	// .current_agent under the workspace lock, interleaved with the helpers'
	// locked counter increments: a read-modify-write outside the lock would
	// lose increments.
	opsCalls := min(n, 100)
	{
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < opsCalls; i++ {
				cmd, stop := command(bins.Harness, "session", "start", "f002", "--root", root,
					"--session-id", fmt.Sprintf("sess-conc-%d", i), "--type", "cc-print")
				cmd.Env = cleanEnv()
				out, err := cmd.CombinedOutput()
				stop()
				if err != nil {
					errs <- fmt.Errorf("harness session start: %v %s", err, out)
					return
				}
			}
		}()
	}
	t.Logf("state stream via `harness session start`: %d calls", opsCalls)
	// reader: state files must parse at every moment
	var reads, badReads atomic.Int64
	done := make(chan struct{})
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case <-done:
				return
			default:
			}
			for _, f := range []string{"session_pool.json", "feature_list.json", ".current_agent"} {
				data, err := os.ReadFile(filepath.Join(h, f))
				reads.Add(1)
				if err != nil || !json.Valid(data) {
					badReads.Add(1)
				}
			}
			time.Sleep(time.Millisecond)
		}
	}()
	wg.Wait()
	close(done)
	<-readerDone
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d writer streams × %d in %s; %d state-file reads", hookStreams+4, n, time.Since(start).Round(time.Millisecond), reads.Load())
	if badReads.Load() > 0 {
		t.Errorf("%d of %d concurrent reads saw a state file that was missing or not JSON", badReads.Load(), reads.Load())
	}

	// hook.log: every new line whole JSON, one record per call
	recs := appendedLines(t, filepath.Join(h, "logs", "hook.log"), hookLogBefore)
	seen := map[string]int{}
	for _, r := range recs {
		b, _ := json.Marshal(r)
		s := string(b)
		if i := strings.Index(s, "uniq-"); i >= 0 {
			j := i + 5
			for j < len(s) && (s[j] == '-' || (s[j] >= '0' && s[j] <= '9')) {
				j++
			}
			seen[strings.TrimSuffix(s[i:j], "-")]++
		}
	}
	for w := 0; w < hookStreams; w++ {
		for i := 0; i < n; i++ {
			if c := seen[fmt.Sprintf("uniq-%d-%d", w, i)]; c != 1 {
				t.Errorf("hook.log has %d records for call uniq-%d-%d, want 1", c, w, i)
			}
		}
	}
	if len(recs) != hookStreams*n {
		t.Errorf("hook.log gained %d records, want %d", len(recs), hookStreams*n)
	}

	// eval_log: whole lines, each id once
	objs := appendedLines(t, filepath.Join(h, "eval_log.jsonl"), evalBefore)
	ids := map[string]int{}
	for _, o := range objs {
		if r, _ := o["reason"].(string); strings.HasPrefix(r, "eval-") || strings.HasPrefix(r, "state-") {
			ids[strings.Fields(r)[0]]++
		}
	}
	var want []string
	for _, p := range []string{"eval-0", "eval-1", "state-0", "state-1"} {
		for i := 0; i < n; i++ {
			switch {
			case strings.HasPrefix(p, "eval-") && i >= cliAppends:
				want = append(want, fmt.Sprintf("%s-cli-%d", p, i-cliAppends))
			default:
				want = append(want, fmt.Sprintf("%s-%d", p, i))
			}
		}
	}
	for _, id := range want {
		if c := ids[id]; c != 1 {
			t.Errorf("eval_log has %d lines for %s, want 1", c, id)
		}
	}
	if len(objs) != len(want) {
		t.Errorf("eval_log gained %d lines, want %d", len(objs), len(want))
	}
	// session_pool.json: no lost update, still the original document
	var pool map[string]any
	data, _ := os.ReadFile(filepath.Join(h, "session_pool.json"))
	if err := json.Unmarshal(data, &pool); err != nil {
		t.Fatalf("session_pool.json: %v", err)
	}
	if c, _ := pool["h6_counter"].(float64); int(c) != 2*n {
		t.Errorf("session_pool.json counter = %v after %d locked increments (lost updates)", pool["h6_counter"], 2*n)
	}
	f002, ok := pool["active"].(map[string]any)["f002"].(map[string]any)
	if !ok {
		t.Fatalf("session_pool.json lost active.f002")
	}
	if opsCalls > 0 && f002["session_id"] != fmt.Sprintf("sess-conc-%d", opsCalls-1) {
		t.Errorf("session_pool.json active.f002.session_id = %v, want the last session start sess-conc-%d", f002["session_id"], opsCalls-1)
	}
}

// appendedLines reads the log at path, which must still start with before
// (nothing earlier lost), reports every appended line that is not whole
// JSON, and returns the appended records.
func appendedLines(t *testing.T, path string, before []byte) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	if !bytes.HasPrefix(data, before) {
		t.Errorf("%s lost its earlier content", name)
		return nil
	}
	objs, bad := jsonLines(data[len(before):])
	for _, b := range bad {
		t.Errorf("%s line is not JSON: %q", name, b)
	}
	return objs
}
