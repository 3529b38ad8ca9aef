//go:build unix

package testutil

import (
	"os"
	"syscall"
	"testing"
)

// MakeFIFO replaces the file at path (if any) with a named pipe, the file
// type a hostile Generator plants to hang a reader that opens it blocking;
// the test is skipped where mkfifo is refused (some file systems).
func MakeFIFO(t testing.TB, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}
