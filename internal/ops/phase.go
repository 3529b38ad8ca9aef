package ops

import (
	"fmt"
	"sort"
	"strings"
)

// PhaseAdvance is `harness phase advance FID` (docs/protocol.md §4.7 step 2, §13
// #42): after a passing verdict on the feature's current phase P it makes
// the synchronous update. It requires next_phases[phase==P].done (set by
// `harness phase complete`), a last counting phase_evaluation for P with
// result pass (after the retry rule's rollback mark), every gate checkpoint
// of phase P answered with an approving decision (Z5), and tooling_locked
// true before entering phase ≥ 2. P < 4: phase = P+1, current on P+1 only,
// session_pool.active.<fid>.current_phase = P+1 and last_activity = now. P = 4:
// status completed, completed_at = now, commit (from the last passing phase-4
// entry or commit, which must agree), the pool entry removed, and the
// features this unblocks listed.
func PhaseAdvance(env *Env, fid, commit string) (*Report, error) {
	rep := &Report{Command: "phase advance"}
	return env.run(rep, func(tx *Tx) error {
		fl, f, err := env.loadFeature(fid)
		if err != nil {
			return err
		}
		p, ok := f.Int("phase")
		if !ok || p < 1 || p > 4 {
			return refuse("%s has no valid phase (%v)", fid, f.Value("phase"))
		}
		st := f.Str("status")
		if st == "completed" || st == "cancelled" {
			return refuse("%s is already %s; reopening a finished feature is not an advance", fid, st)
		}
		np := nextPhase(f, p)
		if np == nil || !np.Bool("done") {
			return refuse("%s phase=%d is not done: the Generator ends a phase with `harness phase complete %s` (next_phases[phase==%d].done is false)", fid, p, fid, p)
		}
		log, err := tx.evalLog()
		if err != nil {
			return err
		}
		log.note(rep)
		mark := log.rollbackMark(fid, p)
		v, ok := log.lastVerdict(fid, p, mark)
		if !ok {
			if mark > 0 {
				return refuse("%s phase=%d has no phase_evaluation after the rollback at .harness/eval_log.jsonl:%d; append the verdict first (`harness eval append --feature %s --phase %d --event phase_evaluation --result pass --reason …`)", fid, p, mark, fid, p)
			}
			return refuse("%s phase=%d has no phase_evaluation verdict; append one first (`harness eval append --feature %s --phase %d --event phase_evaluation --result pass --reason …`)", fid, p, fid, p)
		}
		if r := v.Result; r != "pass" {
			return refuse("%s phase=%d: the last verdict (.harness/eval_log.jsonl:%d) is result %q, not pass; use `harness phase retry %s --to Q`", fid, p, v.Line, r, fid)
		}
		for _, cp := range checkpointsOf(f) {
			cpp, _ := cp.Int("phase")
			if cpp != p || cp.Str("type") != "gate" {
				continue
			}
			if cp.Str("status") != "passed" || !oneOf(cp.Str("decision"), approving) {
				return refuse("%s phase=%d: gate %s is not approved (status %s, decision %v); answer it with `harness checkpoint reply %s '…'` before advancing (Z5)",
					fid, p, cp.Str("id"), cp.Str("status"), orNull(cp.Value("decision")), cp.Str("id"))
			}
		}
		pool, err := env.readObj("session_pool.json")
		if err != nil {
			return err
		}
		active := pool.ObjAt("active")
		now := env.stamp()

		if p < 4 {
			if p+1 >= 2 && !fl.Bool("tooling_locked") {
				return refuse("%s cannot enter phase=%d: tooling_locked is false (the cp-sprint-tooling gate must be approved first)", fid, p+1)
			}
			f.With("phase", num(p+1))
			setCurrent(f, p+1)
			if st == "waiting_human" {
				f.With("status", "in_progress")
				rep.did("%s status waiting_human → in_progress", fid)
			}
			fl.touch(now)
			if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
				return err
			}
			rep.did("%s phase %d → %d (next_phases[phase==%d].current = true)", fid, p, p+1, p+1)
			if e := active.ObjAt(fid); e != nil {
				e.With("current_phase", num(p+1))
				e.With("last_activity", now)
				if e.Str("status") == "waiting_human" {
					e.With("status", "running")
				}
				if err := tx.WriteJSON(relPool, pool); err != nil {
					return err
				}
				rep.did("session_pool.active.%s.current_phase = %d, last_activity = %s", fid, p+1, now)
			}
			rep.Data = map[string]any{"feature": fid, "phase": p + 1}
			return nil
		}

		// Phase 4 passed: the feature is completed.
		c := v.Commit
		switch {
		case c == "" && commit == "":
			return refuse("%s phase=4 has no commit: the passing phase-4 entry (.harness/eval_log.jsonl:%d) carries none; pass --commit HASH", fid, v.Line)
		case c == "":
			c = commit
		case commit != "" && !strings.HasPrefix(c, commit) && !strings.HasPrefix(commit, c):
			return refuse("--commit %s differs from the phase-4 entry's commit %s (.harness/eval_log.jsonl:%d)", commit, c, v.Line)
		case commit != "" && len(commit) > len(c):
			c = commit
		}
		if !reCommit.MatchString(c) {
			return refuse("commit %q is not a git hash (^[0-9a-f]{7,40}$)", c)
		}
		f.With("status", "completed")
		f.With("completed_at", now)
		f.With("commit", c)
		setCurrent(f, 4)
		fl.touch(now)
		// Which pending features does this unblock?
		done := map[string]bool{fid: true}
		for _, g := range fl.features() {
			if g.Str("status") == "completed" {
				done[g.Str("id")] = true
			}
		}
		var unblocked []string
		for _, g := range fl.features() {
			if g.Str("status") != "pending" || !oneOf(fid, g.Strs("depends_on")) {
				continue
			}
			all := true
			for _, d := range g.Strs("depends_on") {
				if !done[d] {
					all = false
				}
			}
			if all {
				unblocked = append(unblocked, g.Str("id"))
			}
		}
		sort.Strings(unblocked)
		if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
			return err
		}
		rep.did("%s completed: status completed, completed_at %s, commit %s", fid, now, c)
		if active.Has(fid) {
			active.Delete(fid)
			if err := tx.WriteJSON(relPool, pool); err != nil {
				return err
			}
			rep.did("removed %s from session_pool.active (Z16)", fid)
		}
		if len(unblocked) > 0 {
			rep.Notes = append(rep.Notes, "unblocked (dependencies now completed): "+strings.Join(unblocked, ", "))
		}
		allDone := true
		for _, g := range fl.features() {
			if s := g.Str("status"); s != "completed" && s != "cancelled" {
				allDone = false
			}
		}
		if allDone {
			// §4.8: every feature delivered or cancelled → STEP 5.
			if err := env.setContractStatus(tx, rep, fl, "finalizing"); err != nil {
				return err
			}
			rep.Notes = append(rep.Notes, "every feature is completed or cancelled: run `harness finalize --check` (STEP 5)")
		}
		rep.Data = map[string]any{"feature": fid, "completed": true, "commit": c, "unblocked": nonNil(unblocked)}
		return nil
	})
}

// setCurrent marks next_phases[phase==p].current and clears the others.
func setCurrent(f *Obj, p int) {
	for _, v := range f.Arr("next_phases") {
		if o, ok := v.(*Obj); ok {
			n, _ := o.Int("phase")
			o.With("current", n == p)
		}
	}
}

func orNull(v any) any {
	if v == nil {
		return "null"
	}
	return v
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// PhaseRetry is `harness phase retry FID --to Q --reason R` (docs/protocol.md §4.7,
// §13 #45): phase = Q, done = false on every next_phases entry ≥ Q, current on
// Q only, pool current_phase = Q. The verdict is recorded in eval_log as a
// phase_evaluation of the current phase with result retry, unless the
// feature's last eval entry already is a rollback (a retry/fail verdict, an
// event_type fail entry or a rejected checkpoint) for a phase ≥ Q, so a
// verdict appended with `eval append` or a rejected gate is not counted twice
// (retries drive the Reset trigger, §8.1). The reason also becomes the
// feature's retry_hint, and the retry goes into contract.iteration_history.
func PhaseRetry(env *Env, fid string, to int, reason string) (*Report, error) {
	rep := &Report{Command: "phase retry"}
	if to < 1 || to > 4 {
		return nil, usage("--to %d: the phase to return to is 1..4", to)
	}
	return env.run(rep, func(tx *Tx) error {
		fl, f, err := env.loadFeature(fid)
		if err != nil {
			return err
		}
		p, ok := f.Int("phase")
		if !ok {
			return refuse("%s has no valid phase", fid)
		}
		st := f.Str("status")
		if st == "completed" || st == "cancelled" {
			return refuse("%s is %s; a finished feature is not reopened (judge it fail with an event_type fail entry instead)", fid, st)
		}
		if to > p {
			return refuse("--to %d is after %s's current phase %d: a retry only goes back", to, fid, p)
		}
		log, err := tx.evalLog()
		if err != nil {
			return err
		}
		log.note(rep)
		now := env.stamp()
		// Is the rollback verdict already recorded?
		last := log.last(fid)
		recorded := 0
		if last != nil {
			if last.PhaseOK && last.Phase >= to && log.rollbackMark(fid, to) == last.Line {
				recorded = last.Line
			}
		}
		maxIter := 3 // contract.max_iterations default (docs/protocol.md §3.4)
		contract, _, _ := env.loadContract(fl)
		if contract != nil {
			if m, ok := contract.Int("max_iterations"); ok && m >= 1 {
				maxIter = m
			}
		}
		count := log.retryCount(fid) + boolInt(recorded == 0)
		if count > maxIter && st != "blocked" {
			return refuse("%s would have %d retries, more than max_iterations %d: that is a fail verdict, not another retry (docs/protocol.md §4.8). Record it with `harness eval append --feature %s --phase %d --event phase_evaluation --result fail --reason …` (the feature becomes blocked) and escalate to the user; `harness phase retry %s --to Q` resumes a blocked feature once the user decided",
				fid, count, maxIter, fid, p, fid)
		}
		if recorded == 0 {
			if strings.TrimSpace(reason) == "" {
				return usage("--reason is required: it is the retry verdict's reason (the failing item, cause and fix direction)")
			}
			e := NewObj()
			e.With("timestamp", now).With("sprint_id", fl.sprint()).With("feature_id", fid).With("phase", num(p)).
				With("event_type", "phase_evaluation").With("result", "retry").With("reason", reason)
			if err := checkEntry(fl, e); err != nil {
				return err
			}
			if err := tx.AppendEval(e); err != nil {
				return err
			}
			rep.did("appended the retry verdict to .harness/eval_log.jsonl (%s phase=%d result=retry)", fid, p)
		} else {
			rep.did("retry verdict already recorded at .harness/eval_log.jsonl:%d; not appended again", recorded)
			if reason == "" {
				reason = last.Reason
			}
		}
		f.With("phase", num(to))
		for _, v := range f.Arr("next_phases") {
			if o, ok := v.(*Obj); ok {
				n, _ := o.Int("phase")
				if n >= to {
					o.With("done", false)
				}
				o.With("current", n == to)
			}
		}
		if st == "waiting_human" || st == "blocked" {
			f.With("status", "in_progress")
		}
		if l := fl.Strs("blocked"); oneOf(fid, l) {
			fl.With("blocked", strsToAny(without(l, []string{fid})))
			rep.did("removed %s from feature_list.blocked", fid)
		}
		if strings.TrimSpace(reason) != "" {
			f.With("retry_hint", reason)
		}
		fl.touch(now)
		if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
			return err
		}
		rep.did("%s phase %d → %d; next_phases done=false for phase ≥ %d, current on %d", fid, p, to, to, to)
		pool, err := env.readObj("session_pool.json")
		if err != nil {
			return err
		}
		if e := pool.ObjAt("active").ObjAt(fid); e != nil {
			e.With("current_phase", num(to))
			e.With("last_activity", now)
			if e.Str("status") == "waiting_human" {
				e.With("status", "running")
			}
			if err := tx.WriteJSON(relPool, pool); err != nil {
				return err
			}
			rep.did("session_pool.active.%s.current_phase = %d", fid, to)
		}
		if c, rel, err := env.loadContract(fl); err == nil && c != nil {
			hist := c.Arr("iteration_history")
			item := NewObj().With("feature_id", fid).With("phase", num(p)).
				With("iteration", num(count)).
				With("result", "retry").With("timestamp", now).With("reason", reason)
			c.With("iteration_history", append(hist, item))
			if err := tx.WriteJSON(rel, c); err != nil {
				return err
			}
			rep.did("recorded the retry in %s iteration_history", rel)
		}
		if count >= 2 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s has %d retries: the feature Reset trigger (≥ 2) applies (docs/protocol.md §8.1)", fid, count))
		}
		if count == maxIter {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s reached max_iterations %d: escalate to the user now (docs/protocol.md §4.1); one more retry is refused as a fail", fid, maxIter))
		}
		rep.Data = map[string]any{"feature": fid, "phase": to}
		_, err = env.abortIfDue(tx, rep, fl, log)
		return err
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// loadContract reads H/sprint_contracts/<sprint>/contract.json; nil when absent.
func (e *Env) loadContract(fl featureList) (*Obj, string, error) {
	rel := ".harness/sprint_contracts/" + fl.sprint() + "/contract.json"
	o, err := e.readObj("sprint_contracts", fl.sprint(), "contract.json")
	if err != nil {
		if r, ok := IsRefusal(err); ok && strings.HasSuffix(r.Reason, "is missing") {
			return nil, rel, nil
		}
		return nil, rel, err
	}
	return o, rel, nil
}
