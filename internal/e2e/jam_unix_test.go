//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestRealClaudeJammedWorkspaceStopAnswers: with the workspace lock held by
// a foreign process (`flock .harness/state.lock sleep …`), the Stop hook's
// Reset bookkeeping could wait forever and Claude Code's hook timeout let
// the session stop unchecked. Through the real CLI: every Stop answers
// within the session's deadline, blocks with the cause (the Reset cannot be
// recorded; the lock's holder named), and nothing is recorded. The lock is
// held by this test process (testutil.HoldFlock): no holder outlives the
// test.
func TestRealClaudeJammedWorkspaceStopAnswers(t *testing.T) {
	claude, bins := setup(t)
	ws := newWorkspace(t, bins, false)
	if out, err := exec.Command(bins.Harness, "--root", ws.Root, "session", "reset", feature).CombinedOutput(); err != nil {
		t.Fatalf("session reset: %v\n%s", err, out)
	}
	mustWrite(t, filepath.Join(ws.FDir, "handoff.md"), fullHandoff("token usage 0.74 > 0.70"))
	pid := testutil.HoldFlock(t, filepath.Join(ws.Root, ".harness", "state.lock"))
	evalBefore, _ := os.ReadFile(filepath.Join(ws.Root, ".harness", "eval_log.jsonl"))
	// runSession fails the test when the session does not end within its
	// deadline (RunOptions.Timeout)
	s := runSession(t, claude, ws, Script{Turns: [][]Block{{Text("Stopping for the Reset.")}}, FinalText: "Stopping."})
	stops := s.run.HookResponses("Stop")
	if len(stops) < 2 {
		t.Fatalf("Stop ran %d time(s): the jammed Reset let the session end", len(stops))
	}
	fb := ""
	for _, m := range s.mock.Messages() {
		for _, x := range m.MessageTexts() {
			if strings.Contains(x.Text, "Stop hook") {
				fb += x.Text + "\n"
			}
		}
	}
	if !strings.Contains(fb, "could not be recorded") || !strings.Contains(fb, "held by pid "+strconv.Itoa(pid)) {
		t.Errorf("the Stop feedback does not name the jam and its holder: %.600q", fb)
	}
	if after, _ := os.ReadFile(filepath.Join(ws.Root, ".harness", "eval_log.jsonl")); string(after) != string(evalBefore) {
		t.Errorf("eval_log changed while the workspace was jammed")
	}
}
