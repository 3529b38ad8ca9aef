package hook

import (
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/verdict"
)

// Output is the one JSON object the hook prints on stdout: the subset of
// SyncHookJSONOutput (docs/hooks.md §4) that harness-hook uses. Every
// value it produces is valid against testdata/contract/hook-output.schema.json
// #/$defs/forEvent.<Event> for the event it answers. The zero value prints
// as {} (no decision: the normal flow continues).
type Output struct {
	// Decision is "block" (Stop) or empty. Never "approve".
	Decision string `json:"decision,omitempty"`
	// Reason goes with Decision "block"; Claude reads it as its next instruction.
	Reason string `json:"reason,omitempty"`
	// SystemMessage is shown to the user (Stop forced allow, hook errors).
	SystemMessage string `json:"systemMessage,omitempty"`
	// HookSpecificOutput carries the event-specific fields; nil when unused.
	HookSpecificOutput *HookSpecificOutput `json:"hookSpecificOutput,omitempty"`
}

// HookSpecificOutput is the event-specific part of Output. HookEventName
// must equal the event answered (docs/hooks.md §4, §9 pitfall 8).
type HookSpecificOutput struct {
	HookEventName string `json:"hookEventName"`
	// PermissionDecision is "deny" or empty (PreToolUse only). harness-hook
	// never emits "allow" (it would skip the user's permission prompt) nor "ask".
	PermissionDecision string `json:"permissionDecision,omitempty"`
	// PermissionDecisionReason is what was blocked, the rule id and the way forward.
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	// AdditionalContext is SessionStart context or a PreToolUse warning.
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// Hook event names (docs/hooks.md §5).
const (
	EventSessionStart       = "SessionStart"
	EventUserPromptSubmit   = "UserPromptSubmit"
	EventPreToolUse         = "PreToolUse"
	EventPermissionRequest  = "PermissionRequest"
	EventPostToolUse        = "PostToolUse"
	EventPostToolUseFailure = "PostToolUseFailure"
	EventStop               = "Stop"
	EventSubagentStop       = "SubagentStop"
	EventSubagentStart      = "SubagentStart"
	EventPreCompact         = "PreCompact"
	EventSessionEnd         = "SessionEnd"
	EventNotification       = "Notification"
)

// encodePreToolUse turns a guard decision into the PreToolUse answer:
// Block → permissionDecision "deny" with reason; Warn → additionalContext and
// no permissionDecision (the normal permission flow runs); Allow → {}.
func encodePreToolUse(d verdict.Decision, reason string) Output {
	switch d.Action {
	case verdict.Block:
		return Output{HookSpecificOutput: &HookSpecificOutput{
			HookEventName:            EventPreToolUse,
			PermissionDecision:       "deny",
			PermissionDecisionReason: reason,
		}}
	case verdict.Warn:
		return Output{HookSpecificOutput: &HookSpecificOutput{
			HookEventName:     EventPreToolUse,
			AdditionalContext: reason,
		}}
	default:
		return Output{}
	}
}

// encodeStopBlock is the Stop (or SubagentStop) block: top-level decision +
// reason. Stop never uses additionalContext (testdata/sprints/README.md §7).
func encodeStopBlock(reason string) Output {
	return Output{Decision: "block", Reason: reason}
}

// encodeSessionStart injects ctx as SessionStart additionalContext; an empty
// ctx gives {}.
func encodeSessionStart(ctx string) Output {
	if ctx == "" {
		return Output{}
	}
	return Output{HookSpecificOutput: &HookSpecificOutput{HookEventName: EventSessionStart, AdditionalContext: ctx}}
}

// writeOutput prints o as one compact JSON object plus '\n', HTML escaping
// off (docs/hooks.md §9 pitfall 12), in one write.
func writeOutput(w io.Writer, o Output) error {
	_, err := w.Write(o.appendJSONLine(make([]byte, 0, 256)))
	return err
}

// explain builds the text of a deny or warning: what was blocked, the rule
// id, why, and the legitimate way forward.
func explain(what string, d verdict.Decision) string {
	var b strings.Builder
	b.WriteString("harness-hook ")
	if d.Action == verdict.Warn {
		b.WriteString("warning for ")
	} else {
		b.WriteString("blocked ")
	}
	b.WriteString(what)
	if d.Rule != "" {
		b.WriteString(" [")
		b.WriteString(d.Rule)
		b.WriteString("]")
	}
	msg := strings.TrimSpace(d.Message)
	if msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	if d.Subject != "" && !strings.Contains(msg, d.Subject) {
		b.WriteString(" (")
		b.WriteString(d.Subject)
		b.WriteString(")")
	}
	if !strings.HasSuffix(b.String(), ".") {
		b.WriteString(".")
	}
	if h := strings.TrimSpace(d.Hint); h != "" {
		b.WriteString(" Way forward: ")
		b.WriteString(h)
		if !strings.HasSuffix(h, ".") {
			b.WriteString(".")
		}
	}
	return b.String()
}
