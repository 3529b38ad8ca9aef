//go:build unix

package testutil

import (
	"os"
	"syscall"
	"testing"
)

// HoldFlock takes an exclusive flock(2) on path (created when missing) in
// the test process itself and holds it until the test ends: the jam that
// `flock .harness/state.lock sleep 1e9 &` makes, with no child process that
// could outlive the test (the kernel drops the lock when the file is closed
// or this process exits, however it exits). It returns the holder's pid,
// os.Getpid(): the pid the kernel's lock table (/proc/locks) lists and
// harness names in its lock-timeout errors. The test fails when the lock is
// already held.
func HoldFlock(t testing.TB, path string) int {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		t.Fatalf("flock %s: %v", path, err)
	}
	t.Cleanup(func() { f.Close() }) // closing the last descriptor releases the lock
	return os.Getpid()
}
