package reliability

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Regression tests for the attacks of issue 10 ("Hermes trusts only what
// Hermes wrote"), through the built binaries as Hermes and a Generator run
// them.

// harnessResult is one run of the built harness CLI.
type harnessResult struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
	timedOut       bool
}

// needHarness returns the built harness CLI; a build failure fails the test.
func needHarness(t *testing.T) string {
	t.Helper()
	if bins.Harness == "" {
		t.Fatalf("cmd/harness does not build: %s", bins.HarnessErr)
	}
	return bins.Harness
}

// runHarnessBin runs bin with args in env (cleanEnv plus extra), bounded by
// limit, and returns what it did.
func runHarnessBin(t *testing.T, bin string, extra []string, limit time.Duration, args ...string) harnessResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(cleanEnv(), extra...)
	cmd.WaitDelay = time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := harnessResult{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start), timedOut: ctx.Err() != nil}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil && !r.timedOut {
		t.Fatalf("run %s: %v", bin, err)
	}
	return r
}

// hermes runs the built harness as Hermes (no Generator session).
func hermes(t *testing.T, args ...string) harnessResult {
	t.Helper()
	return runHarnessBin(t, needHarness(t), nil, 30*time.Second, args...)
}

// TestGeneratorSessionRefusesHermesCommands: `FEATURE_ID=f002 harness allow
// …` exited 0 and self-authorised a blocked command. The CLI itself refuses
// allow and every Hermes-only subcommand in a Generator session (FEATURE_ID
// or CLAUDECODE=1), also when the binary is a renamed copy the hook's rules
// cannot recognise by name; the read-only commands, eval append and phase
// complete still run.
func TestGeneratorSessionRefusesHermesCommands(t *testing.T) {
	bin := needHarness(t)
	root := newWorkspace(t)
	renamed := filepath.Join(t.TempDir(), "hx")
	if runtime.GOOS == "windows" {
		renamed += ".exe"
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(renamed, data, 0o755); err != nil {
		t.Fatal(err)
	}
	allow := filepath.Join(root, ".harness", "allow.jsonl")
	refusedCmds := [][]string{
		{"allow", "--feature", "f002", "--once", "rm -rf build", "--reason", "self-authorised"},
		{"checkpoint", "reply", "cp-f001-1", "1a 2a 3a"},
		{"checkpoint", "open", "cp-f002-1", "--blockers", "-"},
		{"checkpoint", "due"},
		{"session", "start", "f002", "--type", "cc-print"},
		{"session", "reset", "f002"},
		{"yolo", "check"},
		{"yolo", "abort", "--reason", "retry_count_in_sprint = 2"},
		{"phase", "advance", "f002"},
		{"phase", "retry", "f002", "--to", "1", "--reason", "a1 failed: redo the plan"},
		{"eval", "amend", "--line", "1", "--reason", "补录: x"},
		{"reset", "hermes", "--handoff", "-"},
		{"preflight", "--stage", "launch", "f002"},
		{"task", "list"},
		{"init-feature", "f003"},
	}
	sessions := map[string][]string{
		"FEATURE_ID": {"FEATURE_ID=f002", "HARNESS_ROOT=" + root},
		"CLAUDECODE": {"CLAUDECODE=1", "HARNESS_ROOT=" + root},
	}
	for name, env := range sessions {
		for _, b := range []string{bin, renamed} {
			for _, args := range refusedCmds {
				r := runHarnessBin(t, b, env, 30*time.Second, args...)
				if r.code != 1 || !strings.Contains(r.stderr, "reserved for Hermes or the user") {
					t.Errorf("%s %s %q: exit %d, stderr %q; want exit 1 refusing a Generator session", name, filepath.Base(b), args, r.code, r.stderr)
				}
			}
			for _, args := range [][]string{{"validate"}, {"status"}, {"next"}, {"allow", "--list"}, {"checkpoint", "render", "cp-f001-1"}, {"explain", "ls"}} {
				if r := runHarnessBin(t, b, env, 30*time.Second, args...); r.code == 2 || strings.Contains(r.stderr, "reserved for Hermes") {
					t.Errorf("%s %s %q: exit %d, stderr %q; a Generator may run it", name, filepath.Base(b), args, r.code, r.stderr)
				}
			}
		}
	}
	if data, err := os.ReadFile(allow); err == nil && len(bytes.TrimSpace(data)) > 0 {
		t.Errorf("allow.jsonl gained an authorisation from a Generator session:\n%s", data)
	}
	// Hermes (no session variables) may.
	if r := hermes(t, "--root", root, "allow", "--feature", "f002", "--once", "rm -rf build", "--reason", "user approved cleaning build/"); r.code != 0 {
		t.Fatalf("Hermes allow: exit %d: %s", r.code, r.stderr)
	}
}
