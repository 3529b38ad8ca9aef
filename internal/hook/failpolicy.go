package hook

import (
	"slices"

	"github.com/superagent-harness/harness/internal/ruleid"
)

// answer is what harness-hook gives Claude Code when it cannot decide a call
// normally. The words are the ones of the "answer" column of
// docs/hook-failure-policy.md.
type answer string

const (
	// answerDeny: PreToolUse permissionDecision "deny", the reason naming the
	// cause and the rule id.
	answerDeny answer = "deny"
	// answerBlock: Stop {"decision":"block","reason":…}.
	answerBlock answer = "block"
	// answerAllow: Stop allows, no message.
	answerAllow answer = "allow"
	// answerAllowMessage: the session may stop; a systemMessage tells the user why.
	answerAllowMessage answer = "allow+systemMessage"
	// answerSystemMessage: {"systemMessage": cause}, no decision, no context.
	answerSystemMessage answer = "systemMessage"
	// answerNoop: {} (the event's output is discarded or has nothing to decide).
	answerNoop answer = "{}"
	// answerLegacyBlock: {"decision":"block","reason":…}, which PreToolUse reads as deny.
	answerLegacyBlock answer = "legacy-block"
	// answerBuiltin: the built-in policy applies unchanged; the error is logged.
	answerBuiltin answer = "built-in-policy"
	// answerNoWait: the file is never opened blocking; the decision is made at once without it.
	answerNoWait answer = "no-wait"
	// answerChecksRun: the Stop checks run anyway (the workspace comes from the arguments).
	answerChecksRun answer = "checks-run"
	// answerCountZero: the loop bound counts 0 earlier blocks; the error is logged.
	answerCountZero answer = "counts-0"
	// answerLeftOut: that part of the SessionStart context is left out, with a note.
	answerLeftOut answer = "left-out"
	// answerUnchanged: the verdict stands; the lost hook.log record goes to stderr.
	answerUnchanged answer = "verdict-unchanged"
	// answerOnFailure: the hook never ran; the handler's "onFailure": "block"
	// decides (docs/hooks.md §2).
	answerOnFailure answer = "onFailure"
)

// Pseudo-events of the failure table: no event could be determined, an event
// name this version does not know, and every event.
const (
	eventNone    = ""
	eventUnknown = "unknown event names"
	eventAny     = "any"
)

// failureRow is one row of the hook's failure policy: for these events, when
// this happens, the hook answers so, naming this rule id ("" when the row
// has none).
type failureRow struct {
	events []string
	cause  string
	answer answer
	rule   string
	// generic marks the rows that answer a panic or internal error (and a
	// call whose event is unknown): failure() answers by them.
	generic bool
}

// failurePolicy is THE failure table of harness-hook (docs/protocol.md §14.4,
// docs/hook-failure-policy.md renders it; TestFailurePolicyDocMatchesCode
// keeps the two equal, and the tests of failure_test.go, stop_test.go,
// loop_test.go and fifo_unix_test.go prove the rows through the hook). A new
// way of failing is a new row here and in the document.
var failurePolicy = []failureRow{
	{events: []string{EventPreToolUse}, cause: "empty or unreadable stdin, not JSON, truncated JSON, a field of the wrong type, invalid UTF-8, tool_input not an object, case-variant duplicate keys, bad command-line arguments", answer: answerDeny, rule: ruleInputInvalid},
	{events: []string{EventPreToolUse}, cause: "NUL byte in the Bash command", answer: answerDeny, rule: ruleCommandNUL},
	{events: []string{EventPreToolUse}, cause: "Bash command larger than 1 MiB", answer: answerDeny, rule: ruleCommandTooLarge},
	{events: []string{EventPreToolUse}, cause: "Bash tool_input without command, or command null", answer: answerDeny, rule: ruleBadInput},
	{events: []string{EventPreToolUse}, cause: "file-tool tool_input without its path (the path guard cannot judge it)", answer: answerDeny, rule: ruleid.PathBadInput},
	{events: []string{EventPreToolUse}, cause: "panic or internal error in a guard", answer: answerDeny, rule: ruleInternalError, generic: true},
	{events: []string{EventPreToolUse}, cause: "the decision takes longer than 3 s", answer: answerDeny, rule: ruleTimedOut},
	{events: []string{EventPreToolUse}, cause: "--root or HARNESS_ROOT names a folder that does not exist or holds no .harness/", answer: answerDeny, rule: ruleRootMissing},
	{events: []string{EventPreToolUse}, cause: "invalid .harness/rules.yaml", answer: answerBuiltin},
	{events: []string{EventPreToolUse}, cause: "outside a sprint: invalid .claude/harness.yaml or ~/.claude/harness.yaml (the loader refuses it, or it has a reset: section)", answer: answerBuiltin},
	{events: []string{EventPreToolUse}, cause: ".harness/rules.yaml, .harness/allow.jsonl, .claude/harness.yaml, harness-allow.jsonl (project or user) or a git apply diff is a FIFO or another non-regular file", answer: answerNoWait},
	{events: []string{EventPreToolUse}, cause: "the hook cannot run at all: binary missing (exit 127), killed, timed out", answer: answerOnFailure},
	{events: []string{EventStop}, cause: "broken payload", answer: answerChecksRun},
	{events: []string{EventStop}, cause: "feature_list.json exists but is not a JSON object", answer: answerBlock, rule: ruleid.StopFeatureListParse},
	{events: []string{EventStop}, cause: "no feature, unknown feature, no feature_list.json, phase not an integer", answer: answerAllow, rule: ruleid.StopSkip},
	{events: []string{EventStop}, cause: "a record cannot be read (other than missing) or is not a regular file", answer: answerBlock, rule: ruleStopIOError},
	{events: []string{EventStop}, cause: "the checks do not finish within 8 s (a jammed workspace: a lock held by another process, a record that cannot be read in time)", answer: answerBlock, rule: ruleDeadline},
	{events: []string{EventStop}, cause: "the loop count is neither in claude_code_context_state.json nor readable at the end of hook.log", answer: answerCountZero},
	{events: []string{EventStop}, cause: "7 blocks in a row for one session_id", answer: answerAllowMessage, rule: ruleStopLoopBound},
	{events: []string{EventStop, EventSubagentStop}, cause: "panic or internal error", answer: answerAllowMessage, rule: ruleInternalError, generic: true},
	{events: []string{EventSessionStart, EventUserPromptSubmit, EventPostToolUse, EventPostToolUseFailure, EventSubagentStart, EventPermissionRequest}, cause: "panic or internal error", answer: answerSystemMessage, rule: ruleInternalError, generic: true},
	{events: []string{EventSessionStart}, cause: "a context file is missing, not a regular file, or unreadable", answer: answerLeftOut},
	{events: []string{EventSessionStart}, cause: "the answer does not finish within 8 s", answer: answerSystemMessage, rule: ruleDeadline},
	{events: []string{EventSessionEnd, EventPreCompact, EventNotification, eventUnknown}, cause: "anything", answer: answerNoop, generic: true},
	{events: []string{eventNone}, cause: "no --event and no readable hook_event_name", answer: answerLegacyBlock, rule: ruleInputInvalid, generic: true},
	{events: []string{eventAny}, cause: "hook.log cannot be written or is not a regular file", answer: answerUnchanged},
	{events: []string{EventSessionStart, EventUserPromptSubmit, EventPreToolUse, EventPostToolUse, EventPreCompact, EventStop},
		cause: "a Generator session's transcript, claude_code_context_state.json or the reset: section of rules.yaml cannot be read or written", answer: answerUnchanged},
}

// knownEvents are the event names the hook answers by name; any other
// non-empty name is eventUnknown in the failure table.
var knownEvents = []string{EventSessionStart, EventUserPromptSubmit, EventPreToolUse, EventPermissionRequest,
	EventPostToolUse, EventPostToolUseFailure, EventStop, EventSubagentStop, EventSubagentStart, EventPreCompact,
	EventSessionEnd, EventNotification}

// failureAnswer is the answer of the generic row for event: what the hook
// gives when it cannot decide a call of that event (a panic, an internal
// error, an unreadable call of unknown event).
func failureAnswer(event string) answer {
	key := event
	if event != eventNone && !slices.Contains(knownEvents, event) {
		key = eventUnknown
	}
	for _, r := range failurePolicy {
		if r.generic && slices.Contains(r.events, key) {
			return r.answer
		}
	}
	return answerNoop
}
