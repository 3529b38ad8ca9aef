//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealClaudeGeneratorCannotHoldTheWorkspaceLock: flock(2) needs only a
// descriptor, and a read-only one will do, so the sandbox's denyWrite on
// .harness/state.lock did not stop a sandboxed program from taking the
// workspace lock and keeping it for the rest of the session: every
// Hermes-side write (and the Stop hook's Reset bookkeeping) then waited out
// its lock timeout and failed. A python3 script (the hook cannot see what
// it does) started as a background task of the Bash tool takes an exclusive flock on every lock
// sidecar of .harness/ and holds it; then the Generator's own `harness eval
// append`, which runs outside the sandbox and needs the state lock, shows
// whether the lock is held. Before the fix it failed after 10 s "held by
// pid … (python3 …)"; the sandbox must hide the real sidecars from
// sandboxed commands (sandbox.filesystem.denyRead), so the append goes
// through.
func TestRealClaudeGeneratorCannotHoldTheWorkspaceLock(t *testing.T) {
	claude, bins := setup(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	ws, _ := sandboxWorkspace(t, bins)
	h := filepath.Join(ws.Root, ".harness")
	holder := filepath.Join(ws.Root, "src", "hold.py")
	held := filepath.Join(ws.Root, "src", "held.txt")
	script := `import fcntl, glob, time
fs, out = [], []
for p in sorted(set(glob.glob(` + strconvQuote(h) + ` + '/*.lock') + glob.glob(` + strconvQuote(h) + ` + '/logs/*.lock') + [` + strconvQuote(filepath.Join(h, "state.lock")) + `])):
    try:
        f = open(p, 'rb')
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fs.append(f)
        out.append('%s: locked' % p)
    except OSError as e:
        out.append('%s: %s' % (p, e))
open(` + strconvQuote(held) + `, 'w').write('\n'.join(out) + '\n')
time.sleep(90)
`
	verdict := "harness eval append --feature f002 --phase 1 --event phase_evaluation --result pass --reason 'plan covers acceptance a1 a2 a3 with concrete tasks'"
	turns := [][]Block{
		{ToolUse("l_write", "Write", map[string]any{"file_path": holder, "content": script})},
		// the client's own background task: it lives until the session ends
		// (a shell's `cmd &` dies with its sandbox's pid namespace when the
		// Bash call returns)
		{ToolUse("l_hold", "Bash", map[string]any{"command": "python3 " + holder, "description": "work", "run_in_background": true})},
		{ToolUse("l_check", "Bash", map[string]any{"command": "sleep 4; cat " + held, "description": "work"})},
		{ToolUse("l_append", "Bash", map[string]any{"command": verdict, "description": "record the phase", "timeout": 60000})},
		// a read-only command of the Generator's takes the shared lock: hidden,
		// it reads without it and says so, as information
		{ToolUse("l_validate", "Bash", map[string]any{"command": "harness validate; echo rc=$?", "description": "check"})},
	}
	l := launchSession(t, claude, bins, ws, Script{Turns: turns, FinalText: "done"}, nil, "--permission-mode", "bypassPermissions")
	if l.code != 0 {
		t.Fatalf("harness launch exited %d: %s", l.code, l.stderr)
	}
	tr := l.toolResult(t, "l_check")
	if !strings.Contains(tr.Text, "state.lock: ") {
		t.Fatalf("the holder did not run (the test proves nothing): %s", tr.Text)
	}
	t.Logf("the holder reported:\n%s", tr.Text)
	t.Logf("the Generator's validate:\n%s", l.toolResult(t, "l_validate").Text)
	tr = l.toolResult(t, "l_append")
	if tr.IsError || strings.Contains(tr.Text, "timed out waiting for lock") {
		t.Errorf("a sandboxed program held the workspace lock and the excluded eval append could not take it:\n%s", tr.Text)
	}
	tr = l.toolResult(t, "l_validate")
	for _, line := range strings.Split(tr.Text, "\n") {
		if strings.Contains(line, "state.lock-held") && !strings.Contains(strings.ToLower(line), "info") {
			t.Errorf("the Generator's validate reports the hidden lock as more than information: %s", line)
		}
		if strings.Contains(line, ".lock") && strings.Contains(line, "layout.not-regular") {
			t.Errorf("the Generator's validate reports a hidden lock file as planted: %s", line)
		}
	}
	if !strings.Contains(tr.Text, "rc=") {
		t.Errorf("validate did not run: %s", tr.Text)
	}
	if data, _ := os.ReadFile(filepath.Join(h, "eval_log.jsonl")); !strings.Contains(string(data), "plan covers acceptance a1 a2 a3") {
		t.Errorf("the eval entry was not appended")
	}
}
