package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// denyReason returns the PreToolUse deny reason of stdout, or fails.
func denyReason(t *testing.T, stdout string) string {
	t.Helper()
	obj := checkContract(t, EventPreToolUse, stdout)
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	if hso == nil || hso["permissionDecision"] != "deny" {
		t.Fatalf("expected a deny, got %s", stdout)
	}
	reason, _ := hso["permissionDecisionReason"].(string)
	if strings.TrimSpace(reason) == "" {
		t.Fatalf("deny without a reason: %s", stdout)
	}
	return reason
}

// TestPreToolUseFailuresDenyWithCause: a PreToolUse guard that cannot decide
// denies, names the cause, exits 0 and stays contract-valid (built binary,
// registered with --event PreToolUse as init-feature writes it).
func TestPreToolUseFailuresDenyWithCause(t *testing.T) {
	bigCmd := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo ` + strings.Repeat("a", 10<<20) + `"},"cwd":"/tmp"}`
	cases := []struct {
		name  string
		stdin []byte
		cause string
	}{
		{"empty stdin", nil, "empty payload"},
		{"blank stdin", []byte(" \n\t\n"), "empty payload"},
		{"not JSON", []byte("rm -rf /\n"), "not a JSON object"},
		{"JSON array", []byte(`[{"hook_event_name":"PreToolUse"}]`), "not a JSON object"},
		{"truncated JSON", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /`), "not valid JSON"},
		{"trailing garbage", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}} rm -rf /`), "not valid JSON"},
		{"wrong field type", []byte(`{"hook_event_name":"PreToolUse","tool_name":7,"tool_input":{"command":"ls"}}`), "wrong type"},
		{"tool_input not an object", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}`), "tool_input is not a JSON object"},
		{"command not a string", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["rm","-rf","/"]}}`), "tool_input"},
		{"invalid UTF-8", []byte("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf \xff\xfe/\"}}"), "not valid UTF-8"},
		{"case-variant key", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /","Command":"ls"}}`), "letter case"},
		{"case-variant path key", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/r/schemas/x","File_Path":"/tmp/x","content":""}}`), "letter case"},
		{"case-variant key in edits", []byte(`{"hook_event_name":"PreToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/r/x","edits":[{"old_string":"a","new_string":"b","Old_String":"c"}]}}`), "letter case"},
		{"NUL in command", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x\u0000y"}}`), ruleCommandNUL},
		{"10 MB command", []byte(bigCmd), ruleCommandTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runBin(t, t.TempDir(), []string{"--event", "PreToolUse"}, nil, c.stdin)
			if res.code != 0 {
				t.Fatalf("exit %d", res.code)
			}
			reason := denyReason(t, res.stdout)
			if !strings.Contains(reason, c.cause) {
				t.Fatalf("deny reason does not name the cause %q: %s", c.cause, reason)
			}
		})
	}
}

// TestTruncatedPayloadWithoutEventFlag: with no --event, the event name is
// salvaged from the broken payload, so a PreToolUse still gets a deny.
func TestTruncatedPayloadWithoutEventFlag(t *testing.T) {
	res := runBin(t, t.TempDir(), nil, nil, []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf`))
	if res.code != 0 {
		t.Fatalf("exit %d", res.code)
	}
	denyReason(t, res.stdout)
}

// TestUnknownEventWithUnreadablePayloadBlocks: neither --event nor a
// readable payload: the legacy top-level block (a deny for PreToolUse).
func TestUnknownEventWithUnreadablePayloadBlocks(t *testing.T) {
	for _, stdin := range []string{"", "garbage", `{"session_id":"s"}`} {
		res := runBin(t, t.TempDir(), nil, nil, []byte(stdin))
		if res.code != 0 {
			t.Fatalf("exit %d", res.code)
		}
		obj := checkContract(t, "", res.stdout)
		if obj["decision"] != "block" || !strings.Contains(obj["reason"].(string), "--event") {
			t.Fatalf("stdin %q: %s", stdin, res.stdout)
		}
	}
}

// TestLargeWritePayloadIsJudged: a 10 MB Write content is a normal payload
// (only the path matters), judged by the path guard.
func TestLargeWritePayloadIsJudged(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	content := strings.Repeat("x", 10<<20)
	for _, c := range []struct {
		path  string
		block bool
	}{
		{filepath.Join(root, "src", "big.txt"), false},
		{filepath.Join(root, "schemas", "big.schema.json"), true},
	} {
		payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Write",
			"tool_input": map[string]any{"file_path": c.path, "content": content}, "cwd": root})
		res := runBin(t, root, []string{"--root", root, "--feature", "f001"}, nil, payload)
		obj := checkContract(t, EventPreToolUse, res.stdout)
		_, denied := obj["hookSpecificOutput"]
		if res.code != 0 || denied != c.block {
			t.Fatalf("%s: exit %d, stdout %s", c.path, res.code, res.stdout)
		}
	}
}

// TestOtherEventsDegradeToNoop: broken payloads for events that cannot
// block stay valid no-ops; Stop still runs its checks.
func TestOtherEventsDegradeToNoop(t *testing.T) {
	for _, ev := range []string{"UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SessionEnd",
		"Notification", "SubagentStart", "SubagentStop", "PermissionRequest", "SessionStart", "Stop", "SomeFutureEvent"} {
		for _, stdin := range []string{"", "{not json", `{"hook_event_name":"` + ev + `","session_id":"s"}`} {
			res := runBin(t, t.TempDir(), []string{"--event", ev}, nil, []byte(stdin))
			if res.code != 0 {
				t.Fatalf("%s %q: exit %d", ev, stdin, res.code)
			}
			obj := checkContract(t, ev, res.stdout)
			if obj["decision"] != nil || obj["hookSpecificOutput"] != nil {
				t.Fatalf("%s %q: expected a no-op, got %s", ev, stdin, res.stdout)
			}
		}
	}
}

// TestPanicInjection: a panic inside any handler is recovered; PreToolUse
// denies naming the panic, Stop allows with a systemMessage, other events
// answer a valid no-op; exit 0 every time, and the panic is logged.
func TestPanicInjection(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	boom := runner{inject: func(string) { panic("injected failure") }}
	events := []string{"PreToolUse", "Stop", "SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "SubagentStop",
		"SubagentStart", "PermissionRequest", "SessionEnd", "PreCompact", "Notification", "SomeFutureEvent"}
	for _, ev := range events {
		payload := `{"hook_event_name":"` + ev + `","session_id":"s","cwd":"` + filepath.ToSlash(root) + `","tool_name":"Bash","tool_input":{"command":"ls"}}`
		res := runIn(boom, []string{"--root", root, "--feature", "f001"}, nil, strings.NewReader(payload))
		if res.code != 0 {
			t.Fatalf("%s: exit %d", ev, res.code)
		}
		obj := checkContract(t, ev, res.stdout)
		switch ev {
		case "PreToolUse":
			if r := denyReason(t, res.stdout); !strings.Contains(r, "injected failure") || !strings.Contains(r, ruleInternalError) {
				t.Fatalf("deny reason lacks the cause: %s", r)
			}
		case "Stop":
			if obj["decision"] != nil || !strings.Contains(obj["systemMessage"].(string), "injected failure") {
				t.Fatalf("Stop after a panic: %s", res.stdout)
			}
		default:
			if obj["decision"] != nil || obj["hookSpecificOutput"] != nil {
				t.Fatalf("%s after a panic: %s", ev, res.stdout)
			}
		}
	}
	recs := hookLogRecords(t, root)
	if len(recs) != len(events) {
		t.Fatalf("want %d hook.log records, got %d", len(events), len(recs))
	}
	for _, r := range recs {
		if r.Rule != ruleInternalError || !strings.Contains(strings.Join(r.Errors, " "), "injected failure") {
			t.Fatalf("record does not carry the panic: %+v", r)
		}
	}
}

// errReader fails after returning some bytes.
type errReader struct{ n int }

func (e *errReader) Read(p []byte) (int, error) {
	if e.n > 0 {
		e.n = 0
		return copy(p, `{"hook_event_name":"PreToolUse"`), nil
	}
	return 0, errors.New("stdin broke")
}

// TestUnreadableStdin: a read error on stdin denies a PreToolUse with the cause.
func TestUnreadableStdin(t *testing.T) {
	res := runIn(runner{}, []string{"--event", "PreToolUse"}, nil, &errReader{n: 1})
	if res.code != 0 {
		t.Fatalf("exit %d", res.code)
	}
	if r := denyReason(t, res.stdout); !strings.Contains(r, "stdin broke") {
		t.Fatalf("reason lacks the cause: %s", r)
	}
}

// TestStdinReadFully: the hook reads stdin to EOF even when the payload is
// decided early (closing early would give the CLI an EPIPE).
func TestStdinReadFully(t *testing.T) {
	payload := `{"hook_event_name":"Notification","session_id":"s"}` + "\n" + strings.Repeat(" ", 1<<20)
	r := strings.NewReader(payload)
	res := runIn(runner{}, nil, nil, r)
	if res.code != 0 || r.Len() != 0 {
		t.Fatalf("exit %d, %d bytes left unread", res.code, r.Len())
	}
	checkContract(t, "Notification", res.stdout)
}

// TestBadFlagsDenyPreToolUse: unknown arguments are a broken installation;
// PreToolUse denies, other events keep working.
func TestBadFlagsDenyPreToolUse(t *testing.T) {
	res := runIn(runner{}, []string{"--evnt", "PreToolUse"}, nil, strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"}}`))
	if r := denyReason(t, res.stdout); !strings.Contains(r, "bad arguments") {
		t.Fatalf("reason: %s", r)
	}
	res = runIn(runner{}, []string{"--evnt", "x"}, nil, strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"hi"}`))
	if got := strings.TrimSpace(res.stdout); got != "{}" {
		t.Fatalf("UserPromptSubmit with bad flags: %s", got)
	}
}

// TestEventMismatchFollowsFlagAndIsLogged: --event wins over
// hook_event_name, and the mismatch is logged.
func TestEventMismatchFollowsFlagAndIsLogged(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	payload := `{"hook_event_name":"PostToolUse","session_id":"s","cwd":"` + filepath.ToSlash(root) + `","tool_name":"Write","tool_input":{"file_path":"` + filepath.ToSlash(filepath.Join(root, "schemas", "x.json")) + `","content":"{}"}}`
	res := runIn(runner{}, []string{"--event", "PreToolUse", "--root", root, "--feature", "f001"}, nil, strings.NewReader(payload))
	denyReason(t, res.stdout)
	recs := hookLogRecords(t, root)
	if len(recs) != 1 || !strings.Contains(strings.Join(recs[0].Errors, " "), "event mismatch") {
		t.Fatalf("mismatch not logged: %+v", recs)
	}
}

// TestHookLogFailureNeverChangesVerdict: an unwritable hook.log is reported
// on stderr and the decision stands.
func TestHookLogFailureNeverChangesVerdict(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	// A directory where hook.log should be makes every append fail.
	logPath := filepath.Join(root, ".harness", "logs", "hook.log")
	mustRemove(t, logPath)
	mustMkdir(t, logPath)
	payload := `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + filepath.ToSlash(root) + `","tool_name":"Edit","tool_input":{"file_path":"` + filepath.ToSlash(filepath.Join(root, "spec", "AGENTS.md")) + `","old_string":"a","new_string":"b"}}`
	res := runIn(runner{}, []string{"--root", root, "--feature", "f001"}, nil, strings.NewReader(payload))
	denyReason(t, res.stdout)
	if !strings.Contains(res.stderr, "cannot write") || !strings.Contains(res.stderr, `"verdict":"block"`) {
		t.Fatalf("stderr does not carry the lost record: %s", res.stderr)
	}
}

// TestOutputHasNoHTMLEscapes: <, > and & stay readable.
func TestOutputHasNoHTMLEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := writeOutput(&b, encodeStopBlock("a <b> & c")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "a <b> & c") {
		t.Fatalf("escaped: %s", b.String())
	}
}

var _ io.Reader = (*errReader)(nil)

// TestFailClosedReasonNamesTheLogCommand: the way forward of a fail-closed
// deny names `harness logs --rule RULE`, which finds the record in and out
// of a sprint, and the record is where that command reads outside a sprint
// (the user-level audit log), not in a .harness/logs/hook.log that does not
// exist there.
func TestFailClosedReasonNamesTheLogCommand(t *testing.T) {
	p := newPlainProject(t)
	res := runIn(runner{}, []string{"--event", "PreToolUse"}, p.env, strings.NewReader("{"))
	reason := denyReason(t, res.stdout)
	if !strings.Contains(reason, "harness logs --rule "+ruleInputInvalid) {
		t.Errorf("the reason does not say how to find the record: %s", reason)
	}
	if strings.Contains(reason, ".harness/logs/hook.log") {
		t.Errorf("outside a sprint the reason names the sprint's log: %s", reason)
	}
	log := filepath.Join(p.env["XDG_STATE_HOME"], "harness", "hook.log")
	data, err := os.ReadFile(log)
	if err != nil || !strings.Contains(string(data), ruleInputInvalid) {
		t.Fatalf("no %s record in the user-level audit log %s (%v): %s", ruleInputInvalid, log, err, data)
	}
}
