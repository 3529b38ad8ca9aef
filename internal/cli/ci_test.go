package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCIClaudeStepFailsUnderCI runs .ci/claude-cli.sh, the real-client step
// of .ci/run, with a stand-in installer: under CI=true an install that fails
// fails the step (a CI run whose TestRealClaude… tests skip proves nothing);
// elsewhere it warns and prints no path; an install that works prints the
// binary's path.
func TestCIClaudeStepFailsUnderCI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip(".ci/claude-cli.sh is a bash script; CI runs it on Linux")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bash is needed to run .ci/claude-cli.sh: %v", err)
	}
	script, err := filepath.Abs(filepath.Join("..", "..", ".ci", "claude-cli.sh"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	failing := filepath.Join(dir, "fail.sh")
	bin := filepath.Join(dir, "claude")
	working := filepath.Join(dir, "ok.sh")
	for p, body := range map[string]string{
		failing: "echo 'npm ERR! network unreachable' >&2\nexit 1\n",
		working: "echo 'installing' >&2\necho " + bin + "\n",
		bin:     "#!/bin/sh\necho 2.1.332\n",
	} {
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(installer, ci string) (string, string, int) {
		cmd := exec.Command("bash", script)
		cmd.Env = append(os.Environ(), "HARNESS_CLAUDE_INSTALLER="+installer,
			"HARNESS_CLAUDE_INSTALL_LOG="+filepath.Join(dir, "install.log"), "CI="+ci)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}

	out, errs, code := run(failing, "true")
	if code != 1 || out != "" || !strings.Contains(errs, "ERROR: could not install the Claude Code CLI") || !strings.Contains(errs, "network unreachable") {
		t.Errorf("CI=true, failing install: exit %d, stdout %q, stderr %q; want exit 1, no stdout, the error and the log's tail", code, out, errs)
	}
	out, errs, code = run(failing, "")
	if code != 0 || out != "" || !strings.Contains(errs, "WARNING: could not install the Claude Code CLI") {
		t.Errorf("without CI, failing install: exit %d, stdout %q, stderr %q; want exit 0, no stdout, a warning", code, out, errs)
	}
	for _, ci := range []string{"true", ""} {
		out, errs, code = run(working, ci)
		if code != 0 || out != bin+"\n" {
			t.Errorf("CI=%q, working install: exit %d, stdout %q, stderr %q; want exit 0 and the binary's path", ci, code, out, errs)
		}
	}
}
