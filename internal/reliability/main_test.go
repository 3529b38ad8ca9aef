// Package reliability holds tests that exec the built harness binaries the
// way Claude Code and Hermes do, under concurrency, SIGKILL and hostile
// input, and check the guarantees of the standards: no lost or torn log line,
// state files always old-or-new valid JSON, the hook never exits 1, never
// panics, answers in bounded time, and never silently allows a PreToolUse it
// could not check.
package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/testutil"
)

// helperEnv selects a helper mode when the test binary re-executes itself as
// a writer process (see runHelper).
const helperEnv = "HARNESS_RELIABILITY_HELPER"

// bins is set once by TestMain (test-only state).
var bins testutil.Binaries

func TestMain(m *testing.M) {
	fsizeExec() // a helper process that runs a program under a file-size limit (torn-append tests)
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, os.Args[len(os.Args)-3:]))
	}
	if b, err := testutil.BuildBinaries(); err == nil {
		bins = b
	} else {
		bins.HookErr, bins.HarnessErr = err.Error(), err.Error()
	}
	os.Exit(testutil.Main(m))
}

// runHelper is the body of a helper writer process. args are the last three
// command-line words: path, prefix, count.
//
//	append:  count × fsutil.AppendLine(path, evalLine(<prefix>-<i>))
//	update:  count × (workspace lock; +1 on "h6_counter" of the JSON object
//	         in path, atomic replace; append evalLine(<prefix>-<i>) to
//	         <dir>/eval_log.jsonl)
//	crash:   forever: atomic replace of path with {"n":i,"pad":…,"sum":…}
//	         and an append of {"n":i} to path+".log"; killed by the test
func runHelper(mode string, args []string) int {
	path, prefix := args[0], args[1]
	n, _ := strconv.Atoi(args[2])
	fail := func(err error) int { fmt.Fprintln(os.Stderr, "helper:", err); return 1 }
	switch mode {
	case "append":
		for i := 0; i < n; i++ {
			line := evalLine(fmt.Sprintf("%s-%d", prefix, i), strings.Repeat("x", i%300))
			if err := fsutil.AppendLine(path, line); err != nil {
				return fail(err)
			}
		}
	case "update":
		harness := filepath.Dir(path)
		for i := 0; i < n; i++ {
			unlock, err := fsutil.Lock(filepath.Join(harness, "state"))
			if err != nil {
				return fail(err)
			}
			old, err := os.ReadFile(path)
			if err != nil {
				unlock()
				return fail(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(old, &doc); err != nil {
				unlock()
				return fail(fmt.Errorf("state file not JSON: %v", err))
			}
			c, _ := doc["h6_counter"].(float64)
			doc["h6_counter"] = c + 1
			data, _ := json.MarshalIndent(doc, "", "  ")
			err = fsutil.WriteFileAtomic(path, data, 0o644)
			unlock()
			if err != nil {
				return fail(err)
			}
			if err := fsutil.AppendLine(filepath.Join(harness, "eval_log.jsonl"), evalLine(fmt.Sprintf("%s-%d", prefix, i), "")); err != nil {
				return fail(err)
			}
		}
	case "crash":
		start, _ := strconv.Atoi(prefix)
		for i := start; ; i++ {
			pad := strings.Repeat(strconv.Itoa(i%10), 4096+i%8192)
			doc := fmt.Sprintf(`{"n":%d,"pad":"%s","len":%d}`, i, pad, len(pad))
			if err := fsutil.WriteFileAtomic(path, []byte(doc), 0o644); err != nil {
				return fail(err)
			}
			if err := fsutil.AppendLine(path+".log", []byte(fmt.Sprintf(`{"n":%d,"pad":"%s"}`, i, pad[:i%2000]))); err != nil {
				return fail(err)
			}
		}
	default:
		return fail(fmt.Errorf("unknown helper mode %q", mode))
	}
	return 0
}

// evalLine is a valid eval_log entry (what `harness eval append` writes for
// a retry of f002) whose reason starts with id, padded by pad so that lines
// differ in length. It is valid so that a `harness eval append` or
// `harness session start` running at the same time, which refuses a change
// that would add findings, never sees another writer's line as a finding.
func evalLine(id, pad string) []byte {
	b, _ := json.Marshal(map[string]any{"timestamp": "2026-04-21T03:00:00Z", "sprint_id": "sprint_20260421_1",
		"feature_id": "f002", "phase": 1, "event_type": "retry", "result": "retry",
		"reason": id + " concurrent append from the reliability test " + pad})
	return b
}

// helperCmd returns the command that runs this test binary as a helper.
func helperCmd(ctx context.Context, mode, path, prefix string, n int) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$", path, prefix, strconv.Itoa(n))
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	return cmd
}

// commandLimit bounds one harness or harness-hook command of a test that
// runs many: far above what one takes on a loaded machine (a lock waits at
// most fsutil.LockTimeout, 10 s), so reaching it means the command hangs.
const commandLimit = 60 * time.Second

// testDeadline is a context that ends shortly before the test binary's
// deadline (go test -timeout), so that work whose wall time depends on the
// machine is bounded by the run, not by a guess, and a hang is reported by
// the test with what it saw instead of by the test binary's panic.
func testDeadline(t *testing.T) (context.Context, context.CancelFunc) {
	d, ok := t.Deadline()
	if !ok {
		return context.WithCancel(context.Background())
	}
	return context.WithDeadline(context.Background(), d.Add(-min(30*time.Second, time.Until(d)/10)))
}

// needHook returns the built harness-hook; a build failure fails the test.
func needHook(t *testing.T) string {
	t.Helper()
	if bins.Hook == "" {
		t.Fatalf("cmd/harness-hook does not build: %s", bins.HookErr)
	}
	return bins.Hook
}

// needSubcommand fails the test unless the built harness CLI has the
// subcommand words.
func needSubcommand(t *testing.T, words ...string) {
	t.Helper()
	if out, err := exec.Command(needHarness(t), append(words, "--help")...).CombinedOutput(); err != nil {
		t.Fatalf("harness %s --help: %v %s", strings.Join(words, " "), err, out)
	}
}

// newWorkspace copies testdata/sprints/valid-midway into a temp sprint root.
func newWorkspace(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testutil.Testdata(t, "sprints", "valid-midway"), root)
	for _, d := range []string{"schemas", "src", "build"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "schemas", "x.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// hookResult is one run of the built hook.
type hookResult struct {
	code     int
	stdout   []byte
	stderr   []byte
	elapsed  time.Duration
	timedOut bool
}

// runHook runs harness-hook with args and payload on stdin, bounded by limit.
func runHook(t *testing.T, hook string, args []string, payload []byte, env []string, limit time.Duration) hookResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, hook, args...)
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Env = env
	cmd.WaitDelay = time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := hookResult{stdout: out.Bytes(), stderr: errb.Bytes(), elapsed: time.Since(start), timedOut: ctx.Err() != nil}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil && !r.timedOut {
		t.Fatalf("run hook: %v", err)
	}
	return r
}

// cleanEnv is a minimal environment without HARNESS_ROOT/FEATURE_ID leaking
// in from the developer's shell.
func cleanEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "LANG=C.UTF-8"}
}

// jsonLines splits data into lines and reports the ones that are not whole
// JSON objects, skipping the legacy "[time] [tag] …" text lines of fixtures.
func jsonLines(data []byte) (objs []map[string]any, bad []string) {
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "[") {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			if len(l) > 120 {
				l = l[:120] + "…"
			}
			bad = append(bad, l)
			continue
		}
		objs = append(objs, m)
	}
	return objs, bad
}
