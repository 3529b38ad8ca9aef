//go:build unix

package testutil

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// tryFlock reports whether another open file description can take an
// exclusive flock on path now (it is released again at once).
func tryFlock(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	switch err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err {
	case nil:
		return true
	case syscall.EWOULDBLOCK:
		return false
	default:
		t.Fatal(err)
		return false
	}
}

func TestHoldFlockHoldsUntilTheTestEnds(t *testing.T) {
	p := filepath.Join(t.TempDir(), "state.lock")
	t.Run("held", func(t *testing.T) {
		if pid := HoldFlock(t, p); pid != os.Getpid() {
			t.Errorf("holder pid %d, want this process %d", pid, os.Getpid())
		}
		if tryFlock(t, p) {
			t.Fatal("the lock is not held: another descriptor took it")
		}
	})
	if !tryFlock(t, p) {
		t.Fatal("the lock is still held after the test that took it ended")
	}
}
