package hook

import (
	"strconv"
	"unicode/utf8"
)

// Hand-written JSON encoders of the two values every hook call writes (the
// answer on stdout and the hook.log record). They produce exactly the bytes
// of encoding/json's Encoder with SetEscapeHTML(false), '\n' included
// (jsonenc_test.go compares them on random values), without its reflection:
// building the encoders of Output and Record by reflection was about 3% of
// a PreToolUse process's CPU samples (docs/performance.md).

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string the way encoding/json does
// with HTML escaping off: '"', '\\' and control characters escaped (\b, \f,
// \n, \r, \t, else \u00XX), each invalid UTF-8 byte replaced by \ufffd,
// U+2028 and U+2029 escaped, everything else verbatim.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// jsonObject appends the members of one JSON object, in order.
type jsonObject struct {
	b     []byte
	first bool
}

func (o *jsonObject) key(name string) {
	if o.first {
		o.first = false
	} else {
		o.b = append(o.b, ',')
	}
	o.b = append(o.b, '"')
	o.b = append(o.b, name...)
	o.b = append(o.b, '"', ':')
}

// str appends name: v; omitEmpty leaves out an empty v (`json:",omitempty"`).
func (o *jsonObject) str(name, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	o.key(name)
	o.b = appendJSONString(o.b, v)
}

// int appends name: v.
func (o *jsonObject) int(name string, v int64) {
	o.key(name)
	o.b = strconv.AppendInt(o.b, v, 10)
}

// strs appends name: [v…], left out when v is empty (omitempty).
func (o *jsonObject) strs(name string, v []string) {
	if len(v) == 0 {
		return
	}
	o.key(name)
	o.b = append(o.b, '[')
	for i, s := range v {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = appendJSONString(o.b, s)
	}
	o.b = append(o.b, ']')
}

// appendJSONLine appends r as encoding/json would encode Record (field
// order, omitempty) plus '\n'.
func (r *Record) appendJSONLine(dst []byte) []byte {
	o := jsonObject{b: append(dst, '{'), first: true}
	o.str("time", r.Time, false)
	o.str("event", r.Event, false)
	o.str("session", r.Session, true)
	o.str("feature", r.Feature, true)
	o.str("tool", r.Tool, true)
	o.str("verdict", r.Verdict, false)
	o.str("rule", r.Rule, true)
	o.str("reason", r.Reason, true)
	o.str("command", r.Command, true)
	o.str("path", r.Path, true)
	o.strs("failing", r.Failing)
	o.str("allow_once", r.AllowOnce, true)
	o.str("sandbox", r.Sandbox, true)
	if m := r.Monitor; m != nil {
		o.key("monitor")
		mo := jsonObject{b: append(o.b, '{'), first: true}
		mo.int("context_tokens", m.Tokens)
		mo.int("context_window", m.Window)
		mo.str("token_usage_ratio", m.Ratio, false)
		mo.int("retries", m.Retries)
		mo.int("session_age_s", m.AgeS)
		mo.str("reset_trigger", m.Trigger, true)
		mo.str("limit", m.Limit, true)
		mo.str("told", m.Told, true)
		o.b = append(mo.b, '}')
	}
	o.key("duration_us")
	o.b = strconv.AppendInt(o.b, r.DurationUS, 10)
	o.strs("errors", r.Errors)
	return append(o.b, '}', '\n')
}

// appendJSONLine appends out as encoding/json would encode Output (field
// order, omitempty, a nil HookSpecificOutput left out) plus '\n'.
func (out *Output) appendJSONLine(dst []byte) []byte {
	o := jsonObject{b: append(dst, '{'), first: true}
	o.str("decision", out.Decision, true)
	o.str("reason", out.Reason, true)
	o.str("systemMessage", out.SystemMessage, true)
	if h := out.HookSpecificOutput; h != nil {
		o.key("hookSpecificOutput")
		ho := jsonObject{b: append(o.b, '{'), first: true}
		ho.str("hookEventName", h.HookEventName, false)
		ho.str("permissionDecision", h.PermissionDecision, true)
		ho.str("permissionDecisionReason", h.PermissionDecisionReason, true)
		ho.str("additionalContext", h.AdditionalContext, true)
		o.b = append(ho.b, '}')
	}
	return append(o.b, '}', '\n')
}
