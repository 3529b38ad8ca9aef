package ops

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/workspace"
)

// HermesResetInput is `harness reset hermes`.
type HermesResetInput struct {
	Handoff     []byte // the hermes_handoff.md text Hermes wrote (§3.11)
	PendingEval []byte // JSON object {feature_id, reason, eval_decision, fix_direction}, optional
}

// ResetHermes performs the Hermes in-process Reset writes in the fixed order
// of Z9 (docs/protocol.md §8.2): (1) H/hermes_handoff.md (the given text; when a
// pending_eval is given and the text has no "Pending Eval" section, one with
// the JSON is put first); (2) H/hermes_context_state.json: last_reset_at =
// now, token_usage_ratio 0, pending_eval, pending_checkpoints (the
// runtime's pending_user_replies merged in); (3) H/runtime_state.json:
// last_reset_at and last_heartbeat = now. Each write is an atomic replace, so
// a crash between two steps leaves every earlier step complete and every
// later file untouched, and the pending eval is already in the handoff,
// which `harness reset resume` reads when the context state lacks it.
// Refused while the runtime is suspended or idle (§13 #29).
func ResetHermes(env *Env, in HermesResetInput) (*Report, error) {
	rep := &Report{Command: "reset hermes"}
	if strings.TrimSpace(string(in.Handoff)) == "" {
		return nil, usage("--handoff FILE is empty; write the Hermes handoff first (templates/hermes_handoff.template.md)")
	}
	var pe *Obj
	if len(in.PendingEval) > 0 && strings.TrimSpace(string(in.PendingEval)) != "null" {
		o, err := parseObj(in.PendingEval)
		if err != nil {
			return nil, usage("--pending-eval is not a JSON object: %v", err)
		}
		if !reFeatureID.MatchString(o.Str("feature_id")) || !oneOf(o.Str("eval_decision"), results) || strings.TrimSpace(o.Str("reason")) == "" {
			return nil, usage("--pending-eval needs feature_id, reason and eval_decision (pass, retry or fail)")
		}
		pe = o
	}
	return env.run(rep, func(tx *Tx) error {
		rt, err := env.readObj("runtime_state.json")
		if err != nil {
			return err
		}
		if m := rt.Str("mode"); m == "suspended" || m == "idle" {
			return refuse("no Hermes Reset while runtime_state.mode is %s (docs/protocol.md §13 #29)", m)
		}
		if pe != nil && !pe.Has("phase") {
			// The verdict is about the phase the feature is in now; resume
			// records it against that phase (docs/protocol.md §8.2).
			fl, err := env.loadFeatureList()
			if err != nil {
				return err
			}
			f, err := fl.mustFeature(pe.Str("feature_id"))
			if err != nil {
				return err
			}
			if p, ok := f.Int("phase"); ok {
				pe.With("phase", num(p))
			}
		}
		hc, err := env.readObj("hermes_context_state.json")
		if err != nil {
			return err
		}
		now := env.stamp()
		handoff := string(in.Handoff)
		if pe != nil && !strings.Contains(handoff, "Pending Eval") {
			js, _ := workspace.MarshalIndent(pe)
			handoff = "## Pending Eval(关键!)\n\n```json\n" + strings.TrimSpace(string(js)) + "\n```\n\n" + handoff
		}
		if !strings.HasSuffix(handoff, "\n") {
			handoff += "\n"
		}
		tx.Write(relHermesHand, []byte(handoff))
		rep.did("1. wrote .harness/hermes_handoff.md (%d bytes)", len(handoff))
		hc.With("last_reset_at", now).With("token_usage_ratio", num(0)).With("updated_at", now)
		if pe != nil {
			hc.With("pending_eval", pe)
		} else if !hc.Has("pending_eval") {
			hc.With("pending_eval", nil)
		}
		pcs := hc.Strs("pending_checkpoints")
		for _, id := range rt.Strs("pending_user_replies") {
			if !oneOf(id, pcs) {
				pcs = append(pcs, id)
			}
		}
		hc.With("pending_checkpoints", strsToAny(pcs))
		if err := tx.WriteJSON(relHermesCtx, hc); err != nil {
			return err
		}
		rep.did("2. hermes_context_state.json: last_reset_at %s, token_usage_ratio 0, pending_eval %s, pending_checkpoints [%s]",
			now, map[bool]string{true: "set", false: "unchanged"}[pe != nil], strings.Join(pcs, ", "))
		rt.With("last_reset_at", now).With("last_heartbeat", now)
		if err := tx.WriteJSON(relRuntime, rt); err != nil {
			return err
		}
		rep.did("3. runtime_state.json: last_reset_at and last_heartbeat %s", now)
		rep.Notes = append(rep.Notes, "next: clear the context, reload, then `harness reset resume`")
		return nil
	})
}

var pendingEvalBlock = regexp.MustCompile("(?s)Pending Eval[^\n]*\n+```(?:json)?\n(.*?)\n```")

// ResumeResult is what `harness reset resume` reports.
type ResumeResult struct {
	PendingEvalRecovered bool     `json:"pending_eval_recovered"`
	PendingEval          any      `json:"pending_eval,omitempty"`
	Answered             []string `json:"answered_checkpoints"`
	Waiting              []string `json:"waiting_checkpoints"`
	Mode                 string   `json:"mode"`
	ResumeAs             string   `json:"resume_as"`
}

// ResetResume is the reload after a Hermes Reset (docs/protocol.md §8.2): the
// pending_eval (from hermes_context_state.json, or from the handoff's
// "Pending Eval" JSON block when a crash hit before step 2) is appended as a
// phase_evaluation {feature_id, phase (the feature's current phase), result
// = eval_decision, reason + recovery note, hermes_notes = fix_direction} and
// cleared; pending checkpoints whose decision arrived in feature_list are
// listed and dropped, the others kept (not re-sent); then the reset entry
// {event_type reset, agent hermes, reason, pending_eval_recovered,
// pending_checkpoints_recovered} is appended. It is idempotent: once a Hermes
// reset entry newer than hermes_handoff.md exists, it changes nothing.
func ResetResume(env *Env) (*ResumeResult, *Report, error) {
	rep := &Report{Command: "reset resume"}
	res := &ResumeResult{Answered: []string{}, Waiting: []string{}}
	err := env.update(rep, func(tx *Tx) error {
		st, err := os.Stat(env.H("hermes_handoff.md"))
		if err != nil {
			return refuse("no .harness/hermes_handoff.md: there was no Hermes Reset to resume from")
		}
		handoff, _ := fsutil.ReadRegular(env.H("hermes_handoff.md"), fsutil.CapRecord)
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
		res.Mode = rt.Str("mode")
		res.ResumeAs = resumeRole(env, fl, rt.Str("mode"))
		hc, err := env.readObj("hermes_context_state.json")
		if err != nil {
			return err
		}
		// Resumed already: hermes_context_state.resumed_handoff holds this
		// handoff's digest (written by the resume that applied it), or a
		// Hermes reset entry is newer than the handoff file.
		digest := handoffDigest(handoff)
		for _, en := range log.Resets {
			if en.Agent == "hermes" {
				t, err := time.Parse(time.RFC3339, en.Timestamp)
				if hc.Str("resumed_handoff") == digest || (err == nil && !t.Before(st.ModTime().Truncate(time.Second))) {
					rep.did("already resumed (.harness/eval_log.jsonl:%d); nothing to do", en.Line)
					return nil
				}
			}
		}
		now := env.stamp()
		pe := hc.ObjAt("pending_eval")
		if pe == nil {
			if m := pendingEvalBlock.FindSubmatch(handoff); m != nil {
				if o, err := parseObj(m[1]); err == nil && o.Str("feature_id") != "" {
					pe = o
					rep.did("pending_eval recovered from .harness/hermes_handoff.md (the context state lacked it)")
				}
			}
		}
		if pe != nil {
			fid := pe.Str("feature_id")
			f, err := fl.mustFeature(fid)
			if err != nil {
				return err
			}
			e := NewObj().With("timestamp", now).With("sprint_id", fl.sprint()).With("feature_id", fid)
			if p, ok := pe.Int("phase"); ok {
				e.With("phase", num(p)) // the phase the verdict was meant for
			} else if p, ok := f.Int("phase"); ok {
				e.With("phase", num(p))
			}
			e.With("event_type", "phase_evaluation").With("result", pe.Str("eval_decision")).
				With("reason", strings.TrimSpace(pe.Str("reason"))+"(Hermes Reset 前得出的结论,reset resume 恢复)")
			if fd := pe.Str("fix_direction"); fd != "" {
				e.With("hermes_notes", fd)
			}
			if err := checkEntry(fl, e); err != nil {
				return err
			}
			if err := tx.AppendEval(e); err != nil {
				return err
			}
			res.PendingEvalRecovered = true
			res.PendingEval = pe
			rep.did("appended the recovered verdict: %s result=%s", fid, pe.Str("eval_decision"))
			switch pe.Str("eval_decision") {
			case "pass":
				rep.Notes = append(rep.Notes, "next: `harness phase advance "+fid+"`")
			default:
				rep.Notes = append(rep.Notes, "next: notify the Generator and `harness phase retry "+fid+" --to Q`")
			}
		}
		hc.With("pending_eval", nil)
		ids := hc.Strs("pending_checkpoints")
		var keep []string
		for _, id := range ids {
			ref, err := findCheckpoint(fl, id)
			if err == nil && ref.cp != nil && ref.cp.Value("decision") != nil {
				res.Answered = append(res.Answered, id)
			} else {
				keep = append(keep, id)
				res.Waiting = append(res.Waiting, id)
			}
		}
		hc.With("pending_checkpoints", strsToAny(nonNil(keep))).With("resumed_handoff", digest).With("updated_at", now)
		if err := tx.WriteJSON(relHermesCtx, hc); err != nil {
			return err
		}
		rep.did("hermes_context_state.json: pending_eval null; pending_checkpoints [%s] (answered and dropped: [%s])",
			strings.Join(keep, ", "), strings.Join(res.Answered, ", "))
		reason := records.TriggerReason(handoff)
		if reason == records.DefaultResetTrigger {
			reason = "hermes reset (trigger not recorded in hermes_handoff.md)"
		}
		r := NewObj().With("timestamp", now).With("sprint_id", fl.sprint()).With("event_type", "reset").With("agent", "hermes").
			With("reason", reason).With("pending_eval_recovered", res.PendingEvalRecovered).
			With("pending_checkpoints_recovered", num(len(res.Answered)))
		if err := tx.AppendEval(r); err != nil {
			return err
		}
		rep.did("appended the Hermes reset entry (%s)", reason)
		if len(res.Answered) > 0 {
			rep.Notes = append(rep.Notes, "process the answered checkpoints now: "+strings.Join(res.Answered, ", "))
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("resume as %s (mode %s)", res.ResumeAs, res.Mode))
		n := 0
		for _, en := range log.Resets {
			if en.Agent == "hermes" {
				n++
			}
		}
		if n >= 1 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("warning: %d Hermes Reset(s) already in this sprint (more than one per sprint is a warning sign, docs/protocol.md §8.2)", n+1))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	rep.OK = true
	return res, rep, nil
}

// handoffDigest names one hermes_handoff.md text: the first 16 hex digits
// of its SHA-256 (hermes_context_state.resumed_handoff).
func handoffDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// resumeRole routes by mode (§8.2, §13 #29): a finalizing contract →
// finalizer, planning → planner, active/waiting_human → evaluator.
func resumeRole(env *Env, fl featureList, mode string) string {
	if c, _, err := env.loadContract(fl); err == nil && c != nil && c.Str("status") == "finalizing" {
		return "finalizer"
	}
	if mode == "planning" {
		return "planner"
	}
	return "evaluator"
}
