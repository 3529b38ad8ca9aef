package ops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/workspace"
)

// evalLog is what the operations decide from in eval_log.jsonl, folded
// line by line (records.EvalFold, cached in H/logs/cache/ops-eval.json), so
// an operation reads only the lines appended since its last call
// (docs/performance.md "Scaling with the sprint's history").
//
// Hermes decides only from its own lines (docs/protocol.md §16
// "Authority"): the decisions below are folded over the lines that
// workspace.Provenance says Hermes wrote (Hermes or Legacy) and that are
// not 补录 corrections; a Forged line is only named in Ignored; a
// Generator's line is evidence and changes none of them.
type evalLog struct {
	// Lines is the number of physical lines (a final line without '\n',
	// blank lines and lines over fsutil.CapLine count).
	Lines int `json:"lines"`
	// Index holds the byte offset of line k*evalIndexStep+1 at k, so that
	// one line is found by reading at most evalIndexStep lines (entryAt).
	Index []int64 `json:"index,omitempty"`
	// Ignored names each Forged line left out, ".harness/eval_log.jsonl:N (event, why)".
	Ignored []string `json:"ignored,omitempty"`
	// RetriesAll counts the entries with result retry, any event type and
	// feature (docs/protocol.md §3.6, §13 #44); Retries the same per
	// feature_id ("" for an entry without a string feature_id).
	RetriesAll int            `json:"retries_all"`
	Retries    map[string]int `json:"retries,omitempty"`
	// Fail is the first entry of a feature with result fail or event_type
	// fail (the YOLO abort trigger any_feature_fail, §6.1).
	Fail *evalRef `json:"fail,omitempty"`
	// Features holds each feature's decisions, by feature_id.
	Features map[string]*featureEvals `json:"features,omitempty"`
	// Resets are the reset entries in file order.
	Resets []resetRef `json:"resets,omitempty"`

	path string
	prov *workspace.Provenance
}

// evalRef is one line and the feature it names.
type evalRef struct {
	Line    int    `json:"line"`
	Feature string `json:"feature,omitempty"`
}

// featureEvals is what the operations read of one feature's entries.
type featureEvals struct {
	// Last is the feature's last entry (phase retry: is the rollback
	// verdict already recorded?).
	Last *lastEntry `json:"last,omitempty"`
	// Rollbacks maps a phase value to the line of the feature's last
	// rollback verdict judged at that phase (records.IsRollback): the mark
	// for phase P is the latest at phases ≥ P (records.RollbackMark).
	Rollbacks map[int]int `json:"rollbacks,omitempty"`
	// Verdicts maps a phase value to the feature's last phase_evaluation
	// for it.
	Verdicts map[int]verdictRef `json:"verdicts,omitempty"`
}

// lastEntry is a feature's last entry: line, integer phase, reason.
type lastEntry struct {
	Line    int    `json:"line"`
	Phase   int    `json:"phase,omitempty"`
	PhaseOK bool   `json:"phase_ok,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// verdictRef is one phase_evaluation: line, result, commit.
type verdictRef struct {
	Line   int    `json:"line"`
	Result string `json:"result,omitempty"`
	Commit string `json:"commit,omitempty"`
}

// resetRef is one reset entry.
type resetRef struct {
	Line      int    `json:"line"`
	Feature   string `json:"feature,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Timestamp string `json:"timestamp,omitempty"`
}

// evalIndexStep is the spacing of evalLog.Index (lines).
const evalIndexStep = 512

// evalViewVersion changes whenever evalLog or its fold change meaning.
const evalViewVersion = 1

// evalViewCache is H/logs/cache/ops-eval.json.
func (e *Env) evalViewCache() string { return e.H("logs", "cache", "ops-eval.json") }

// evalViewOptions adjust loadEvalLogWith.
type evalViewOptions struct {
	noCache bool // the full scan the cached view is proven equal to
	// prov is the provenance to judge by; nil loads it
	// (workspace.LoadProvenance).
	prov *workspace.Provenance
}

// loadEvalLog folds eval_log.jsonl into the operations' view through its
// cache; a missing log is the empty view.
func (e *Env) loadEvalLog() (evalLog, error) { return e.loadEvalLogWith(evalViewOptions{}) }

// evalLog is loadEvalLog inside a transaction: the provenance is the
// transaction's (Tx.provenance), which its dry run reuses.
func (t *Tx) evalLog() (evalLog, error) {
	prov, err := t.provenance()
	if err != nil {
		return evalLog{}, err
	}
	return t.env.loadEvalLogWith(evalViewOptions{prov: prov})
}

func (e *Env) loadEvalLogWith(opts evalViewOptions) (evalLog, error) {
	prov := opts.prov
	if prov == nil {
		var err error
		if prov, err = (&workspace.Workspace{Root: e.Root}).LoadProvenance(); err != nil {
			return evalLog{}, err
		}
	}
	fd := records.EvalFold[evalLog]{
		Cache: e.evalViewCache(), Version: evalViewVersion, MaxCache: 16 << 20, NoCache: opts.noCache,
		Provenance: func() (*workspace.Provenance, error) { return prov, nil },
		Clone:      cloneEvalLog,
		Line:       (*evalLog).foldLine,
	}
	log, lines, err := fd.Run(e.H("eval_log.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return evalLog{}, nil
	}
	if err != nil {
		return evalLog{}, err
	}
	log.Lines = lines
	log.path, log.prov = e.H("eval_log.jsonl"), prov
	return log, nil
}

// foldLine folds physical line n (starting at byte at; nil when over the
// line cap) into l.
func (l *evalLog) foldLine(prov *workspace.Provenance, n int, at int64, line []byte) {
	l.Lines = n
	if (n-1)%evalIndexStep == 0 {
		l.Index = append(l.Index, at)
	}
	en, hermes, ok := l.judge(prov, n, at, line)
	if !ok || !hermes || en.IsCorrection() {
		return
	}
	l.fold(en)
}

// judge decodes line n and asks the provenance about it: ok is false for
// a line that is blank, not one JSON object, or Forged (which is noted in
// Ignored); hermes says whether Hermes's decisions may read it.
func (l *evalLog) judge(prov *workspace.Provenance, n int, at int64, line []byte) (*workspace.EvalEntry, bool, bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, false, false
	}
	m, err := workspace.DecodeEvalLine(line)
	if err != nil {
		return nil, false, false
	}
	en := &workspace.EvalEntry{Line: n, At: at, Fields: m}
	v, why := prov.Of(at, line, en)
	if v == workspace.Forged {
		l.Ignored = append(l.Ignored, fmt.Sprintf("%s:%d (%s: %s)", relEvalLog, n, firstNonEmpty(en.EventType(), "no event_type"), why))
		return nil, false, false
	}
	// the ordered object the entry is read as elsewhere in ops must parse too
	if !json.Valid(line) {
		return nil, false, false
	}
	return en, v == workspace.Hermes || v == workspace.Legacy, true
}

// fold applies one of Hermes's entries (not a correction).
func (l *evalLog) fold(en *workspace.EvalEntry) {
	fid := en.FeatureID()
	if records.IsRetry(en.Result(), true) { // fold sees Hermes's entries only
		l.RetriesAll++
		if l.Retries == nil {
			l.Retries = map[string]int{}
		}
		l.Retries[fid]++
	}
	if l.Fail == nil && fid != "" && (en.Result() == "fail" || en.EventType() == workspace.EventFail) {
		l.Fail = &evalRef{Line: en.Line, Feature: fid}
	}
	if en.EventType() == "reset" {
		l.Resets = append(l.Resets, resetRef{Line: en.Line, Feature: fid, Agent: en.S("agent"), Timestamp: en.Timestamp()})
	}
	if fid == "" {
		return
	}
	if l.Features == nil {
		l.Features = map[string]*featureEvals{}
	}
	fe := l.Features[fid]
	if fe == nil {
		fe = &featureEvals{}
		l.Features[fid] = fe
	}
	last := &lastEntry{Line: en.Line, Reason: en.S("reason")}
	last.Phase, last.PhaseOK = en.Phase()
	fe.Last = last
	if !last.PhaseOK {
		return
	}
	if records.IsRollback(en, fid, last.Phase) {
		if fe.Rollbacks == nil {
			fe.Rollbacks = map[int]int{}
		}
		fe.Rollbacks[last.Phase] = en.Line
	}
	if en.EventType() == workspace.EventPhaseEvaluation {
		if fe.Verdicts == nil {
			fe.Verdicts = map[int]verdictRef{}
		}
		fe.Verdicts[last.Phase] = verdictRef{Line: en.Line, Result: en.Result(), Commit: en.Commit()}
	}
}

// cloneEvalLog copies l so that folding into the copy leaves l as it is.
func cloneEvalLog(l evalLog) evalLog {
	l.Index = append([]int64(nil), l.Index...)
	l.Ignored = append([]string(nil), l.Ignored...)
	l.Resets = append([]resetRef(nil), l.Resets...)
	if l.Retries != nil {
		m := make(map[string]int, len(l.Retries))
		for k, v := range l.Retries {
			m[k] = v
		}
		l.Retries = m
	}
	if l.Fail != nil {
		f := *l.Fail
		l.Fail = &f
	}
	if l.Features != nil {
		m := make(map[string]*featureEvals, len(l.Features))
		for k, fe := range l.Features {
			c := &featureEvals{}
			if fe.Last != nil {
				last := *fe.Last
				c.Last = &last
			}
			if fe.Rollbacks != nil {
				c.Rollbacks = make(map[int]int, len(fe.Rollbacks))
				for p, n := range fe.Rollbacks {
					c.Rollbacks[p] = n
				}
			}
			if fe.Verdicts != nil {
				c.Verdicts = make(map[int]verdictRef, len(fe.Verdicts))
				for p, v := range fe.Verdicts {
					c.Verdicts[p] = v
				}
			}
			m[k] = c
		}
		l.Features = m
	}
	return l
}

// note adds to rep the lines left out as Forged, so the command says what
// it ignored.
func (l evalLog) note(rep *Report) {
	if len(l.Ignored) == 0 || rep == nil {
		return
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("ignored %d eval_log line(s) that no Hermes-side record backs and no Generator may write (harness validate reports them as eval.provenance): %s",
		len(l.Ignored), strings.Join(l.Ignored, "; ")))
}

// retryCount is the number of Hermes's entries (of feature f, or of the
// sprint when f is "") with result retry, any event type (docs/protocol.md
// §3.6, §13 #44).
func (l evalLog) retryCount(f string) int {
	if f == "" {
		return l.RetriesAll
	}
	return l.Retries[f]
}

// rollbackMark returns the line of the rollback mark of feature f for phase
// p (testdata/sprints/README.md §4, records.RollbackMark over Hermes's
// lines: the last non-correction entry of f with an integer phase ≥ p and
// result retry/fail, event_type fail, or a rejected checkpoint), or 0.
func (l evalLog) rollbackMark(f string, p int) int {
	best := 0
	if fe := l.Features[f]; fe != nil {
		for ph, n := range fe.Rollbacks {
			if ph >= p && n > best {
				best = n
			}
		}
	}
	return best
}

// lastVerdict returns feature f's last phase_evaluation for phase p when
// it lies after line `after` (0 = any).
func (l evalLog) lastVerdict(f string, p, after int) (verdictRef, bool) {
	if fe := l.Features[f]; fe != nil {
		if v, ok := fe.Verdicts[p]; ok && v.Line > after {
			return v, true
		}
	}
	return verdictRef{}, false
}

// last returns feature f's last entry, or nil.
func (l evalLog) last(f string) *lastEntry {
	if fe := l.Features[f]; fe != nil {
		return fe.Last
	}
	return nil
}

// entryAt returns line n of the log as the ordered object ops copies from,
// when it is a JSON object a reader may use (not Forged; a Generator's line
// counts), else nil. It reads at most evalIndexStep lines.
func (l evalLog) entryAt(n int) (*Obj, error) {
	k := (n - 1) / evalIndexStep
	if n < 1 || n > l.Lines || k >= len(l.Index) {
		return nil, nil
	}
	f, st, err := fsutil.OpenRegular(l.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	start, end := l.Index[k], st.Size()
	if k+1 < len(l.Index) {
		end = l.Index[k+1]
	}
	var out *Obj
	var scratch evalLog
	err = workspace.EachEvalLineAt(io.NewSectionReader(f, start, end-start), fsutil.CapLine, func(i int, at int64, line []byte) {
		if k*evalIndexStep+i != n {
			return
		}
		if _, _, ok := scratch.judge(l.prov, n, start+at, line); ok {
			out, _ = parseObj(line)
		}
	}, nil)
	return out, err
}
