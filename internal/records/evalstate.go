package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
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

// fold applies one decoded entry of the feature's filtered lines.
func (s *FeatureEvalState) fold(feature string, e *workspace.EvalEntry, hermes bool) {
	if hermes && e.Result() == "retry" && e.FeatureID() == feature {
		s.Retries++
	}
	if e.IsCorrection() {
		n, _ := e.SupersedesLine()
		for p, pe := range s.PhaseEvals {
			if pe.Line == n {
				r, ok := e.Reason()
				pe.Correction = &ReasonRef{Line: e.Line, Reason: r, ReasonOK: ok}
				s.PhaseEvals[p] = pe
			}
		}
		return
	}
	ph, ok := e.Phase()
	if !ok || e.FeatureID() != feature {
		return
	}
	if IsRollback(e, feature, ph) {
		if s.Rollbacks == nil {
			s.Rollbacks = map[int]LineRef{}
		}
		s.Rollbacks[ph] = LineRef{Line: e.Line, Timestamp: e.Timestamp()}
	}
	if IsPhaseEval(e, feature, ph) {
		if s.PhaseEvals == nil {
			s.PhaseEvals = map[int]PhaseEvalRef{}
		}
		r, ok := e.Reason()
		s.PhaseEvals[ph] = PhaseEvalRef{ReasonRef: ReasonRef{Line: e.Line, Reason: r, ReasonOK: ok}}
	}
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
// meaning, so an old cache is rebuilt instead of trusted.
const evalCacheVersion = 4

// evalCache is the on-disk cache of one feature's state: the state after
// the first Lines lines (Offset bytes, ending in '\n'), with checksums
// (FNV-1a, 64 bit) of the file's first and last (up to) 4 KB before Offset,
// by which a file that was rewritten or truncated instead of appended to is
// noticed. (Not a cryptographic hash: the cache lives in .harness/logs/,
// which the Generator cannot write, and the hook links no crypto package.)
type evalCache struct {
	Version int              `json:"version"`
	Feature string           `json:"feature"`
	Offset  int64            `json:"offset"`
	Lines   int              `json:"lines"`
	Head    string           `json:"head_fnv64a"`
	Tail    string           `json:"tail_fnv64a"`
	State   FeatureEvalState `json:"state"`
	// Prov is the provenance the state was folded under
	// (workspace.Provenance.KeyBefore(Offset)): only lines it trusts are
	// folded, so a changed ledger rebuilds the state.
	Prov string `json:"provenance"`
}

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
}

// FeatureState returns feature's state over the whole eval_log.jsonl. With
// a valid cache it reads only the bytes appended since the cache was
// written (a hook call costs the same whatever the log's size), then
// caches the state up to the last complete line (a final line without '\n'
// is folded but not cached: it may still be growing). A missing log is the
// empty state and fs.ErrNotExist (wrapped), as workspace.ScanEvalLog
// returns it; a cache that cannot be read or written is rebuilt or skipped
// silently (it is only a cache).
func FeatureState(ws *workspace.Workspace, feature string, opts EvalStateOptions) (FeatureEvalState, error) {
	f, st, err := fsutil.OpenRegular(ws.EvalLog())
	if err != nil {
		return FeatureEvalState{}, err
	}
	defer f.Close()
	if st.Size() > fsutil.CapLog {
		return FeatureEvalState{}, &fsutil.TooLargeError{Path: ws.EvalLog(), Size: st.Size(), Cap: fsutil.CapLog}
	}
	prov := opts.Prov
	if prov == nil {
		if prov, err = ws.LoadProvenance(); err != nil {
			return FeatureEvalState{}, err
		}
	}
	size := st.Size()
	var c evalCache
	if !opts.NoCache {
		c = loadEvalCache(ws, feature, f, size, prov)
	}
	if c.Offset == 0 {
		c = evalCache{Version: evalCacheVersion, Feature: feature}
	}
	want := mayConcern(feature)
	state := c.State
	state.Rollbacks, state.PhaseEvals = cloneRollbacks(c.State.Rollbacks), clonePhaseEvals(c.State.PhaseEvals)
	state.Ignored = append([]string(nil), c.State.Ignored...)
	if _, err := f.Seek(c.Offset, io.SeekStart); err != nil {
		return FeatureEvalState{}, err
	}
	lines, complete := c.Lines, c.Offset
	pos := c.Offset
	err = workspace.EachEvalLineRaw(f, func(n int, line []byte, rawLen int, terminated bool) {
		at := pos
		pos += int64(rawLen)
		state.foldLine(feature, want, prov, c.Lines+n, at, line)
		if terminated {
			lines, complete = c.Lines+n, pos
		}
	})
	if err != nil {
		return FeatureEvalState{}, err
	}
	if !opts.NoCache && !opts.ReadOnly && complete > c.Offset {
		// the state up to the last '\n': fold again only when a partial
		// line followed (rare: a writer in the middle of an append)
		cached := state
		if complete != pos {
			cached, err = stateUpTo(f, c, feature, complete, prov)
		}
		if err == nil {
			saveEvalCache(ws, f, evalCache{Version: evalCacheVersion, Feature: feature, Offset: complete, Lines: lines, State: cached, Prov: prov.KeyBefore(complete)})
		}
	}
	return state, nil
}

// stateUpTo folds the lines of f from the cache's offset up to end.
func stateUpTo(f *os.File, c evalCache, feature string, end int64, prov *workspace.Provenance) (FeatureEvalState, error) {
	state := c.State
	state.Rollbacks, state.PhaseEvals = cloneRollbacks(c.State.Rollbacks), clonePhaseEvals(c.State.PhaseEvals)
	state.Ignored = append([]string(nil), c.State.Ignored...)
	want := mayConcern(feature)
	err := workspace.EachEvalLineAt(io.NewSectionReader(f, c.Offset, end-c.Offset), fsutil.CapLine, func(n int, at int64, line []byte) {
		state.foldLine(feature, want, prov, c.Lines+n, c.Offset+at, line)
	}, nil)
	return state, err
}

// foldLine folds physical line n (starting at byte at) when it may concern
// feature and the provenance trusts it (Hermes-ledgered, the hook's Reset,
// or shaped like the Generator's); a forged line is only noted in Ignored.
func (s *FeatureEvalState) foldLine(feature string, want func([]byte) bool, prov *workspace.Provenance, n int, at int64, line []byte) {
	if len(bytes.TrimSpace(line)) == 0 || !want(line) {
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

// loadEvalCache returns the cache of feature when it is valid for the log
// f of size bytes (version, feature, offset within the file, checksums),
// else the zero cache.
func loadEvalCache(ws *workspace.Workspace, feature string, f io.ReaderAt, size int64, prov *workspace.Provenance) evalCache {
	data, err := fsutil.ReadRegular(EvalCachePath(ws, feature), 1<<20)
	if err != nil {
		return evalCache{}
	}
	var c evalCache
	if json.Unmarshal(data, &c) != nil || c.Version != evalCacheVersion || c.Feature != feature ||
		c.Offset <= 0 || c.Offset > size || c.Lines <= 0 || c.Prov != prov.KeyBefore(c.Offset) {
		return evalCache{}
	}
	head, tail, err := fsutil.PrefixSums(f, c.Offset)
	if err != nil || head != c.Head || tail != c.Tail {
		return evalCache{}
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, c.Offset-1); err != nil || last[0] != '\n' {
		return evalCache{}
	}
	return c
}

// saveEvalCache writes c (its checksums filled in from f) atomically;
// failures are ignored: the next call rebuilds the state.
func saveEvalCache(ws *workspace.Workspace, f io.ReaderAt, c evalCache) {
	var err error
	if c.Head, c.Tail, err = fsutil.PrefixSums(f, c.Offset); err != nil {
		return
	}
	data, err := json.Marshal(c)
	if err != nil {
		return
	}
	p := EvalCachePath(ws, c.Feature)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	_ = fsutil.WriteFileAtomic(p, append(data, '\n'), 0o644)
}

// FeatureRetries is the feature's retry count (FeatureEvalState.Retries)
// through the cache; a missing eval_log counts 0.
func FeatureRetries(ws *workspace.Workspace, feature string) (int, error) {
	s, err := FeatureState(ws, feature, EvalStateOptions{})
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("count retries of %s: %w", feature, err)
	}
	return s.Retries, nil
}
