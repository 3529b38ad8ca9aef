package schema

import (
	"encoding/json"

	"github.com/superagent-harness/harness/internal/workspace"
)

// quickFor returns, for a schema name, the files (and their SHA-256) that
// quickAccepts (eval_log) or quickStrip (hermes_context_state) was written for: a Set uses quickAccepts for the schema only
// when it compiled exactly those bytes, so a changed or sprint-copied
// eval_log or defs schema falls back to the general validator until
// quickAccepts is reviewed against it and the sums are updated.
func quickFor() map[string]map[string]string {
	return map[string]map[string]string{
		EvalLog: {
			"eval_log.schema.json": "315f8644eb079f4789213a815a4cdd4141a47f900903ea0e6d7296932cce1e6b",
			"defs.schema.json":     "bc7685c17b7ef82130090309068a987d4196df90ef772c422b5d2f5144651452",
		},
		HermesContextState: {
			"hermes_context_state.schema.json": "175cf8508a0084f4372db81db8fd5fbf4eaf85663a4530df60d4da08a94c25ac",
			"defs.schema.json":                 "bc7685c17b7ef82130090309068a987d4196df90ef772c422b5d2f5144651452",
		},
	}
}

func sumOf(sums map[string][32]byte, file string) []byte {
	s, ok := sums[file]
	if !ok {
		return nil
	}
	return s[:]
}

// quickAccepts reports whether the embedded schema name certainly accepts
// doc, checked by hand for the common shapes of a document, so that Validate
// can skip the general validator for them; false means "not known", and the
// general validator decides. It exists for eval_log.schema.json (with the
// $defs of defs.schema.json it uses): `harness validate` checks every line
// of eval_log.jsonl, and the general validator costs about 10 µs and 60
// allocations per line. Whatever it accepts, the schema accepts
// (TestQuickAcceptsOnlyWhatTheSchemaAccepts checks random documents and the
// fixtures; TestQuickInUse fails when the embedded files no longer match
// quickFor).
func quickAccepts(name string, doc any) bool {
	if name != EvalLog {
		return false
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range [...]string{"timestamp", "sprint_id", "event_type"} { // required
		if _, ok := m[k]; !ok {
			return false
		}
	}
	for k, v := range m {
		if !quickEvalLogProperty(k, v) {
			return false
		}
	}
	return true
}

// quickEvalLogProperty is the check of one property of an eval_log entry
// (eval_log.schema.json "properties"); a property the schema does not name
// is accepted (the schema has no additionalProperties).
func quickEvalLogProperty(k string, v any) bool {
	switch k {
	case "timestamp": // $defs/timestamp
		s, ok := v.(string)
		return ok && isTimestamp(s)
	case "sprint_id", "reason":
		_, ok := v.(string)
		return ok
	case "generator", "hermes_notes", "checkpoint_id", "user_reply_raw", "task_id", "agent",
		"commit", "revoked_from", "revoke_reason": // ["string","null"], $defs/stringOrNull
		if v == nil {
			return true
		}
		_, ok := v.(string)
		return ok
	case "feature_id": // $defs/featureId
		s, ok := v.(string)
		return ok && isFeatureID(s)
	case "phase": // $defs/phase: integer 1..4
		n, ok := v.(json.Number)
		return ok && len(n) == 1 && '1' <= n[0] && n[0] <= '4'
	case "iteration", "supersedes_line": // integer, minimum 1
		n, ok := v.(json.Number)
		return ok && isPositiveDecimal(string(n))
	case "event_type":
		return oneOf(v, "phase_evaluation", "checkpoint", "retry", "fail", "yolo_enter", "yolo_abort", "reset")
	case "result":
		return oneOf(v, "pass", "retry", "fail")
	case "checkpoint_type":
		return oneOf(v, "gate", "review", "notify")
	case "decision": // anyOf $defs/decision, null
		return v == nil || oneOf(v, "approved", "rejected", "approved_with_changes", "auto_approved_timeout",
			"auto_approved_yolo", "auto_approved_yolo_task", "revoked")
	case "yolo_context":
		_, ok := v.(map[string]any)
		return ok
	case "acceptance_results": // array of {id, criteria, status, evidence} (all required)
		arr, ok := v.([]any)
		if !ok {
			return false
		}
		for _, it := range arr {
			m, ok := it.(map[string]any)
			if !ok {
				return false
			}
			for _, f := range [...]string{"id", "criteria", "evidence"} {
				if _, ok := m[f].(string); !ok {
					return false
				}
			}
			if !oneOf(m["status"], "pass", "fail", "skipped") {
				return false
			}
		}
		return true
	case "blockers_resolved": // array of objects
		arr, ok := v.([]any)
		if !ok {
			return false
		}
		for _, it := range arr {
			if _, ok := it.(map[string]any); !ok {
				return false
			}
		}
		return true
	}
	return true
}

func oneOf(v any, allowed ...string) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isPositiveDecimal: a JSON integer written without sign, fraction or
// exponent, at least 1, at most 18 digits.
func isPositiveDecimal(s string) bool {
	if len(s) == 0 || len(s) > 18 || s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// isTimestamp is the pattern of $defs/timestamp:
// ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$, the
// expression of workspace.UTCZPattern (TestTimestampPatternIsUTCZ), so its
// scanner is the one.
func isTimestamp(s string) bool { return workspace.UTCZPattern.MatchString(s) }

// isFeatureID is the pattern of $defs/featureId: ^f[0-9]+(-[0-9]+)*$
func isFeatureID(s string) bool {
	if len(s) < 2 || s[0] != 'f' {
		return false
	}
	digits := 0 // digits since 'f' or the last '-'
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			digits++
		case c == '-' && digits > 0:
			digits = 0
		default:
			return false
		}
	}
	return digits > 0
}

// Quick reports whether s answers Validate(name, ·) by quickAccepts first:
// it compiled exactly the files quickFor names for it. QuickAcceptsFlat
// stands in for the schema only then.
func (s *Set) Quick(name string) bool {
	s.compile()
	return s.err == nil && s.quick[name]
}

// QuickAcceptsFlat is quickAccepts(EvalLog, ·) for an eval_log line of the
// fixed shape (workspace.DecodeEvalFlat), without the decoded map: the
// decoder already holds every member to its kind (strings, string or null,
// numbers, the two arrays of objects), so what is left is the required
// members, the patterns and the enums. For a line of the shape it answers
// as quickAccepts does on the line's map (TestQuickAcceptsOnlyWhatTheSchemaAccepts).
func QuickAcceptsFlat(f *workspace.FlatEntry) bool {
	if !f.Has(workspace.FlatTimestamp) || !f.Has(workspace.FlatSprintID) || !f.Has(workspace.FlatEventType) {
		return false
	}
	if !isTimestamp(f.Val[workspace.FlatTimestamp]) {
		return false
	}
	if f.Has(workspace.FlatFeatureID) && !isFeatureID(f.Val[workspace.FlatFeatureID]) {
		return false
	}
	if n := f.Val[workspace.FlatPhase]; f.Has(workspace.FlatPhase) && !(len(n) == 1 && '1' <= n[0] && n[0] <= '4') {
		return false
	}
	if f.Has(workspace.FlatIteration) && !isPositiveDecimal(f.Val[workspace.FlatIteration]) {
		return false
	}
	if !oneOfStr(f.Val[workspace.FlatEventType], "phase_evaluation", "checkpoint", "retry", "fail", "yolo_enter", "yolo_abort", "reset") {
		return false
	}
	if f.Has(workspace.FlatResult) && !oneOfStr(f.Val[workspace.FlatResult], "pass", "retry", "fail") {
		return false
	}
	if f.Has(workspace.FlatCheckpointType) && !oneOfStr(f.Val[workspace.FlatCheckpointType], "gate", "review", "notify") {
		return false
	}
	if d, ok := f.Str(workspace.FlatDecision); ok && !oneOfStr(d, "approved", "rejected", "approved_with_changes", "auto_approved_timeout",
		"auto_approved_yolo", "auto_approved_yolo_task", "revoked") {
		return false
	}
	for _, a := range f.Acceptance {
		if !oneOfStr(a.Status, "pass", "fail", "skipped") {
			return false
		}
	}
	return true
}

func oneOfStr(s string, allowed ...string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

// quickStrip returns doc, or for the schemas it knows a shallow copy of doc
// without the parts it checked by hand and found valid, for the general
// validator to check the rest. It exists for hermes_context_state.schema.json:
// the provenance ledger's eval_log_ledger.lines holds one entry per eval_log
// line Hermes wrote (docs/protocol.md §3.7), and the general validator costs
// about 25 µs per entry, on every Hermes operation (twice: its dry run
// validates before and after). An entry the hand check does not certainly
// accept keeps the whole document for the general validator, so its
// findings are unchanged; with every entry valid, the entries add no finding
// and the schema constrains "lines" by its items alone, so the copy with an
// empty "lines" has the findings of doc
// (TestQuickStripKeepsTheFindings).
func quickStrip(name string, doc any) any {
	if name != HermesContextState {
		return doc
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return doc
	}
	led, ok := m[ledgerMember].(map[string]any)
	if !ok {
		return doc
	}
	lines, ok := led["lines"].([]any)
	if !ok || len(lines) == 0 {
		return doc
	}
	for _, it := range lines {
		if !quickLedgerLine(it) {
			return doc
		}
	}
	led2 := make(map[string]any, len(led))
	for k, v := range led {
		led2[k] = v
	}
	led2["lines"] = []any{}
	m2 := make(map[string]any, len(m))
	for k, v := range m {
		m2[k] = v
	}
	m2[ledgerMember] = led2
	return m2
}

// ledgerMember is workspace.LedgerKey, the member quickStrip checks.
const ledgerMember = workspace.LedgerKey

// quickLedgerLine reports whether it is certainly a valid ledger entry of
// hermes_context_state.schema.json (eval_log_ledger.lines.items): an object
// with "at" an integer ≥ 0 (written as plain digits) and "sha256" 16
// lowercase hex digits; other members are not constrained.
func quickLedgerLine(it any) bool {
	e, ok := it.(map[string]any)
	if !ok {
		return false
	}
	at, ok := e["at"].(json.Number)
	if !ok || !isDecimal(string(at)) {
		return false
	}
	h, ok := e["sha256"].(string)
	if !ok || len(h) != 16 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !isDigit(c) && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// isDecimal: a JSON integer ≥ 0 written without sign, fraction or exponent,
// at most 18 digits.
func isDecimal(s string) bool {
	if s == "0" {
		return true
	}
	return isPositiveDecimal(s)
}
