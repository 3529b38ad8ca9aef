package ops

import (
	"fmt"
	"regexp"

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
