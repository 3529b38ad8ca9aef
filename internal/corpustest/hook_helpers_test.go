package corpustest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/hook"
)

// hookAnswer is one PreToolUse answer of harness-hook classified the way
// testdata/corpus/README.md §5 scores it.
type hookAnswer struct {
	// Outcome is "block", "warn" or "allow"; "invalid" when the answer
	// breaks the contract of testdata/corpus/README.md §1 (permissionDecision "allow"/"ask",
	// another exit code, unparseable stdout), which fails any case.
	Outcome string
	// Rule is the rule id the reason names ("[rm_rf.flags]"), "" when none.
	Rule string
	// Text is the permissionDecisionReason or additionalContext.
	Text string
	// Problem says why Outcome is "invalid".
	Problem string
}

// ruleInReason finds the "[rule.id]" that hook.explain puts in every reason.
var ruleInReason = regexp.MustCompile(`\[([A-Za-z0-9_.:-]+)\]`)

// runHook feeds payload to harness-hook in process (hook.Run, the function
// cmd/harness-hook's main calls, with env as its whole environment) and
// classifies the answer: exit 2 or permissionDecision "deny" → block;
// additionalContext without a permissionDecision → warn; anything else at
// exit 0 → allow. Every corpus test decides through here, so the shared
// corpus and the red-team sets are judged by the hook's own decision path.
func runHook(t testing.TB, env map[string]string, payload any) hookAnswer {
	t.Helper()
	in, err := json.Marshal(payload)
	if err != nil {
		t.Fatalf("payload: %v", err)
	}
	var stdout, stderr bytes.Buffer
	code := hook.Run(nil, bytes.NewReader(in), &stdout, &stderr, env)
	if code == 2 {
		return hookAnswer{Outcome: "block", Text: strings.TrimSpace(stderr.String())}
	}
	if code != 0 {
		return hookAnswer{Outcome: "invalid", Problem: fmt.Sprintf("exit code %d; stderr %q", code, stderr.String())}
	}
	out := bytes.TrimSpace(stdout.Bytes())
	if len(out) == 0 {
		return hookAnswer{Outcome: "allow"}
	}
	var obj struct {
		HookSpecificOutput *struct {
			PermissionDecision       *string `json:"permissionDecision"`
			PermissionDecisionReason string  `json:"permissionDecisionReason"`
			AdditionalContext        string  `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &obj); err != nil {
		return hookAnswer{Outcome: "invalid", Problem: fmt.Sprintf("stdout is not one JSON object (%v): %q", err, out)}
	}
	h := obj.HookSpecificOutput
	a := hookAnswer{Outcome: "allow"}
	switch {
	case h == nil:
	case h.PermissionDecision != nil:
		if *h.PermissionDecision != "deny" {
			return hookAnswer{Outcome: "invalid", Problem: fmt.Sprintf("permissionDecision %q (the hook never allows or asks)", *h.PermissionDecision)}
		}
		a = hookAnswer{Outcome: "block", Text: h.PermissionDecisionReason}
	case h.AdditionalContext != "":
		a = hookAnswer{Outcome: "warn", Text: h.AdditionalContext}
	}
	if m := ruleInReason.FindStringSubmatch(a.Text); m != nil {
		a.Rule = m[1]
	}
	return a
}

// bashPayload is the PreToolUse Bash payload of testdata/corpus/README.md §5.
func bashPayload(cmd, cwd string) map[string]any {
	return map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": cmd}, "cwd": cwd}
}

// toolPayload is the PreToolUse payload of one path case (testdata/corpus/README.md §5 step 4).
func toolPayload(tool string, toolInput json.RawMessage, cwd string) map[string]any {
	return map[string]any{"hook_event_name": "PreToolUse", "tool_name": tool,
		"tool_input": toolInput, "cwd": cwd}
}
