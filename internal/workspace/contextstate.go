package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// Reset trigger kinds of ContextState.ResetTrigger (docs/protocol.md §8.1: token
// ratio, retries, session age; "hermes" when Hermes demands the Reset with
// `harness session reset FID`).
const (
	TriggerContext = "context"
	TriggerRetries = "retries"
	TriggerAge     = "age"
	TriggerHermes  = "hermes"
)

// MaxContextStateFile is the largest claude_code_context_state.json read
// (16 MiB): one small object per feature; anything larger is an error, never
// a reason to hold the file in memory.
const MaxContextStateFile = 16 << 20

// ResetRecord is one Reset the Stop hook accepted (records.AcceptReset): the
// session that ended, when (UTC-Z), the SHA-256 of its handoff.md (hex), the
// handoff's trigger line, and where the reset eval entry the hook appended
// starts in eval_log.jsonl (byte offset, -1 when the hook appended none
// because Hermes had already recorded the Reset) with the first 8 bytes of
// that line's SHA-256 (hex): the Hermes-side record of the line.
type ResetRecord struct {
	SessionID     string `json:"session_id"`
	At            string `json:"at"`
	HandoffSHA256 string `json:"handoff_sha256"`
	Trigger       string `json:"trigger"`
	EvalAt        int64  `json:"eval_at"`
	EvalSHA256    string `json:"eval_sha256,omitempty"`
}

// ResetTrigger is the Feature Reset trigger on record for one feature: which
// one fired, what was measured ("token_usage_ratio 0.74 > 0.70"), when (UTC-Z)
// and in which Claude Code session.
type ResetTrigger struct {
	Kind      string `json:"kind"`
	Detail    string `json:"detail"`
	At        string `json:"at"`
	SessionID string `json:"session_id"`
}

// ContextState is one feature's entry of H/claude_code_context_state.json
// (docs/protocol.md §3.8; written only by harness-hook and Hermes-side commands):
// the figures the hook measured in the feature's Generator session and the
// Reset trigger on record. Units: tokens, seconds; times are UTC-Z strings
// ("" when unknown). Fields this version does not know are kept on rewrite.
type ContextState struct {
	// SessionID is the Claude Code session the figures belong to.
	SessionID string
	// Model is the model id of the latest assistant message (as requested,
	// "[1m]" suffix included when the transcript records it).
	Model string
	// ContextTokens is input + cache read + cache creation + output tokens of
	// the latest assistant message's usage.
	ContextTokens int64
	// ContextWindow is the model's context window in tokens.
	ContextWindow int64
	// TokenUsageRatio is ContextTokens / ContextWindow (0–1, 4 decimals).
	TokenUsageRatio float64
	// Retries is the feature's retry count (eval entries of the feature with
	// result "retry", any event type; docs/protocol.md §3.6).
	Retries int
	// SessionStartedAt is when the session started (the pool entry's
	// started_at for this session, else the hook's first record of it).
	SessionStartedAt string
	// SessionAgeS is the session's age in seconds when last measured.
	SessionAgeS int64
	// LastActivityAt is the time of the session's latest hook call (kept to
	// the minute: it is rewritten when it is a minute old or the figures
	// change).
	LastActivityAt string
	// UpdatedAt is when the entry was last written.
	UpdatedAt string
	// ResetTrigger is the Reset trigger on record, nil when none.
	ResetTrigger *ResetTrigger
	// ResetInstructedAt is when the Generator was told how to Reset for the
	// trigger on record ("" when not yet).
	ResetInstructedAt string
	// Resets are the Resets the Stop hook accepted for the feature, oldest
	// first (member "resets", proposed): the exception opens at most once
	// per session and never twice for the same handoff.md.
	Resets []ResetRecord
	// RetriesAtStart is Retries when the session started: a fresh session
	// has a fresh context, so only a retry during the session triggers a
	// Reset for retries (member retries_at_session_start).
	RetriesAtStart int
	// StopBlocks counts the Stop blocks in a row in this session (member
	// stop_blocks_in_row; the Stop loop bound reads it instead of hook.log).
	StopBlocks int
	// MeasuredAt is the transcript timestamp of the assistant message the
	// figures come from (member measured_at): a reading of an older message
	// (the client writes its transcript asynchronously) never replaces them.
	MeasuredAt string

	raw *Object
	// trigRaw and trigOrig are reset_trigger as read, so that an unchanged
	// trigger is written back byte for byte (members added by a newer
	// writer included).
	trigRaw  json.RawMessage
	trigOrig ResetTrigger
	// Bad lists the keys whose value had the wrong JSON type (left zero).
	Bad []string
}

// Known member names of a ContextState entry, in the order a new entry is
// written.
var contextStateKeys = []string{"session_id", "model", "context_tokens", "context_window", "token_usage_ratio",
	"retries", "session_started_at", "session_age_s", "last_activity_at", "updated_at", "reset_trigger"}

// ParseContextState decodes one entry leniently: a member of the wrong type
// is left zero and listed in Bad; unknown members are kept for the rewrite.
func ParseContextState(raw json.RawMessage) (*ContextState, error) {
	o, err := ParseObject(raw)
	if err != nil {
		return nil, err
	}
	cs := &ContextState{raw: o}
	str := func(k string, dst *string) {
		if v, ok := o.Get(k); ok && !isNull(v) {
			if s, plain := plainString(v); plain {
				*dst = s
			} else if json.Unmarshal(v, dst) != nil {
				cs.Bad = append(cs.Bad, k)
			}
		}
	}
	i64 := func(k string, dst *int64) {
		if v, ok := o.Get(k); ok && !isNull(v) {
			if n, ok := integral(v); ok {
				*dst = int64(n)
			} else {
				cs.Bad = append(cs.Bad, k)
			}
		}
	}
	str("session_id", &cs.SessionID)
	str("model", &cs.Model)
	i64("context_tokens", &cs.ContextTokens)
	i64("context_window", &cs.ContextWindow)
	if v, ok := o.Get("token_usage_ratio"); ok && !isNull(v) && json.Unmarshal(v, &cs.TokenUsageRatio) != nil {
		cs.Bad = append(cs.Bad, "token_usage_ratio")
	}
	var retries int64
	i64("retries", &retries)
	cs.Retries = int(retries)
	str("session_started_at", &cs.SessionStartedAt)
	i64("session_age_s", &cs.SessionAgeS)
	str("last_activity_at", &cs.LastActivityAt)
	str("updated_at", &cs.UpdatedAt)
	str("reset_instructed_at", &cs.ResetInstructedAt)
	if v, ok := o.Get("resets"); ok && !isNull(v) && json.Unmarshal(v, &cs.Resets) != nil {
		cs.Resets = nil
		cs.Bad = append(cs.Bad, "resets")
	}
	str("measured_at", &cs.MeasuredAt)
	var n int64
	i64("retries_at_session_start", &n)
	cs.RetriesAtStart = int(n)
	n = 0
	i64("stop_blocks_in_row", &n)
	cs.StopBlocks = int(n)
	if v, ok := o.Get("reset_trigger"); ok && !isNull(v) {
		var t ResetTrigger
		if json.Unmarshal(v, &t) != nil || t.Kind == "" {
			cs.Bad = append(cs.Bad, "reset_trigger")
		} else {
			cs.ResetTrigger = &t
			cs.trigRaw, cs.trigOrig = v, t
		}
	}
	return cs, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// MarshalJSON writes every member of the contract (reset_trigger and unknown
// times as null), reset_instructed_at when set, and every unknown member of the entry
// as read; members the entry already had keep their position. A member
// listed in Bad is kept as read.
func (cs *ContextState) MarshalJSON() ([]byte, error) {
	o := &Object{}
	if cs.raw != nil {
		o = &Object{keys: append([]string(nil), cs.raw.keys...), vals: map[string]any{}}
		for k, v := range cs.raw.vals {
			o.vals[k] = v
		}
	}
	bad := map[string]bool{}
	for _, b := range cs.Bad {
		bad[b] = true
	}
	set := func(k string, v any) {
		if !bad[k] {
			o.With(k, v)
		}
	}
	set("session_id", cs.SessionID)
	set("model", cs.Model)
	set("context_tokens", cs.ContextTokens)
	set("context_window", cs.ContextWindow)
	set("token_usage_ratio", json.Number(formatRatio(cs.TokenUsageRatio)))
	set("retries", cs.Retries)
	set("session_started_at", timeOrNull(cs.SessionStartedAt))
	set("session_age_s", cs.SessionAgeS)
	set("last_activity_at", timeOrNull(cs.LastActivityAt))
	set("updated_at", timeOrNull(cs.UpdatedAt))
	switch {
	case cs.ResetTrigger != nil && cs.trigRaw != nil && *cs.ResetTrigger == cs.trigOrig:
		set("reset_trigger", cs.trigRaw)
	case cs.ResetTrigger != nil:
		set("reset_trigger", cs.ResetTrigger)
	default:
		set("reset_trigger", nil)
	}
	if len(cs.Resets) > 0 {
		set("resets", cs.Resets)
	}
	if cs.ResetInstructedAt != "" {
		set("reset_instructed_at", cs.ResetInstructedAt)
	} else if !bad["reset_instructed_at"] {
		o.Delete("reset_instructed_at")
	}
	set("measured_at", timeOrNull(cs.MeasuredAt))
	set("retries_at_session_start", cs.RetriesAtStart)
	set("stop_blocks_in_row", cs.StopBlocks)
	return o.MarshalJSON()
}

// timeOrNull is t, or JSON null for an unknown ("") time.
func timeOrNull(t string) any {
	if t == "" {
		return nil
	}
	return t
}

// formatRatio renders a ratio with at most 4 decimals ("0.7412", "0", "1").
func formatRatio(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		r = 0
	}
	r = math.Round(r*10000) / 10000
	b, _ := json.Marshal(r)
	return string(b)
}

// RoundRatio rounds r the way the file stores it (4 decimals), so that a
// freshly measured ratio compares equal to the one on record.
func RoundRatio(r float64) float64 {
	if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		return 0
	}
	return math.Round(r*10000) / 10000
}

// Clone returns a deep copy (the raw members are shared read-only).
func (cs *ContextState) Clone() *ContextState {
	if cs == nil {
		return nil
	}
	c := *cs
	if cs.ResetTrigger != nil {
		t := *cs.ResetTrigger
		c.ResetTrigger = &t
	}
	c.Bad = append([]string(nil), cs.Bad...)
	c.Resets = append([]ResetRecord(nil), cs.Resets...)
	return &c
}

// Fresh returns an entry with no figures that keeps the members of cs this
// version does not know (nil-safe).
func (cs *ContextState) Fresh() *ContextState {
	if cs == nil {
		return &ContextState{}
	}
	return &ContextState{raw: cs.raw}
}

// CopyFigures sets every known field of cs from n (the unknown members of
// cs stay); cs's Bad list is cleared, since every known member now has a
// value of the right type.
func (cs *ContextState) CopyFigures(n *ContextState) {
	raw := cs.raw
	*cs = *n.Clone()
	cs.raw = raw
	cs.Bad = nil
}

// ContextStates is the whole claude_code_context_state.json: the entries by
// feature id, in file order.
type ContextStates struct {
	// Order is the feature ids in file order.
	Order []string
	// Entries maps a feature id to its entry; a member that is not an object
	// is left out (and listed in Bad).
	Entries map[string]*ContextState
	// Bad lists the feature ids whose member is not a JSON object.
	Bad []string
}

// ParseContextStates decodes the file's bytes. Empty input is an empty
// file; anything but a JSON object is an error.
func ParseContextStates(data []byte) (*ContextStates, error) {
	out := &ContextStates{Entries: map[string]*ContextState{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return out, nil
	}
	top, err := ParseObject(data)
	if err != nil {
		return nil, err
	}
	for _, k := range top.keys {
		raw, _ := top.Get(k)
		cs, err := ParseContextState(raw)
		if err != nil {
			out.Bad = append(out.Bad, k)
			continue
		}
		out.Order = append(out.Order, k)
		out.Entries[k] = cs
	}
	return out, nil
}

// LoadContextStates reads H/claude_code_context_state.json. A missing file
// is an empty result (nil error); a file that is not a regular file, larger
// than MaxContextStateFile or not a JSON object is an error.
func (w *Workspace) LoadContextStates() (*ContextStates, error) {
	data, err := fsutil.ReadRegular(w.ClaudeCodeContext(), MaxContextStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return &ContextStates{Entries: map[string]*ContextState{}}, nil
	}
	if err != nil {
		return nil, err
	}
	cs, err := ParseContextStates(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.Rel(w.ClaudeCodeContext()), err)
	}
	return cs, nil
}

// ContextState returns feature fid's entry of claude_code_context_state.json,
// or nil when the file or the entry does not exist or the entry is not a
// JSON object (errors as LoadContextStates): the same as
// LoadContextStates().Entries[fid], but only fid's entry is decoded, so a
// hook call costs the same whatever the number of features (the file is
// still split whole, which validates it). This is the accessor of the
// shared contract: the hook writes the figures and the Reset trigger, the
// Stop Reset exception and Hermes read them.
func (w *Workspace) ContextState(fid string) (*ContextState, error) {
	data, err := fsutil.ReadRegular(w.ClaudeCodeContext(), MaxContextStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return contextStateOf(data, fid, w.Rel(w.ClaudeCodeContext()))
}

// contextStateOf is ParseContextStates(data).Entries[fid] decoding only
// fid's entry; errors are prefixed with rel as LoadContextStates does.
func contextStateOf(data []byte, fid, rel string) (*ContextState, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	top, err := ParseObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	raw, ok := top.Get(fid)
	if !ok {
		return nil, nil
	}
	cs, err := ParseContextState(raw)
	if err != nil {
		return nil, nil // LoadContextStates lists it in Bad, not in Entries
	}
	return cs, nil
}

// ErrContextStateUnchanged is returned by an UpdateContextState callback to
// write nothing (UpdateContextState then returns false, nil).
var ErrContextStateUnchanged = errors.New("context state unchanged")

// UpdateContextState is the atomic read-modify-write of feature fid's entry:
// under the file's own lock (the sidecar claude_code_context_state.json.lock,
// never the workspace state lock, so a hook call never waits for a Hermes
// transaction) it reads the file, calls fn with the entry (a new empty one
// when absent; fn may change it in place), and replaces the file atomically
// with the entry written back, every other member kept as read. fn returns
// ErrContextStateUnchanged to write nothing, or another error to abort.
// written reports whether the file was replaced.
func (w *Workspace) UpdateContextState(fid string, fn func(cs *ContextState) error) (written bool, err error) {
	if fid == "" {
		return false, errors.New("update context state: empty feature id")
	}
	err = fsutil.UpdateFile(w.ClaudeCodeContext(), 0o644, func(old []byte) ([]byte, error) {
		if len(old) > MaxContextStateFile {
			return nil, fmt.Errorf("%s is larger than %d bytes", w.Rel(w.ClaudeCodeContext()), MaxContextStateFile)
		}
		top := &Object{}
		if len(bytes.TrimSpace(old)) > 0 {
			var perr error
			if top, perr = ParseObject(old); perr != nil {
				return nil, fmt.Errorf("%s: %w", w.Rel(w.ClaudeCodeContext()), perr)
			}
		}
		cs := &ContextState{}
		if raw, ok := top.Get(fid); ok {
			if parsed, perr := ParseContextState(raw); perr == nil {
				cs = parsed
			}
		}
		if err := fn(cs); err != nil {
			return nil, err
		}
		b, err := cs.MarshalJSON()
		if err != nil {
			return nil, err
		}
		top.With(fid, json.RawMessage(b))
		return MarshalIndent(top)
	})
	if errors.Is(err, ErrContextStateUnchanged) {
		return false, nil
	}
	return err == nil, err
}
