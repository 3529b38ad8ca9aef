package testutil

import (
	"os"
	"os/exec"
	"testing"
)

// Git runs git with args in dir for a test, isolated from the user's and
// the system's git configuration (GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM
// are /dev/null) and with a fixed author and committer; a failing git
// fails the test with its output.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
