package ops

import (
	"fmt"
	"strings"

	"github.com/superagent-harness/harness/internal/safetext"
	"github.com/superagent-harness/harness/internal/workspace"
)

// EvalAppendInput is `harness eval append`. Either Entry (a whole JSON
// object) or the individual fields are given; flags override fields of Entry.
type EvalAppendInput struct {
	Entry             []byte // raw JSON object (--entry), optional
	Feature           string
	Phase             int // 0 = not given
	Event             string
	Result            string
	Reason            string
	Commit            string
	AcceptanceResults []byte // raw JSON array (--acceptance-results), optional
	CheckpointID      string
	Decision          string
}

// EvalAppend appends one eval_log entry (docs/protocol.md §3.6, §4.7), filling
// timestamp (now, UTC whole seconds) and sprint_id (feature_list.sprint). It
// refuses what `harness validate` would reject (testdata/sprints/README.md §5: schema
// enums, lazy reason, phase_evaluation reason < 20 bytes, acceptance_results
// of a phase-3 pass not matching feature.acceptance one-to-one with
// non-empty non-lazy evidence, unknown feature), and then any other finding the
// new line would add. In a Generator session (Env.Feature set) only the
// session's own phase_evaluation of its current phase, or a retry entry
// (asking for a new tool, §7), may be appended: no checkpoint decisions, no
// other feature, no sprint-level entry (a Generator never judges or
// approves, §1). Missing criteria of an acceptance_results item a<k> are
// filled verbatim from acceptance[k-1]. A phase_evaluation for a phase
// ahead of the feature's current phase is refused (no skipping, §4.1).
func EvalAppend(env *Env, in EvalAppendInput) (*Report, error) {
	rep := &Report{Command: "eval append"}
	entry := NewObj()
	if len(in.Entry) > 0 {
		o, err := parseObj(in.Entry)
		if err != nil {
			return nil, usage("--entry is not one JSON object: %v", err)
		}
		entry = o
	}
	return env.run(rep, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		if err := buildEntry(env, fl, entry, in); err != nil {
			return err
		}
		if env.inGenerator() {
			if err := checkGeneratorEntry(fl, env.Feature, entry); err != nil {
				return err
			}
			if !entry.Has("generator") {
				entry.With("generator", "claude-code") // §3.6 default writer of Generator entries
			}
		}
		if err := checkEntry(fl, entry); err != nil {
			return err
		}
		if err := tx.AppendEval(entry); err != nil {
			return err
		}
		rep.did("appended to .harness/eval_log.jsonl: %s", describeEntry(entry))
		rep.Data = entry
		if env.inGenerator() {
			return nil // a Generator's entry is evidence; Hermes acts on its own verdicts
		}
		if err := env.blockOnFail(tx, rep, fl, entry); err != nil {
			return err
		}
		log, err := tx.evalLog()
		if err != nil {
			return err
		}
		_, err = env.abortIfDue(tx, rep, fl, log)
		return err
	})
}

// blockOnFail applies a Hermes fail verdict (docs/protocol.md §4.8, §4.10):
// an entry of a feature with result fail, or event_type fail, makes the
// feature blocked and lists it in feature_list.blocked, and tells Hermes to
// escalate to the user (a gate, or back to the planner). A finished feature
// (completed, cancelled) is left as it is.
func (env *Env) blockOnFail(tx *Tx, rep *Report, fl featureList, entry *Obj) error {
	fid := entry.Str("feature_id")
	if fid == "" || (entry.Str("result") != "fail" && entry.Str("event_type") != "fail") {
		return nil
	}
	f := fl.feature(fid)
	if f == nil || oneOf(f.Str("status"), []string{"completed", "cancelled", "blocked"}) {
		return nil
	}
	prev := f.Str("status")
	f.With("status", "blocked")
	if l := fl.Strs("blocked"); !oneOf(fid, l) {
		fl.With("blocked", strsToAny(append(l, fid)))
	}
	fl.touch(env.stamp())
	if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
		return err
	}
	rep.did("%s status %s → blocked; added to feature_list.blocked (a fail verdict)", fid, prev)
	rep.Notes = append(rep.Notes, fmt.Sprintf("%s is blocked by a fail verdict: escalate to the user with a gate (`harness checkpoint open …`) or replan; `harness phase retry %s --to Q` resumes it once decided", fid, fid))
	return nil
}

func buildEntry(env *Env, fl featureList, entry *Obj, in EvalAppendInput) error {
	set := func(k string, v any) {
		entry.With(k, v)
	}
	// The timestamp is always the time of the append: an entry cannot be
	// backdated (D26 allows an extra created_at, which is kept).
	set("timestamp", env.stamp())
	if !entry.Has("sprint_id") {
		set("sprint_id", fl.sprint())
	}
	if in.Feature != "" {
		set("feature_id", in.Feature)
	}
	if in.Phase != 0 {
		set("phase", num(in.Phase))
	}
	if in.Event != "" {
		set("event_type", in.Event)
	}
	if in.Result != "" {
		set("result", in.Result)
	}
	if in.Reason != "" {
		set("reason", in.Reason)
	}
	if in.Commit != "" {
		set("commit", in.Commit)
	}
	if in.CheckpointID != "" {
		set("checkpoint_id", in.CheckpointID)
	}
	if in.Decision != "" {
		set("decision", in.Decision)
	}
	if len(in.AcceptanceResults) > 0 {
		v, err := parseValue(in.AcceptanceResults)
		if err != nil {
			return usage("--acceptance-results is not JSON: %v", err)
		}
		if o, ok := v.(*Obj); ok && o.Has("acceptance_results") {
			v = o.Value("acceptance_results")
		}
		arr, ok := v.([]any)
		if !ok {
			return usage("--acceptance-results must be a JSON array of {id, criteria, status, evidence}")
		}
		set("acceptance_results", arr)
	}
	// Fill missing criteria from the feature's acceptance list (by a<k>).
	if f := fl.feature(entry.Str("feature_id")); f != nil {
		acc := f.Strs("acceptance")
		for _, v := range entry.Arr("acceptance_results") {
			item, ok := v.(*Obj)
			if !ok || item.Has("criteria") {
				continue
			}
			var k int
			if _, err := fmt.Sscanf(item.Str("id"), "a%d", &k); err == nil && k >= 1 && k <= len(acc) && item.Str("id") == fmt.Sprintf("a%d", k) {
				item.With("criteria", acc[k-1])
			}
		}
	}
	return nil
}

// checkEntry applies the validate rules for one eval entry (testdata/sprints/README.md
// §5 schema.eval_log, time.utc-z, ids.sprint-consistent, eval.*) and returns a
// Refusal listing every problem.
func checkEntry(fl featureList, entry *Obj) error {
	var probs []string
	bad := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }

	ts, _ := entry.Value("timestamp").(string)
	if !reUTCZ.MatchString(ts) {
		bad("timestamp %q is not a UTC-Z timestamp (YYYY-MM-DDTHH:MM:SSZ)", ts)
	}
	if s := entry.Str("sprint_id"); s != fl.sprint() {
		bad("sprint_id %q differs from feature_list.sprint %q", s, fl.sprint())
	}
	ev := entry.Str("event_type")
	if !oneOf(ev, eventTypes) {
		bad("event_type %q is not one of %s", ev, strings.Join(eventTypes, ", "))
	}
	if v := entry.Value("result"); v != nil {
		if s, _ := v.(string); !oneOf(s, results) {
			bad("result %v is not one of pass, retry, fail", v)
		}
	}
	if v := entry.Value("decision"); v != nil {
		if s, _ := v.(string); !oneOf(s, decisions) {
			bad("decision %v is not one of %s", v, strings.Join(decisions, ", "))
		}
	}
	if v := entry.Value("checkpoint_type"); v != nil {
		if s, _ := v.(string); !oneOf(s, checkpointTypes) {
			bad("checkpoint_type %v is not one of gate, review, notify", v)
		}
	}
	phase, phaseOK := entry.Int("phase")
	if entry.Has("phase") && (!phaseOK || phase < 1 || phase > 4) {
		bad("phase %v is not an integer 1..4", entry.Value("phase"))
	}
	fid := entry.Str("feature_id")
	var feature *Obj
	if entry.Has("feature_id") {
		feature = fl.feature(fid)
		if feature == nil {
			bad("feature_id %q is not a feature in .harness/feature_list.json", fid)
		}
	}
	reason, hasReason := entry.Value("reason").(string)
	if err := safetext.CheckText("reason", reason); hasReason && err != nil {
		bad("%v", err)
	}
	switch {
	case !hasReason || strings.TrimSpace(reason) == "":
		bad("reason is missing or empty: every entry needs a concrete reason citing acceptance ids (docs/protocol.md §9.1)")
	case lazyValue(reason):
		bad("reason %q is a lazy value; say what was checked and with which result", strings.TrimSpace(reason))
	case ev == "phase_evaluation" && byteLength(reason) < 20:
		bad("phase_evaluation reason is %d bytes, at least 20 are required", byteLength(reason))
	}
	if ev == "phase_evaluation" {
		for _, k := range []string{"feature_id", "phase", "result"} {
			if !entry.Has(k) {
				bad("phase_evaluation needs %s", k)
			}
		}
		// Phases are not skipped (§4.1): a verdict for a phase the feature
		// has not reached is refused.
		if cur, ok := feature.Int("phase"); feature != nil && ok && phaseOK && phase > cur && feature.Str("status") != "completed" {
			bad("phase=%d is ahead of %s's current phase=%d; phases are not skipped (docs/protocol.md §4.1)", phase, fid, cur)
		}
	}
	if c := entry.Value("commit"); c != nil {
		if s, ok := c.(string); !ok || !reCommit.MatchString(s) {
			bad("commit %v is not a git hash (^[0-9a-f]{7,40}$)", c)
		}
	}
	result := entry.Str("result")
	ar, hasAR := entry.Value("acceptance_results").([]any)
	if entry.Has("acceptance_results") && !hasAR {
		bad("acceptance_results must be an array")
	}
	if ev == "phase_evaluation" && phaseOK && phase == 3 && result == "pass" && !hasAR {
		bad("a phase=3 pass needs acceptance_results, one item per acceptance item")
	}
	if hasAR {
		var acc []string
		if feature != nil {
			acc = feature.Strs("acceptance")
			if len(ar) != len(acc) {
				bad("acceptance_results has %d items but %s has %d acceptance items", len(ar), fid, len(acc))
			}
		}
		for i, v := range ar {
			item, ok := v.(*Obj)
			if !ok {
				bad("acceptance_results[%d] is not an object", i)
				continue
			}
			want := fmt.Sprintf("a%d", i+1)
			if id := item.Str("id"); id != want {
				bad("acceptance_results[%d].id is %q, want %q", i, id, want)
			}
			if feature != nil && i < len(acc) && item.Str("criteria") != acc[i] {
				bad("acceptance_results[%d].criteria differs from %s acceptance[%d] (must be verbatim)", i, fid, i)
			}
			st := item.Str("status")
			if !oneOf(st, itemStatuses) {
				bad("acceptance_results[%d].status %q is not one of pass, fail, skipped", i, st)
			}
			if result == "pass" && st == "fail" {
				bad("result pass but acceptance_results[%d] (%s) has status fail", i, want)
			}
			evd, _ := item.Value("evidence").(string)
			if strings.TrimSpace(evd) == "" {
				bad("acceptance_results[%d].evidence is empty: give checkable proof (hash, output excerpt, exit code)", i)
			} else if lazyValue(evd) {
				bad("acceptance_results[%d].evidence %q is a lazy value", i, strings.TrimSpace(evd))
			}
		}
	}
	if v := entry.Value("supersedes_line"); v != nil {
		if n, ok := asInt(v); !ok || n < 1 {
			bad("supersedes_line %v is not an integer ≥ 1", v)
		}
	}
	if len(probs) > 0 {
		return &Refusal{Reason: "refused: the eval_log entry would be rejected by validate:\n  - " + strings.Join(probs, "\n  - ")}
	}
	return nil
}

func describeEntry(e *Obj) string {
	parts := []string{e.Str("event_type")}
	if f := e.Str("feature_id"); f != "" {
		parts = append(parts, f)
	}
	if p, ok := e.Int("phase"); ok {
		parts = append(parts, fmt.Sprintf("phase=%d", p))
	}
	if c := e.Str("checkpoint_id"); c != "" {
		parts = append(parts, c)
	}
	if r := e.Str("result"); r != "" {
		parts = append(parts, "result="+r)
	}
	if d := e.Str("decision"); d != "" {
		parts = append(parts, "decision="+d)
	}
	if n, ok := e.Int("supersedes_line"); ok {
		parts = append(parts, fmt.Sprintf("supersedes_line=%d", n))
	}
	return strings.Join(parts, " ")
}

// EvalAmend appends a 补录 correction of eval_log line N (docs/protocol.md §3.6,
// §13 #39; testdata/sprints/README.md D33): the reason must start with "补录:" (or
// "补录："); event_type, feature_id, phase and checkpoint_id are copied from
// line N when it is JSON, otherwise event names the event_type.
func EvalAmend(env *Env, line int, reason, event string) (*Report, error) {
	rep := &Report{Command: "eval amend"}
	r := strings.TrimSpace(reason)
	if !strings.HasPrefix(r, "补录:") && !strings.HasPrefix(r, "补录：") {
		return nil, usage("--reason must start with \"补录:\" (a back-filled correction, docs/protocol.md §9.2)")
	}
	return env.run(rep, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		log, err := tx.evalLog()
		if err != nil {
			return err
		}
		log.note(rep)
		if line < 1 || line > log.Lines {
			return refuse("--line %d: .harness/eval_log.jsonl has %d lines", line, log.Lines)
		}
		entry := NewObj()
		entry.With("timestamp", env.stamp()).With("sprint_id", fl.sprint())
		orig, err := log.entryAt(line)
		if err != nil {
			return err
		}
		if orig != nil {
			if event != "" && event != orig.Str("event_type") {
				return usage("--event %s differs from line %d's event_type %s", event, line, orig.Str("event_type"))
			}
			for _, k := range []string{"event_type", "feature_id", "phase", "checkpoint_id"} {
				if orig.Has(k) {
					entry.With(k, orig.Value(k))
				}
			}
		} else {
			if event == "" {
				return usage("line %d is not a JSON object: name its event_type with --event", line)
			}
			entry.With("event_type", event)
		}
		if !oneOf(entry.Str("event_type"), eventTypes) {
			return usage("line %d has event_type %q, which is not in the enum; pass --event", line, entry.Str("event_type"))
		}
		entry.With("reason", r)
		entry.With("supersedes_line", num(line))
		if err := checkCorrection(fl, entry); err != nil {
			return err
		}
		if err := tx.AppendEval(entry); err != nil {
			return err
		}
		rep.did("appended a correction of .harness/eval_log.jsonl:%d (%s)", line, describeEntry(entry))
		rep.Data = entry
		return nil
	})
}

// checkCorrection applies the rules a correction must pass (eval.superseded:
// schema, time, sprint id, feature exists, reason not lazy).
func checkCorrection(fl featureList, entry *Obj) error {
	if f := entry.Str("feature_id"); entry.Has("feature_id") && fl.feature(f) == nil {
		return refuse("refused: line's feature_id %q is not in .harness/feature_list.json, so the correction would fail eval.feature-exists", f)
	}
	if p, ok := entry.Int("phase"); entry.Has("phase") && (!ok || p < 1 || p > 4) {
		return refuse("refused: the corrected line's phase %v is out of range 1..4", entry.Value("phase"))
	}
	return nil
}

// generatorForbidden are the fields only Hermes writes (workspace.HermesOnlyFields).
var generatorForbidden = workspace.HermesOnlyFields

// checkGeneratorEntry restricts what a Generator session may append.
func checkGeneratorEntry(fl featureList, feature string, entry *Obj) error {
	ev := entry.Str("event_type")
	fid := entry.Str("feature_id")
	if feature != "" && fid != feature {
		return refuse("refused: this Generator session works on %s (FEATURE_ID) and may append entries only for it, not for %q", feature, fid)
	}
	if fid == "" {
		return refuse("refused: a Generator entry names its feature (--feature); sprint-level entries are Hermes's")
	}
	feature = fid
	if ev != "phase_evaluation" && ev != "retry" {
		return refuse("refused: a Generator appends only phase_evaluation (end of a phase) or retry (new tool needed) entries, not %q; checkpoints, resets, YOLO and fail verdicts are Hermes's (docs/protocol.md §1)", ev)
	}
	for _, k := range generatorForbidden {
		if entry.Has(k) {
			return refuse("refused: %s is written by Hermes only; a Generator entry may not carry it", k)
		}
	}
	if g := entry.Value("generator"); g != nil && g != "claude-code" {
		return refuse("refused: generator %v: a Generator's entry is written by claude-code (the field says who wrote the entry; only Hermes's own commands write other values)", g)
	}
	if f := fl.feature(feature); f != nil && ev == "phase_evaluation" {
		cur, _ := f.Int("phase")
		if p, _ := entry.Int("phase"); p != cur {
			return refuse("refused: %s is in phase=%d; the Generator's phase_evaluation is for its current phase, not phase=%d", feature, cur, p)
		}
	}
	return nil
}
