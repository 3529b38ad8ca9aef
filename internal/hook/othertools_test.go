package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Claude Code 2.1.332 has tools beyond Bash that act on the work tree. Its
// Monitor tool runs tool_input.command in a shell (sandboxed, like Bash):
// through the real client `rm -rf <root>/build` ran past the hook, whose
// answer was "tool not guarded". EnterWorktree/ExitWorktree run git in the
// client itself (outside the sandbox) and create or remove
// <repo>/.claude/worktrees/<name>. Monitor's command is judged as a Bash
// command; the worktree tools are refused in a Generator session.
func TestOtherToolsThatRunCommands(t *testing.T) {
	m := newMonitorWS(t)
	call := func(tool string, input map[string]any) map[string]any {
		return m.call(EventPreToolUse, "s1", map[string]any{"tool_name": tool, "tool_input": input, "tool_use_id": "t"})
	}
	build := filepath.Join(m.root, "build")
	if r := denyOf(call("Monitor", map[string]any{"description": "watch", "timeout_ms": 20000, "command": "rm -rf " + build})); r == "" {
		t.Errorf("Monitor ran rm -rf of the product tree unjudged")
	}
	if r := denyOf(call("Monitor", map[string]any{"description": "watch", "timeout_ms": 20000, "command": "echo x >> " + filepath.Join(m.root, ".harness", "eval_log.jsonl")})); !strings.Contains(r, "eval") {
		t.Errorf("Monitor appended to eval_log unjudged: %q", r)
	}
	if r := denyOf(call("Monitor", map[string]any{"description": "watch", "timeout_ms": 20000, "command": "tail -f " + filepath.Join(m.root, "src", "app.log")})); r != "" {
		t.Errorf("a harmless Monitor command was refused: %s", r)
	}
	if r := denyOf(call("Monitor", map[string]any{"description": "watch", "timeout_ms": 20000, "command": nil})); r == "" {
		t.Errorf("Monitor with command null was not refused (the guard cannot judge it)")
	}
	if r := denyOf(call("Monitor", map[string]any{"description": "watch", "timeout_ms": 20000, "ws": map[string]any{"url": "ws://127.0.0.1:1/"}})); r != "" {
		t.Errorf("Monitor on a WebSocket (no command) was refused: %s", r)
	}
	for _, tool := range []string{"EnterWorktree", "ExitWorktree"} {
		if r := denyOf(call(tool, map[string]any{"name": "w", "action": "remove"})); !strings.Contains(r, ".claude/worktrees") {
			t.Errorf("%s in a Generator session: %q", tool, r)
		}
	}
	if r := denyOf(call("Read", map[string]any{"file_path": filepath.Join(m.root, "src", "x.go")})); r != "" {
		t.Errorf("Read was refused: %s", r)
	}
}

// An Agent call with isolation "worktree" made the real client 2.1.332 run
// git outside the sandbox and create <root>/.claude/worktrees/agent-<id>
// and a branch (the EnterWorktree effect): refused in a Generator session,
// as is "remote"; the same subagent without isolation runs.
func TestIsolatedAgentRefused(t *testing.T) {
	m := newMonitorWS(t)
	call := func(tool string, input map[string]any) string {
		return denyOf(m.call(EventPreToolUse, "s1", map[string]any{"tool_name": tool, "tool_input": input, "tool_use_id": "t"}))
	}
	for _, tool := range []string{"Agent", "Task"} {
		for _, iso := range []any{"worktree", "remote", "Worktree", true} {
			if r := call(tool, map[string]any{"description": "d", "prompt": "p", "isolation": iso}); !strings.Contains(r, ".claude/worktrees") {
				t.Errorf("%s isolation %v: %q", tool, iso, r)
			}
		}
		if r := call(tool, map[string]any{"description": "d", "prompt": "p", "ISOLATION": "worktree"}); r == "" {
			t.Errorf("%s with the key spelled ISOLATION was not refused", tool)
		}
		for _, in := range []map[string]any{{"description": "d", "prompt": "p", "subagent_type": "general-purpose"}, {"description": "d", "prompt": "p", "isolation": nil}} {
			if r := call(tool, in); r != "" {
				t.Errorf("%s without isolation %v refused: %s", tool, in, r)
			}
		}
	}
}

// A durable CronCreate wrote <feature>/.claude/scheduled_tasks.json through
// the real client (the client writes it itself, outside the sandbox) and
// would replay its prompt in later sessions: refused in a Generator
// session; a session-only job is the session's own.
func TestDurableCronRefused(t *testing.T) {
	m := newMonitorWS(t)
	call := func(input map[string]any) string {
		return denyOf(m.call(EventPreToolUse, "s1", map[string]any{"tool_name": "CronCreate", "tool_input": input, "tool_use_id": "t"}))
	}
	for _, durable := range []any{true, "yes", 1} {
		if r := call(map[string]any{"cron": "*/1 * * * *", "prompt": "go on", "durable": durable}); !strings.Contains(r, "scheduled_tasks.json") {
			t.Errorf("durable %v: %q", durable, r)
		}
	}
	for _, in := range []map[string]any{{"cron": "*/5 * * * *", "prompt": "check the build"}, {"cron": "*/5 * * * *", "prompt": "x", "durable": false}} {
		if r := call(in); r != "" {
			t.Errorf("session-only cron %v refused: %s", in, r)
		}
	}
}

// In a session harness launch started, WebFetch and a Monitor WebSocket are
// connections of the client itself, outside the sandbox's network proxy:
// with bypassPermissions a Monitor WebSocket reached a loopback server
// through the real client. A host the session's
// sandbox.network.allowedDomains does not list is refused
// (hook.client-network); a listed one, or a session without launch
// settings, is not judged.
func TestClientNetworkFollowsTheSandbox(t *testing.T) {
	m := newMonitorWS(t)
	call := func(sid, tool string, input map[string]any) string {
		return denyOf(m.call(EventPreToolUse, sid, map[string]any{"tool_name": tool, "tool_input": input, "tool_use_id": "t"}))
	}
	fetch := func(u string) map[string]any { return map[string]any{"url": u, "prompt": "p"} }
	ws := func(u string) map[string]any {
		return map[string]any{"description": "d", "timeout_ms": 5000, "ws": map[string]any{"url": u}}
	}
	if r := call("s1", "WebFetch", fetch("http://127.0.0.1:9/x")); r != "" {
		t.Errorf("a session without launch settings was judged: %s", r)
	}
	dir := filepath.Join(m.root, ".harness", "sessions", "s1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"sandbox":{"enabled":true,"network":{"allowedDomains":["proxy.golang.org","*.example.com"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool  string
		input map[string]any
		deny  bool
	}{
		{"WebFetch", fetch("http://127.0.0.1:18778/exfil?d=1"), true},
		{"Monitor", ws("ws://127.0.0.1:18778/x"), true},
		{"WebFetch", fetch("https://evil.test/"), true},
		{"WebFetch", fetch("https://example.com.evil.test/"), true},
		{"WebFetch", fetch("https://proxy.golang.org/github.com/x/@v/list"), false},
		{"WebFetch", fetch("https://docs.example.com/a"), false},
		{"Monitor", ws("wss://api.example.com/stream"), false},
		{"Monitor", map[string]any{"description": "d", "timeout_ms": 5000, "command": "tail -f " + filepath.Join(m.root, "src", "log")}, false},
	} {
		r := call("s1", c.tool, c.input)
		if got := strings.Contains(r, "hook.client-network"); got != c.deny {
			t.Errorf("%s %v: deny=%v, want %v (%q)", c.tool, c.input, got, c.deny, r)
		}
	}
}
