package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRealClaudeOrdinaryProjectAllowOnce: an ordinary project (no sprint)
// wired by `harness install --project`. Through the real client: a blocked
// command is refused; after the user's `harness allow --once … --project`
// the same command runs exactly once and the second try is refused; the
// model can neither authorise itself (`harness allow`) nor write
// .claude/harness.yaml; every decision is in the user-level audit log.
func TestRealClaudeOrdinaryProjectAllowOnce(t *testing.T) {
	claude, bins := setup(t)
	tmp := t.TempDir()
	proj, home, state := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home"), filepath.Join(tmp, "state")
	for _, d := range []string{proj, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + state, "PATH=" + filepath.Dir(bins.Harness) + string(os.PathListSeparator) + os.Getenv("PATH")}
	harness := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bins.Harness, args...)
		cmd.Dir, cmd.Env = proj, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("harness %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	harness("install", "--project", proj, "--hook-bin", bins.Hook)

	ran := filepath.Join(proj, "ran.txt")
	// blocked by git.push-force in every preset; the echo shows whether it ran
	cmd := "echo ran >> " + ran + "; git push --force origin main"
	session := func(script Script) *session {
		t.Helper()
		logPath := filepath.Join(t.TempDir(), "mock-requests.jsonl")
		mock := NewMockAPI(script, logPath)
		t.Cleanup(mock.Close)
		run, err := Run(context.Background(), RunOptions{
			Claude: claude, Dir: proj, Home: home, BaseURL: mock.URL(), Prompt: "Clean up the branch.",
			Path: pathFrom(env), Lang: "C.UTF-8", Extra: []string{"XDG_STATE_HOME=" + state}, Timeout: 120 * time.Second,
		})
		if err != nil {
			t.Fatalf("start claude: %v", err)
		}
		s := &session{ws: workspace{Root: proj, FDir: proj, Wiring: "harness install --project"}, mock: mock, run: run, script: script}
		t.Cleanup(func() {
			if t.Failed() {
				s.dump(t)
				data, _ := os.ReadFile(filepath.Join(state, "harness", "hook.log"))
				t.Logf("user-level hook.log:\n%s", data)
			}
		})
		if run.TimedOut {
			t.Fatalf("claude timed out after %s", run.Duration)
		}
		return s
	}
	lines := func() int {
		data, _ := os.ReadFile(ran)
		return strings.Count(string(data), "ran\n")
	}

	// 1. refused, and nothing ran
	s1 := session(Script{Turns: [][]Block{{ToolUse("toolu_push1", "Bash", map[string]any{"command": cmd})}}, FinalText: "ok"})
	r1, _ := s1.toolResult(t, "toolu_push1")
	if !r1.IsError || !strings.Contains(r1.Text, "git.push-force") || !strings.Contains(r1.Text, "harness allow --once") {
		t.Fatalf("blocked command not refused with git.push-force and the allow-once hint: %.300q", r1.Text)
	}
	if n := lines(); n != 0 {
		t.Fatalf("the refused command ran %d time(s)", n)
	}

	// 2. the user authorises it once for the project
	out := harness("allow", "--once", cmd, "--reason", "approved by the user in the e2e test", "--project", proj)
	if !strings.Contains(out, "authorised once (project") {
		t.Fatalf("harness allow: %s", out)
	}

	// 3. it runs once, the second try is refused; the model can neither
	// authorise itself nor write the override file
	yaml := filepath.Join(proj, ".claude", "harness.yaml")
	s2 := session(Script{Turns: [][]Block{
		{ToolUse("toolu_push2", "Bash", map[string]any{"command": cmd})},
		{ToolUse("toolu_push3", "Bash", map[string]any{"command": cmd})},
		{ToolUse("toolu_self", "Bash", map[string]any{"command": "harness allow --once '" + cmd + "' --reason 'I need it' --project " + proj})},
		{ToolUse("toolu_yaml", "Write", map[string]any{"file_path": yaml, "content": "disable: [git.push-force]\n"})},
		{ToolUse("toolu_yamlsh", "Bash", map[string]any{"command": "echo 'disable: [git.push-force]' > .claude/harness.yaml"})},
	}, FinalText: "ok"})
	r2, _ := s2.toolResult(t, "toolu_push2")
	r3, _ := s2.toolResult(t, "toolu_push3")
	self, _ := s2.toolResult(t, "toolu_self")
	w, _ := s2.toolResult(t, "toolu_yaml")
	wsh, _ := s2.toolResult(t, "toolu_yamlsh")
	t.Logf("authorised run → %.160q; second try → %.160q; self-authorisation → %.160q; Write harness.yaml → %.160q; echo > harness.yaml → %.160q",
		r2.Text, r3.Text, self.Text, w.Text, wsh.Text)
	if strings.Contains(r2.Text, "git.push-force") {
		t.Errorf("the authorised command was refused: %.300q", r2.Text)
	}
	if !r3.IsError || !strings.Contains(r3.Text, "git.push-force") {
		t.Errorf("the second try was not refused: %.300q", r3.Text)
	}
	if n := lines(); n != 1 {
		t.Errorf("the authorised command ran %d time(s), want exactly 1", n)
	}
	if !self.IsError || !strings.Contains(self.Text, "hook.guard-admin") {
		t.Errorf("the model's own harness allow was not refused with hook.guard-admin: %.300q", self.Text)
	}
	for name, r := range map[string]ToolResult{"Write": w, "Bash echo >": wsh} {
		if !r.IsError || !strings.Contains(r.Text, "path.hook-wiring") {
			t.Errorf("%s to .claude/harness.yaml not refused with path.hook-wiring: %.300q", name, r.Text)
		}
	}
	if exists(yaml) {
		t.Errorf(".claude/harness.yaml was written")
	}
	// the audit log: the authorisation, its use, the refusals
	logs := harness("logs")
	for _, want := range []string{"authorised", "allow .*git.push-force", "block .*git.push-force", "block .*hook.guard-admin", "block .*path.hook-wiring"} {
		if !containsRe(logs, want) {
			t.Errorf("harness logs lacks %q:\n%s", want, logs)
		}
	}
	if list := harness("allow", "--list"); !strings.Contains(list, "[used ") {
		t.Errorf("harness allow --list does not show the authorisation as used:\n%s", list)
	}
}

// containsRe reports whether the regular expression re matches in s.
func containsRe(s, re string) bool { return regexp.MustCompile(re).MatchString(s) }
