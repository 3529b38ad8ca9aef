package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// setup finds the CLI and builds the binaries, or skips (fails when
// HARNESS_E2E_REQUIRED=1, as CI sets it once it installed the CLI).
func setup(t *testing.T) (claude string, bins Binaries) {
	t.Helper()
	env := EnvMap(os.Environ())
	required := env["HARNESS_E2E_REQUIRED"] == "1"
	skip := func(format string, a ...any) {
		t.Helper()
		if required {
			t.Fatalf("HARNESS_E2E_REQUIRED=1 but: "+format, a...)
		}
		t.Skipf(format, a...)
	}
	if testing.Short() {
		skip("real-client e2e test skipped with -short")
	}
	claude, looked := FindClaude(env)
	if claude == "" {
		skip("real Claude Code CLI not found (looked at %s). To enable: run scripts/install-claude-cli.sh "+
			"(npm install of @anthropic-ai/claude-code@%s into $HOME/.cache/harness/claude-code), or set CLAUDE_BIN=/path/to/claude",
			strings.Join(looked, ", "), PinnedVersion)
	}
	v, err := Version(claude)
	if err != nil {
		skip("%s --version failed: %v", claude, err)
	}
	if !strings.HasPrefix(v, PinnedVersion) {
		t.Logf("warning: claude reports %q; this test was written against %s", v, PinnedVersion)
	}
	bins, err = BuildBinaries(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if bins.Hook == "" {
		// Not a missing prerequisite of the machine: the build itself is
		// checked by CI's go vet/build steps, so skip even when required.
		t.Skipf("cmd/harness-hook does not build yet: %s", bins.HookErr)
	}
	return claude, bins
}

// session is one claude run against one workspace.
type session struct {
	ws   workspace
	mock *MockAPI
	run  RunResult
}

func runSession(t *testing.T, claude string, ws workspace, script Script) *session {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "mock-requests.jsonl")
	mock := NewMockAPI(script, logPath)
	t.Cleanup(mock.Close)
	run, err := Run(context.Background(), RunOptions{
		Claude: claude, Dir: ws.FDir, Home: home, BaseURL: mock.URL(),
		Prompt: "Work on feature " + feature + ".", Path: os.Getenv("PATH"), Lang: "C.UTF-8",
		Timeout: 120 * time.Second,
	})
	if err != nil {
		t.Fatalf("start claude: %v", err)
	}
	s := &session{ws: ws, mock: mock, run: run}
	t.Cleanup(func() {
		if t.Failed() {
			s.dump(t)
		}
	})
	if run.TimedOut {
		t.Fatalf("claude timed out after %s", run.Duration)
	}
	for _, r := range mock.Requests() {
		if r.Kind == "proxy-attempt" {
			t.Errorf("claude tried to reach the network: %s %s", r.Method, r.Path)
		}
	}
	t.Logf("claude exit=%d in %s, %d main-loop requests, hooks wired by %s", run.ExitCode, run.Duration.Round(time.Millisecond), len(mock.Messages()), ws.Wiring)
	return s
}

func (s *session) dump(t *testing.T) {
	t.Logf("claude stderr:\n%s", s.run.Stderr)
	for _, ev := range s.run.HookResponses("") {
		t.Logf("hook_response %v exit=%v outcome=%v stdout=%.600q stderr=%.600q", ev["hook_name"], ev["exit_code"], ev["outcome"], ev["stdout"], ev["stderr"])
	}
	for _, r := range s.mock.Messages() {
		for _, m := range r.MessageTexts() {
			txt := m.Text
			if len(txt) > 300 {
				txt = txt[:300] + "…"
			}
			t.Logf("request #%d [%s] %q", r.Seq, m.Role, txt)
		}
	}
	if data, err := os.ReadFile(filepath.Join(s.ws.Root, ".harness", "logs", "hook.log")); err == nil {
		t.Logf("hook.log:\n%s", data)
	}
}

// toolResult is the tool_result for id in the first request that carries it.
func (s *session) toolResult(t *testing.T, id string) (ToolResult, Request) {
	t.Helper()
	for _, r := range s.mock.Messages() {
		for _, tr := range r.ToolResults() {
			if tr.ToolUseID == id {
				return tr, r
			}
		}
	}
	t.Fatalf("no tool_result for %s reached the model", id)
	return ToolResult{}, Request{}
}

// blockRecord finds the hook.log record of the PreToolUse block whose
// command or path contains needle, and returns its rule id.
func blockRule(t *testing.T, root, needle string) string {
	t.Helper()
	for _, rec := range hookLog(t, root) {
		b, _ := json.Marshal(rec)
		if !strings.Contains(string(b), needle) || !strings.Contains(string(b), "PreToolUse") {
			continue
		}
		for _, k := range []string{"rule", "rule_id"} {
			if r, _ := rec[k].(string); r != "" {
				return r
			}
		}
	}
	return ""
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestRealClaudeGeneratorSession runs one Generator session through the real
// CLI with the hook wired for f002 (phase-1 records complete), scripting tool
// calls that must be blocked, warned about and allowed.
func TestRealClaudeGeneratorSession(t *testing.T) {
	claude, bins := setup(t)
	ws := newWorkspace(t, bins, true)
	root := ws.Root
	marker1 := filepath.Join(root, "src", "marker-rm")
	marker2 := filepath.Join(root, "src", "marker-curl")
	allowed := filepath.Join(root, "src", "allowed.txt")
	schemaFile := filepath.Join(root, "schemas", "x.json")
	schemaNew := filepath.Join(root, "schemas", "y.json")
	script := Script{Turns: [][]Block{
		{Text("Cleaning up."), ToolUse("toolu_rm", "Bash", map[string]any{
			"command": fmt.Sprintf("touch %s && rm -rf %s", marker1, filepath.Join(root, "build")), "description": "clean"})},
		{ToolUse("toolu_curl", "Bash", map[string]any{
			"command": fmt.Sprintf("curl -s -m 2 -X DELETE http://127.0.0.1:1/x; touch %s", marker2), "description": "delete remote"})},
		{ToolUse("toolu_sed", "Bash", map[string]any{
			"command": fmt.Sprintf("cd %s && sed -i s/a/b/ schemas/x.json", root), "description": "patch schema"})},
		{ToolUse("toolu_write", "Write", map[string]any{"file_path": schemaNew, "content": "{}\n"})},
		{ToolUse("toolu_ok", "Bash", map[string]any{
			"command": fmt.Sprintf("echo fine > %s", allowed), "description": "normal work"})},
	}, FinalText: "All done."}
	s := runSession(t, claude, ws, script)

	t.Run("a_rm_rf_never_runs_and_reason_reaches_model", func(t *testing.T) {
		if exists(marker1) {
			t.Errorf("marker %s exists: the denied command line ran", marker1)
		}
		if !exists(filepath.Join(root, "build", "keep.txt")) {
			t.Errorf("build/ was deleted")
		}
		tr, _ := s.toolResult(t, "toolu_rm")
		if !tr.IsError || !strings.Contains(tr.Text, "PreToolUse:Bash hook error") {
			t.Errorf("tool_result is not a hook denial: is_error=%v %q", tr.IsError, tr.Text)
		}
		rule := blockRule(t, root, "rm -rf")
		if rule == "" {
			t.Errorf("hook.log has no PreToolUse record with a rule id for the rm -rf call")
		} else if !strings.Contains(tr.Text, rule) {
			t.Errorf("denial reason %q does not name the rule %q", tr.Text, rule)
		}
	})

	t.Run("c_session_start_context_in_first_request", func(t *testing.T) {
		msgs := s.mock.Messages()
		if len(msgs) == 0 {
			t.Fatal("no request reached the mock")
		}
		var ctx string
		for _, m := range msgs[0].MessageTexts() {
			if i := strings.Index(m.Text, "SessionStart hook additional context:"); i >= 0 {
				ctx = m.Text[i:]
				t.Logf("SessionStart context arrives as a role=%q message: %.200q", m.Role, ctx)
			}
		}
		if ctx == "" {
			t.Fatalf("first request has no SessionStart hook additional context")
		}
		if !strings.Contains(ctx, feature) {
			t.Errorf("SessionStart context does not name the feature %s", feature)
		}
		sid := s.run.SessionID()
		got, err := os.ReadFile(filepath.Join(ws.FDir, "session_id.txt"))
		if err != nil || strings.TrimSpace(string(got)) != sid {
			t.Errorf("session_id.txt = %q (err %v), want the session id %q", got, err, sid)
		}
	})

	t.Run("d_warn_context_reaches_model_and_command_runs", func(t *testing.T) {
		if !exists(marker2) {
			t.Errorf("the warn command did not run (marker %s absent)", marker2)
		}
		tr, req := s.toolResult(t, "toolu_curl")
		if strings.Contains(tr.Text, "hook error") {
			t.Errorf("warn command was denied: %q", tr.Text)
		}
		found := false
		for _, m := range req.MessageTexts() {
			if strings.Contains(m.Text, "PreToolUse:Bash hook additional context:") {
				found = true
				t.Logf("warn additionalContext arrives in request #%d as a role=%q message: %.300q", req.Seq, m.Role, m.Text)
			}
		}
		if !found {
			t.Errorf("the warn's additionalContext is not in the request that carries the tool_result")
		}
	})

	t.Run("e_sed_i_on_schema_never_runs", func(t *testing.T) {
		data, _ := os.ReadFile(schemaFile)
		if string(data) != "{\"a\": \"a\"}\n" {
			t.Errorf("schemas/x.json changed: %q", data)
		}
		tr, _ := s.toolResult(t, "toolu_sed")
		if !tr.IsError || !strings.Contains(tr.Text, "hook error") {
			t.Errorf("sed -i on schemas/ was not denied: %q", tr.Text)
		}
	})

	t.Run("write_tool_into_schemas_denied", func(t *testing.T) {
		if exists(schemaNew) {
			t.Errorf("%s was written", schemaNew)
		}
		tr, _ := s.toolResult(t, "toolu_write")
		if !tr.IsError || !strings.Contains(tr.Text, "PreToolUse:Write hook error") {
			t.Errorf("Write into schemas/ was not denied: %q", tr.Text)
		}
	})

	t.Run("ordinary_command_allowed", func(t *testing.T) {
		data, err := os.ReadFile(allowed)
		if err != nil || string(data) != "fine\n" {
			t.Errorf("ordinary command did not run: %q %v", data, err)
		}
		tr, _ := s.toolResult(t, "toolu_ok")
		if tr.IsError {
			t.Errorf("ordinary command got an error result: %q", tr.Text)
		}
	})

	t.Run("stop_allows_when_records_complete", func(t *testing.T) {
		if n := len(s.mock.Messages()); n != len(script.Turns)+1 {
			t.Errorf("%d main-loop requests, want %d (a Stop block would add more)", n, len(script.Turns)+1)
		}
		if res := s.run.Result(); res == nil || res["is_error"] == true {
			t.Errorf("run did not end with a successful result: %v", res)
		}
		if got := len(s.run.HookResponses("Stop")); got != 1 {
			t.Errorf("Stop hook ran %d times, want 1", got)
		}
	})
}

// TestRealClaudeStopBlock checks that a Stop block on incomplete records makes
// the CLI ask the model again with the reason, and that the hook gives up
// after 7 blocks in a row (fixtures README §7 stop.loop-bound).
func TestRealClaudeStopBlock(t *testing.T) {
	claude, bins := setup(t)
	ws := newWorkspace(t, bins, false)
	s := runSession(t, claude, ws, Script{Turns: [][]Block{{Text("All done.")}}, FinalText: "Still done."})
	msgs := s.mock.Messages()
	if len(msgs) < 2 {
		t.Fatalf("only %d request(s): the Stop block did not make the CLI continue", len(msgs))
	}
	var fb string
	for _, m := range msgs[1].MessageTexts() {
		if strings.Contains(m.Text, "Stop hook") {
			fb += m.Text + "\n"
		}
	}
	if fb == "" {
		t.Fatalf("request #2 carries no Stop hook feedback")
	}
	if !strings.Contains(fb, "generator_log") && !strings.Contains(fb, "stop.") {
		t.Errorf("Stop feedback does not say which record is missing: %.400q", fb)
	}
	t.Logf("Stop feedback in request #2: %.300q", fb)
	// 7 blocks, then an allow with a systemMessage: 8 model requests.
	if len(msgs) != 8 {
		t.Errorf("%d main-loop requests, want 8 (7 Stop blocks then the give-up)", len(msgs))
	}
	forced := false
	for _, rec := range hookLog(t, ws.Root) {
		b, _ := json.Marshal(rec)
		if strings.Contains(string(b), "stop_forced_incomplete") {
			forced = true
		}
	}
	if !forced {
		t.Errorf("hook.log has no stop_forced_incomplete record")
	}
}
