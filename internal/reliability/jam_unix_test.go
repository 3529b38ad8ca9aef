//go:build unix

package reliability

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// generatorEval is the Generator's own phase_evaluation for f002 phase 1 in
// the valid-midway workspace.
var generatorEval = []string{"eval", "append", "--feature", "f002", "--phase", "1", "--event", "phase_evaluation", "--result", "pass",
	"--reason", "拆出 4 个子任务:Transport 与超时、worker 池、Retry-After 重试、结果分类"}

// TestPlantedFIFOAtStateLockDoesNotHang: `mkfifo .harness/state.lock`
// (allowed in a Generator session before the path rules) made every
// state-changing command and the Stop hook's Reset path hang forever: the
// lock sidecar was opened O_RDONLY|O_CREATE, which blocks on a FIFO. Now the
// sidecar is opened non-blocking, the FIFO replaced, and the commands run.
func TestPlantedFIFOAtStateLockDoesNotHang(t *testing.T) {
	root := newWorkspace(t)
	side := filepath.Join(root, ".harness", "state.lock")
	os.Remove(side)
	mkfifo(t, side)
	if r := hermes(t, "--root", root, "checkpoint", "due"); r.code != 0 || r.timedOut {
		t.Fatalf("checkpoint due with a FIFO at state.lock: exit %d (timed out %v) in %s: %s", r.code, r.timedOut, r.elapsed, r.stderr)
	}
	mkfifoAgain(t, side)
	r := runHarnessBin(t, needHarness(t), []string{"FEATURE_ID=f002", "HARNESS_ROOT=" + root}, 30*time.Second, generatorEval...)
	if r.code != 0 || r.timedOut {
		t.Fatalf("Generator eval append with a FIFO at state.lock: exit %d in %s: %s", r.code, r.elapsed, r.stderr)
	}
	if st, err := os.Lstat(side); err != nil || !st.Mode().IsRegular() {
		t.Errorf("state.lock after the command: %v %v; want a regular file", st, err)
	}
}

func mkfifoAgain(t *testing.T, p string) {
	t.Helper()
	os.Remove(p)
	mkfifo(t, p)
}

// TestHeldStateLockNamesHolder: `flock .harness/state.lock sleep 1e9 &`
// made every command fail with a bare timeout. The command still gives up
// (after fsutil.LockTimeout, within its deadline), but the error names the
// holder (pid and command line) and what to do. The lock is held by this
// test process (testutil.HoldFlock), so no holder outlives the test.
func TestHeldStateLockNamesHolder(t *testing.T) {
	root := newWorkspace(t)
	pid := testutil.HoldFlock(t, filepath.Join(root, ".harness", "state.lock"))
	holder := "pid " + strconv.Itoa(pid) + " (" + os.Args[0]
	// the deadline: fsutil.LockTimeout (10 s) and a start-up margin
	r := runHarnessBin(t, needHarness(t), nil, 30*time.Second, "--root", root, "checkpoint", "due")
	if r.code == 0 || r.timedOut {
		t.Fatalf("checkpoint due under a held lock: exit %d timed out %v after %s", r.code, r.timedOut, r.elapsed)
	}
	if !strings.Contains(r.stderr, "state.lock is held by "+holder) {
		t.Errorf("error does not name the holder %q: %s", holder, r.stderr)
	}
	// validate reads without the lock and says so, naming the holder; it
	// waits validate.SharedLockTimeout (3 s), not the writers' 10 s
	v := runHarnessBin(t, needHarness(t), nil, 15*time.Second, "--root", root, "validate")
	if v.timedOut || !strings.Contains(v.stdout, "[state.lock-held]") || !strings.Contains(v.stdout, holder) {
		t.Errorf("validate under a held lock (timed out %v after %s): %s %s", v.timedOut, v.elapsed, v.stdout, v.stderr)
	}
}

// TestPlantedDirectoryDoesNotHalfApply: `mkdir -p
// .harness/.current_agent.json/x` made `session start` half-apply (the pool
// written, the stray .current_agent.json not removable) and then every ops
// command, the Generator's eval append included, exit 2 until a person
// cleaned up, while validate said ok. Now validate reports the planted
// directory, session start moves it aside before writing anything and
// succeeds, and the Generator's next command works.
func TestPlantedDirectoryDoesNotHalfApply(t *testing.T) {
	root := newWorkspace(t)
	planted := filepath.Join(root, ".harness", ".current_agent.json")
	if err := os.MkdirAll(filepath.Join(planted, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if v := hermes(t, "--root", root, "validate"); v.code != 1 || !strings.Contains(v.stdout, ".harness/.current_agent.json") || !strings.Contains(v.stdout, "[layout.not-regular]") {
		t.Errorf("validate does not report the planted directory (exit %d): %s", v.code, v.stdout)
	}
	r := hermes(t, "--root", root, "session", "start", "f002", "--session-id", "sess_new_after_reset", "--type", "cc-print")
	if r.code != 0 {
		t.Fatalf("session start: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "moved the directory planted at .harness/.current_agent.json") {
		t.Errorf("session start does not say what it moved aside: %s", r.stdout)
	}
	if _, err := os.Lstat(planted); !os.IsNotExist(err) {
		t.Errorf(".current_agent.json still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, ".harness", "logs", "ops.journal")); !os.IsNotExist(err) {
		t.Errorf("a journal was left behind (half-applied change): %v", err)
	}
	g := runHarnessBin(t, needHarness(t), []string{"FEATURE_ID=f002", "HARNESS_ROOT=" + root}, 30*time.Second, generatorEval...)
	if g.code != 0 {
		t.Errorf("the Generator's eval append after the plant: exit %d: %s", g.code, g.stderr)
	}
	if v := hermes(t, "--root", root, "validate"); strings.Contains(v.stdout, "layout.not-regular") {
		t.Errorf("validate still reports a planted entry: %s", v.stdout)
	}
}

// TestSparseFilesAreBoundedReads: `truncate -s 4G
// .harness/features/f001/session_id.txt` made validate take 39 s and 13 GB,
// preflight 64 s and 17.8 GB. Every reader now compares the size with the
// cap of its kind before reading: the commands answer with well under a
// second of CPU and a small heap, and validate names the file and the cap.
func TestSparseFilesAreBoundedReads(t *testing.T) {
	root := newWorkspace(t)
	sparse := func(rel string, size int64) {
		t.Helper()
		if err := os.Truncate(filepath.Join(root, rel), size); err != nil {
			t.Fatal(err)
		}
	}
	sparse(".harness/features/f001/session_id.txt", 4<<30)
	sparse(".harness/features/f002/generator_log.md", 50<<30)
	// the work is measured by the command's CPU time, not the wall clock a
	// loaded machine stretches: reading the 54 GiB of zeros costs several
	// seconds of CPU, the bounded commands a fraction of one
	check := func(name string, r rssResult, wantExit int, want string) {
		t.Helper()
		if r.timedOut || r.code != wantExit || !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("%s: exit %d (timed out %v) in %s; want exit %d mentioning %q:\n%s%s", name, r.code, r.timedOut, r.elapsed, wantExit, want, r.stdout, r.stderr)
		}
		if r.cpu > 3*time.Second {
			t.Errorf("%s used %s of CPU (wall %s)", name, r.cpu, r.elapsed)
		}
	}
	v := hermesRSS(t, "--root", root, "validate")
	check("validate", v, 1, "session_id.txt is 4.0 GiB, over the 64 KiB read cap")
	check("validate", v, 1, "generator_log.md is 50.0 GiB, over the 16 MiB read cap for Markdown records")
	if v.maxRSS > 200<<20 {
		t.Errorf("validate peak RSS %d MB", v.maxRSS>>20)
	}
	f := hermesRSS(t, "--root", root, "finalize", "--check")
	check("finalize --check", f, 1, "files.size-cap")
	if f.maxRSS > 200<<20 {
		t.Errorf("finalize peak RSS %d MB", f.maxRSS>>20)
	}
	p := hermesRSS(t, "--root", root, "preflight", "--stage", "started", "f001")
	check("preflight", p, 1, "over the 64 KiB cap")
	if p.maxRSS > 200<<20 {
		t.Errorf("preflight peak RSS %d MB", p.maxRSS>>20)
	}
}

// rssResult is a harness run with its peak resident set size in bytes.
type rssResult struct {
	harnessResult
	maxRSS int64
	cpu    time.Duration // user + system
}

func hermesRSS(t *testing.T, args ...string) rssResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, needHarness(t), args...)
	cmd.Env = cleanEnv()
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := rssResult{harnessResult: harnessResult{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start), timedOut: ctx.Err() != nil}}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = int64(ru.Maxrss) * rssUnit
		r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return r
}
