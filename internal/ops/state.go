package ops

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/workspace"
)

// State-file locations relative to the root (docs/protocol.md §2).
const (
	relFeatureList  = ".harness/feature_list.json"
	relRuntime      = ".harness/runtime_state.json"
	relPool         = ".harness/session_pool.json"
	relEvalLog      = ".harness/eval_log.jsonl"
	relHermesCtx    = ".harness/hermes_context_state.json"
	relCurrentAgent = ".harness/.current_agent"
	relHermesHand   = ".harness/hermes_handoff.md"
)

var (
	// the id and timestamp shapes are workspace's (docs/protocol.md §2)
	reFeatureID = workspace.FeatureIDPattern
	reUTCZ      = workspace.UTCZPattern
	reCommit    = regexp.MustCompile(`^[0-9a-f]{7,40}$`)
)

// Sprint gate ids (docs/protocol.md §2, §13 #5).
const (
	GateTooling = "cp-sprint-tooling"
	GateDAG     = "cp-sprint-dag"
)

// Enumerations (docs/protocol.md §3).
var (
	eventTypes      = []string{"phase_evaluation", "checkpoint", "retry", "fail", "yolo_enter", "yolo_abort", "reset"}
	results         = []string{"pass", "retry", "fail"}
	decisions       = []string{"approved", "rejected", "approved_with_changes", "auto_approved_timeout", "auto_approved_yolo", "auto_approved_yolo_task", "revoked"}
	approving       = []string{"approved", "approved_with_changes", "auto_approved_yolo", "auto_approved_yolo_task"}
	checkpointTypes = []string{"gate", "review", "notify"}
	itemStatuses    = []string{"pass", "fail", "skipped"}
	sessionTypes    = []string{"cc-print", "cc-interactive-mcp", "mcp_direct"}
	runtimeModes    = []string{"idle", "planning", "active", "waiting_human", "suspended"}
	contractStates  = []string{"planning", "tooling", "planned", "active", "waiting_human", "suspended", "finalizing", "sunk", "closed"}
	phaseActions    = map[int]string{1: "plan", 2: "implement", 3: "verify", 4: "deliver"}
)

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// lazyValue reports whether s is a lazy value (testdata/sprints/README.md §4: after
// trimming, ASCII case-insensitively one of ok, done, pass, no issue, 完成,
// 通过, 没问题, or starting with 看起来不错).
func lazyValue(s string) bool { return records.IsLazy(s) }

// byteLength is testdata/sprints/README.md §4 length: UTF-8 bytes after trimming.
func byteLength(s string) int { return records.Length(s) }

// featureList is the parsed H/feature_list.json.
type featureList struct{ *Obj }

func (e *Env) loadFeatureList() (featureList, error) {
	o, err := e.readObj("feature_list.json")
	return featureList{o}, err
}

func (fl featureList) sprint() string { return fl.Str("sprint") }

func (fl featureList) features() []*Obj {
	var out []*Obj
	for _, v := range fl.Arr("features") {
		if o, ok := v.(*Obj); ok {
			out = append(out, o)
		}
	}
	return out
}

func (fl featureList) feature(id string) *Obj {
	for _, f := range fl.features() {
		if f.Str("id") == id {
			return f
		}
	}
	return nil
}

func (fl featureList) mustFeature(id string) (*Obj, error) {
	if !reFeatureID.MatchString(id) {
		return nil, usage("feature id %q does not match ^f[0-9]+(-[0-9]+)*$", id)
	}
	f := fl.feature(id)
	if f == nil {
		return nil, refuse("feature %s is not in .harness/feature_list.json", id)
	}
	return f, nil
}

// loadFeature reads feature_list.json and returns it with feature id
// (errors as loadFeatureList and mustFeature).
func (e *Env) loadFeature(id string) (featureList, *Obj, error) {
	fl, err := e.loadFeatureList()
	if err != nil {
		return fl, nil, err
	}
	f, err := fl.mustFeature(id)
	return fl, f, err
}

// touch sets updated_at/updated_by as every Hermes write of feature_list does.
func (fl featureList) touch(stamp string) {
	fl.With("updated_at", stamp)
	fl.With("updated_by", "hermes")
}

// nextPhase returns the next_phases entry whose phase equals p.
func nextPhase(f *Obj, p int) *Obj {
	for _, v := range f.Arr("next_phases") {
		if o, ok := v.(*Obj); ok {
			if n, ok := o.Int("phase"); ok && n == p {
				return o
			}
		}
	}
	return nil
}

// checkpoints returns a feature's checkpoint objects.
func checkpointsOf(f *Obj) []*Obj {
	var out []*Obj
	for _, v := range f.Arr("checkpoints") {
		if o, ok := v.(*Obj); ok {
			out = append(out, o)
		}
	}
	return out
}

// evalEntry is one eval_log line that parses as a JSON object: the ordered
// object ops reads and copies, and the workspace entry the shared rules
// (records, workspace) read.
type evalEntry struct {
	Line int
	*Obj
	ws *workspace.EvalEntry
	// hermes: the line is Hermes's by the provenance ledgers (or the sprint
	// keeps none: every line counts as written).
	hermes bool
}

// isCorrection reports whether the entry is a 补录 correction (fixtures README
// §4), by the workspace package's definition.
func (e evalEntry) isCorrection() bool { return e.ws != nil && e.ws.IsCorrection() }

// evalLog is the parsed eval_log as ops reads it: every JSON-object line a
// reader may use (workspace.Provenance: the Forged ones are left out and
// named in ignored), plus the number of physical lines. Hermes decides only
// from its own lines: events() and ws hold those (every line in a sprint
// without a ledger).
type evalLog struct {
	entries []evalEntry
	lines   int
	ws      []*workspace.EvalEntry // the Hermes lines for records' rules
	// ignored names each Forged line left out, ".harness/eval_log.jsonl:N (event, why)".
	ignored []string
}

// loadEvalLog streams eval_log.jsonl (lines over fsutil.CapLine are
// skipped unread) and keeps what Hermes may read of it.
func (e *Env) loadEvalLog() (evalLog, error) {
	var log evalLog
	ws := &workspace.Workspace{Root: e.Root}
	prov, err := ws.LoadProvenance()
	if err != nil {
		return log, err
	}
	f, st, err := fsutil.OpenRegular(e.H("eval_log.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return log, nil
	}
	if err != nil {
		return log, err
	}
	defer f.Close()
	if st.Size() > fsutil.CapLog {
		return log, &fsutil.TooLargeError{Path: e.H("eval_log.jsonl"), Size: st.Size(), Cap: fsutil.CapLog}
	}
	err = workspace.EachEvalLineAt(f, fsutil.CapLine, func(n int, at int64, line []byte) {
		log.lines = n
		if len(bytes.TrimSpace(line)) == 0 {
			return
		}
		m, derr := workspace.DecodeEvalLine(line)
		if derr != nil {
			return
		}
		we := &workspace.EvalEntry{Line: n, At: at, Fields: m}
		v, why := prov.Of(at, line, we)
		if v == workspace.Forged {
			log.ignored = append(log.ignored, fmt.Sprintf("%s:%d (%s: %s)", relEvalLog, n, firstNonEmpty(we.EventType(), "no event_type"), why))
			return
		}
		o, perr := parseObj(line)
		if perr != nil {
			return
		}
		hermes := v == workspace.Hermes || v == workspace.Legacy
		log.entries = append(log.entries, evalEntry{Line: n, Obj: o, ws: we, hermes: hermes})
		if hermes {
			log.ws = append(log.ws, we)
		}
	}, func(n int, _, _ int64) { log.lines = n })
	return log, err
}

// events returns Hermes's entries that are not corrections: what Hermes's
// decisions (verdicts, rollbacks, retry counts, resets) are read from.
func (l evalLog) events() []evalEntry {
	var out []evalEntry
	for _, en := range l.entries {
		if en.hermes && !en.isCorrection() {
			out = append(out, en)
		}
	}
	return out
}

// note adds to rep the lines left out as Forged, so the command says what
// it ignored.
func (l evalLog) note(rep *Report) {
	if len(l.ignored) == 0 || rep == nil {
		return
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("ignored %d eval_log line(s) that no Hermes-side record backs and no Generator may write (harness validate reports them as eval.provenance): %s",
		len(l.ignored), strings.Join(l.ignored, "; ")))
}

// lastCheckpoint returns the last (non-correction) checkpoint entry for id.
func (l evalLog) lastCheckpoint(id string) (evalEntry, bool) {
	ev := l.events()
	for i := len(ev) - 1; i >= 0; i-- {
		if ev[i].Str("event_type") == "checkpoint" && ev[i].Str("checkpoint_id") == id {
			return ev[i], true
		}
	}
	return evalEntry{}, false
}

// gateApproved decides whether the sprint gate id is approved from
// Hermes-side state only (docs/protocol.md §5, §16 "Authority"): the gate's
// checkpoint object in feature_list.sprint_checkpoints, which `harness
// checkpoint reply` (and a task-YOLO auto-approval) writes, must be passed
// with an approving decision. eval_log is never read for it: an appended
// line claiming an approval is evidence, not authority. A sprint whose
// feature_list holds no object for the gate (written before harness stored
// the sprint gates, e.g. by the original skill) is judged by the gate's
// Hermes-side effects instead: tooling_locked true for cp-sprint-tooling,
// the contract past planned (active, waiting_human, suspended, finalizing,
// sunk, closed) for cp-sprint-dag.
func (e *Env) gateApproved(fl featureList, id string) (bool, string) {
	for _, v := range fl.Arr("sprint_checkpoints") {
		cp, ok := v.(*Obj)
		if !ok || cp.Str("id") != id {
			continue
		}
		d, st := cp.Str("decision"), cp.Str("status")
		if st == "passed" && oneOf(d, approving) {
			return true, fmt.Sprintf("feature_list.sprint_checkpoints %s: status passed, decision %s", id, d)
		}
		if d == "" {
			d = "null"
		}
		return false, fmt.Sprintf("feature_list.sprint_checkpoints %s: status %s, decision %s", id, firstNonEmpty(st, "(none)"), d)
	}
	switch id {
	case GateTooling:
		if fl.Bool("tooling_locked") {
			return true, "no sprint_checkpoints entry (older sprint); feature_list.tooling_locked = true"
		}
		return false, "never pushed (no feature_list.sprint_checkpoints entry) and tooling_locked is false"
	case GateDAG:
		c, _, err := e.loadContract(fl)
		if err == nil && c != nil && oneOf(c.Str("status"), []string{"active", "waiting_human", "suspended", "finalizing", "sunk", "closed"}) {
			return true, fmt.Sprintf("no sprint_checkpoints entry (older sprint); contract status %s", c.Str("status"))
		}
		st := "(no contract)"
		if c != nil {
			st = firstNonEmpty(c.Str("status"), "planning")
		}
		return false, fmt.Sprintf("never pushed (no feature_list.sprint_checkpoints entry) and contract status %s", st)
	}
	return false, "not a sprint gate"
}

// lastVerdict returns the last phase_evaluation entry of feature f for phase p
// that lies after line `after` (0 = any).
func (l evalLog) lastVerdict(f string, p, after int) (evalEntry, bool) {
	ev := l.events()
	for i := len(ev) - 1; i >= 0; i-- {
		en := ev[i]
		if en.Line <= after {
			break
		}
		if n, ok := en.Int("phase"); ok && n == p && en.Str("feature_id") == f && en.Str("event_type") == "phase_evaluation" {
			return en, true
		}
	}
	return evalEntry{}, false
}

// rollbackMark returns the line of the rollback mark of feature f for phase p
// (testdata/sprints/README.md §4, records.RollbackMark: the last non-correction entry of
// f with an integer phase ≥ p and result retry/fail, event_type fail, or a
// rejected checkpoint), or 0.
func (l evalLog) rollbackMark(f string, p int) int {
	if m := records.RollbackMark(l.ws, f, p, 0); m != nil {
		return m.Entry.Line
	}
	return 0
}

// retryCount is the number of eval entries (of feature f, or of the sprint
// when f is "") with result retry, any event type (docs/protocol.md §3.6, §13 #44).
func (l evalLog) retryCount(f string) int {
	n := 0
	for _, en := range l.events() {
		if en.Str("result") == "retry" && (f == "" || en.Str("feature_id") == f) {
			n++
		}
	}
	return n
}
