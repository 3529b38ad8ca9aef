package hook

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/testutil"
	"github.com/superagent-harness/harness/internal/validate"
	"github.com/superagent-harness/harness/internal/workspace"
)

// monitorWS is a valid-midway sprint with f002 running in session "s1",
// whose transcript the test writes.
type monitorWS struct {
	t          *testing.T
	root       string
	transcript string
	now        time.Time
	// pause is the runner's wait between two transcript reads (no wait
	// when nil): a test plays the client's late transcript write in it
	pause func(time.Duration)
}

func newMonitorWS(t *testing.T) *monitorWS {
	t.Helper()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	m := &monitorWS{t: t, root: root, transcript: filepath.Join(tmp, "s1.jsonl"), now: time.Date(2026, 4, 21, 10, 0, 0, 0, time.UTC)}
	m.setUsage("claude-sonnet-4-6", 1000)
	return m
}

// setUsage appends an assistant line whose usage totals tokens.
func (m *monitorWS) setUsage(model string, tokens int64) {
	m.t.Helper()
	line := fmt.Sprintf(`{"type":"assistant","isSidechain":false,"requestedModel":%q,"timestamp":"2026-04-21T10:00:00.000Z","message":{"model":%q,"usage":{"input_tokens":10,"cache_read_input_tokens":%d,"cache_creation_input_tokens":5,"output_tokens":5}}}`,
		model, strings.TrimSuffix(model, "[1m]"), tokens-20)
	m.appendTranscript(line)
}

func (m *monitorWS) appendTranscript(line string) {
	m.t.Helper()
	f, err := os.OpenFile(m.transcript, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		m.t.Fatal(err)
	}
	f.WriteString(line + "\n")
	f.Close()
}

// call runs one hook event for f002 in session sid with extra payload
// members, and returns the contract-checked answer.
func (m *monitorWS) call(event, sid string, extra map[string]any) map[string]any {
	m.t.Helper()
	return m.callEnv(event, sid, extra, nil)
}

// callEnv is call with the client's environment env.
func (m *monitorWS) callEnv(event, sid string, extra map[string]any, env map[string]string) map[string]any {
	m.t.Helper()
	p := map[string]any{"hook_event_name": event, "session_id": sid, "cwd": filepath.Join(m.root, ".harness", "features", "f002"),
		"transcript_path": m.transcript}
	for k, v := range extra {
		p[k] = v
	}
	b, _ := json.Marshal(p)
	now := m.now
	pause := m.pause
	if pause == nil {
		pause = func(time.Duration) {}
	}
	res := runIn(runner{now: func() time.Time { return now }, pause: pause}, []string{"--event", event, "--root", m.root, "--feature", "f002", "--sprint", "sprint_20260421_1"}, env, strings.NewReader(string(b)))
	if res.code != 0 {
		m.t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	return checkContract(m.t, event, res.stdout)
}

func (m *monitorWS) state() *workspace.ContextState {
	m.t.Helper()
	cs, err := (&workspace.Workspace{Root: m.root}).ContextState("f002")
	if err != nil {
		m.t.Fatal(err)
	}
	return cs
}

func additional(obj map[string]any) string {
	h, _ := obj["hookSpecificOutput"].(map[string]any)
	s, _ := h["additionalContext"].(string)
	return s
}

func denyOf(obj map[string]any) string {
	h, _ := obj["hookSpecificOutput"].(map[string]any)
	if h["permissionDecision"] != "deny" {
		return ""
	}
	s, _ := h["permissionDecisionReason"].(string)
	return s
}

func bashCall(cmd string) map[string]any {
	return map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_use_id": "t"}
}

// The context trigger: recorded figures, the instruction once (on the
// first event that reaches the model), the hard limit's refusals and the
// Reset steps that stay allowed.
func TestMonitorContextTrigger(t *testing.T) {
	m := newMonitorWS(t)
	read := map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": filepath.Join(m.root, "src", "x.go")}, "tool_use_id": "r"}
	if obj := m.call(EventPostToolUse, "s1", read); additional(obj) != "" {
		t.Fatalf("below the limit nothing is said: %v", obj)
	}
	cs := m.state()
	if cs == nil || cs.SessionID != "s1" || cs.ContextTokens != 1000 || cs.ContextWindow != 200000 || cs.TokenUsageRatio != 0.005 ||
		cs.Model != "claude-sonnet-4-6" || cs.ResetTrigger != nil || cs.SessionStartedAt != "2026-04-21T10:00:00Z" || cs.LastActivityAt == "" {
		t.Fatalf("recorded %+v", cs)
	}
	before, _ := os.ReadFile(m.ctxPath())
	m.call(EventPostToolUse, "s1", read)
	if after, _ := os.ReadFile(m.ctxPath()); string(after) != string(before) {
		t.Errorf("unchanged figures rewrote the file:\n%s\n%s", before, after)
	}

	m.setUsage("claude-sonnet-4-6", 148000) // 0.74
	obj := m.call(EventPreToolUse, "s1", bashCall("go test ./..."))
	ctx := additional(obj)
	if !strings.Contains(ctx, "Feature Reset required for f002") || !strings.Contains(ctx, "token_usage_ratio 0.74 > 0.70") ||
		!strings.Contains(ctx, ".harness/features/f002/handoff.md") || !strings.Contains(ctx, "## Reset at") || denyOf(obj) != "" {
		t.Fatalf("first call past the limit must carry the instruction and allow: %v", obj)
	}
	cs = m.state()
	if cs.ResetTrigger == nil || cs.ResetTrigger.Kind != "context" || cs.ResetTrigger.SessionID != "s1" || cs.ResetInstructedAt == "" {
		t.Fatalf("trigger not recorded: %+v", cs)
	}
	if obj := m.call(EventPostToolUse, "s1", read); additional(obj) != "" {
		t.Errorf("told twice: %v", obj)
	}

	m.setUsage("claude-sonnet-4-6", 172000) // 0.86 > 0.85
	if r := denyOf(m.call(EventPreToolUse, "s1", bashCall("go test ./..."))); !strings.Contains(r, "reset.hard-limit") || !strings.Contains(r, "hard limit") {
		t.Fatalf("past the hard limit work is refused: %q", r)
	}
	if r := denyOf(m.call(EventPreToolUse, "s1", read)); !strings.Contains(r, "reset.hard-limit") {
		t.Fatalf("Read outside the feature refused: %q", r)
	}
	handoff := filepath.Join(m.root, ".harness", "features", "f002", "handoff.md")
	genlog := filepath.Join(m.root, ".harness", "features", "f002", "generator_log.md")
	for name, extra := range map[string]map[string]any{
		"Write handoff":        {"tool_name": "Write", "tool_input": map[string]any{"file_path": handoff, "content": "# h"}},
		"Edit genlog":          {"tool_name": "Edit", "tool_input": map[string]any{"file_path": genlog, "old_string": "a", "new_string": "b"}},
		"Read genlog":          {"tool_name": "Read", "tool_input": map[string]any{"file_path": genlog}},
		"Bash heredoc handoff": bashCall("cat > " + handoff + " <<'EOF'\n**Trigger reason**: token_usage_ratio 0.86\nEOF"),
		"Bash append genlog":   bashCall("echo \"## Reset at $(date -u +%Y-%m-%dT%H:%M:%SZ)\" >> .harness/features/f002/generator_log.md"),
		"Bash harness":         bashCall("harness status"),
	} {
		if strings.Contains(name, "append genlog") {
			extra["cwd"] = m.root
		}
		if r := denyOf(m.call(EventPreToolUse, "s1", extra)); strings.Contains(r, "reset.hard-limit") {
			t.Errorf("%s is a Reset step and must not hit the hard limit: %q", name, r)
		}
	}
	for name, cmd := range map[string]string{
		"write elsewhere": "echo x > src/notes.txt",
		"other program":   "python3 -c 'print(1)' > " + handoff,
		"nested shell":    "bash -c 'echo x >> " + genlog + "'",
		"tee elsewhere":   "echo x | tee src/a.txt",
	} {
		if r := denyOf(m.call(EventPreToolUse, "s1", bashCall(cmd))); !strings.Contains(r, "reset.hard-limit") {
			t.Errorf("%s must be refused past the hard limit: %q", name, r)
		}
	}
	// the Stop block reason names the Reset too
	stop := m.call(EventStop, "s1", map[string]any{"stop_hook_active": false})
	if reason, _ := stop["reason"].(string); stop["decision"] != "block" || !strings.Contains(reason, "Feature Reset required for f002") {
		t.Errorf("Stop block lacks the Reset instruction: %v", stop)
	}
	// every line of hook.log of f002 carries the measurement
	for _, rec := range hookLogRecords(t, m.root) {
		if rec.Feature == "f002" && rec.Monitor == nil {
			t.Errorf("record without measurement: %+v", rec)
		}
	}
	// the file the hook writes is valid against the sprint's schemas
	rep, err := validate.Validate(m.root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if strings.Contains(f.File, "claude_code_context_state") {
			t.Errorf("finding on the context state: %+v", f)
		}
	}
}

func (m *monitorWS) ctxPath() string {
	return filepath.Join(m.root, ".harness", "claude_code_context_state.json")
}

// A new session starts with fresh figures and no trigger of the old one;
// retries count only when they happen during the session; the age trigger
// uses the pool's started_at for this session.
func TestMonitorSessionRetriesAndAge(t *testing.T) {
	m := newMonitorWS(t)
	m.setUsage("claude-sonnet-4-6", 160000)
	m.call(EventPostToolUse, "s1", nil)
	if cs := m.state(); cs.ResetTrigger == nil {
		t.Fatal("no trigger at 0.80")
	}
	os.WriteFile(m.transcript, nil, 0o644)
	m.call(EventSessionStart, "s2", map[string]any{"source": "startup"})
	cs := m.state()
	if cs.SessionID != "s2" || cs.ResetTrigger != nil || cs.ContextTokens != 0 || cs.StopBlocks != 0 {
		t.Fatalf("new session: %+v", cs)
	}
	start := cs.RetriesAtStart
	ws := &workspace.Workspace{Root: m.root}
	for i := 0; i < 2; i++ {
		line := fmt.Sprintf(`{"timestamp":"2026-04-21T09:0%dZ","sprint_id":"sprint_20260421_1","feature_id":"f002","phase":1,"event_type":"phase_evaluation","result":"retry","reason":"第 %d 次重试:超时分类缺少 DNS 失败,补上后重跑 a2"}`, i, i+1)
		if err := fsutil.AppendLine(ws.EvalLog(), []byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	obj := m.call(EventPostToolUse, "s2", nil)
	cs = m.state()
	if cs.Retries != start+2 || cs.ResetTrigger == nil || cs.ResetTrigger.Kind != "retries" || !strings.Contains(additional(obj), "retries") {
		t.Fatalf("retries trigger: %+v %v", cs, obj)
	}
	// age: the pool says s3 started 2h10m ago
	pool := fmt.Sprintf(`{"max_concurrent":2,"policy":"start_when_dependency_ready","active":{"f002":{"session_id":"s3","status":"running","started_at":%q}}}`,
		m.now.Add(-130*time.Minute).Format("2006-01-02T15:04:05Z"))
	if err := fsutil.WriteFileAtomic(ws.SessionPool(), []byte(pool), 0o644); err != nil {
		t.Fatal(err)
	}
	m.call(EventSessionStart, "s3", map[string]any{"source": "startup"})
	cs = m.state()
	if cs.ResetTrigger == nil || cs.ResetTrigger.Kind != "age" || cs.SessionAgeS != 130*60 || !strings.Contains(cs.ResetTrigger.Detail, "2h10m > 2h") {
		t.Fatalf("age trigger: %+v", cs.ResetTrigger)
	}
	// a trigger Hermes set (harness session reset) is hard at once
	if _, err := ws.UpdateContextState("f002", func(cs *workspace.ContextState) error {
		cs.ResetTrigger = &workspace.ResetTrigger{Kind: "hermes", Detail: "Hermes asked", At: "2026-04-21T10:00:00Z", SessionID: "s3"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if r := denyOf(m.call(EventPreToolUse, "s3", bashCall("make"))); !strings.Contains(r, "Hermes demands a Reset") {
		t.Errorf("Hermes trigger not enforced: %q", r)
	}
}

// PreCompact with trigger auto in a Generator session: blocked while the
// Reset is not done; allowed when it recovers a failed request, after the
// Reset, when manual, or by the sprint's policy. Either way a context
// trigger is recorded; after a compaction SessionStart tells again.
func TestMonitorPreCompactPolicy(t *testing.T) {
	m := newMonitorWS(t)
	m.setUsage("claude-opus-4-6", 150000) // 0.75 of 200k: below the client's own threshold (≈ 187k)
	if obj := m.call(EventPreCompact, "s1", map[string]any{"trigger": "auto"}); obj["decision"] != nil {
		t.Fatalf("below the client's threshold a compaction is a recovery and must be allowed: %v", obj)
	}
	// with CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50 the client compacts at 100k on its own: blocked
	obj := m.callEnv(EventPreCompact, "s1", map[string]any{"trigger": "auto", "custom_instructions": nil}, map[string]string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"})
	if obj["decision"] != "block" || !strings.Contains(obj["reason"].(string), "reset.compaction-blocked") {
		t.Fatalf("auto compaction must be blocked: %v", obj)
	}
	m.setUsage("claude-opus-4-6", 190000) // above 200k - 13k
	if obj := m.call(EventPreCompact, "s1", map[string]any{"trigger": "auto"}); obj["decision"] != "block" {
		t.Fatalf("above the client's threshold: blocked: %v", obj)
	}
	if cs := m.state(); cs.ResetTrigger == nil || cs.ResetTrigger.Kind != "context" {
		t.Fatalf("no trigger recorded: %+v", cs)
	}
	if obj := m.call(EventPreCompact, "s1", map[string]any{"trigger": "manual", "custom_instructions": "keep it short"}); obj["decision"] != nil {
		t.Errorf("manual compaction must be allowed: %v", obj)
	}
	// a request without an answer: the client recovers from a context-limit error
	m.appendTranscript(`{"type":"api-request","sessionId":"s1","querySource":"sdk","params":{"model":"claude-opus-4-6"}}`)
	if obj := m.call(EventPreCompact, "s1", map[string]any{"trigger": "auto"}); obj["decision"] != nil {
		t.Errorf("a recovering compaction must be allowed: %v", obj)
	}
	m.setUsage("claude-opus-4-6", 190000)
	handoff := filepath.Join(m.root, ".harness", "features", "f002", "handoff.md")
	os.WriteFile(handoff, []byte("**Trigger reason**: token_usage_ratio 0.75 > 0.70\n\n## 当前状态\nphase 1, the plan is half written; next: finish the plan\n"), 0o644)
	os.Chtimes(handoff, m.now, m.now)
	if obj := m.call(EventPreCompact, "s1", map[string]any{"trigger": "auto"}); obj["decision"] != nil {
		t.Errorf("after the Reset compaction is allowed: %v", obj)
	}
	os.Remove(handoff)
	os.WriteFile(filepath.Join(m.root, ".harness", "rules.yaml"), []byte("reset:\n  precompact: allow\n"), 0o644)
	if obj := m.call(EventPreCompact, "s1", map[string]any{"trigger": "auto"}); obj["decision"] != nil {
		t.Errorf("policy allow: %v", obj)
	}
	obj = m.call(EventSessionStart, "s1", map[string]any{"source": "compact"})
	if !strings.HasPrefix(additional(obj), "harness: Feature Reset required for f002") {
		t.Errorf("after a compaction the instruction comes first again: %.300q", additional(obj))
	}
}

// TestMonitorPreCompactWaitsForTheTranscript: the client writes the
// transcript asynchronously, so at a threshold compaction the answer that
// crossed the threshold may not be in the file yet: its end shows the
// request without an answer and the context below the threshold, as in a
// recovery. Allowing the compaction then let it through on a loaded machine
// (the real-client test blocked_at_threshold failed 1 run in ~6). The hook
// reads again until the answer arrives and blocks; a real recovery (no
// answer ever comes) is still allowed after the wait.
func TestMonitorPreCompactWaitsForTheTranscript(t *testing.T) {
	env := map[string]string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"} // the client compacts at 100k
	request := `{"type":"api-request","sessionId":"s1","querySource":"sdk","params":{"model":"claude-sonnet-4-6"}}`
	answer := `{"type":"assistant","isSidechain":false,"requestedModel":"claude-sonnet-4-6","timestamp":"2026-04-21T10:00:05.000Z","message":{"model":"claude-sonnet-4-6","usage":{"input_tokens":100,"cache_read_input_tokens":129850,"cache_creation_input_tokens":0,"output_tokens":50}}}`

	m := newMonitorWS(t)
	m.setUsage("claude-sonnet-4-6", 60000)
	m.appendTranscript(request) // the 130k answer is on its way
	waits := 0
	m.pause = func(time.Duration) {
		if waits++; waits == 3 {
			m.appendTranscript(answer) // the client's write lands
		}
	}
	obj := m.callEnv(EventPreCompact, "s1", map[string]any{"trigger": "auto"}, env)
	if obj["decision"] != "block" || !strings.Contains(fmt.Sprint(obj["reason"]), "reset.compaction-blocked") {
		t.Fatalf("a threshold compaction whose answer reached the transcript late was not blocked (%d waits): %v", waits, obj)
	}
	if waits != 3 {
		t.Errorf("the hook read the transcript again after %d waits; want it to stop once the answer arrived (3)", waits)
	}

	r := newMonitorWS(t)
	r.setUsage("claude-sonnet-4-6", 60000)
	r.appendTranscript(request) // failed with "prompt is too long": no answer comes
	waits = 0
	r.pause = func(d time.Duration) { waits++ }
	if obj := r.callEnv(EventPreCompact, "s1", map[string]any{"trigger": "auto"}, env); obj["decision"] != nil {
		t.Fatalf("a recovering compaction must be allowed after the wait: %v", obj)
	}
	if waits != settlePolls {
		t.Errorf("the recovery was allowed after %d waits, want %d (%s)", waits, settlePolls, settlePoll*settlePolls)
	}
}

// hook.log rotates at workspace.HookLogRotateSize: the full file becomes
// hook.log.<N+1>, the record goes to a new hook.log, nothing is lost.
func TestHookLogRotates(t *testing.T) {
	m := newMonitorWS(t)
	logPath := filepath.Join(m.root, ".harness", "logs", "hook.log")
	old, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat(`{"time":"2026-04-21T03:00:00Z","event":"PreToolUse","verdict":"allow","duration_us":1}`+"\n", workspace.HookLogRotateSize/80)
	if err := os.WriteFile(logPath, append(old, pad...), 0o644); err != nil {
		t.Fatal(err)
	}
	full, _ := os.ReadFile(logPath)
	m.call(EventPreToolUse, "s1", bashCall("rm -rf /"))
	rotated, err := os.ReadFile(logPath + ".1")
	if err != nil || string(rotated) != string(full) {
		t.Fatalf("hook.log.1 is not the full log (%d vs %d bytes): %v", len(rotated), len(full), err)
	}
	cur := hookLogRecords(t, m.root)
	if len(cur) != 1 || cur[0].Verdict != "block" {
		t.Fatalf("new hook.log: %+v", cur)
	}
	if files := workspace.HookLogFiles(logPath); len(files) != 2 || files[1] != logPath+".1" {
		t.Errorf("HookLogFiles: %v", files)
	}
	if next := workspace.NextRotatedHookLog(logPath); next != logPath+".2" {
		t.Errorf("next rotation: %s", next)
	}
}
