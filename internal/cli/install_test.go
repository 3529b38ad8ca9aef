package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestInstallScript runs ../../install.sh into a temporary PREFIX twice
// (idempotence) and checks its self-check passed and the installed harness
// reports the stamped version; then it checks the error without Go on PATH.
func TestInstallScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries; skipped with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("install.sh is a POSIX shell script")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	prefix, state := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "PREFIX="+prefix, "VERSION=v0.0.0-installtest", "XDG_STATE_HOME="+state)
	for i := 0; i < 2; i++ {
		cmd := exec.Command(sh, script)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("install.sh run %d: %v\n%s", i+1, err, out)
		}
		if !strings.Contains(string(out), "self-check ok") {
			t.Fatalf("install.sh run %d did not report its self-check:\n%s", i+1, out)
		}
		if !strings.Contains(string(out), "note: "+filepath.Join(prefix, "bin")+" is not on your PATH") {
			t.Errorf("install.sh run %d into a directory off PATH does not say so:\n%s", i+1, out)
		}
	}
	// Into a directory on PATH: no note.
	cmd := exec.Command(sh, script)
	cmd.Env = append(env, "PATH="+filepath.Join(prefix, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "is not on your PATH") {
		t.Errorf("install.sh into a directory on PATH: %v\n%s", err, out)
	}
	v, err := exec.Command(filepath.Join(prefix, "bin", "harness"), "--version").Output()
	if err != nil || !strings.HasPrefix(strings.TrimSpace(string(v)), "harness v0.0.0-installtest (commit ") {
		t.Fatalf("installed harness --version = %q, %v", v, err)
	}
	// The self-check's hook calls are probes: in the user-level audit log, but not among the
	// decisions harness logs shows (only with --probes).
	logs := func(args ...string) string {
		cmd := exec.Command(filepath.Join(prefix, "bin", "harness"), append([]string{"logs"}, args...)...)
		cmd.Env, cmd.Dir = env, t.TempDir()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("harness logs %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := logs(); strings.Contains(out, "rm -rf /") || !strings.Contains(out, ": 0 record(s)") {
		t.Errorf("harness logs after install.sh shows its self-check:\n%s", out)
	}
	if out := logs("--probes"); !strings.Contains(out, "rm -rf /") || !strings.Contains(out, "go test ./...") {
		t.Errorf("harness logs --probes does not show install.sh's self-check:\n%s", out)
	}
	// Without go on PATH: a clear error, nothing built.
	dir := t.TempDir()
	if err := os.Symlink(sh, filepath.Join(dir, "sh")); err != nil {
		t.Skip(err)
	}
	cmd = exec.Command(sh, script)
	cmd.Env = []string{"PATH=" + dir, "HOME=" + t.TempDir(), "PREFIX=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Go is not installed or not on PATH") {
		t.Fatalf("install.sh without go: err=%v\n%s", err, out)
	}
}
