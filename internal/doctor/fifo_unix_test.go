//go:build unix

package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestHookLogFIFO: doctor reports a FIFO at .harness/logs/hook.log as a
// failure at once (opening it for append used to wait for a reader), and a
// regular hook.log as writable.
func TestHookLogFIFO(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".harness", "logs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if c := checkHookLog(root); c.Status != StatusOK {
		t.Fatalf("fresh hook.log: %+v", c)
	}
	p := filepath.Join(dir, "hook.log")
	testutil.MakeFIFO(t, p)
	done := make(chan Check, 1)
	go func() { done <- checkHookLog(root) }()
	select {
	case c := <-done:
		if c.Status != StatusFail || !strings.Contains(c.Detail, "not a regular file") {
			t.Fatalf("FIFO hook.log: %+v", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("doctor blocks on a FIFO hook.log")
	}
}
