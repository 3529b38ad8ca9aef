package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

// LineRef is one eval_log line a record check refers to: its physical line
// number and timestamp (as written).
type LineRef struct {
	Line      int    `json:"line"`
	Timestamp string `json:"timestamp,omitempty"`
}

// ReasonRef is the reason of one eval_log line: whether it is a JSON
// string, and its value.
type ReasonRef struct {
	Line     int    `json:"line"`
	Reason   string `json:"reason,omitempty"`
	ReasonOK bool   `json:"reason_ok,omitempty"`
}

// PhaseEvalRef is the last phase_evaluation of a feature for one phase
// value, and the last valid correction (补录) of that line, if any.
type PhaseEvalRef struct {
	ReasonRef
	Correction *ReasonRef `json:"correction,omitempty"`
}

// FeatureEvalState is everything the Stop record checks (6–9) and the retry
// count read of eval_log.jsonl for one feature, folded over its lines in
// order (docs/protocol.md §3.6, §4.7; testdata/sprints/README.md §4, §7).
// It is what an append-only log lets a hook keep instead of re-reading the
// file: the state after line n and the next line give the state after n+1.
type FeatureEvalState struct {
	// Rollbacks maps a phase value to the last rollback verdict of the
	// feature judged at that phase (IsRollback): the mark for phase P is the
	// latest of those at phases ≥ P.
	Rollbacks map[int]LineRef `json:"rollbacks,omitempty"`
	// PhaseEvals maps a phase value to the last phase_evaluation of the
	// feature for it (IsPhaseEval), with its correction.
	PhaseEvals map[int]PhaseEvalRef `json:"phase_evals,omitempty"`
	// Retries counts the feature's entries with result "retry", any event
	// type (docs/protocol.md §3.6, §13 #44), that Hermes wrote (provenance
	// Hermes or Legacy): a retry entry the Generator appended itself is
	// evidence, never a Reset trigger (docs/protocol.md §8.1) — two
	// `harness eval append --event retry` lines earned a Reset that ended
	// the session without its records.
	Retries int `json:"retries"`
	// Ignored names the lines of the feature left out as forged
	// (workspace.Provenance: no Hermes-side record backs them and no
	// Generator may write them), as ".harness/eval_log.jsonl:N (event: why)".
	Ignored []string `json:"ignored,omitempty"`
}

// IsRetry is the one retry rule (docs/protocol.md §3.6, §13 #44): an
// eval_log entry counts as a retry when its result is "retry" (any event
// type) and Hermes wrote it (provenance Hermes or Legacy: hermes); a
// Generator's retry line is evidence, not a retry. Stop's checks, the
// Reset trigger and the operations' view (ops) all count by it.
func IsRetry(result string, hermes bool) bool {
	return hermes && result == "retry"
}

// countsRetry reports whether an entry of result res and feature_id fid
// ("" when absent or no string) that Hermes wrote (hermes) is one of
// feature's retries (FeatureEvalState.Retries).
func countsRetry(res, fid, feature string, hermes bool) bool {
	return IsRetry(res, hermes) && fid == feature
}

// fold applies one decoded entry of the feature's filtered lines.
func (s *FeatureEvalState) fold(feature string, e *workspace.EvalEntry, hermes bool) {
	ph, phOK := e.Phase()
	sl, _ := e.SupersedesLine()
	r, rOK := e.Reason()
	s.foldFields(feature, foldFields{line: e.Line, feature: e.FeatureID(), result: e.Result(), eventType: e.EventType(), decision: e.Decision(),
		timestamp: e.Timestamp(), reason: r, reasonOK: rOK, phase: ph, phaseOK: phOK, correction: e.IsCorrection(), supersedes: sl}, hermes)
}

// foldFields are what fold reads of one entry: its line, the string
// members ("" when absent or not strings), reason and whether it is a
// string, the integer phase, whether it is a valid correction and of which
// line.
type foldFields struct {
	line                                            int
	feature, result, eventType, decision, timestamp string
	reason                                          string
	reasonOK                                        bool
	phase                                           int
	phaseOK, correction                             bool
	supersedes                                      int
}

// foldFields applies the entry e (Hermes's when hermes); the strings it
// keeps are cloned (a line of the fixed shape lends them from the read
// buffer).
func (s *FeatureEvalState) foldFields(feature string, e foldFields, hermes bool) {
	if countsRetry(e.result, e.feature, feature, hermes) {
		s.Retries++
	}
	if e.correction {
		for p, pe := range s.PhaseEvals {
			if pe.Line == e.supersedes {
				pe.Correction = &ReasonRef{Line: e.line, Reason: strings.Clone(e.reason), ReasonOK: e.reasonOK}
				s.PhaseEvals[p] = pe
			}
		}
		return
	}
	if !e.phaseOK || e.feature != feature {
		return
	}
	if rollbackVerdict(e.result, e.eventType, e.decision) { // IsRollback(e, feature, e.phase)
		if s.Rollbacks == nil {
			s.Rollbacks = map[int]LineRef{}
		}
		s.Rollbacks[e.phase] = LineRef{Line: e.line, Timestamp: strings.Clone(e.timestamp)}
	}
	if e.eventType == workspace.EventPhaseEvaluation { // IsPhaseEval(e, feature, e.phase)
		if s.PhaseEvals == nil {
			s.PhaseEvals = map[int]PhaseEvalRef{}
		}
		s.PhaseEvals[e.phase] = PhaseEvalRef{ReasonRef: ReasonRef{Line: e.line, Reason: strings.Clone(e.reason), ReasonOK: e.reasonOK}}
	}
}

// foldFlat is foldLine for a line of the fixed shape (workspace.DecodeEvalFlat
// into f), read from the fixed slots without the line's map: the same
// provenance verdict (Provenance.OfFlat) and the same fold. The shape has
// no supersedes_line, so the line is no correction.
func (s *FeatureEvalState) foldFlat(feature string, prov *workspace.Provenance, n int, at int64, line []byte, f *workspace.FlatEntry) {
	v, why := prov.OfFlat(at, line, f)
	if v == workspace.Forged {
		s.Ignored = append(s.Ignored, fmt.Sprintf(".harness/eval_log.jsonl:%d (%s: %s)", n, f.Val[workspace.FlatEventType], why))
		return
	}
	e := foldFields{line: n, feature: f.Val[workspace.FlatFeatureID], result: f.Val[workspace.FlatResult], eventType: f.Val[workspace.FlatEventType],
		decision: f.Val[workspace.FlatDecision], timestamp: f.Val[workspace.FlatTimestamp]}
	e.reason, e.reasonOK = f.Str(workspace.FlatReason)
	if ph, ok := f.Str(workspace.FlatPhase); ok {
		e.phase, e.phaseOK = workspace.NumberInt(json.Number(ph))
	}
	s.foldFields(feature, e, v == workspace.Hermes || v == workspace.Legacy)
}

// Mark returns the rollback mark for phase p (RollbackMark over every
// entry), or nil.
func (s *FeatureEvalState) Mark(p int) *Mark {
	var best *LineRef
	for ph, ref := range s.Rollbacks {
		if ph >= p && (best == nil || ref.Line > best.Line) {
			r := ref
			best = &r
		}
	}
	if best == nil {
		return nil
	}
	mk := &Mark{Entry: &workspace.EvalEntry{Line: best.Line, Fields: map[string]any{"timestamp": best.Timestamp}}}
	if ts := best.Timestamp; workspace.UTCZPattern.MatchString(ts) {
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			mk.Time, mk.TimeOK = t, true
		}
	}
	return mk
}

// LastPhaseEval returns the last phase_evaluation of phase p that counts
// after mark (EntryCounts), or nil.
func (s *FeatureEvalState) LastPhaseEval(p int, mark *Mark) *PhaseEvalRef {
	pe, ok := s.PhaseEvals[p]
	if !ok || (mark != nil && pe.Line <= mark.Entry.Line) {
		return nil
	}
	return &pe
}

// Effective is the reason Stop checks for pe: its correction's when it has
// one (EffectiveReason).
func (pe *PhaseEvalRef) Effective() ReasonRef {
	if pe.Correction != nil {
		return *pe.Correction
	}
	return pe.ReasonRef
}

// evalCacheVersion changes whenever FeatureEvalState or fold changes
// meaning, so an old cache is rebuilt instead of trusted (5: the cache is
// an EvalFold document).
const evalCacheVersion = 5

// EvalCachePath is where the eval_log state of feature is cached:
// H/logs/cache/eval-<feature>.json (under logs/, which only harness and
// harness-hook write).
func EvalCachePath(ws *workspace.Workspace, feature string) string {
	return filepath.Join(ws.LogsDir(), "cache", "eval-"+feature+".json")
}

// EvalStateOptions adjust FeatureState.
type EvalStateOptions struct {
	// NoCache reads the whole log and neither reads nor writes the cache
	// (the reference the cached path is proven equal to).
	NoCache bool
	// ReadOnly uses a valid cache but never writes one.
	ReadOnly bool
	// Prov is the eval_log provenance to judge lines by; nil loads it
	// (workspace.LoadProvenance).
	Prov *workspace.Provenance
	// generalOnly decodes every line into its map (never foldFlat): the
	// reference the fixed-shape path is tested against.
	generalOnly bool
}

// FeatureState returns feature's state over the whole eval_log.jsonl,
// folded by an EvalFold cached in EvalCachePath: with a valid cache it
// reads only the bytes appended since the cache was written (a hook call
// costs the same whatever the log's size). A missing log is the empty
// state and fs.ErrNotExist (wrapped), as workspace.ScanEvalLog returns it;
// a cache that cannot be read or written is rebuilt or skipped silently
// (it is only a cache).
func FeatureState(ws *workspace.Workspace, feature string, opts EvalStateOptions) (FeatureEvalState, error) {
	want := mayConcern(feature)
	var flat *workspace.FlatEntry // reused by every line
	if !opts.generalOnly {
		flat = &workspace.FlatEntry{}
	}
	fd := EvalFold[FeatureEvalState]{
		Cache: EvalCachePath(ws, feature), Version: evalCacheVersion, Key: feature, MaxCache: 1 << 20,
		NoCache: opts.NoCache, ReadOnly: opts.ReadOnly,
		Provenance: func() (*workspace.Provenance, error) {
			if opts.Prov != nil {
				return opts.Prov, nil
			}
			return ws.LoadProvenance()
		},
		Clone: cloneFeatureState,
		Line: func(s *FeatureEvalState, prov *workspace.Provenance, n int, at int64, line []byte) {
			s.foldLine(feature, want, prov, n, at, line, flat)
		},
	}
	s, _, err := fd.Run(ws.EvalLog())
	return s, err
}

// foldLine folds physical line n (starting at byte at) when it may concern
// feature and the provenance trusts it (Hermes-ledgered, the hook's Reset,
// or shaped like the Generator's); a forged line is only noted in Ignored.
func (s *FeatureEvalState) foldLine(feature string, want func([]byte) bool, prov *workspace.Provenance, n int, at int64, line []byte, flat *workspace.FlatEntry) {
	if len(bytes.TrimSpace(line)) == 0 || !want(line) {
		return
	}
	if flat != nil && workspace.DecodeEvalFlat(line, flat) {
		s.foldFlat(feature, prov, n, at, line, flat)
		return
	}
	m, derr := workspace.DecodeEvalLine(line)
	if derr != nil {
		return
	}
	e := &workspace.EvalEntry{Line: n, At: at, Fields: m}
	v, why := prov.Of(at, line, e)
	if v == workspace.Forged {
		s.Ignored = append(s.Ignored, fmt.Sprintf(".harness/eval_log.jsonl:%d (%s: %s)", n, e.EventType(), why))
		return
	}
	s.fold(feature, e, v == workspace.Hermes || v == workspace.Legacy)
}

// cloneFeatureState copies s so that folding into the copy leaves s as it is.
func cloneFeatureState(s FeatureEvalState) FeatureEvalState {
	s.Rollbacks, s.PhaseEvals = cloneRollbacks(s.Rollbacks), clonePhaseEvals(s.PhaseEvals)
	s.Ignored = append([]string(nil), s.Ignored...)
	return s
}

func cloneRollbacks(m map[int]LineRef) map[int]LineRef {
	if m == nil {
		return nil
	}
	out := make(map[int]LineRef, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func clonePhaseEvals(m map[int]PhaseEvalRef) map[int]PhaseEvalRef {
	if m == nil {
		return nil
	}
	out := make(map[int]PhaseEvalRef, len(m))
	for k, v := range m {
		if v.Correction != nil {
			c := *v.Correction
			v.Correction = &c
		}
		out[k] = v
	}
	return out
}

// FeatureRetries is the feature's retry count (FeatureEvalState.Retries);
// a missing eval_log counts 0. It is a fold of its own (cached in
// RetriesCachePath), not FeatureState: the count is all the hook's
// measurement on PreToolUse needs, and a line can only count when its
// bytes name the feature and spell retry (or hold a \u escape that may
// spell either), so a scan without a cache decodes only those lines — a
// session's first PreToolUse on a large log with a lost cache reads it at
// the speed of bytes.Contains instead of decoding every line of the
// feature inside the hook's 3 s budget.
func FeatureRetries(ws *workspace.Workspace, feature string) (int, error) {
	n, err := featureRetries(ws, feature, false)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("count retries of %s: %w", feature, err)
	}
	return n, nil
}

// retriesCacheVersion changes whenever retryCount or its fold changes
// meaning.
const retriesCacheVersion = 1

// RetriesCachePath is where FeatureRetries caches its count:
// H/logs/cache/retries-<feature>.json.
func RetriesCachePath(ws *workspace.Workspace, feature string) string {
	return filepath.Join(ws.LogsDir(), "cache", "retries-"+feature+".json")
}

// retryCount is the state of FeatureRetries' fold.
type retryCount struct {
	Retries int `json:"retries"`
}

// featureRetries runs FeatureRetries' fold (noCache: the whole log, no
// cache read or written).
func featureRetries(ws *workspace.Workspace, feature string, noCache bool) (int, error) {
	concerns := mayConcern(feature)
	fd := EvalFold[retryCount]{
		Cache: RetriesCachePath(ws, feature), Version: retriesCacheVersion, Key: feature, MaxCache: 4 << 10, NoCache: noCache,
		Provenance: ws.LoadProvenance,
		Clone:      func(s retryCount) retryCount { return s },
		Line: func(s *retryCount, prov *workspace.Provenance, n int, at int64, line []byte) {
			// FeatureState's foldLine, for the lines that can count
			if !mayBeRetry(line) || !concerns(line) || len(bytes.TrimSpace(line)) == 0 { // the rarer test first
				return
			}
			m, err := workspace.DecodeEvalLine(line)
			if err != nil {
				return
			}
			e := &workspace.EvalEntry{Line: n, At: at, Fields: m}
			if v, _ := prov.Of(at, line, e); countsRetry(e.Result(), e.FeatureID(), feature, v == workspace.Hermes || v == workspace.Legacy) {
				s.Retries++
			}
		},
	}
	s, _, err := fd.Run(ws.EvalLog())
	return s.Retries, err
}

// mayBeRetry reports whether an eval_log line can hold result "retry": its
// bytes spell retry or hold a \u escape (which could spell it). It is
// bytes.Contains of both (TestMayBeRetryIsContains) by a search for the
// rare bytes 'y' and '\\' instead of the common first bytes 'r' and '\\'.
func mayBeRetry(line []byte) bool {
	for off := 0; ; {
		i := bytes.IndexByte(line[off:], 'y')
		if i < 0 {
			break
		}
		if off+i >= 4 && string(line[off+i-4:off+i]) == "retr" {
			return true
		}
		off += i + 1
	}
	return bytes.IndexByte(line, '\\') >= 0 && bytes.Contains(line, []byte(`\u`))
}
