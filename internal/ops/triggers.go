package ops

import (
	"fmt"
	"strings"
)

// abortTriggers returns the global YOLO abort triggers of docs/protocol.md
// §6.1 (yolo.abort_triggers, abort_policy revoke_all) that hold for the
// sprint's eval_log plus the entries staged by the running operation:
// retry_count_in_sprint ≥ 2 (entries with result retry, any event type,
// §3.6) and any_feature_fail (a feature's entry with result fail or
// event_type fail). Each cause is one line naming where it comes from.
func abortTriggers(log evalLog, staged []*Obj) []string {
	var causes []string
	retries := log.retryCount("")
	for _, e := range staged {
		if e.Str("result") == "retry" {
			retries++
		}
	}
	if retries >= 2 {
		causes = append(causes, fmt.Sprintf("retry_count_in_sprint = %d ≥ 2", retries))
	}
	isFail := func(e *Obj) bool {
		return e.Str("feature_id") != "" && (e.Str("result") == "fail" || e.Str("event_type") == "fail")
	}
	if f := log.Fail; f != nil {
		causes = append(causes, fmt.Sprintf("any_feature_fail: %s at %s:%d", f.Feature, relEvalLog, f.Line))
		return causes
	}
	for _, e := range staged {
		if isFail(e) {
			causes = append(causes, fmt.Sprintf("any_feature_fail: %s phase=%v %s", e.Str("feature_id"), orNull(e.Value("phase")), firstNonEmpty(e.Str("result"), e.Str("event_type"))))
			return causes
		}
	}
	return causes
}

// abortIfDue is how a trigger acts in the command that records it
// (docs/protocol.md §6.1): when pipeline YOLO is on and an abort trigger
// holds after what tx staged, the global revoke (yoloAbortTx) is staged in
// the same transaction and its one aggregated message is added to rep's
// Notes; the outcome is nil when YOLO is off or no trigger holds. The
// commands that record a trigger call it last: phase retry, eval append,
// checkpoint reply (and checkpoint open, so a gate is never auto-approved
// once an abort is due).
func (env *Env) abortIfDue(tx *Tx, rep *Report, fl featureList, log evalLog) (*AbortOutcome, error) {
	if env.inGenerator() {
		return nil, nil
	}
	// YOLO is on only as runtime_state.yolo says (Hermes-side state), never
	// as an eval_log line claims.
	rt, err := tx.readObj("runtime_state.json")
	if err != nil {
		return nil, err
	}
	if !yoloStatusOf(rt).active {
		return nil, nil
	}
	causes := abortTriggers(log, tx.evals)
	if len(causes) == 0 {
		return nil, nil
	}
	ab, err := env.yoloAbortTx(tx, rep, fl, strings.Join(causes, "; "))
	if err != nil {
		return nil, err
	}
	rep.did("YOLO aborted by its trigger (%s): %d auto-approved checkpoint(s) revoked", ab.Cause, len(ab.Revoked))
	rep.Abort = ab
	return ab, nil
}
