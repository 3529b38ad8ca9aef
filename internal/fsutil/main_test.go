package fsutil

import (
	"io"
	"os"
	"testing"
)

// TestMain doubles as a lock-holding helper process: with
// FSUTIL_LOCK_HELPER=<path> the test binary takes Lock(path), prints
// "locked" and holds the lock until its stdin reaches end of file, which
// happens when the test closes the pipe or the test process ends however it
// ends: the helper never outlives the test (TestLockTimeoutNamesHolder).
func TestMain(m *testing.M) {
	if path := os.Getenv("FSUTIL_LOCK_HELPER"); path != "" {
		if _, err := Lock(path); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("locked\n")
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
