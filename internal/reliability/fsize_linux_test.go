package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fsizeEnv makes the test binary a helper that sets RLIMIT_FSIZE to its
// value (bytes) and execs the program named by its arguments after "--":
// a write past the limit then fails part-way with EFBIG, as a full disk
// fails with ENOSPC (Go ignores the SIGXFSZ the kernel sends with it).
const fsizeEnv = "HARNESS_RELIABILITY_FSIZE"

func fsizeExec() {
	v := os.Getenv(fsizeEnv)
	if v == "" {
		return
	}
	limit, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		os.Exit(3)
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		os.Stderr.WriteString("setrlimit: " + err.Error() + "\n")
		os.Exit(3)
	}
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, fsizeEnv+"=") {
			env = append(env, kv)
		}
	}
	err = syscall.Exec(args[0], args, env)
	os.Stderr.WriteString("exec: " + err.Error() + "\n")
	os.Exit(3)
}

// TestTornAppendIsTruncatedBack: on a full disk `harness eval append`
// exited 2 but left `{"timestamp":"…","sprint_id":"sprint_20` in eval_log.
// Run under a file-size limit that lets only part of the line out (the
// write fails part-way as on a full disk), the Generator's eval append
// fails and eval_log is byte for byte what it was; the next append works.
func TestTornAppendIsTruncatedBack(t *testing.T) {
	bin := needHarness(t)
	root := newWorkspace(t)
	eval := filepath.Join(root, ".harness", "eval_log.jsonl")
	before, err := os.ReadFile(eval)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--", bin}, generatorEval...)...)
	cmd.Env = append(cleanEnv(), "FEATURE_ID=f002", "HARNESS_ROOT="+root, fsizeEnv+"="+strconv.Itoa(len(before)+40))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("eval append past the file-size limit succeeded:\n%s", out)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("eval append: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "nothing was appended") {
		t.Errorf("the error does not say the line was not appended:\n%s", out)
	}
	after, _ := os.ReadFile(eval)
	if string(after) != string(before) {
		t.Fatalf("eval_log changed by a failed append: %q", strings.TrimPrefix(string(after), string(before)))
	}
	start := time.Now()
	r := runHarnessBin(t, bin, []string{"FEATURE_ID=f002", "HARNESS_ROOT=" + root}, 30*time.Second, generatorEval...)
	if r.code != 0 {
		t.Fatalf("the next append (no limit): exit %d %s (after %s)", r.code, r.stderr, time.Since(start))
	}
}
