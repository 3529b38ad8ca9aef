package hook

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestHarnessBinaryByIdentity runs the built harness-hook (with the built
// harness CLI installed next to it, as install.sh does) on Generator-session
// Bash commands that run the harness CLI under another name
// (testdata/corpus/README.md §9.1 "Program identity"): a copy, a hard link, a
// symlink and a copy on PATH are judged as harness, and making the copy in
// the command is refused itself.
func TestHarnessBinaryByIdentity(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the commands below are POSIX shell")
	}
	harness, err := testutil.Build("harness")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(harness) != filepath.Dir(hookBin) {
		t.Fatalf("harness %s and harness-hook %s were not built into one directory", harness, hookBin)
	}
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	tmp := t.TempDir()
	binDir := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(dst string) {
		t.Helper()
		src, err := os.Open(harness)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, src); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(filepath.Join(tmp, "hx"))
	copyFile(filepath.Join(binDir, "hb"))
	if err := os.Link(harness, filepath.Join(tmp, "hl")); err != nil {
		// a hard link across file systems is impossible: copy instead
		copyFile(filepath.Join(tmp, "hl"))
	}
	if err := os.Symlink(harness, filepath.Join(tmp, "hs")); err != nil {
		t.Fatal(err)
	}
	// a different executable of the same size is not harness
	fi, err := os.Stat(harness)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "other"), make([]byte, fi.Size()), 0o755); err != nil {
		t.Fatal(err)
	}

	pathEnv := binDir + string(os.PathListSeparator) + filepath.Dir(hookBin) + string(os.PathListSeparator) + os.Getenv("PATH")
	env := map[string]string{"TMPDIR": tmp, "PATH": pathEnv, "FEATURE_ID": "f002", "HARNESS_ROOT": root}
	args := []string{"--event", "PreToolUse", "--root", root, "--feature", "f002"}
	ask := func(cmd string) (string, string) {
		t.Helper()
		p, err := json.Marshal(map[string]any{"session_id": "s-identity", "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": cmd}, "cwd": root, "tool_use_id": "toolu_1"})
		if err != nil {
			t.Fatal(err)
		}
		res := runBin(t, root, args, env, p)
		if res.code != 0 {
			t.Fatalf("%q: exit %d, stderr %s", cmd, res.code, res.stderr)
		}
		var out struct {
			HSO struct {
				Decision string `json:"permissionDecision"`
				Reason   string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
			t.Fatalf("%q: %v: %s", cmd, err, res.stdout)
		}
		return out.HSO.Decision, out.HSO.Reason
	}
	for _, c := range []struct {
		cmd, want string
		reason    []string
	}{
		// made in the same command: the copy is refused, and the copy is harness
		{`cp "$(command -v harness)" $TMPDIR/hy; $TMPDIR/hy allow --once 'rm -rf x' --reason y`, "deny", []string{"harness.binary-copy"}},
		{`ln -s "$(which harness)" ./h && ./h yolo start`, "deny", []string{"harness.binary-copy"}},
		// made earlier (outside the hook's view): judged by the file
		{`$TMPDIR/hx allow --once 'rm -rf x' --reason y`, "deny", []string{"harness.admin-command", "is the harness binary"}},
		{`"$TMPDIR/hl" phase advance f002`, "deny", []string{"harness.admin-command"}},
		{`$TMPDIR/hs allow --once 'rm -rf x' --reason y`, "deny", []string{"harness.admin-command"}},
		{`hb allow --once 'rm -rf x' --reason y`, "deny", []string{"harness.admin-command"}},
		{`cd $TMPDIR && ./hx yolo start`, "deny", []string{"harness.admin-command"}},
		{`env -u FEATURE_ID $TMPDIR/hx phase complete f002`, "deny", []string{"harness.session-env"}},
		{`cp $TMPDIR/hx $TMPDIR/hz`, "deny", []string{"harness.binary-copy"}},
		// the copy may do what harness may do in a Generator session
		{`$TMPDIR/hx validate`, "allow", nil},
		// another file of the same size is not harness
		{`$TMPDIR/other allow --once 'rm -rf x' --reason y`, "allow", nil},
		{`cp $TMPDIR/other $TMPDIR/o2`, "allow", nil},
	} {
		got, reason := ask(c.cmd)
		if got == "" {
			got = "allow"
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s (%s)", c.cmd, got, c.want, reason)
			continue
		}
		for _, r := range c.reason {
			if !strings.Contains(reason, r) {
				t.Errorf("%q: reason lacks %q: %s", c.cmd, r, reason)
			}
		}
	}
	// the hook names the first rule; the copy made in the command is
	// harness too (every rule that fired)
	cmd := `cp "$(command -v harness)" $TMPDIR/hy; $TMPDIR/hy allow --once 'rm -rf x' --reason y`
	res, err := BashDecision(cmd, BashScope{Root: root, Feature: "f002", Cwd: root, Env: env, Executable: func() (string, error) { return hookBin, nil }})
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, m := range res.Matches {
		rules = append(rules, m.Rule)
	}
	if !slices.Contains(rules, "harness.binary-copy") || !slices.Contains(rules, "harness.admin-command") {
		t.Errorf("%q: rules %v, want harness.binary-copy and harness.admin-command", cmd, rules)
	}
}
