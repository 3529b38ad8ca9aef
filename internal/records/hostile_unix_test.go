//go:build unix

package records

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/testutil"
)

// TestNoBlockOnFIFORecords: a FIFO in place of a record file (the Generator
// can create one in its own feature directory) makes CheckPhase return an
// I/O error and ResetException not apply, at once, instead of waiting for a
// writer forever (a hanging Stop hook fails open).
func TestNoBlockOnFIFORecords(t *testing.T) {
	within := func(t *testing.T, f func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { f(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("blocked on a FIFO")
		}
	}
	fifo := func(t *testing.T, p string) {
		t.Helper()
		testutil.MakeFIFO(t, p)
	}
	t.Run("feature_list.json", func(t *testing.T) {
		ws := newWS(t)
		fifo(t, ws.FeatureList())
		within(t, func() {
			if _, err := CheckPhase(ws, "f001"); !errors.Is(err, fsutil.ErrNotRegular) {
				t.Errorf("CheckPhase err = %v, want fsutil.ErrNotRegular", err)
			}
		})
	})
	t.Run("generator_log.md", func(t *testing.T) {
		ws := newWS(t)
		fifo(t, ws.GeneratorLog("f001"))
		within(t, func() {
			if _, err := CheckPhase(ws, "f001"); !errors.Is(err, fsutil.ErrNotRegular) {
				t.Errorf("CheckPhase err = %v, want fsutil.ErrNotRegular", err)
			}
		})
	})
	t.Run("eval_log.jsonl", func(t *testing.T) {
		ws := newWS(t)
		fifo(t, ws.EvalLog())
		within(t, func() {
			if _, err := CheckPhase(ws, "f001"); !errors.Is(err, fsutil.ErrNotRegular) {
				t.Errorf("CheckPhase err = %v, want fsutil.ErrNotRegular", err)
			}
		})
	})
	t.Run("handoff.md", func(t *testing.T) {
		ws := newWS(t)
		fifo(t, ws.Handoff("f001"))
		within(t, func() {
			if ok, _, _, err := ResetException(ws, "f001", time.Now()); ok || err != nil {
				t.Errorf("ResetException = %v, %v; want false, nil", ok, err)
			}
			if out, err := AcceptReset(ws, ResetInput{Feature: "f001", SessionID: "s", Now: time.Now()}); out.Accepted || err != nil {
				t.Errorf("AcceptReset = %+v, %v; want not accepted, no error", out, err)
			}
		})
	})
}

// TestHugeSparseRecords: a generator_log.md or handoff.md made a sparse
// file of 64 GiB (the Generator writes both) costs neither the memory nor
// the time of its claimed size: CheckPhase fails with fsutil.ErrTooLarge,
// and a handoff.md over the Markdown record cap never opens the Reset
// exception (it is not read at all).
func TestHugeSparseRecords(t *testing.T) {
	ws := newWS(t)
	for _, p := range []string{ws.GeneratorLog("f001"), ws.Handoff("f001")} {
		if err := os.Truncate(p, 64<<30); err != nil {
			t.Skipf("sparse file: %v", err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := CheckPhase(ws, "f001"); !errors.Is(err, fsutil.ErrTooLarge) {
			t.Errorf("CheckPhase err = %v, want fsutil.ErrTooLarge", err)
		}
		if ok, _, _, err := ResetException(ws, "f001", time.Now()); err != nil || ok {
			t.Errorf("ResetException = %v, %v; want false, nil", ok, err)
		}
		if out, err := AcceptReset(ws, ResetInput{Feature: "f001", SessionID: "s", Now: time.Now()}); err != nil || out.Accepted || !strings.Contains(out.Why, "cap") {
			t.Errorf("AcceptReset = %+v, %v", out, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("reading a sparse record took its claimed size")
	}
}
