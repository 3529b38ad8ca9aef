package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/superagent-harness/harness/internal/lazy"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Input is the stdin payload of one hook call (docs/hooks.md §3 and
// §5, BaseHookInput plus the event fields the hook reads). It is decoded
// leniently: unknown fields are ignored, every field may be missing, and
// tool_input stays raw JSON to be decoded per tool_name (§9 pitfall 7).
type Input struct {
	// SessionID is the Claude Code session id (always sent).
	SessionID string `json:"session_id"`
	// TranscriptPath is the JSONL transcript; the hook reads its end for the
	// latest assistant message's usage (internal/monitor).
	TranscriptPath string `json:"transcript_path"`
	// Cwd is Claude's working directory when the hook fired; relative Bash
	// paths are resolved against it and workspace discovery starts there.
	Cwd string `json:"cwd"`
	// HookEventName names the event ("PreToolUse", "Stop", …).
	HookEventName string `json:"hook_event_name"`
	// PermissionMode is default/acceptEdits/bypassPermissions/plan/dontAsk/auto; optional.
	PermissionMode string `json:"permission_mode"`
	// AgentID is set only inside a subagent.
	AgentID string `json:"agent_id"`
	// AgentType is the subagent type or the --agent name.
	AgentType string `json:"agent_type"`
	// ToolName is the tool of PreToolUse/PostToolUse/PermissionRequest ("Bash", "Edit", "mcp__s__t", …).
	ToolName string `json:"tool_name"`
	// ToolInput is the tool's input object, raw (docs/hooks.md §6).
	ToolInput json.RawMessage `json:"tool_input"`
	// ToolUseID identifies the tool call (PreToolUse, PostToolUse).
	ToolUseID string `json:"tool_use_id"`
	// StopHookActive is true when Claude already continues because of a Stop block.
	StopHookActive bool `json:"stop_hook_active"`
	// Source is the SessionStart matcher value: startup, resume, clear, compact, fork.
	Source string `json:"source"`
	// Trigger is the PreCompact matcher value: manual or auto.
	Trigger string `json:"trigger"`
}

// maxPayloadBytes is the most stdin the hook keeps in memory (64 MiB). The
// rest is still read (never close stdin early, docs/hooks.md §1) and
// discarded, and the payload counts as unreadable.
const maxPayloadBytes = 64 << 20

// errPayloadTooLarge reports a payload above maxPayloadBytes. (Not
// fmt.Errorf: formatting at package init costs every hook process ~20 µs.)
var errPayloadTooLarge = errors.New("payload larger than " + strconv.Itoa(maxPayloadBytes) + " bytes")

// readPayload reads stdin to EOF. It returns at most maxPayloadBytes and
// drains the rest so the writer never sees EPIPE.
func readPayload(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no stdin")
	}
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, maxPayloadBytes+1))
	if err != nil {
		return buf.Bytes(), fmt.Errorf("read stdin: %w", err)
	}
	if n > maxPayloadBytes {
		_, _ = io.Copy(io.Discard, r)
		return buf.Bytes()[:maxPayloadBytes], errPayloadTooLarge
	}
	return buf.Bytes(), nil
}

// decodeInput decodes one payload. Every error is returned (empty input,
// invalid JSON, a field of the wrong type, bytes that are not UTF-8) together
// with whatever could be decoded; callers decide per event whether the error
// matters (failure policy, package doc).
func decodeInput(raw []byte) (Input, error) {
	var in Input
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return in, errors.New("empty payload on stdin")
	}
	if !utf8.Valid(raw) {
		// encoding/json would silently turn the bad bytes into U+FFFD, so the
		// guard would judge a different text from the one Bash runs.
		_ = json.Unmarshal(trimmed, &in) // best effort: event name, session id
		return in, errors.New("payload is not valid UTF-8")
	}
	if trimmed[0] != '{' {
		return in, errors.New("payload is not a JSON object")
	}
	if decodeInputFast(trimmed, &in) {
		return in, nil
	}
	in = Input{}
	if err := json.Unmarshal(trimmed, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return in, fmt.Errorf("payload field %q has the wrong type (%s, want %s)", te.Field, te.Value, te.Type)
		}
		return in, fmt.Errorf("payload is not valid JSON: %w", err)
	}
	return in, nil
}

// decodeInputFast decodes a payload into in without reflection (the
// reflection decoder's field cache costs every hook process ~100 k
// instructions, docs/performance.md) and reports false — in then half
// filled, to be redone by encoding/json — whenever encoding/json could
// differ or fail: a payload workspace.SplitObject does not take, a member
// whose name equals a field's name only in letter case (encoding/json
// matches those too), a value of the wrong type (encoding/json words the
// error). Members are applied in order, as encoding/json does, so a
// repeated name's last value wins; null leaves a field as it is.
// TestDecodeInputFastAgreesWithEncodingJSON and FuzzDecodeInputFast compare
// the two.
func decodeInputFast(payload []byte, in *Input) bool {
	ms, ok := workspace.SplitObject(payload)
	if !ok {
		return false
	}
	for _, m := range ms {
		var dst *string
		switch m.Name {
		case "session_id":
			dst = &in.SessionID
		case "transcript_path":
			dst = &in.TranscriptPath
		case "cwd":
			dst = &in.Cwd
		case "hook_event_name":
			dst = &in.HookEventName
		case "permission_mode":
			dst = &in.PermissionMode
		case "agent_id":
			dst = &in.AgentID
		case "agent_type":
			dst = &in.AgentType
		case "tool_name":
			dst = &in.ToolName
		case "tool_use_id":
			dst = &in.ToolUseID
		case "source":
			dst = &in.Source
		case "trigger":
			dst = &in.Trigger
		case "tool_input":
			in.ToolInput = m.Value // json.RawMessage takes any value, null included
			continue
		case "stop_hook_active":
			switch string(m.Value) {
			case "true":
				in.StopHookActive = true
			case "false":
				in.StopHookActive = false
			case "null":
			default:
				return false
			}
			continue
		default:
			for _, f := range inputFields {
				if strings.EqualFold(m.Name, f) {
					return false
				}
			}
			continue
		}
		if !decodeStringFast(m.Value, dst) {
			return false
		}
	}
	return true
}

// inputFields are the json names of Input's fields.
var inputFields = [...]string{"session_id", "transcript_path", "cwd", "hook_event_name", "permission_mode", "agent_id",
	"agent_type", "tool_name", "tool_input", "tool_use_id", "stop_hook_active", "source", "trigger"}

// eventNamePattern finds hook_event_name in a payload that does not decode
// (truncated or otherwise broken JSON), so the failure can still be answered
// in the right event's shape.
// It is compiled on first use: the hot path never needs it.
var eventNamePattern = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`"hook_event_name"\s*:\s*"([A-Za-z]+)"`)
}}

// salvageEvent returns the hook_event_name found in raw text, or "".
func salvageEvent(raw []byte) string {
	if m := eventNamePattern.Get().FindSubmatch(raw); m != nil {
		return string(m[1])
	}
	return ""
}

// bashInput is tool_input of the Bash tool (docs/hooks.md §6).
type bashInput struct {
	Command string `json:"command"`
}

// decodeToolInput decodes tool_input into v. A missing or null tool_input
// leaves v zero; anything else that is not an object of the right shape is an
// error.
func decodeToolInput(raw json.RawMessage, v any) error {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil
	}
	if t[0] != '{' {
		return errors.New("tool_input is not a JSON object")
	}
	if b, ok := v.(*bashInput); ok {
		if decodeBashFast(t, b) {
			return nil
		}
		*b = bashInput{}
	}
	if err := json.Unmarshal(t, v); err != nil {
		return fmt.Errorf("tool_input: %w", err)
	}
	return nil
}

// decodeBashFast is decodeInputFast for the Bash tool_input object t: false
// (b half filled) whenever encoding/json could differ or fail.
func decodeBashFast(t []byte, b *bashInput) bool {
	ms, ok := workspace.SplitObject(t)
	if !ok {
		return false
	}
	for _, m := range ms {
		if m.Name != "command" {
			if strings.EqualFold(m.Name, "command") {
				return false
			}
			continue
		}
		if !decodeStringFast(m.Value, &b.Command) {
			return false
		}
	}
	return true
}

// decodeStringFast sets *dst to the JSON string v as encoding/json would
// (null leaves it as it is); false for any other JSON type.
func decodeStringFast(v json.RawMessage, dst *string) bool {
	switch {
	case string(v) == "null":
		return true
	case len(v) == 0 || v[0] != '"':
		return false
	}
	if s, plain := workspace.PlainString(v); plain {
		*dst = s
		return true
	}
	return json.Unmarshal(v, dst) == nil
}

// rawMembers decodes the JSON object t as json.Unmarshal into
// map[string]json.RawMessage does (the last of repeated names wins), through
// workspace.SplitObject when it takes t; false when t is not an object.
func rawMembers(t []byte) (map[string]json.RawMessage, bool) {
	if ms, ok := workspace.SplitObject(t); ok {
		m := make(map[string]json.RawMessage, len(ms))
		for _, x := range ms {
			m[x.Name] = x.Value
		}
		return m, true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return nil, false
	}
	return m, true
}
