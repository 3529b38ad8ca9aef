//go:build unix

package reliability

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSymlinkedLogsAreNotFollowed: `harness eval append --root FAKE`, where
// FAKE/.harness is a copy of the state whose eval_log.jsonl is a symbolic
// link to .harness/runtime_state.json, appended a JSON line to the linked
// file (any file the user can write: ~/.bashrc, .git/config, another
// sprint). No harness append follows a link: not the Generator's eval
// append (HARNESS_ROOT=FAKE, so the CLI's root check does not apply), not
// Hermes's, not the hook's hook.log line. Each is refused or skipped with
// the cause, and the linked file stays byte for byte unchanged.
func TestSymlinkedLogsAreNotFollowed(t *testing.T) {
	real := newWorkspace(t)
	victim := filepath.Join(real, ".harness", "runtime_state.json")
	before := readFile(t, victim)
	rc := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(rc, []byte("export PS1='$ '\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := newWorkspace(t)
	plant := func(rel, target string) {
		t.Helper()
		p := filepath.Join(fake, filepath.FromSlash(rel))
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	plant(".harness/eval_log.jsonl", victim)
	plant(".harness/logs/hook.log", rc)
	appendArgs := []string{"eval", "append", "--root", fake, "--feature", "f002", "--phase", "1", "--event", "phase_evaluation",
		"--result", "pass", "--reason", "拆出 3 个子任务:worker pool、限速、HEAD/GET 探测"}

	gen := runHarnessBin(t, needHarness(t), []string{"FEATURE_ID=f002", "HARNESS_ROOT=" + fake}, 30*time.Second, appendArgs...)
	if gen.code == 0 || !strings.Contains(gen.stderr+gen.stdout, "symbolic link") {
		t.Errorf("Generator eval append through a linked eval_log: exit %d, want a refusal naming the symbolic link\nstdout: %s\nstderr: %s", gen.code, gen.stdout, gen.stderr)
	}
	if h := hermes(t, appendArgs...); h.code == 0 || !strings.Contains(h.stderr+h.stdout, "symbolic link") {
		t.Errorf("Hermes eval append through a linked eval_log: exit %d, want a refusal naming the symbolic link\nstdout: %s\nstderr: %s", h.code, h.stdout, h.stderr)
	}

	payload := []byte(`{"session_id":"sess_f002","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"` +
		filepath.ToSlash(filepath.Join(fake, ".harness", "features", "f002")) + `"}`)
	r := runHook(t, needHook(t), []string{"--event", "PreToolUse", "--root", fake, "--feature", "f002"}, payload, cleanEnv(), hookLimit)
	if r.timedOut || r.code != 0 {
		t.Fatalf("hook: exit %d timed out %v: %s", r.code, r.timedOut, r.stderr)
	}
	if !strings.Contains(string(r.stderr), "symbolic link") {
		t.Errorf("hook stderr does not say why hook.log was not written: %s", r.stderr)
	}

	if got := readFile(t, victim); got != before {
		t.Errorf("runtime_state.json changed through the link:\n%s", got)
	}
	if got := readFile(t, rc); got != "export PS1='$ '\n" {
		t.Errorf(".bashrc changed through hook.log's link:\n%s", got)
	}
}
