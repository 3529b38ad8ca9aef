package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// gapsRoot is a copy of the valid-midway sprint fixture.
func gapsRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "sprint")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	return root
}

// preToolUse runs one PreToolUse call the way the tester did:
// --root R --feature f002, payload cwd = R, no HARNESS_ROOT in the env.
func preToolUse(t *testing.T, r runner, root, cwd, tool string, toolInput any, env map[string]string) (decision, reason string) {
	t.Helper()
	p := map[string]any{"session_id": "s", "transcript_path": "/tmp/t", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": tool}
	if toolInput != nil {
		p["tool_input"] = toolInput
	}
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	res := runIn(r, []string{"--event", "PreToolUse", "--root", root, "--feature", "f002", "--sprint", "S"}, env, strings.NewReader(string(raw)))
	out := checkContract(t, "PreToolUse", res.stdout)
	hso, _ := out["hookSpecificOutput"].(map[string]any)
	if hso == nil {
		return "allow", ""
	}
	d, _ := hso["permissionDecision"].(string)
	why, _ := hso["permissionDecisionReason"].(string)
	return d, why
}

// TestBashToolInputWithoutCommand: a Bash call with no tool_input, no
// command or "command": null is denied with the cause (hook.bad-input),
// like "command": 42; "" and blank stay allowed (nothing runs).
func TestBashToolInputWithoutCommand(t *testing.T) {
	root := gapsRoot(t)
	for _, tc := range []struct {
		name  string
		input any
		want  string
	}{
		{"no tool_input", nil, "deny"},
		{"empty object", map[string]any{}, "deny"},
		{"null command", map[string]any{"command": nil}, "deny"},
		{"number command", map[string]any{"command": 42}, "deny"},
		{"empty command", map[string]any{"command": ""}, "allow"},
		{"blank command", map[string]any{"command": "  \n"}, "allow"},
		{"plain command", map[string]any{"command": "ls"}, "allow"},
	} {
		d, why := preToolUse(t, runner{}, root, root, "Bash", tc.input, nil)
		if d != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, d, why, tc.want)
		}
		if d == "deny" && tc.name != "number command" && !strings.Contains(why, ruleBadInput) {
			t.Errorf("%s: reason %q does not name %s", tc.name, why, ruleBadInput)
		}
	}
}

// TestSprintRootMissing: --root naming a folder that does not exist or
// holds no .harness/ denies guarded tools (the workspace rules cannot be
// judged) with the cause and the fix; other tools are not affected.
func TestSprintRootMissing(t *testing.T) {
	empty := t.TempDir()
	for _, root := range []string{filepath.Join(empty, "nope"), empty} {
		for _, tc := range []struct {
			tool  string
			input any
		}{
			{"Bash", map[string]any{"command": "echo hi > notes.txt"}},
			{"Write", map[string]any{"file_path": filepath.Join(root, "x.txt"), "content": "x"}},
			{"Edit", map[string]any{"file_path": filepath.Join(root, "x.txt"), "old_string": "a", "new_string": "b"}},
			{"MultiEdit", map[string]any{"file_path": filepath.Join(root, "x.txt"), "edits": []any{}}},
			{"NotebookEdit", map[string]any{"notebook_path": filepath.Join(root, "x.ipynb"), "new_source": "x"}},
		} {
			d, why := preToolUse(t, runner{}, root, empty, tc.tool, tc.input, nil)
			if d != "deny" || !strings.Contains(why, ruleRootMissing) || !strings.Contains(why, "init-feature") {
				t.Errorf("%s with --root %s: %s %q", tc.tool, root, d, why)
			}
		}
		if d, why := preToolUse(t, runner{}, root, empty, "Bash", map[string]any{"command": " "}, nil); d != "allow" {
			t.Errorf("blank Bash command with --root %s: %s %q", root, d, why)
		}
		if d, why := preToolUse(t, runner{}, root, empty, "Read", map[string]any{"file_path": "x"}, nil); d != "allow" {
			t.Errorf("Read with --root %s: %s %q", root, d, why)
		}
	}
	// a real root is judged as usual
	root := gapsRoot(t)
	if d, why := preToolUse(t, runner{}, root, root, "Bash", map[string]any{"command": "echo hi > notes.txt"}, nil); d != "allow" {
		t.Errorf("real root: %s %q", d, why)
	}
}

// TestHarnessRootFromResolvedRoot: $HARNESS_ROOT in a command means the
// root the hook resolved (--root here, with no HARNESS_ROOT in the env), for
// cd as well as for targets; ~ and $HOME come from the hook's env HOME.
func TestHarnessRootFromResolvedRoot(t *testing.T) {
	root := gapsRoot(t)
	home := filepath.Join(filepath.Dir(root), "home")
	mustMkdir(t, home)
	env := map[string]string{"HOME": home}
	for _, tc := range []struct{ cmd, want string }{
		{`cd "$HARNESS_ROOT/.harness" && rm -r features`, "deny"},
		{`cd $HARNESS_ROOT && : > .harness/eval_log.jsonl`, "deny"},
		{`echo > ~/../sprint/.harness/feature_list.json`, "deny"},
		{`cd ~/../sprint/.harness && echo > feature_list.json`, "deny"},
		{`echo > $HOME/../sprint/.harness/feature_list.json`, "deny"},
		{`cp /tmp/x ~root/../sprint/schemas/x`, "deny"},
		{`cd "$HARNESS_ROOT" && echo hi > notes.txt`, "allow"},
		{`cd ~ && echo hi > notes.txt`, "allow"},
	} {
		if d, why := preToolUse(t, runner{}, root, root, "Bash", map[string]any{"command": tc.cmd}, env); d != tc.want {
			t.Errorf("%s: %s %q, want %s", tc.cmd, d, why, tc.want)
		}
	}
}

// TestDecisionTimeBudget: a PreToolUse decision that runs past the
// wall-clock budget is denied at once with shell.too-complex ("decision
// timed out"), well before Claude Code's handler timeout (which fails open).
func TestDecisionTimeBudget(t *testing.T) {
	root := gapsRoot(t)
	r := runner{now: time.Now, stderr: os.Stderr, decideBudget: 50 * time.Millisecond}
	c := &call{event: EventPreToolUse, env: map[string]string{}, scope: scope{Root: root, HasState: true}}
	c.in.ToolName = "Bash"
	release := make(chan struct{})
	defer close(release)
	out := r.timedPreToolUse(c, func(*call) Output { <-release; return Output{} })
	if out.HookSpecificOutput == nil || out.HookSpecificOutput.PermissionDecision != "deny" ||
		!strings.Contains(out.HookSpecificOutput.PermissionDecisionReason, "timed out") || c.rec.Rule != ruleTimedOut {
		t.Fatalf("slow decision: %+v (rule %s)", out.HookSpecificOutput, c.rec.Rule)
	}
	// a decision within the budget is returned as is, with its record
	c2 := &call{event: EventPreToolUse, env: map[string]string{}}
	out = r.timedPreToolUse(c2, func(cc *call) Output { cc.rec.Reason = "fast"; return Output{} })
	if out.HookSpecificOutput != nil || c2.rec.Reason != "fast" {
		t.Fatalf("fast decision: %+v %+v", out, c2.rec)
	}
	// a panic in the decision denies (fail-closed)
	c3 := &call{event: EventPreToolUse, env: map[string]string{}}
	out = r.timedPreToolUse(c3, func(*call) Output { panic("boom") })
	if out.HookSpecificOutput == nil || out.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("panicking decision: %+v", out)
	}
	// the expansion bomb of the report is decided (denied) in the hook
	bomb := "x=" + strings.Repeat("a", 100000) + "; echo ${x//a/$x}; rm -rf /"
	if d, why := preToolUse(t, runner{}, root, root, "Bash", map[string]any{"command": bomb}, nil); d != "deny" {
		t.Fatalf("expansion bomb: %s %q", d, why)
	}
}

// TestStopAnswersWithinBudget: a Stop whose checks do not finish within the
// event budget (a jammed workspace) blocks at the deadline with
// hook.deadline and the cause, instead of running into Claude Code's
// handler timeout, which lets the session stop unchecked.
func TestStopAnswersWithinBudget(t *testing.T) {
	root := gapsRoot(t)
	r := runner{now: time.Now, stderr: os.Stderr, eventBudget: 50 * time.Millisecond}
	c := &call{event: EventStop, env: map[string]string{}, scope: scope{Root: root, HasState: true, Feature: "f001"}}
	release := make(chan struct{})
	defer close(release)
	// the handler never returns before the test ends, so any answer is the
	// budget's; the deadline only turns a hang into a failure
	answered := make(chan Output, 1)
	go func() {
		answered <- r.timed(c, r.budget(), func(*call) Output { <-release; return Output{} }, r.stopLate)
	}()
	var out Output
	select {
	case out = <-answered:
	case <-time.After(30 * time.Second):
		t.Fatal("no answer 30 s after the 50 ms budget: the Stop waited for its jammed checks")
	}
	if out.Decision != "block" || !strings.Contains(out.Reason, "hook.deadline") || !strings.Contains(out.Reason, "jammed") || c.rec.Rule != ruleDeadline {
		t.Fatalf("jammed Stop: %+v (rule %s)", out, c.rec.Rule)
	}
}
