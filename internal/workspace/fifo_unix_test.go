//go:build unix

package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// TestLoadersNeverBlockOnFIFO: every state-file loader refuses a FIFO at
// once (fsutil.ErrNotRegular) instead of waiting for a writer.
func TestLoadersNeverBlockOnFIFO(t *testing.T) {
	w := &Workspace{Root: t.TempDir()}
	if err := os.MkdirAll(w.H(), 0o755); err != nil {
		t.Fatal(err)
	}
	loads := []struct {
		path string
		load func() error
	}{
		{w.FeatureList(), func() error { _, err := w.LoadFeatureList(); return err }},
		{w.SessionPool(), func() error { _, err := w.LoadSessionPool(); return err }},
		{w.EvalLog(), func() error { _, err := ReadEvalLog(w.EvalLog()); return err }},
		{w.EvalLog(), func() error { _, err := ScanEvalLog(w.EvalLog(), nil); return err }},
	}
	for _, l := range loads {
		t.Run(filepath.Base(l.path), func(t *testing.T) {
			os.Remove(l.path)
			if err := syscall.Mkfifo(l.path, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			done := make(chan error, 1)
			go func() { done <- l.load() }()
			select {
			case err := <-done:
				if !errors.Is(err, fsutil.ErrNotRegular) {
					t.Fatalf("err = %v, want fsutil.ErrNotRegular", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("loading %s blocks on a FIFO", l.path)
			}
		})
	}
}
