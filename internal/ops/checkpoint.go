package ops

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/safetext"
)

var reCheckpointFeature = regexp.MustCompile(`^cp-(f[0-9]+(?:-[0-9]+)*)-([0-9]+)$`)

// cpRef locates a checkpoint in feature_list: a feature checkpoint in
// features[*].checkpoints, or a sprint gate in sprint_checkpoints (§13 #5).
type cpRef struct {
	cp      *Obj
	feature *Obj // nil for a sprint gate
	sprint  bool
}

func isSprintGate(id string) bool { return id == GateTooling || id == GateDAG }

func findCheckpoint(fl featureList, id string) (cpRef, error) {
	if isSprintGate(id) {
		for _, v := range fl.Arr("sprint_checkpoints") {
			if o, ok := v.(*Obj); ok && o.Str("id") == id {
				return cpRef{cp: o, sprint: true}, nil
			}
		}
		return cpRef{sprint: true}, nil
	}
	m := reCheckpointFeature.FindStringSubmatch(id)
	if m == nil {
		return cpRef{}, usage("checkpoint id %q is neither cp-sprint-tooling, cp-sprint-dag nor cp-<fid>-<seq>", id)
	}
	f := fl.feature(m[1])
	if f == nil {
		return cpRef{}, refuse("%s belongs to feature %s, which is not in .harness/feature_list.json", id, m[1])
	}
	for _, cp := range checkpointsOf(f) {
		if cp.Str("id") == id {
			return cpRef{cp: cp, feature: f}, nil
		}
	}
	return cpRef{feature: f}, nil
}

// blockersOf returns the checkpoint's blockers with catch_all last (the order
// in which they are numbered in the message and the reply).
func blockersOf(cp *Obj) []Blocker {
	var out, tail []Blocker
	for _, v := range cp.Arr("blockers") {
		o, ok := v.(*Obj)
		if !ok {
			continue
		}
		b := Blocker{ID: o.Str("id"), Question: o.Str("question"), Options: o.Strs("options")}
		if b.ID == "catch_all" {
			tail = append(tail, b)
		} else {
			out = append(out, b)
		}
	}
	return append(out, tail...)
}

// CheckpointOpenInput is `harness checkpoint open CP_ID`.
type CheckpointOpenInput struct {
	ID string
	// Blockers is the JSON of the drafted blockers: an array of {id, question,
	// options[, default_if_no_reply]} or an object {blockers, prompt?, artifacts?}.
	Blockers  []byte
	Type      string // gate | review | notify; default: the stored type, else gate
	Phase     int    // needed only to create a feature checkpoint not planned yet
	Prompt    string
	Artifacts []string
	// TaskYolo is the running task file (tasks/running/<id>.json) of a task
	// in YOLO mode (mode yolo, auto_approve_all true): its gates pass as
	// auto_approved_yolo_task (§6.2).
	TaskYolo []byte
	// ExternalIrreversible marks the gate as guarding an external
	// irreversible operation (§13 #15): YOLO never passes it.
	ExternalIrreversible bool
}

// CheckpointOpen pushes a checkpoint to the user (docs/protocol.md §5 gate flow
// steps 1–3): it stores the blockers (a gate needs 2–4 drafted blockers, each
// with ≥ 2 options and no default_if_no_reply; the fixed catch_all is appended
// last; a review needs ≥ 1; a notify none), sets status pending, created_at,
// clears decision/feedback/responded_at, adds the id to
// runtime_state.pending_user_replies and hermes_context_state.pending_checkpoints,
// and, for a gate, puts the feature and its pool entry into waiting_human (a
// review does not block: it passes after 48 h). Sprint gates are
// stored in feature_list.sprint_checkpoints[] (§13 #5, no phase) and put the
// runtime into waiting_human. A notify is logged at once (event_type checkpoint,
// checkpoint_type notify, no decision, D14) and never waits. While a pipeline
// YOLO is on (§6.1), a feature gate passes at once as auto_approved_yolo with
// the yolo_context, unless it is marked external_irreversible (§13 #15); with
// TaskYolo (§6.2) every gate, sprint gates included, passes as
// auto_approved_yolo_task with task_id and yolo_context {mode task_level, …},
// unless it is external_irreversible and keep_gates_for lists that. The
// rendered message is returned in Notes.
func CheckpointOpen(env *Env, in CheckpointOpenInput) (*Report, error) {
	rep := &Report{Command: "checkpoint open"}
	return env.run(rep, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		ref, err := findCheckpoint(fl, in.ID)
		if err != nil {
			return err
		}
		now := env.stamp()
		cp := ref.cp
		if cp == nil {
			cp = NewObj().With("id", in.ID)
			if ref.sprint {
				cp.With("type", "gate")
				fl.With("sprint_checkpoints", append(fl.Arr("sprint_checkpoints"), cp))
			} else {
				if in.Phase < 1 || in.Phase > 4 {
					return usage("%s is not planned in %s.checkpoints; pass --phase 1..4 (and --type) to create it", in.ID, ref.feature.Str("id"))
				}
				cp.With("phase", num(in.Phase))
				ref.feature.With("checkpoints", append(ref.feature.Arr("checkpoints"), cp))
			}
			rep.did("created checkpoint %s", in.ID)
		}
		typ := in.Type
		if typ == "" {
			typ = cp.Str("type")
		}
		if typ == "" {
			typ = "gate"
		}
		if ref.sprint && typ != "gate" {
			return usage("%s is a sprint gate; --type must be gate", in.ID)
		}
		if !oneOf(typ, checkpointTypes) {
			return usage("--type %q: one of gate, review, notify", typ)
		}
		if cp.Str("status") == "pending" && cp.Has("created_at") && pendingHas(env, in.ID) {
			return refuse("%s is already open (pending since %s); use `harness checkpoint render %s` to resend it", in.ID, cp.Str("created_at"), in.ID)
		}
		prompt, artifacts := in.Prompt, in.Artifacts
		var blockers []any
		if len(in.Blockers) > 0 {
			v, err := parseValue(in.Blockers)
			if err != nil {
				return usage("blockers file is not JSON: %v", err)
			}
			if o, ok := v.(*Obj); ok {
				if prompt == "" {
					prompt = o.Str("prompt")
				}
				if len(artifacts) == 0 {
					artifacts = o.Strs("artifacts")
				}
				v = o.Value("blockers")
			}
			arr, ok := v.([]any)
			if !ok {
				return usage("blockers must be a JSON array of {id, question, options} (or an object with a blockers array)")
			}
			blockers = arr
		} else if typ != "notify" {
			blockers = cp.Arr("blockers")
		}
		blockers, err = checkBlockers(in.ID, typ, blockers)
		if err != nil {
			return err
		}
		cp.With("type", typ)
		if typ != "notify" || len(blockers) > 0 {
			cp.With("blockers", blockers)
		}
		if prompt != "" {
			if err := safetext.CheckLine("prompt", prompt); err != nil {
				return usage("%v", err)
			}
			cp.With("prompt", prompt)
		}
		if in.ExternalIrreversible {
			cp.With("external_irreversible", true)
		}
		if len(artifacts) == 0 && in.ID == GateTooling && !cp.Has("artifacts") {
			artifacts = []string{".harness/sprint_contracts/" + fl.sprint() + "/tooling.md"} // §4.4
		}
		if len(artifacts) > 0 {
			cp.With("artifacts", strsToAny(artifacts))
		}
		cp.With("created_at", now).With("responded_at", nil).With("decision", nil).With("feedback", nil)
		if cp.Has("reminded_at") {
			cp.With("reminded_at", []any{})
		}
		fid := ""
		if ref.feature != nil {
			fid = ref.feature.Str("id")
		}
		log, err := tx.evalLog()
		if err != nil {
			return err
		}
		log.note(rep)
		if len(in.TaskYolo) > 0 {
			task, err := parseObj(in.TaskYolo)
			if err != nil {
				return usage("--task-yolo: the task file is not JSON: %v", err)
			}
			if task.Str("mode") != "yolo" || !task.Bool("auto_approve_all") || !reTaskID.MatchString(task.Str("id")) {
				return refuse("--task-yolo: task %q is not a YOLO task (mode yolo and auto_approve_all true); gates are sent to the user", task.Str("id"))
			}
			var keep []string
			if ov := task.ObjAt("yolo_overrides"); ov != nil {
				keep = ov.Strs("keep_gates_for")
			}
			if typ == "gate" && !(cp.Bool("external_irreversible") && oneOf("external_irreversible", keep)) {
				cp.With("status", "pending")
				ctx := NewObj().With("mode", "task_level").With("auto_approve_all", true).With("keep_gates_for", strsToAny(nonNil(keep)))
				tid := task.Str("id")
				r := Reply{Decision: "auto_approved_yolo_task"}
				reason := fmt.Sprintf("task YOLO (%s):gate %s 不发送,按任务设置自动通过 (auto_approved_yolo_task)", tid, in.ID)
				if err := env.recordDecision(tx, rep, fl, log, cpRef{cp: cp, feature: ref.feature, sprint: ref.sprint}, in.ID, r, "", reason, func(e *Obj) {
					e.With("task_id", tid).With("yolo_context", ctx)
				}); err != nil {
					return err
				}
				rep.Data = map[string]any{"checkpoint_id": in.ID, "type": typ, "decision": r.Decision, "task_id": tid}
				return nil
			}
		}
		// A due abort trigger aborts YOLO here instead: the gate is sent.
		ab, err := env.abortIfDue(tx, rep, fl, log)
		if err != nil {
			return err
		}
		ys, err := env.yoloStatus()
		if err != nil {
			return err
		}
		if yctx := ys.ctx; ab == nil && ys.active && typ == "gate" && !ref.sprint && !cp.Bool("external_irreversible") {
			// Pipeline YOLO (§6.1): the gate is not sent; it passes as
			// auto_approved_yolo with the yolo_context. Gates marked
			// external_irreversible (§13 #15) are always sent.
			cp.With("status", "passed").With("decision", "auto_approved_yolo").With("responded_at", now)
			e := NewObj().With("timestamp", now).With("sprint_id", fl.sprint()).With("feature_id", fid)
			if p, ok := cp.Int("phase"); ok {
				e.With("phase", num(p))
			}
			e.With("event_type", "checkpoint").With("checkpoint_id", in.ID).With("checkpoint_type", "gate").
				With("decision", "auto_approved_yolo").
				With("reason", fmt.Sprintf("pipeline YOLO 生效,gate %s 不发送,自动通过 (auto_approved_yolo)", in.ID)).
				With("yolo_context", yctx)
			fl.touch(now)
			if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
				return err
			}
			if err := tx.AppendEval(e); err != nil {
				return err
			}
			rep.did("YOLO active: gate %s auto-approved (auto_approved_yolo), not sent", in.ID)
			rep.Data = map[string]any{"checkpoint_id": in.ID, "type": typ, "decision": "auto_approved_yolo"}
			return nil
		}
		if typ == "notify" {
			cp.With("status", "passed")
			e := NewObj().With("timestamp", now).With("sprint_id", fl.sprint())
			if fid != "" {
				e.With("feature_id", fid)
				if p, ok := cp.Int("phase"); ok {
					e.With("phase", num(p))
				}
			}
			e.With("event_type", "checkpoint").With("checkpoint_id", in.ID).With("checkpoint_type", "notify").
				With("reason", fmt.Sprintf("notify %s sent: %s", in.ID, firstNonEmpty(prompt, "phase finished, no reply needed")))
			fl.touch(now)
			if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
				return err
			}
			if err := tx.AppendEval(e); err != nil {
				return err
			}
			rep.did("notify %s logged (status passed, no decision)", in.ID)
		} else {
			cp.With("status", "pending")
			if typ == "gate" && ref.feature != nil && ref.feature.Str("status") == "in_progress" {
				ref.feature.With("status", "waiting_human")
				rep.did("%s status → waiting_human", fid)
			}
			fl.touch(now)
			if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
				return err
			}
			rep.did("%s %s opened with %d blockers (status pending)", typ, in.ID, len(blockers))
			if err := env.addPending(tx, rep, in.ID, ref.sprint); err != nil {
				return err
			}
			if fid != "" {
				pool, err := env.readObj("session_pool.json")
				if err != nil {
					return err
				}
				if e := pool.ObjAt("active").ObjAt(fid); typ == "gate" && e != nil && e.Str("status") == "running" {
					e.With("status", "waiting_human").With("last_activity", now)
					if err := tx.WriteJSON(relPool, pool); err != nil {
						return err
					}
					rep.did("session_pool.active.%s.status = waiting_human", fid)
				}
			}
			if in.ID == GateTooling {
				if c, rel, err := env.loadContract(fl); err == nil && c != nil && c.Str("status") == "planning" {
					c.With("status", "tooling")
					if err := tx.WriteJSON(rel, c); err != nil {
						return err
					}
					rep.did("contract status planning → tooling")
				}
			}
		}
		msg, err := renderCheckpoint(fl, ref, cp)
		if err != nil {
			return err
		}
		rep.send(msg)
		rep.Data = map[string]any{"checkpoint_id": in.ID, "type": typ}
		return nil
	})
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// checkBlockers enforces the blocker counts of §13 #48 and appends catch_all
// to a gate.
func checkBlockers(id, typ string, in []any) ([]any, error) {
	var drafted []any
	hasCatchAll := false
	ids := map[string]bool{}
	for i, v := range in {
		o, ok := v.(*Obj)
		if !ok {
			return nil, usage("blocker %d is not an object", i+1)
		}
		if o.Str("id") == "catch_all" {
			if i != len(in)-1 {
				return nil, usage("catch_all must be the last blocker")
			}
			hasCatchAll = true
			continue
		}
		if o.Str("id") == "" || strings.TrimSpace(o.Str("question")) == "" {
			return nil, usage("blocker %d needs an id and a question", i+1)
		}
		// one line each: a newline would fake a numbered question or an
		// option in the message ("3. REAL: reply 1b 2b 3a")
		if err := safetext.CheckLine(fmt.Sprintf("blocker %s question", o.Str("id")), o.Str("question")); err != nil {
			return nil, usage("%v", err)
		}
		if err := safetext.CheckLine("blocker id", o.Str("id")); err != nil {
			return nil, usage("%v", err)
		}
		for k, opt := range o.Strs("options") {
			if err := safetext.CheckLine(fmt.Sprintf("blocker %s option %d", o.Str("id"), k+1), opt); err != nil {
				return nil, usage("%v", err)
			}
		}
		if ids[o.Str("id")] {
			return nil, usage("blocker id %s appears twice", o.Str("id"))
		}
		ids[o.Str("id")] = true
		if n := len(o.Strs("options")); n < 2 {
			return nil, usage("blocker %s has %d options; at least 2 mutually exclusive options are required", o.Str("id"), n)
		}
		if typ == "gate" {
			if d := o.Value("default_if_no_reply"); d != nil {
				return nil, usage("blocker %s: a gate never has a default_if_no_reply (Z5)", o.Str("id"))
			}
			o.With("default_if_no_reply", nil)
		}
		drafted = append(drafted, o)
	}
	switch typ {
	case "gate":
		if len(drafted) < 2 || len(drafted) > 4 {
			return nil, refuse("%s: a gate needs 2–4 drafted blockers before catch_all, got %d (docs/protocol.md §5, §13 #48)", id, len(drafted))
		}
		return append(drafted, catchAllObj()), nil
	case "review":
		if len(drafted) < 1 {
			return nil, refuse("%s: a review needs at least 1 blocker", id)
		}
		if hasCatchAll {
			drafted = append(drafted, catchAllObj())
		}
		return drafted, nil
	default:
		if len(drafted) > 0 {
			return nil, usage("%s: a notify has no blockers", id)
		}
		return nil, nil
	}
}

func catchAllObj() *Obj {
	return NewObj().With("id", CatchAll().ID).With("question", CatchAll().Question).
		With("options", strsToAny(CatchAll().Options)).With("default_if_no_reply", nil)
}

func pendingHas(env *Env, id string) bool {
	rt, err := env.readObj("runtime_state.json")
	if err != nil {
		return false
	}
	return oneOf(id, rt.Strs("pending_user_replies"))
}

// addPending adds id to runtime_state.pending_user_replies and
// hermes_context_state.pending_checkpoints; a sprint gate also puts the
// runtime into waiting_human.
func (env *Env) addPending(tx *Tx, rep *Report, id string, sprintGate bool) error {
	rt, err := tx.readObj("runtime_state.json")
	if err != nil {
		return err
	}
	if l := rt.Strs("pending_user_replies"); !oneOf(id, l) {
		rt.With("pending_user_replies", strsToAny(append(l, id)))
	}
	if sprintGate && rt.Str("mode") == "planning" {
		rt.With("mode", "waiting_human")
		rep.did("runtime_state.mode planning → waiting_human")
	}
	rt.With("last_heartbeat", env.stamp())
	if err := tx.WriteJSON(relRuntime, rt); err != nil {
		return err
	}
	rep.did("added %s to runtime_state.pending_user_replies", id)
	if hc, err := tx.readObj("hermes_context_state.json"); err == nil {
		if l := hc.Strs("pending_checkpoints"); !oneOf(id, l) {
			hc.With("pending_checkpoints", strsToAny(append(l, id)))
			hc.With("updated_at", env.stamp())
			if err := tx.WriteJSON(relHermesCtx, hc); err != nil {
				return err
			}
			rep.did("added %s to hermes_context_state.pending_checkpoints", id)
		}
	}
	return nil
}

// removePending drops id from both pending lists.
func (env *Env) removePending(tx *Tx, rep *Report, ids ...string) (*Obj, error) {
	rt, err := tx.readObj("runtime_state.json")
	if err != nil {
		return nil, err
	}
	rt.With("pending_user_replies", strsToAny(without(rt.Strs("pending_user_replies"), ids)))
	rt.With("last_heartbeat", env.stamp())
	rep.did("removed %s from runtime_state.pending_user_replies", strings.Join(ids, ", "))
	if hc, err := tx.readObj("hermes_context_state.json"); err == nil {
		l := hc.Strs("pending_checkpoints")
		if n := without(l, ids); len(n) != len(l) {
			hc.With("pending_checkpoints", strsToAny(n))
			hc.With("updated_at", env.stamp())
			if err := tx.WriteJSON(relHermesCtx, hc); err != nil {
				return nil, err
			}
			rep.did("removed %s from hermes_context_state.pending_checkpoints", strings.Join(ids, ", "))
		}
	}
	return rt, nil // the caller writes rt (it may change mode too)
}

func without(l, ids []string) []string {
	out := []string{}
	for _, s := range l {
		if !oneOf(s, ids) {
			out = append(out, s)
		}
	}
	return out
}

// renderCheckpoint renders the message of a checkpoint with templates/
// (internal/render).
func renderCheckpoint(fl featureList, ref cpRef, cp *Obj) (render.Message, error) {
	d := renderData(fl, ref, cp)
	return render.CheckpointMessage(cp.Str("type"), d)
}

func renderData(fl featureList, ref cpRef, cp *Obj) render.Checkpoint {
	d := render.Checkpoint{CheckpointID: cp.Str("id"), Prompt: cp.Str("prompt")}
	if ref.feature != nil {
		d.FeatureID = ref.feature.Str("id")
		d.Name = firstNonEmpty(ref.feature.Str("title"), ref.feature.Str("name"))
		d.Done = d.FeatureID + " 的工作"
		if p, ok := cp.Int("phase"); ok {
			d.Done = fmt.Sprintf("%s 的 phase %d", d.FeatureID, p)
			if a := phaseActions[p]; a != "" {
				d.Done += " (" + a + ")"
			}
		}
	} else {
		d.FeatureID = fl.sprint()
		d.Name = map[string]string{GateTooling: "工具选型 (phase 0)", GateDAG: "feature DAG"}[cp.Str("id")]
		d.Done = map[string]string{GateTooling: fl.sprint() + " 的工具选型草案 (tooling.md)",
			GateDAG: fl.sprint() + " 的 feature 拆分和依赖 (DAG)"}[cp.Str("id")]
	}
	for _, b := range blockersOf(cp) {
		d.Blockers = append(d.Blockers, render.Blocker{ID: b.ID, Question: b.Question, Options: b.Options})
	}
	return d
}

// CheckpointRender returns the message of CP_ID from the templates (§5 step
// 2): title, prompt, numbered blockers with options a/b/c, catch_all last,
// and the reply hint. It changes nothing.
func CheckpointRender(env *Env, id string) (render.Message, error) {
	fl, err := env.loadFeatureList()
	if err != nil {
		return render.Message{}, err
	}
	ref, err := findCheckpoint(fl, id)
	if err != nil {
		return render.Message{}, err
	}
	if ref.cp == nil {
		return render.Message{}, refuse("checkpoint %s is not in .harness/feature_list.json; open it with `harness checkpoint open %s --blockers FILE`", id, id)
	}
	return renderCheckpoint(fl, ref, ref.cp)
}

// CheckpointReply records the user's reply to CP_ID (docs/protocol.md §5 steps
// 5–6): the checkpoint's status (passed for approving decisions, failed for
// rejected), decision, feedback and responded_at in feature_list; one
// event_type checkpoint eval entry with checkpoint_type, decision,
// user_reply_raw, blockers_resolved and reason; and the id removed from
// pending_user_replies and pending_checkpoints. An unanswered or ambiguous
// reply is refused with the follow-up question (never guess). `suspend` /
// `resume` suspend or resume the sprint instead. Side effects: the feature
// leaves waiting_human (approved_with_changes puts the feedback into
// retry_hint); cp-sprint-tooling approved → tooling_locked true and contract
// planned (approved_with_changes means amend tooling.md and open the gate
// again, §4.4); cp-sprint-dag approving → contract active, runtime mode
// active and .current_agent role evaluator.
func CheckpointReply(env *Env, id, text string) (*Report, error) {
	rep := &Report{Command: "checkpoint reply"}
	return env.run(rep, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		ref, err := findCheckpoint(fl, id)
		if err != nil {
			return err
		}
		if ref.cp == nil {
			return refuse("checkpoint %s was never opened", id)
		}
		cp := ref.cp
		st := cp.Str("status")
		if st != "pending" && st != "revoked" {
			return refuse("%s is not waiting for a reply (status %s, decision %v)", id, st, orNull(cp.Value("decision")))
		}
		if cp.Str("type") == "notify" {
			return refuse("%s is a notify checkpoint; it takes no reply", id)
		}
		log, err := tx.evalLog()
		if err != nil {
			return err
		}
		log.note(rep)
		r := ParseReply(text, blockersOf(cp))
		switch {
		case r.Question != "":
			return &Refusal{Reason: fmt.Sprintf("refused: the reply to %s is incomplete or ambiguous; nothing was recorded. Ask the user:", id), Question: r.Question}
		case r.Suspend || r.Resume:
			return env.suspendResume(tx, rep, fl, r.Suspend)
		}
		if err := env.recordDecision(tx, rep, fl, log, ref, id, r, text, replyReason(id, text, r), nil); err != nil {
			return err
		}
		fid := ""
		if ref.feature != nil {
			fid = ref.feature.Str("id")
		}
		rep.Notes = append(rep.Notes, nextAfterReply(id, fid, cp, r))
		rep.Data = map[string]any{"checkpoint_id": id, "decision": r.Decision, "feedback": r.Feedback, "blockers_resolved": r.Answers}
		_, err = env.abortIfDue(tx, rep, fl, log)
		return err
	})
}

// recordDecision writes a checkpoint decision everywhere §5 requires: the
// checkpoint's status/decision/feedback/responded_at in feature_list, one
// event_type checkpoint eval entry (extra adds fields such as task_id and
// yolo_context), the id removed from the pending lists, the feature and pool
// entry out of waiting_human, and the sprint-gate side effects (§4.4).
func (env *Env) recordDecision(tx *Tx, rep *Report, fl featureList, log evalLog, ref cpRef, id string, r Reply, text, reason string, extra func(e *Obj)) error {
	cp := ref.cp
	st := cp.Str("status")
	now := env.stamp()
	fid := ""
	if ref.feature != nil {
		fid = ref.feature.Str("id")
	}
	status := "passed"
	if r.Decision == "rejected" {
		status = "failed"
	}
	cp.With("status", status).With("decision", r.Decision).With("responded_at", now)
	if r.Feedback != "" {
		cp.With("feedback", r.Feedback)
	} else {
		cp.With("feedback", nil)
	}
	rep.did("%s: status %s, decision %s", id, status, r.Decision)
	if ref.feature != nil {
		f := ref.feature
		if f.Str("status") == "waiting_human" {
			f.With("status", "in_progress")
			rep.did("%s status waiting_human → in_progress", fid)
		}
		if r.Decision == "approved_with_changes" {
			f.With("retry_hint", r.Feedback)
			rep.did("%s retry_hint = the user's feedback", fid)
		}
	}
	var sideEffects []func() error
	if id == GateTooling && (r.Decision == "approved" || strings.HasPrefix(r.Decision, "auto_approved_yolo")) {
		fl.With("tooling_locked", true)
		rep.did("tooling_locked = true")
		sideEffects = append(sideEffects, func() error { return env.setContractStatus(tx, rep, fl, "planned") })
		sideEffects = append(sideEffects, func() error { return env.signTooling(tx, rep, fl, now, r) })
	}
	fl.touch(now)
	if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
		return err
	}
	// eval_log entry
	e := NewObj().With("timestamp", now).With("sprint_id", fl.sprint())
	if fid != "" {
		e.With("feature_id", fid)
		if p, ok := cp.Int("phase"); ok {
			e.With("phase", num(p))
		}
	}
	e.With("event_type", "checkpoint").With("checkpoint_id", id).With("checkpoint_type", cp.Str("type")).
		With("decision", r.Decision).With("reason", reason)
	if text != "" {
		e.With("user_reply_raw", text)
	}
	if extra != nil {
		extra(e)
	}
	if len(r.Answers) > 0 {
		var br []any
		for _, a := range r.Answers {
			o := NewObj().With("id", a.ID).With("answer", a.Answer)
			if a.Feedback != "" {
				o.With("feedback", a.Feedback)
			}
			br = append(br, o)
		}
		e.With("blockers_resolved", br)
	}
	if r.Feedback != "" {
		e.With("hermes_notes", "feedback: "+r.Feedback)
	}
	if rf := cp.Str("revoked_from"); rf != "" && st == "revoked" {
		e.With("revoked_from", rf)
	}
	if err := tx.AppendEval(e); err != nil {
		return err
	}
	rep.did("appended checkpoint entry for %s (decision %s)", id, r.Decision)
	rt, err := env.removePending(tx, rep, id)
	if err != nil {
		return err
	}
	if id == GateTooling && rt.Str("mode") == "waiting_human" {
		rt.With("mode", "planning")
		rep.did("runtime_state.mode waiting_human → planning")
	}
	if id == GateDAG {
		if oneOf(r.Decision, approving) {
			rt.With("mode", "active")
			rep.did("runtime_state.mode → active")
			sideEffects = append(sideEffects, func() error { return env.setContractStatus(tx, rep, fl, "active") })
			sideEffects = append(sideEffects, func() error {
				ca, err := env.readObj(".current_agent")
				if err != nil {
					ca = NewObj()
				}
				ca.With("role", "evaluator").With("platform", "hermes").With("developer", "hermes").
					With("session_id", nil).With("current_feature", nil).With("current_phase", nil)
				if !ca.Has("started_at") {
					ca.With("started_at", now)
				}
				ca.With("last_activity", now)
				rep.did(".current_agent role → evaluator (developer hermes)")
				return tx.WriteJSON(relCurrentAgent, ca)
			})
		} else if rt.Str("mode") == "waiting_human" {
			rt.With("mode", "planning")
			rep.did("runtime_state.mode waiting_human → planning (replan)")
		}
	}
	if fid != "" && rt.Str("mode") == "waiting_human" && len(rt.Strs("pending_user_replies")) == 0 {
		if ok, _ := env.gateApproved(fl, GateDAG); ok {
			rt.With("mode", "active")
			rep.did("runtime_state.mode waiting_human → active (no reply pending)")
		}
	}
	if err := tx.WriteJSON(relRuntime, rt); err != nil {
		return err
	}
	if fid != "" {
		pool, err := env.readObj("session_pool.json")
		if err != nil {
			return err
		}
		if pe := pool.ObjAt("active").ObjAt(fid); pe != nil && pe.Str("status") == "waiting_human" {
			pe.With("status", "running").With("last_activity", now)
			if err := tx.WriteJSON(relPool, pool); err != nil {
				return err
			}
			rep.did("session_pool.active.%s.status = running", fid)
		}
	}
	for _, fn := range sideEffects {
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

func replyReason(id, raw string, r Reply) string {
	var parts []string
	for _, a := range r.Answers {
		parts = append(parts, a.ID+"="+a.Answer)
	}
	s := fmt.Sprintf("用户回复 %s:%s → %s", id, strings.Join(parts, " "), r.Decision)
	if r.Decision == "rejected" {
		s = fmt.Sprintf("用户拒绝 %s:%s", id, strings.TrimSpace(raw))
	} else if r.Feedback != "" {
		s += ",反馈:" + r.Feedback
	}
	return s
}

func nextAfterReply(id, fid string, cp *Obj, r Reply) string {
	switch {
	case id == GateTooling && r.Decision == "approved_with_changes":
		return "next: amend tooling.md with the feedback and open cp-sprint-tooling again (docs/protocol.md §4.4)"
	case id == GateTooling && r.Decision == "rejected":
		return "next: redo the capability inference and open cp-sprint-tooling again"
	case id == GateDAG && r.Decision == "rejected":
		return "next: replan the feature DAG and open cp-sprint-dag again"
	case isSprintGate(id):
		return "next: `harness next` lists the features that may start"
	case r.Decision == "rejected":
		p, _ := cp.Int("phase")
		q := p
		if p == 3 {
			q = 2
		}
		return fmt.Sprintf("next: `harness phase retry %s --to %d --reason …` (the rejection is already the rollback verdict)", fid, q)
	default:
		return fmt.Sprintf("next: `harness phase advance %s`", fid)
	}
}

func (env *Env) setContractStatus(tx *Tx, rep *Report, fl featureList, status string) error {
	c, rel, err := env.loadContract(fl)
	if err != nil || c == nil {
		return err
	}
	if c.Str("status") == status {
		return nil
	}
	rep.did("contract status %s → %s", firstNonEmpty(c.Str("status"), "(none)"), status)
	c.With("status", status)
	if status == "planned" || status == "active" {
		c.With("tooling_locked", fl.Bool("tooling_locked"))
	}
	return tx.WriteJSON(rel, c)
}

// suspendResume handles the `suspend` / `resume` replies (§7): runtime mode
// and contract status suspended, or back to active (planning while the DAG
// gate is not approved).
func (env *Env) suspendResume(tx *Tx, rep *Report, fl featureList, suspend bool) error {
	rt, err := env.readObj("runtime_state.json")
	if err != nil {
		return err
	}
	mode := "suspended"
	if !suspend {
		if rt.Str("mode") != "suspended" {
			return refuse("the sprint is not suspended (mode %s)", rt.Str("mode"))
		}
		mode = "planning"
		if ok, _ := env.gateApproved(fl, GateDAG); ok {
			mode = "active"
		}
	}
	rep.did("runtime_state.mode %s → %s", rt.Str("mode"), mode)
	rt.With("mode", mode).With("last_heartbeat", env.stamp())
	if err := tx.WriteJSON(relRuntime, rt); err != nil {
		return err
	}
	cs := "suspended"
	if !suspend {
		cs = "active"
		if mode == "planning" {
			cs = "planned"
		}
	}
	if suspend {
		rep.Notes = append(rep.Notes, "every active session finishes its current phase, writes handoff.md and exits; nothing starts until `resume`")
	}
	return env.setContractStatus(tx, rep, fl, cs)
}

// DueItem is one checkpoint that needs attention now.
type DueItem struct {
	CheckpointID string `json:"checkpoint_id,omitempty"`
	// Type is gate, review, reset (a feature's session) or hermes_reset.
	Type string `json:"type"`
	// Action: reminder | urgent_reminder | auto_approved_timeout | waiting
	// for checkpoints; due | overdue | resetting | stale for resets.
	Action      string `json:"action"`
	WaitedHours int    `json:"waited_hours"`
	// Message is the reminder sent (reminder, urgent_reminder).
	Message *render.Message `json:"message,omitempty"`
	// Feature and Detail name a reset item's feature and what was measured.
	Feature string `json:"feature,omitempty"`
	Detail  string `json:"detail,omitempty"`
}

// CheckpointDue runs the checkpoint timers (docs/protocol.md §5 step 4): a gate
// waiting ≥ 24 h gets the 【催办】 reminder and ≥ 72 h the 【催办-紧急】 one
// (each sent once; reminded_at records it); a review waiting ≥ 48 h passes
// as auto_approved_timeout (status passed, eval entry, removed from the
// pending lists). It prints every due message.
func CheckpointDue(env *Env) (*Report, error) {
	rep := &Report{Command: "checkpoint due"}
	var items []DueItem
	err := env.update(rep, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		now := env.now()
		var refs []cpRef
		for _, v := range fl.Arr("sprint_checkpoints") {
			if o, ok := v.(*Obj); ok {
				refs = append(refs, cpRef{cp: o, sprint: true})
			}
		}
		for _, f := range fl.features() {
			for _, cp := range checkpointsOf(f) {
				refs = append(refs, cpRef{cp: cp, feature: f})
			}
		}
		changed := false
		var expired []string
		for _, ref := range refs {
			cp := ref.cp
			st := cp.Str("status")
			if (st != "pending" && st != "revoked") || cp.Str("created_at") == "" {
				continue
			}
			created, err := time.Parse(time.RFC3339, cp.Str("created_at"))
			if err != nil {
				continue
			}
			hours := int(now.Sub(created) / time.Hour)
			id := cp.Str("id")
			reminded := cp.Arr("reminded_at")
			switch cp.Str("type") {
			case "gate":
				urgent := hours >= 72 && len(reminded) < 2
				if urgent || (hours >= 24 && len(reminded) < 1) {
					d := render.Reminder{Checkpoint: renderData(fl, ref, cp), Urgent: urgent, WaitedHours: hours,
						Parallel: parallelFeatures(fl, ref)}
					msg, err := render.ReminderMessage(d)
					if err != nil {
						return err
					}
					cp.With("reminded_at", append(reminded, env.stamp()))
					changed = true
					act := "reminder"
					if urgent {
						act = "urgent_reminder"
					}
					items = append(items, DueItem{CheckpointID: id, Type: "gate", Action: act, WaitedHours: hours, Message: &msg})
					rep.did("%s: %s after %dh (reminded_at += now)", id, act, hours)
				} else {
					items = append(items, DueItem{CheckpointID: id, Type: "gate", Action: "waiting", WaitedHours: hours})
				}
			case "review":
				if hours >= 48 {
					cp.With("status", "passed").With("decision", "auto_approved_timeout").With("responded_at", env.stamp())
					changed = true
					expired = append(expired, id)
					e := NewObj().With("timestamp", env.stamp()).With("sprint_id", fl.sprint())
					if ref.feature != nil {
						e.With("feature_id", ref.feature.Str("id"))
						if p, ok := cp.Int("phase"); ok {
							e.With("phase", num(p))
						}
						if ref.feature.Str("status") == "waiting_human" {
							ref.feature.With("status", "in_progress")
						}
					}
					e.With("event_type", "checkpoint").With("checkpoint_id", id).With("checkpoint_type", "review").
						With("decision", "auto_approved_timeout").
						With("reason", fmt.Sprintf("review %s 等待 %dh 无回复,按协议 48h 自动通过 (auto_approved_timeout)", id, hours))
					if err := tx.AppendEval(e); err != nil {
						return err
					}
					items = append(items, DueItem{CheckpointID: id, Type: "review", Action: "auto_approved_timeout", WaitedHours: hours})
					rep.did("%s: review auto-approved after %dh (auto_approved_timeout)", id, hours)
				} else {
					items = append(items, DueItem{CheckpointID: id, Type: "review", Action: "waiting", WaitedHours: hours})
				}
			}
		}
		if changed {
			fl.touch(env.stamp())
			if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
				return err
			}
		}
		if len(expired) > 0 {
			rt, err := env.removePending(tx, rep, expired...)
			if err != nil {
				return err
			}
			if err := tx.WriteJSON(relRuntime, rt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].WaitedHours > items[j].WaitedHours })
	for _, it := range items {
		if it.Message != nil {
			rep.send(*it.Message)
		}
	}
	// the Resets Hermes must act on are due too (docs/protocol.md §8)
	if rv, err := Resets(env); err == nil {
		for _, f := range rv.Attention() {
			act := f.Reset
			if act == "" {
				act = "stale"
			}
			items = append(items, DueItem{Type: "reset", Action: act, Feature: f.Feature, Detail: f.Why,
				WaitedHours: int(f.IdleS / 3600)})
		}
		if rv.Hermes.Due {
			items = append(items, DueItem{Type: "hermes_reset", Action: "due", Detail: strings.Join(rv.Hermes.Reasons, "; ")})
		}
		rep.Notes = append(rep.Notes, rv.ResetLines()...)
	}
	if items == nil {
		items = []DueItem{}
	}
	rep.Data = items
	rep.OK = true
	return rep, nil
}

var reMultiReply = regexp.MustCompile(`^\s*(cp-[A-Za-z0-9-]+|cp[0-9]+)\s*[:：]\s*(.*)$`)

var reAbortNumber = regexp.MustCompile(`^cp([0-9]+)$`)

// revokedOrder lists the checkpoints a YOLO abort revoked (revoked_from
// auto_approved_yolo), in the order the abort message numbers them: sprint
// gates first, then each feature's checkpoints in feature_list order. The
// user answers checkpoint n of that message on a line `cp<n>: …`
// (docs/protocol.md §5); the numbering stays valid while the replies come in
// because revoked_from is kept after the answer, and YOLO is not entered
// again in the sprint.
func revokedOrder(fl featureList) []string {
	var ids []string
	visit := func(cp *Obj) {
		if cp.Str("revoked_from") == "auto_approved_yolo" {
			ids = append(ids, cp.Str("id"))
		}
	}
	for _, v := range fl.Arr("sprint_checkpoints") {
		if o, ok := v.(*Obj); ok {
			visit(o)
		}
	}
	for _, f := range fl.features() {
		for _, cp := range checkpointsOf(f) {
			visit(cp)
		}
	}
	return ids
}

// CheckpointReplyAll records a message that answers several checkpoints,
// one per line as "<checkpoint id>: 1a 2b …" (docs/protocol.md §5, the reply after
// a YOLO abort). Every line is parsed first; if any names an unknown or
// answered checkpoint, or is incomplete or ambiguous, nothing is recorded
// and the follow-up questions are returned. Then each reply is recorded as
// by CheckpointReply, in message order.
func CheckpointReplyAll(env *Env, text string) (*Report, error) {
	type item struct{ id, reply string }
	var items []item
	for _, line := range strings.Split(normalizeReply(text), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		m := reMultiReply.FindStringSubmatch(line)
		if m == nil {
			return nil, &Refusal{Reason: "refused: every line must read \"<checkpoint id>: <reply>\" or \"cp<n>: <reply>\"; nothing was recorded", Question: "请每行回复一个 checkpoint,格式如「cp1: 1a 2b 3a」或「cp-f001-1: 1a 2b 3a」。无法识别:" + strings.TrimSpace(line)}
		}
		items = append(items, item{m[1], m[2]})
	}
	if len(items) == 0 {
		return nil, usage("the reply names no checkpoint")
	}
	fl, err := env.loadFeatureList()
	if err != nil {
		return nil, err
	}
	var questions []string
	// cp<n> is checkpoint n of the YOLO abort message.
	order := revokedOrder(fl)
	for i, it := range items {
		m := reAbortNumber.FindStringSubmatch(it.id)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if n < 1 || n > len(order) {
			questions = append(questions, fmt.Sprintf("%s: YOLO 退出消息里没有第 %d 个 checkpoint(共 %d 个)", it.id, n, len(order)))
			continue
		}
		items[i].id = order[n-1]
	}
	seen := map[string]bool{}
	for _, it := range items {
		if seen[it.id] {
			questions = append(questions, it.id+": 回复了两次,请只保留一行")
			continue
		}
		seen[it.id] = true
		ref, err := findCheckpoint(fl, it.id)
		if err != nil || ref.cp == nil {
			questions = append(questions, it.id+": 没有这个 checkpoint")
			continue
		}
		if st := ref.cp.Str("status"); st != "pending" && st != "revoked" {
			questions = append(questions, fmt.Sprintf("%s: 已处理 (status %s)", it.id, st))
			continue
		}
		r := ParseReply(it.reply, blockersOf(ref.cp))
		if r.Question != "" {
			questions = append(questions, it.id+": "+r.Question)
		} else if r.Suspend || r.Resume {
			questions = append(questions, it.id+": suspend/resume 请单独回复")
		}
	}
	if len(questions) > 0 {
		return nil, &Refusal{Reason: "refused: some lines are incomplete or ambiguous; nothing was recorded. Ask the user:", Question: strings.Join(questions, "\n")}
	}
	all := &Report{Command: "checkpoint reply-all"}
	for _, it := range items {
		rep, err := CheckpointReply(env, it.id, it.reply)
		if err != nil {
			if len(all.Actions) > 0 {
				return all, fmt.Errorf("%s: %w (the replies before it were recorded)", it.id, err)
			}
			return nil, err
		}
		all.Actions = append(all.Actions, rep.Actions...)
		all.Warnings = rep.Warnings
		all.Notes = append(all.Notes, rep.Notes...)
	}
	all.OK = true
	return all, nil
}

// signTooling fills the sign-off of tooling.md (§3.5 `## 用户签字`: checkpoint
// id, approval time, feedback) when it still holds the template's
// "(pending)" placeholders; any other text is left alone.
func (env *Env) signTooling(tx *Tx, rep *Report, fl featureList, now string, r Reply) error {
	rel := ".harness/sprint_contracts/" + fl.sprint() + "/tooling.md"
	data, err := fsutil.ReadRegular(env.H("sprint_contracts", fl.sprint(), "tooling.md"), fsutil.CapRecord)
	if err != nil {
		return nil
	}
	text := string(data)
	i := strings.Index(text, "\n## 用户签字")
	if i < 0 {
		return nil
	}
	head, sign := text[:i], text[i:]
	fb := r.Feedback
	if fb == "" {
		fb = "无"
	}
	fb = strings.ReplaceAll(fb, "\n", " ")
	signed := strings.Replace(sign, "- Approved at: (pending)", "- Approved at: "+now+" ("+r.Decision+")", 1)
	signed = strings.Replace(signed, "- Feedback: (pending)", "- Feedback: "+fb, 1)
	if signed == sign {
		return nil
	}
	tx.Write(rel, []byte(head+signed))
	rep.did("signed %s (## 用户签字: approved at %s)", rel, now)
	return nil
}

// parallelFeatures lists the features that kept running while the checkpoint
// of ref waits (the 24 h reminder's parallel_features, docs/protocol.md §5):
// every other feature in_progress, as "<fid> <name>".
func parallelFeatures(fl featureList, ref cpRef) []string {
	var out []string
	for _, f := range fl.features() {
		if ref.feature != nil && f.Str("id") == ref.feature.Str("id") {
			continue
		}
		if f.Str("status") == "in_progress" {
			out = append(out, strings.TrimSpace(f.Str("id")+" "+firstNonEmpty(f.Str("title"), f.Str("name"))))
		}
	}
	return out
}
