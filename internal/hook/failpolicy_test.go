package hook

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// docRow is one row of the table in docs/hook-failure-policy.md.
type docRow struct {
	events []string
	answer answer
	rule   string
	line   int
}

// docFailureTable parses the table whose header starts
// "| event | cause | answer | rule id |" in docs/hook-failure-policy.md.
func docFailureTable(t *testing.T) []docRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "hook-failure-policy.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []docRow
	in := false
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "| event | cause | answer | rule id |") {
			if in || rows != nil {
				t.Fatalf("line %d: a second failure table; the document must hold one", i+1)
			}
			in = true
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		if strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 4 {
			t.Fatalf("line %d: %d cells, want event | cause | answer | rule id | details", i+1, len(cells))
		}
		r := docRow{line: i + 1}
		for _, ev := range strings.Split(cells[0], ",") {
			ev = strings.TrimSpace(ev)
			if ev == "none known" {
				ev = eventNone
			}
			r.events = append(r.events, ev)
		}
		r.answer = answer(strings.Trim(strings.TrimSpace(cells[2]), "`"))
		if rule := strings.TrimSpace(cells[3]); rule != "—" {
			r.rule = strings.Trim(rule, "`")
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatal("docs/hook-failure-policy.md has no failure table")
	}
	return rows
}

// TestFailurePolicyDocMatchesCode: docs/hook-failure-policy.md and
// failurePolicy hold the same rows (events, answer, rule id), in the same
// order, so the documented policy is the one the hook runs.
func TestFailurePolicyDocMatchesCode(t *testing.T) {
	doc := docFailureTable(t)
	key := func(events []string, a answer, rule string) string {
		names := slices.Clone(events)
		for i, ev := range names {
			if ev == eventNone {
				names[i] = "none known"
			}
		}
		return strings.Join(names, ", ") + " → " + string(a) + " [" + rule + "]"
	}
	n := max(len(doc), len(failurePolicy))
	for i := range n {
		var d, c string
		if i < len(doc) {
			d = key(doc[i].events, doc[i].answer, doc[i].rule)
		}
		if i < len(failurePolicy) {
			c = key(failurePolicy[i].events, failurePolicy[i].answer, failurePolicy[i].rule)
		}
		if d != c {
			t.Errorf("failure table row %d differs:\n docs/hook-failure-policy.md: %s\n internal/hook/failpolicy.go: %s", i+1, d, c)
		}
	}
	known := []answer{answerDeny, answerBlock, answerAllow, answerAllowMessage, answerSystemMessage, answerNoop,
		answerLegacyBlock, answerBuiltin, answerNoWait, answerChecksRun, answerCountZero, answerLeftOut, answerUnchanged, answerOnFailure}
	for _, r := range doc {
		if !slices.Contains(known, r.answer) {
			t.Errorf("docs/hook-failure-policy.md:%d: unknown answer %q", r.line, r.answer)
		}
	}
}

// classify names the answer kind of one hook stdout.
func classify(t *testing.T, event, stdout string) answer {
	t.Helper()
	obj := checkContract(t, event, stdout)
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	msg, _ := obj["systemMessage"].(string)
	switch {
	case hso != nil && hso["permissionDecision"] == "deny":
		return answerDeny
	case obj["decision"] == "block" && event == EventStop:
		return answerBlock
	case obj["decision"] == "block":
		return answerLegacyBlock
	case len(obj) == 1 && msg != "" && (event == EventStop || event == EventSubagentStop):
		return answerAllowMessage
	case len(obj) == 1 && msg != "":
		return answerSystemMessage
	case len(obj) == 0:
		return answerNoop
	}
	t.Fatalf("%s: unclassified answer %s", event, stdout)
	return ""
}

// TestFailurePolicyGenericRows: a panic in the handler of every event of a
// generic row (and of an event name this version does not know) gets
// exactly the row's answer; a call whose event cannot be determined gets
// the "none known" row's.
func TestFailurePolicyGenericRows(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	boom := runner{inject: func(string) { panic("injected failure") }}
	seen := 0
	for _, row := range failurePolicy {
		if !row.generic {
			continue
		}
		for _, ev := range row.events {
			switch ev {
			case eventNone:
				res := runIn(runner{}, nil, nil, strings.NewReader("{not json"))
				if got := classify(t, EventPreToolUse, res.stdout); got != row.answer {
					t.Errorf("no event: answer %s, the table says %s", got, row.answer)
				}
			default:
				name := ev
				if ev == eventUnknown {
					name = "SomeFutureEvent"
				}
				payload := `{"hook_event_name":"` + name + `","session_id":"s","cwd":"` + filepath.ToSlash(root) + `","tool_name":"Bash","tool_input":{"command":"ls"}}`
				res := runIn(boom, []string{"--root", root, "--feature", "f001"}, nil, strings.NewReader(payload))
				if res.code != 0 {
					t.Fatalf("%s: exit %d", name, res.code)
				}
				if got := classify(t, name, res.stdout); got != row.answer {
					t.Errorf("%s after a panic: answer %s (%s), the table says %s", name, got, strings.TrimSpace(res.stdout), row.answer)
				}
				if row.answer != answerNoop && !strings.Contains(res.stdout, row.rule) {
					t.Errorf("%s after a panic: the answer does not name %s: %s", name, row.rule, res.stdout)
				}
			}
			seen++
		}
	}
	if seen < len(knownEvents)-2 {
		t.Fatalf("generic rows cover only %d events", seen)
	}
	// every event the hook knows has a generic row
	for _, ev := range knownEvents {
		found := false
		for _, row := range failurePolicy {
			found = found || (row.generic && slices.Contains(row.events, ev))
		}
		if !found {
			t.Errorf("event %s has no generic row in failurePolicy", ev)
		}
	}
}

// TestFailurePolicyPreToolUseDenials: every PreToolUse row that denies with
// a rule id is triggered through the hook and answers a deny naming that
// rule id. The decision-deadline row is proven by TestDecisionTimeBudget
// (a real 3 s wait would make a timed test).
func TestFailurePolicyPreToolUseDenials(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	r := filepath.ToSlash(root)
	ws := []string{"--event", "PreToolUse", "--root", root, "--feature", "f001"}
	big := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo ` + strings.Repeat("a", 1<<20) + `"},"cwd":"` + r + `"}`
	triggers := map[string]struct {
		run     runner
		args    []string
		payload string
	}{
		ruleInputInvalid:    {runner{}, []string{"--event", "PreToolUse"}, "rm -rf /\n"},
		ruleCommandNUL:      {runner{}, ws, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x\u0000y"},"cwd":"` + r + `"}`},
		ruleCommandTooLarge: {runner{}, ws, big},
		ruleBadInput:        {runner{}, ws, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"description":"x"},"cwd":"` + r + `"}`},
		"path.bad-input":    {runner{}, ws, `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"x"},"cwd":"` + r + `"}`},
		ruleInternalError:   {runner{inject: func(string) { panic("injected failure") }}, ws, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"` + r + `"}`},
		ruleRootMissing:     {runner{}, []string{"--event", "PreToolUse", "--root", filepath.Join(root, "nowhere"), "--feature", "f001"}, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"` + r + `"}`},
	}
	for _, row := range failurePolicy {
		if row.answer != answerDeny || !slices.Contains(row.events, EventPreToolUse) || row.rule == ruleTimedOut {
			continue
		}
		tr, ok := triggers[row.rule]
		if !ok {
			t.Errorf("row %q (%s) has no trigger in this test", row.cause, row.rule)
			continue
		}
		res := runIn(tr.run, tr.args, nil, strings.NewReader(tr.payload))
		if res.code != 0 {
			t.Fatalf("%s: exit %d", row.rule, res.code)
		}
		if reason := denyReason(t, res.stdout); !strings.Contains(reason, row.rule) {
			t.Errorf("%s: the deny does not name its rule: %s", row.rule, reason)
		}
	}
}
