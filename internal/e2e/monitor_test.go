package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	hws "github.com/superagent-harness/harness/internal/workspace"
)

// resetInstruction is how the hook's Reset instruction begins.
const resetInstruction = "harness: Feature Reset required for " + feature

// contextState reads the feature's entry of claude_code_context_state.json.
func contextState(t *testing.T, root string) *hws.ContextState {
	t.Helper()
	cs, err := (&hws.Workspace{Root: root}).ContextState(feature)
	if err != nil || cs == nil {
		t.Fatalf("context state of %s: %v %v", feature, cs, err)
	}
	return cs
}

// requestWith returns the first main-loop request whose messages contain
// needle, and how often needle occurs in the last request (the whole
// conversation so far).
func (s *session) requestWith(needle string) (first *Request, inLast int) {
	msgs := s.mock.Messages()
	for i := range msgs {
		body := string(msgs[i].Body)
		if first == nil && strings.Contains(body, needle) {
			r := msgs[i]
			first = &r
		}
	}
	if len(msgs) > 0 {
		for _, m := range msgs[len(msgs)-1].MessageTexts() {
			inLast += strings.Count(m.Text, needle)
		}
	}
	return first, inLast
}

// TestRealClaudeResetTrigger: the mock reports growing usage (200k-window
// model); when the context passes 70 % the hook's Reset instruction reaches
// the model once, in the request after the tool call that crossed it; the
// scripted model writes handoff.md, appends the Reset line and stops; Stop
// lets it end under the Reset exception (trigger on record), the pool shows
// resetting, and the recorded token count is the mock's.
func TestRealClaudeResetTrigger(t *testing.T) {
	claude, bins := setup(t)
	ws := newWorkspace(t, bins, false)
	// usage stays at 150000 (0.75) for four answers (turns 3..6): the
	// client writes the transcript asynchronously, and on a loaded CI
	// machine the hook has read it two answers late, so the crossing is
	// seen at the same ratio wherever in that window the hook sees it
	usage := []int{20000, 60000, 120000, 150000, 150000, 150000, 150000, 152000, 153000, 154000}
	handoff := filepath.Join(ws.FDir, "handoff.md")
	// every section of the handoff template: the Reset exception is earned
	// only by a complete handoff
	content := fullHandoff("token_usage_ratio 0.75 > 0.70")
	script := Script{
		Turns: [][]Block{
			{Text("Step 0."), ToolUse("toolu_s0", "Bash", map[string]any{"command": "echo step0", "description": "s0"})},
			{ToolUse("toolu_s1", "Bash", map[string]any{"command": "echo step1", "description": "s1"})},
			{ToolUse("toolu_s2", "Read", map[string]any{"file_path": filepath.Join(ws.FDir, "context_snapshot.md")})},
			{ToolUse("toolu_s3", "Bash", map[string]any{"command": "echo step3", "description": "s3"})},
			// three more calls at the same usage: the instruction reaches
			// the model before the handoff is written even when the hook
			// reads the transcript up to three answers late
			{ToolUse("toolu_s4", "Bash", map[string]any{"command": "echo step4", "description": "s4"})},
			{ToolUse("toolu_s5", "Bash", map[string]any{"command": "echo step5", "description": "s5"})},
			{ToolUse("toolu_s6", "Bash", map[string]any{"command": "echo step6", "description": "s6"})},
			{Text("The hook asks for a Reset."), ToolUse("toolu_handoff", "Write", map[string]any{"file_path": handoff, "content": content})},
			{ToolUse("toolu_genlog", "Bash", map[string]any{"command": `echo "## Reset at $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> generator_log.md`, "description": "reset line"})},
		},
		FinalText: "Handoff written; stopping for the Reset.",
		Usage: func(k int) Usage {
			total := usage[min(k, len(usage)-1)]
			return Usage{InputTokens: 300, CacheReadInputTokens: total - 300 - 1200 - 80, CacheCreationInputTokens: 1200, OutputTokens: 80}
		},
	}
	s := runSessionArgs(t, claude, ws, script, nil, []string{"--model", "claude-sonnet-4-6"})

	first, inLast := s.requestWith(resetInstruction)
	if first == nil {
		t.Fatal("the Reset instruction never reached the model")
	}
	// The answer of turn 3 (0.75) makes the crossing tool call; its
	// PostToolUse normally reads that answer, so the instruction is in the
	// request of turn 4. The client writes the transcript asynchronously
	// (docs/hooks.md §3, transcript_path), so under load the hook may read
	// the answers late (two answers late seen on CI): turn 7, three late
	// and the last one before the handoff is written, is the latest
	// acceptable.
	if first.ReplyTurn < 4 || first.ReplyTurn > 7 {
		t.Errorf("the instruction first reached the model in the request of turn %d, want 4 (after the tool call at 0.75) to 7 (three answers late)", first.ReplyTurn)
	}
	if inLast != 1 {
		t.Errorf("the instruction appears %d times in the conversation, want once", inLast)
	}
	for _, m := range first.MessageTexts() {
		if strings.Contains(m.Text, resetInstruction) {
			t.Logf("instruction arrives as a role=%q message: %.300q", m.Role, m.Text)
			for _, want := range []string{"token_usage_ratio 0.75 > 0.70", "handoff.md", "**Trigger reason**", "## 当前状态", "## Reset at", "Stop"} {
				if !strings.Contains(m.Text, want) {
					t.Errorf("instruction lacks %q", want)
				}
			}
		}
	}
	if tr, _ := s.toolResult(t, "toolu_handoff"); tr.IsError {
		t.Fatalf("writing handoff.md was refused: %q", tr.Text)
	}
	gl, _ := os.ReadFile(filepath.Join(ws.FDir, "generator_log.md"))
	if !strings.Contains(string(gl), "## Reset at 20") {
		t.Errorf("generator_log.md lacks the Reset line:\n%s", gl)
	}
	stops := s.run.HookResponses("Stop")
	if len(stops) != 1 || stops[0]["stdout"] != "{}\n" {
		t.Errorf("Stop ran %d times (%v); want one allow under the Reset exception", len(stops), stops)
	}
	var rule string
	for _, rec := range hookLog(t, ws.Root) {
		if rec["event"] == "Stop" {
			rule, _ = rec["rule"].(string)
		}
	}
	if rule != "stop.reset-exception" {
		t.Errorf("Stop allowed by %q, want stop.reset-exception", rule)
	}
	var pool struct {
		Active map[string]struct {
			Status string `json:"status"`
		} `json:"active"`
	}
	data, _ := os.ReadFile(filepath.Join(ws.Root, ".harness", "session_pool.json"))
	_ = json.Unmarshal(data, &pool)
	if st := pool.Active[feature].Status; st != "resetting" {
		t.Errorf("pool status %q, want resetting", st)
	}
	cs := contextState(t, ws.Root)
	if cs.SessionID != s.run.SessionID() || cs.ResetTrigger == nil || cs.ResetTrigger.Kind != "context" ||
		cs.ResetTrigger.Detail != "token_usage_ratio 0.75 > 0.70" || cs.ContextWindow != 200000 || cs.Model != "claude-sonnet-4-6" {
		t.Errorf("context state %+v (trigger %+v)", cs, cs.ResetTrigger)
	}
	// accuracy: the tokens on record are the usage the mock reported for
	// the last main-loop answer the hook could see
	var want int
	for _, r := range s.mock.Messages() {
		if r.Usage != nil {
			want = r.Usage.Total()
		}
	}
	if cs.ContextTokens != int64(want) {
		t.Errorf("recorded context_tokens %d, the mock's last usage totals %d", cs.ContextTokens, want)
	}
	t.Logf("recorded %d tokens / %d = %.4f; mock's last answer %d", cs.ContextTokens, cs.ContextWindow, cs.TokenUsageRatio, want)
	checkMeasurementAccuracy(t, s)
	checkOneHookRunPerToolCall(t, s)

	// Hermes' scheduler sees it: harness watch --once reports the Reset under way
	out, err := exec.Command(bins.Harness, "--json", "watch", "--once", "--root", ws.Root).Output()
	if err != nil {
		t.Fatalf("harness watch --once --json: %v\n%s", err, out)
	}
	found := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var env struct {
			OK   bool `json:"ok"`
			Data struct {
				Event   string `json:"event"`
				Feature string `json:"feature"`
				Trigger string `json:"trigger"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(line), &env); err != nil || !env.OK {
			t.Errorf("watch line is not an envelope: %q (%v)", line, err)
			continue
		}
		if env.Data.Event == "resetting" && env.Data.Feature == feature && env.Data.Trigger == "context" {
			found = true
		}
	}
	if !found {
		t.Errorf("harness watch --once does not report %s resetting:\n%s", feature, out)
	}
}

// checkMeasurementAccuracy compares the context tokens the hook measured
// (hook.log) with the usage the mock reported. PostToolUse runs after the
// tool, when the answer that made the call is in the transcript: it must
// see exactly that answer's usage. PreToolUse may run before the client has
// written that answer (the transcript is written asynchronously): it sees
// that answer's or the previous one's.
func checkMeasurementAccuracy(t *testing.T, s *session) {
	t.Helper()
	turnTotal := map[int]int{}
	for _, r := range s.mock.Messages() {
		if r.Usage != nil && r.ReplyKind == "turn" {
			turnTotal[r.ReplyTurn] = r.Usage.Total()
		}
	}
	idx := map[string]int{}
	exact := map[string]int{}
	behind := map[string]int{} // the most answers a measurement lagged
	for _, rec := range hookLog(t, s.ws.Root) {
		ev, _ := rec["event"].(string)
		if ev != "PreToolUse" && ev != "PostToolUse" {
			continue
		}
		m, _ := rec["monitor"].(map[string]any)
		got, _ := m["context_tokens"].(float64)
		k := idx[ev]
		idx[ev]++
		// lag: how many answers back the measured figure is (0 exact; the
		// client writes the transcript asynchronously, so the answer of
		// turn k, and on a fast hook and an idle machine the one before it
		// too, may not be written yet when the hook reads). A figure that
		// is no earlier answer's total (ahead of the call, or invented)
		// fails.
		lag := -1
		for j := k; j >= 0; j-- {
			if int(got) == turnTotal[j] {
				lag = k - j
				break
			}
		}
		if lag < 0 && got == 0 {
			lag = k + 1 // nothing written yet
		}
		switch {
		case lag == 0:
			exact[ev]++
		case lag > 0:
			behind[ev] = max(behind[ev], lag)
		default:
			t.Errorf("%s #%d measured %v tokens, which is no answer's total up to the one that made the call (%d)", ev, k, got, turnTotal[k])
		}
	}
	if idx["PostToolUse"] == 0 || exact["PostToolUse"] == 0 {
		t.Errorf("PostToolUse saw the mock's exact usage %d of %d times", exact["PostToolUse"], idx["PostToolUse"])
	}
	t.Logf("measurement accuracy: PostToolUse exact %d/%d (at most %d answers behind); PreToolUse exact %d/%d (at most %d answers behind)",
		exact["PostToolUse"], idx["PostToolUse"], behind["PostToolUse"], exact["PreToolUse"], idx["PreToolUse"], behind["PreToolUse"])
}

// checkOneHookRunPerToolCall: with the "*" PreToolUse group next to the
// Bash and file-tool groups, Claude Code runs the identical handler once.
func checkOneHookRunPerToolCall(t *testing.T, s *session) {
	t.Helper()
	calls := 0
	for _, r := range s.mock.Messages() {
		if r.ReplyKind == "turn" {
			for _, b := range s.mockTurnTools(r.ReplyTurn) {
				_ = b
				calls++
			}
		}
	}
	runs := len(s.run.HookResponses("PreToolUse"))
	if runs != calls {
		t.Errorf("PreToolUse ran %d times for %d tool calls", runs, calls)
	}
}

// mockTurnTools returns the tool_use blocks of scripted turn k.
func (s *session) mockTurnTools(k int) []Block {
	var out []Block
	if k < len(s.script.Turns) {
		for _, b := range s.script.Turns[k] {
			if b["type"] == "tool_use" {
				out = append(out, b)
			}
		}
	}
	return out
}

// TestRealClaudeAutoCompactionPolicy: an automatic compaction in a
// Generator session follows the documented policy. At the threshold
// (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE) the hook blocks it: no compaction
// request reaches the mock, the session goes on with its context and is
// told to Reset. After a context-limit error (400 "prompt is too long") the
// hook lets the recovering compaction run: the summary request reaches the
// mock and the session continues.
func TestRealClaudeAutoCompactionPolicy(t *testing.T) {
	claude, bins := setup(t)
	t.Run("blocked_at_threshold", func(t *testing.T) {
		ws := newWorkspace(t, bins, true)
		usage := []int{20000, 60000, 130000, 131000, 132000}
		var turns [][]Block
		for i := 0; i < 4; i++ {
			turns = append(turns, []Block{ToolUse(fmt.Sprintf("toolu_c%d", i), "Bash", map[string]any{"command": fmt.Sprintf("echo c%d", i), "description": "c"})})
		}
		script := Script{Turns: turns, FinalText: "Done.", Usage: func(k int) Usage {
			return Usage{InputTokens: 100, CacheReadInputTokens: usage[min(k, len(usage)-1)] - 150, OutputTokens: 50}
		}}
		s := runSessionArgs(t, claude, ws, script, []string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50"}, []string{"--model", "claude-sonnet-4-6"})
		blocks := 0
		for _, rec := range hookLog(t, ws.Root) {
			if rec["event"] == "PreCompact" && rec["verdict"] == "block" && rec["rule"] == "reset.compaction-blocked" {
				blocks++
			}
		}
		if blocks == 0 {
			t.Fatalf("no PreCompact block in hook.log (PreCompact ran %d times)", len(s.run.HookResponses("PreCompact")))
		}
		for _, r := range s.mock.Messages() {
			if r.ReplyKind == "compact" {
				t.Errorf("a compaction request reached the mock (#%d) although PreCompact blocked", r.Seq)
			}
		}
		if first, _ := s.requestWith(resetInstruction); first == nil {
			t.Error("the Reset instruction did not reach the model after the blocked compaction")
		}
		if cs := contextState(t, ws.Root); cs.ResetTrigger == nil || cs.ResetTrigger.Kind != "context" {
			t.Errorf("no context trigger on record: %+v", cs)
		}
		if len(s.run.HookResponses("Stop")) == 0 {
			t.Error("the session did not reach Stop")
		}
	})
	t.Run("allowed_after_context_limit_error", func(t *testing.T) {
		ws := newWorkspace(t, bins, true)
		var turns [][]Block
		for i := 0; i < 5; i++ {
			turns = append(turns, []Block{ToolUse(fmt.Sprintf("toolu_e%d", i), "Bash", map[string]any{"command": fmt.Sprintf("echo e%d", i), "description": "e"})})
		}
		failed := false
		script := Script{Turns: turns, FinalText: "Done.",
			Usage: func(k int) Usage {
				return Usage{InputTokens: 100, CacheReadInputTokens: 10000 * (k + 1), OutputTokens: 50}
			},
			Error: func(k int) *APIError {
				if k == 3 && !failed {
					failed = true
					return &APIError{Status: 400, Type: "invalid_request_error", Message: "prompt is too long: 201234 tokens > 200000 maximum"}
				}
				return nil
			}}
		s := runSessionArgs(t, claude, ws, script, nil, []string{"--model", "claude-sonnet-4-6"})
		compacted := false
		for _, r := range s.mock.Messages() {
			if r.ReplyKind == "compact" {
				compacted = true
			}
		}
		if !compacted {
			t.Fatalf("the recovering compaction did not run (PreCompact: %v)", s.run.HookResponses("PreCompact"))
		}
		for _, rec := range hookLog(t, ws.Root) {
			if rec["event"] == "PreCompact" && rec["verdict"] != "allow" {
				t.Errorf("PreCompact record %v: a recovering compaction must be allowed", rec)
			}
		}
		if len(s.run.HookResponses("Stop")) == 0 {
			t.Error("the session did not go on to Stop after the compaction")
		}
		if cs := contextState(t, ws.Root); cs.ResetTrigger == nil {
			t.Errorf("an automatic compaction must record a context trigger: %+v", cs)
		}
		// after the compaction the model is told again, first thing
		if first, _ := s.requestWith(resetInstruction); first == nil {
			t.Error("the Reset instruction did not reach the model after the compaction")
		}
	})
}
