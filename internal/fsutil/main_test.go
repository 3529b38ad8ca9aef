package fsutil

import (
	"os"
	"testing"
	"time"
)

// TestMain doubles as a lock-holding helper process: with
// FSUTIL_LOCK_HELPER=<path> the test binary takes Lock(path), prints
// "locked" and sleeps until killed (TestLockTimeoutNamesHolder).
func TestMain(m *testing.M) {
	if path := os.Getenv("FSUTIL_LOCK_HELPER"); path != "" {
		if _, err := Lock(path); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("locked\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
