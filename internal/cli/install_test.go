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
	prefix := t.TempDir()
	env := append(os.Environ(), "PREFIX="+prefix, "VERSION=v0.0.0-installtest")
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
	}
	v, err := exec.Command(filepath.Join(prefix, "bin", "harness"), "--version").Output()
	if err != nil || !strings.HasPrefix(strings.TrimSpace(string(v)), "harness v0.0.0-installtest (commit ") {
		t.Fatalf("installed harness --version = %q, %v", v, err)
	}
	// Without go on PATH: a clear error, nothing built.
	dir := t.TempDir()
	if err := os.Symlink(sh, filepath.Join(dir, "sh")); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(sh, script)
	cmd.Env = []string{"PATH=" + dir, "HOME=" + t.TempDir(), "PREFIX=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Go is not installed or not on PATH") {
		t.Fatalf("install.sh without go: err=%v\n%s", err, out)
	}
}
