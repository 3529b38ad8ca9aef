package records

import (
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

// Mark is a rollback mark (testdata/sprints/README.md §4): the eval entry that sent a
// feature back to a phase ≤ the one it judged.
type Mark struct {
	// Entry is the marking eval entry (Entry.Line is its eval_log line).
	Entry *workspace.EvalEntry
	// Time is the entry's timestamp; TimeOK is false when it is not UTC-Z.
	Time   time.Time
	TimeOK bool
}

// IsRollback reports whether e is a rollback verdict for feature f and phase
// p: not a correction, feature_id f, integer phase ≥ p, and result retry or
// fail, or event_type fail, or event_type checkpoint with decision rejected.
func IsRollback(e *workspace.EvalEntry, f string, p int) bool {
	if e.IsCorrection() || e.FeatureID() != f {
		return false
	}
	ph, ok := e.Phase()
	if !ok || ph < p {
		return false
	}
	return rollbackVerdict(e.Result(), e.EventType(), e.Decision())
}

// rollbackVerdict is the verdict part of IsRollback for an entry of result
// res, event_type et and decision dec ("" when absent or no string).
func rollbackVerdict(res, et, dec string) bool {
	return res == "retry" || res == "fail" || et == workspace.EventFail || et == workspace.EventCheckpoint && dec == "rejected"
}

// RollbackMark returns the last rollback mark of feature f for phase p among
// entries whose line is < beforeLine (beforeLine ≤ 0: all entries), or nil.
// Stop uses all entries; finalize passes the line of the phase's last pass.
func RollbackMark(entries []*workspace.EvalEntry, f string, p int, beforeLine int) *Mark {
	var m *workspace.EvalEntry
	for _, e := range entries {
		if beforeLine > 0 && e.Line >= beforeLine {
			break
		}
		if IsRollback(e, f, p) {
			m = e
		}
	}
	if m == nil {
		return nil
	}
	mk := &Mark{Entry: m}
	if ts := m.Timestamp(); workspace.UTCZPattern.MatchString(ts) {
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			mk.Time, mk.TimeOK = t, true
		}
	}
	return mk
}

// SectionCounts applies the retry rule to a section: without a mark every
// section counts; after a mark only a section whose heading timestamp is
// later than the mark's timestamp counts (a heading without timestamp never
// counts). When the mark's own timestamp is not a UTC-Z time, sections
// cannot be ordered against it and every timestamped section counts.
func SectionCounts(s Section, m *Mark) bool {
	if m == nil {
		return true
	}
	if !s.HasTimestamp {
		return false
	}
	if !m.TimeOK {
		return true
	}
	return s.Timestamp.After(m.Time)
}

// EntryCounts applies the retry rule to an eval entry: after a mark only
// entries on a later line count.
func EntryCounts(e *workspace.EvalEntry, m *Mark) bool {
	return m == nil || e.Line > m.Entry.Line
}

// IsPhaseEval reports whether e is a phase_evaluation (not a correction) of
// feature f for phase p (a JSON integer).
func IsPhaseEval(e *workspace.EvalEntry, f string, p int) bool {
	if e.IsCorrection() || e.EventType() != workspace.EventPhaseEvaluation || e.FeatureID() != f {
		return false
	}
	ph, ok := e.Phase()
	return ok && ph == p
}

// LastCorrection returns the last valid correction (补录) of line n, or nil.
func LastCorrection(entries []*workspace.EvalEntry, n int) *workspace.EvalEntry {
	var c *workspace.EvalEntry
	for _, e := range entries {
		if s, ok := e.SupersedesLine(); ok && s == n && e.IsCorrection() {
			c = e
		}
	}
	return c
}

// EffectiveReason returns the reason of e, or of its last correction when
// one exists (testdata/sprints/README.md §7, checks 7–9), with whether it is a string
// and the line it came from.
func EffectiveReason(entries []*workspace.EvalEntry, e *workspace.EvalEntry) (reason string, ok bool, line int) {
	src := e
	if c := LastCorrection(entries, e.Line); c != nil {
		src = c
	}
	r, ok := src.Reason()
	return r, ok, src.Line
}
