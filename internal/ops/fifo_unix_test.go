//go:build unix

package ops

import (
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestPlantedFIFOsNeverHang: the Generator can create a FIFO in its own
// feature directory; Hermes's commands that read handoff.md or
// session_id.txt must answer instead of blocking on it.
func TestPlantedFIFOsNeverHang(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Now())
	for _, n := range []string{"handoff.md", "session_id.txt"} {
		p := env.H("features", "f001", n)
		testutil.MakeFIFO(t, p)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		SessionReset(env, "f001", "")
		SessionStart(env, SessionStartInput{Feature: "f001", Type: "cc-print"})
		Preflight(env, "started", []string{"f001"})
		EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要 x/time/rate"})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("an operation blocked on a FIFO planted in a feature directory")
	}
}
