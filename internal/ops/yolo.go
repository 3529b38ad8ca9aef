package ops

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/render"
)

// HermesHome returns Hermes' home directory from the environment: $HERMES_HOME,
// else $HOME/.hermes (else $USERPROFILE/.hermes); "" when none of them is
// set (docs/protocol.md §9.3). harness launch denies it to the Generator.
func HermesHome(getenv func(string) string) string {
	if home := getenv("HERMES_HOME"); home != "" {
		return home
	}
	h := getenv("HOME")
	if h == "" {
		h = getenv("USERPROFILE")
	}
	if h == "" {
		return ""
	}
	return filepath.Join(h, ".hermes")
}

// PipelinesHome returns the pipelines folder: home/pipelines, where home is
// the given directory, else HermesHome (docs/protocol.md §9.3).
func (env *Env) PipelinesHome(home string) (string, error) {
	if home == "" {
		home = HermesHome(env.getenv)
	}
	if home == "" {
		return "", usage("no pipelines home: pass --home DIR or set HERMES_HOME")
	}
	return filepath.Join(home, "pipelines"), nil
}

// yoloStatus is the pipeline-YOLO state of the sprint (docs/protocol.md
// §6.1), read from runtime_state.yolo, which only `harness yolo check` and
// `harness yolo abort` write: {"state": "active"|"aborted", "entered_at",
// "yolo_context", "reason", "aborted_at", "abort_reason"} (proposed field).
// eval_log's yolo_enter and yolo_abort entries are the audit trail of the
// same events and decide nothing: a yolo_enter line appended by anyone else
// does not switch YOLO on.
type yoloStatus struct {
	active  bool // YOLO is on
	aborted bool // YOLO was aborted in this sprint (no re-entry, §13 #20)
	ctx     *Obj // the yolo_context recorded at entry (never nil when active)
}

func (e *Env) yoloStatus() (yoloStatus, error) {
	rt, err := e.readObj("runtime_state.json")
	if err != nil {
		return yoloStatus{}, err
	}
	return yoloStatusOf(rt), nil
}

func yoloStatusOf(rt *Obj) yoloStatus {
	y := rt.ObjAt("yolo")
	if y == nil {
		return yoloStatus{}
	}
	switch y.Str("state") {
	case "active":
		ctx := y.ObjAt("yolo_context")
		if ctx == nil {
			ctx = NewObj()
		}
		return yoloStatus{active: true, ctx: ctx}
	case "aborted":
		return yoloStatus{aborted: true}
	}
	return yoloStatus{}
}

// YoloResult is what `harness yolo check` reports.
type YoloResult struct {
	Eligible    bool     `json:"eligible"`
	Active      bool     `json:"active"`
	Reasons     []string `json:"reasons"`
	AbortDue    []string `json:"abort_due,omitempty"`
	PipelineID  string   `json:"pipeline_id,omitempty"`
	TotalRuns   int      `json:"total_runs"`
	SuccessRate float64  `json:"success_rate"`
}

// YoloCheck evaluates pipeline YOLO eligibility (docs/protocol.md §6.1): the
// sprint was instantiated from a pipeline (feature_list.pipeline_id), whose
// pipeline.yaml has stats.total_runs ≥ yolo.eligibility.min_total_runs
// (default 3) and stats.total_success_rate ≥ min_success_rate (default 0.9),
// the safety valve holds (stats.current_version_consecutive_failures < 2,
// §13 #14), and YOLO was not aborted earlier in this sprint (§13 #20). When
// eligible and not yet on, it appends the yolo_enter entry with yolo_context
// {pipeline_id, pipeline_run_count, success_rate} and a reason (unless
// dryRun). It also reports due abort triggers (retry_count_in_sprint ≥ 2,
// any feature fail).
func YoloCheck(env *Env, home string, dryRun bool) (*YoloResult, *Report, error) {
	rep := &Report{Command: "yolo check"}
	res := &YoloResult{Reasons: []string{}}
	var enterEntry *Obj
	err := env.update(rep, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		log, err := tx.evalLog()
		if err != nil {
			return err
		}
		log.note(rep)
		rt, err := env.readObj("runtime_state.json")
		if err != nil {
			return err
		}
		ys := yoloStatusOf(rt)
		everAborted, active := ys.aborted, ys.active
		res.Active = active
		if active {
			res.AbortDue = abortTriggers(log, nil)
		}
		pid := fl.Str("pipeline_id")
		res.PipelineID = pid
		if pid == "" {
			res.Reasons = append(res.Reasons, "the sprint was not instantiated from a pipeline (feature_list.pipeline_id is null); task YOLO is decided by the task file")
			return nil
		}
		if everAborted {
			res.Reasons = append(res.Reasons, "YOLO was aborted earlier in this sprint; no re-entry before a new sprint (docs/protocol.md §13 #20)")
			return nil
		}
		dir, err := env.PipelinesHome(home)
		if err != nil {
			return err
		}
		p, err := loadPipeline(filepath.Join(dir, pid))
		if err != nil {
			res.Reasons = append(res.Reasons, err.Error())
			return nil
		}
		stats, _ := p["stats"].(map[string]any)
		runs := toInt(stats["total_runs"])
		rate := toFloat(stats["total_success_rate"])
		res.TotalRuns, res.SuccessRate = runs, rate
		minRuns, minRate := 3, 0.9
		if y, ok := p["yolo"].(map[string]any); ok {
			if el, ok := y["eligibility"].(map[string]any); ok {
				if v, ok := el["min_total_runs"]; ok {
					minRuns = toInt(v)
				}
				if v, ok := el["min_success_rate"]; ok {
					minRate = toFloat(v)
				}
			}
		}
		eligible := true
		if runs < minRuns {
			eligible = false
			res.Reasons = append(res.Reasons, fmt.Sprintf("stats.total_runs %d < min_total_runs %d", runs, minRuns))
		}
		if rate < minRate {
			eligible = false
			res.Reasons = append(res.Reasons, fmt.Sprintf("stats.total_success_rate %.2f < min_success_rate %.2f", rate, minRate))
		}
		if f := toInt(stats["current_version_consecutive_failures"]); f >= 2 {
			eligible = false
			res.Reasons = append(res.Reasons, fmt.Sprintf("safety valve: the current version failed its last %d runs", f))
		}
		res.Eligible = eligible
		if !eligible {
			return nil
		}
		res.Reasons = append(res.Reasons, fmt.Sprintf("pipeline %s: total_runs %d ≥ %d, total_success_rate %.2f ≥ %.2f, safety valve clear", pid, runs, minRuns, rate, minRate))
		if active || dryRun {
			return nil
		}
		ctx := NewObj().With("pipeline_id", pid).With("pipeline_run_count", num(runs)).With("success_rate", rate)
		e := NewObj().With("timestamp", env.stamp()).With("sprint_id", fl.sprint()).With("event_type", "yolo_enter").
			With("reason", fmt.Sprintf("pipeline %s 满足 YOLO 条件:total_runs %d ≥ %d,success_rate %.2f ≥ %.2f,最近两次未连续失败", pid, runs, minRuns, rate, minRate)).
			With("yolo_context", ctx)
		enterEntry = e
		if err := tx.AppendEval(e); err != nil {
			return err
		}
		rt.With("yolo", NewObj().With("state", "active").With("entered_at", env.stamp()).With("yolo_context", ctx).
			With("reason", e.Str("reason")))
		if err := tx.WriteJSON(relRuntime, rt); err != nil {
			return err
		}
		rep.did("appended yolo_enter (pipeline %s, run count %d, success rate %.2f); runtime_state.yolo.state = active", pid, runs, rate)
		res.Active = true
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	_ = enterEntry
	rep.OK = true
	return res, rep, nil
}

func toInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case uint64:
		return int(n)
	case float64:
		return int(n)
	}
	return 0
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case uint64:
		return float64(n)
	}
	return 0
}

// YoloAbort performs the global revoke of docs/protocol.md §6.1 (abort_policy
// revoke_all): every checkpoint with decision auto_approved_yolo gets status
// revoked, revoked_from auto_approved_yolo, revoke_reason "yolo_aborted:
// <cause>", decision null (§13 #2) and goes back into pending_user_replies;
// one yolo_abort entry per revoked checkpoint (checkpoint_id, decision
// revoked, revoked_from, revoke_reason, reason) plus one sprint-level
// yolo_abort entry with the cause; runtime_state.mode waiting_human (no new
// feature starts: `harness next` refuses while revoked checkpoints wait).
// The one aggregated message (templates/yolo_abort.template.md) is
// returned in Notes. Artifacts are not rolled back.
func YoloAbort(env *Env, cause string) (*Report, error) {
	rep := &Report{Command: "yolo abort"}
	if strings.TrimSpace(cause) == "" || lazyValue(cause) {
		return nil, usage("--reason must state the cause (e.g. retry_count_in_sprint = 2, f002 phase=3 fail)")
	}
	return env.run(rep, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		ys, err := env.yoloStatus()
		if err != nil {
			return err
		}
		if !ys.active {
			return refuse("YOLO is not active in this sprint (runtime_state.yolo.state is not active; only `harness yolo check` turns it on)")
		}
		ab, err := env.yoloAbortTx(tx, rep, fl, cause)
		if err != nil {
			return err
		}
		rep.Data = map[string]any{"revoked": nonNil(ab.Revoked)}
		return nil
	})
}

// AbortOutcome is what a global YOLO abort did: the revoked checkpoint ids
// and the one aggregated message (templates/yolo_abort.template.md).
type AbortOutcome struct {
	Cause   string   `json:"cause"`
	Revoked []string `json:"revoked"`
	Message string   `json:"message"`
}

// yoloAbortTx stages the global revoke of docs/protocol.md §6.1 in tx (see
// YoloAbort) on fl, the feature list the operation already holds, reading
// the other state files through the transaction so earlier writes of the
// same operation are kept.
func (env *Env) yoloAbortTx(tx *Tx, rep *Report, fl featureList, cause string) (*AbortOutcome, error) {
	now := env.stamp()
	revokeReason := "yolo_aborted: " + strings.TrimSpace(cause)
	var revoked []render.Checkpoint
	var ids []string
	var entries []*Obj
	visit := func(cp *Obj, f *Obj) {
		if cp.Str("decision") != "auto_approved_yolo" {
			return
		}
		cp.With("status", "revoked").With("revoked_from", "auto_approved_yolo").With("revoke_reason", revokeReason).
			With("decision", nil).With("responded_at", nil)
		ref := cpRef{cp: cp, feature: f, sprint: f == nil}
		revoked = append(revoked, renderData(fl, ref, cp))
		ids = append(ids, cp.Str("id"))
		e := NewObj().With("timestamp", now).With("sprint_id", fl.sprint())
		if f != nil {
			e.With("feature_id", f.Str("id"))
			if p, ok := cp.Int("phase"); ok {
				e.With("phase", num(p))
			}
		}
		e.With("event_type", "yolo_abort").With("checkpoint_id", cp.Str("id")).With("checkpoint_type", cp.Str("type")).
			With("decision", "revoked").With("revoked_from", "auto_approved_yolo").With("revoke_reason", revokeReason).
			With("reason", fmt.Sprintf("YOLO 退出,撤销 %s 的自动通过,等待用户重新审阅:%s", cp.Str("id"), strings.TrimSpace(cause)))
		entries = append(entries, e)
	}
	for _, v := range fl.Arr("sprint_checkpoints") {
		if o, ok := v.(*Obj); ok {
			visit(o, nil)
		}
	}
	for _, f := range fl.features() {
		for _, cp := range checkpointsOf(f) {
			visit(cp, f)
		}
	}
	fl.touch(now)
	if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
		return nil, err
	}
	rep.did("revoked %d auto_approved_yolo checkpoint(s): %s", len(ids), strings.Join(ids, ", "))
	for _, e := range entries {
		if err := tx.AppendEval(e); err != nil {
			return nil, err
		}
	}
	sprintEntry := NewObj().With("timestamp", now).With("sprint_id", fl.sprint()).With("event_type", "yolo_abort").
		With("reason", "YOLO 全局退出:"+strings.TrimSpace(cause))
	if err := tx.AppendEval(sprintEntry); err != nil {
		return nil, err
	}
	rep.did("appended %d per-checkpoint yolo_abort entries and the sprint-level yolo_abort entry", len(entries))
	rt, err := tx.readObj("runtime_state.json")
	if err != nil {
		return nil, err
	}
	pend := rt.Strs("pending_user_replies")
	for _, id := range ids {
		if !oneOf(id, pend) {
			pend = append(pend, id)
		}
	}
	rt.With("pending_user_replies", strsToAny(pend)).With("mode", "waiting_human").With("last_heartbeat", now)
	y := rt.ObjAt("yolo")
	if y == nil {
		y = NewObj()
	}
	rt.With("yolo", y.With("state", "aborted").With("aborted_at", now).With("abort_reason", strings.TrimSpace(cause)))
	if err := tx.WriteJSON(relRuntime, rt); err != nil {
		return nil, err
	}
	rep.did("runtime_state.mode → waiting_human, runtime_state.yolo.state = aborted; revoked ids added to pending_user_replies")
	if hc, err := tx.readObj("hermes_context_state.json"); err == nil && len(ids) > 0 {
		l := hc.Strs("pending_checkpoints")
		for _, id := range ids {
			if !oneOf(id, l) {
				l = append(l, id)
			}
		}
		hc.With("pending_checkpoints", strsToAny(l)).With("updated_at", now)
		if err := tx.WriteJSON(relHermesCtx, hc); err != nil {
			return nil, err
		}
	}
	msg, err := render.YoloAbortMessage(render.YoloAbort{Sprint: fl.sprint(), Cause: strings.TrimSpace(cause), Checkpoints: revoked})
	if err != nil {
		return nil, err
	}
	rep.send(msg)
	return &AbortOutcome{Cause: strings.TrimSpace(cause), Revoked: nonNil(ids), Message: msg.Text}, nil
}
