//go:build unix

package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMakeFIFOReplacesTheFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "handoff.md")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	MakeFIFO(t, p)
	st, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("%s is %v, not a named pipe", p, st.Mode())
	}
	MakeFIFO(t, filepath.Join(t.TempDir(), "absent")) // no file yet: still a FIFO
}
