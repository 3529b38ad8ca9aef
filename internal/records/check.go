package records

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Stop check ids (testdata/sprints/README.md §7), aliases of the registry
// (internal/ruleid, docs/protocol.md §14.3).
const (
	RuleSkip              = ruleid.StopSkip
	RuleResetException    = ruleid.StopResetException
	RuleFeatureListParse  = ruleid.StopFeatureListParse
	RuleGenlogExists      = ruleid.StopGenlogExists
	RuleGenlogSection     = ruleid.StopGenlogSection
	RuleGenlogKeyDecision = ruleid.StopGenlogKeyDecisions
	RuleGenlogLength      = ruleid.StopGenlogSectionLength
	RuleEvalEntry         = ruleid.StopEvalEntry
	RuleReasonPresent     = ruleid.StopReasonPresent
	RuleReasonLazy        = ruleid.StopReasonLazy
	RuleReasonLength      = ruleid.StopReasonLength
	RuleNextPhasesDone    = ruleid.StopNextPhasesDone
)

// Failure is one failed record check.
type Failure struct {
	// Check is the check number of testdata/sprints/README.md §7: "2b", "3", "4", "4b",
	// "5", "6", "7", "8", "9" or "10".
	Check string
	// Rule is the check's id (e.g. "stop.genlog-section").
	Rule string
	// Path is the file concerned, relative to the root with forward slashes;
	// for an eval_log line it reads ".harness/eval_log.jsonl:N".
	Path string
	// Message says what is missing, naming the feature, phase=N, field,
	// offending value and measured byte length.
	Message string
	// Fix is the legitimate way forward.
	Fix string
}

// String renders "[rule] path: message (fix)".
func (f Failure) String() string {
	s := "[" + f.Rule + "] " + f.Path + ": " + f.Message
	if f.Fix != "" {
		s += " — " + f.Fix
	}
	return s
}

// Report is the outcome of the record checks for one feature.
type Report struct {
	// Feature is the feature id checked.
	Feature string
	// Phase is the feature's current phase P (0 when unknown).
	Phase int
	// PhaseKnown is true once Phase was read from feature_list.json; it
	// stays false when the file does not parse (check 2b) or could not be
	// read, so messages never present a default 0 as the feature's phase.
	PhaseKnown bool
	// Skipped is true when check 2 decided (fail-open allow): feature_list
	// missing, feature not in it, or phase not an integer. SkipReason says which.
	Skipped    bool
	SkipReason string
	// Failures lists every failing check, in check order (empty: complete).
	Failures []Failure
	// Handoff is the feature's handoff.md, relative (for the Reset hint).
	Handoff string
	// Ignored names the eval_log lines left out because no Hermes-side
	// record backs them and no Generator may write them
	// (workspace.Provenance).
	Ignored []string
	// ResetRefusal, when set, says why a fresh handoff.md did not open the
	// Reset exception (AcceptReset); the block reason shows it before the
	// Reset hint.
	ResetRefusal string
}

// OK reports whether nothing blocks (skipped or no failure).
func (r Report) OK() bool { return len(r.Failures) == 0 }

// ResetHint is the hint every Stop block message ends with (testdata/sprints/README.md
// §3, as the original stop-guard.sh says it).
func (r Report) ResetHint() string {
	hint := fmt.Sprintf("If a Reset trigger is on record (or Hermes ordered a Reset), write the handoff snapshot to %s, filling every section of the handoff template with a concrete **Trigger reason**, and stop again within %d s.",
		r.Handoff, int(HandoffMaxAge.Seconds()))
	if r.ResetRefusal != "" {
		hint = "Reset not accepted: " + r.ResetRefusal + ".\n" + hint
	}
	return hint
}

// PhaseLabel names the phase for messages: "phase=P" when it is known,
// otherwise why it is not — "phase unknown (.harness/feature_list.json does
// not parse)" after check 2b, "phase unknown (the records could not be
// read)" after an I/O error.
func (r Report) PhaseLabel() string {
	if r.PhaseKnown {
		return fmt.Sprintf("phase=%d", r.Phase)
	}
	for _, f := range r.Failures {
		if f.Rule == RuleFeatureListParse {
			return "phase unknown (.harness/feature_list.json does not parse)"
		}
	}
	return "phase unknown (the records could not be read)"
}

// Reason renders the Stop block reason: a header naming the feature and
// phase, every failure on its own line, then the Reset hint. It is "" when
// OK.
func (r Report) Reason() string {
	if r.OK() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Feature %s %s records are incomplete (%d failing check(s)):\n", r.Feature, r.PhaseLabel(), len(r.Failures))
	for _, f := range r.Failures {
		b.WriteString("- " + f.String() + "\n")
	}
	b.WriteString(r.ResetHint())
	return b.String()
}

func rel(ws *workspace.Workspace, p string) string { return ws.Rel(p) }

// CheckPhase runs Stop checks 2, 2b and 3–10 (testdata/sprints/README.md §7) for
// feature in its current phase P. Check 2 (feature_list missing, feature
// unknown, phase not an integer) sets Skipped; check 2b (feature_list.json
// not a JSON object) is a failure. The error is only for I/O failures other
// than a missing file.
func CheckPhase(ws *workspace.Workspace, feature string) (Report, error) {
	return check(ws, feature, true, EvalStateOptions{})
}

// MaxRecordFile is the largest feature_list.json or generator_log.md the
// record checks read (64 MiB); a larger one (say a sparse file the
// Generator made of its own log) is an I/O error, so Stop blocks with
// stop.io-error instead of exhausting memory.
const MaxRecordFile = 64 << 20

// check runs the checks; eval_log is read through the feature's cached
// state (FeatureState with opts), so a call costs the bytes appended since
// the last one, not the log's size.
func check(ws *workspace.Workspace, feature string, withDone bool, opts EvalStateOptions) (Report, error) {
	r := Report{Feature: feature, Handoff: rel(ws, ws.Handoff(feature))}
	data, err := fsutil.ReadRegular(ws.FeatureList(), fsutil.CapState)
	if errors.Is(err, fs.ErrNotExist) {
		r.Skipped, r.SkipReason = true, ".harness/feature_list.json is missing"
		return r, nil
	}
	if err != nil {
		return r, err
	}
	sf, err := findFeature(data, feature)
	if err != nil {
		r.Failures = append(r.Failures, Failure{Check: "2b", Rule: RuleFeatureListParse,
			Path:    ".harness/feature_list.json",
			Message: "feature_list.json is not a valid JSON object: " + err.Error(),
			Fix:     "restore .harness/feature_list.json (only harness writes it)"})
		return r, nil
	}
	if !sf.found {
		r.Skipped, r.SkipReason = true, "feature "+feature+" is not in .harness/feature_list.json"
		return r, nil
	}
	if !sf.phaseOK {
		r.Skipped, r.SkipReason = true, "feature "+feature+" has no integer phase"
		return r, nil
	}
	p := sf.phase
	r.Phase, r.PhaseKnown = p, true

	est, evalErr := FeatureState(ws, feature, opts)
	if evalErr != nil && !errors.Is(evalErr, fs.ErrNotExist) {
		return r, evalErr
	}
	r.Ignored = append(r.Ignored, est.Ignored...)
	mark := est.Mark(p)
	markNote := ""
	if mark != nil {
		markNote = fmt.Sprintf(" (only records written after the rollback verdict at .harness/eval_log.jsonl:%d, %s, count)",
			mark.Entry.Line, mark.Entry.Timestamp())
	}

	// Checks 3, 4, 4b, 5.
	glPath := rel(ws, ws.GeneratorLog(feature))
	gl, err := fsutil.ReadRecord(ws.GeneratorLog(feature), fsutil.CapRecord)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Failures = append(r.Failures, Failure{Check: "3", Rule: RuleGenlogExists, Path: glPath,
			Message: fmt.Sprintf("%s is missing for feature %s (phase=%d)", glPath, feature, p),
			Fix:     fmt.Sprintf("create it and append a `## phase=%d <action> — <UTC timestamp>` section", p)})
	case err != nil:
		return r, err
	default:
		var counting []Section
		for _, s := range ParseGeneratorLog(string(gl)).ForPhase(p) {
			if SectionCounts(s, mark) {
				counting = append(counting, s)
			}
		}
		if len(counting) == 0 {
			r.Failures = append(r.Failures, Failure{Check: "4", Rule: RuleGenlogSection, Path: glPath,
				Message: fmt.Sprintf("no `## phase=%d` section for feature %s%s", p, feature, markNote),
				Fix: fmt.Sprintf("append `## phase=%d %s — <date -u +%%Y-%%m-%%dT%%H:%%M:%%SZ>` with what was done, ### 关键决策, artifacts and problems (≥ %d bytes)",
					p, cmp.Or(workspace.PhaseAction(p), "<action>"), MinSectionBytes)})
		}
		for _, s := range counting {
			if !s.KeyDecisions {
				r.Failures = append(r.Failures, Failure{Check: "4b", Rule: RuleGenlogKeyDecision, Path: fmt.Sprintf("%s:%d", glPath, s.Line),
					Message: fmt.Sprintf("the phase=%d section of %s (line %d) has no `### 关键决策` (key decisions) subsection", p, glPath, s.Line),
					Fix:     "append a new phase section with a `### 关键决策` subsection (write 按常规实现,无特殊决策 when there was none)"})
			}
		}
		for _, s := range counting {
			if n := s.Length(); n < MinSectionBytes {
				r.Failures = append(r.Failures, Failure{Check: "5", Rule: RuleGenlogLength, Path: fmt.Sprintf("%s:%d", glPath, s.Line),
					Message: fmt.Sprintf("the phase=%d section of %s (line %d) body is %d bytes, below the %d-byte minimum", p, glPath, s.Line, n, MinSectionBytes),
					Fix:     "describe what was done, the key decisions, the artifacts and the problems"})
			}
		}
	}

	// Checks 6–9.
	evPath := rel(ws, ws.EvalLog())
	last := est.LastPhaseEval(p, mark)
	if last == nil {
		why := "has no"
		if evalErr != nil {
			why = "is missing, so there is no"
		}
		r.Failures = append(r.Failures, Failure{Check: "6", Rule: RuleEvalEntry, Path: evPath,
			Message: fmt.Sprintf("%s %s phase_evaluation entry with feature_id %s and phase=%d%s", evPath, why, feature, p, markNote),
			Fix: fmt.Sprintf("harness eval append --feature %s --phase %d --event phase_evaluation --result pass --reason '<concrete reason, ≥ %d bytes>'",
				feature, p, MinReasonBytes)})
	} else {
		eff := last.Effective()
		reason, isStr, line := eff.Reason, eff.ReasonOK, eff.Line
		at := fmt.Sprintf("%s:%d", evPath, line)
		fix := fmt.Sprintf("append a new phase_evaluation for %s phase=%d with a concrete reason (acceptance ids, numbers), or correct it with `harness eval amend --line %d --reason '补录: …'`", feature, p, last.Line)
		switch {
		case !isStr || strings.TrimSpace(reason) == "":
			r.Failures = append(r.Failures, Failure{Check: "7", Rule: RuleReasonPresent, Path: at,
				Message: fmt.Sprintf("the last phase_evaluation of %s phase=%d has a missing or empty reason", feature, p), Fix: fix})
		case IsLazy(reason):
			r.Failures = append(r.Failures, Failure{Check: "8", Rule: RuleReasonLazy, Path: at,
				Message: fmt.Sprintf("the last phase_evaluation of %s phase=%d has the lazy reason \"%s\"; say what was done and checked", feature, p, strings.TrimSpace(reason)), Fix: fix})
		case Length(reason) < MinReasonBytes:
			r.Failures = append(r.Failures, Failure{Check: "9", Rule: RuleReasonLength, Path: at,
				Message: fmt.Sprintf("the last phase_evaluation of %s phase=%d has a reason of %d bytes, below the %d-byte minimum", feature, p, Length(reason), MinReasonBytes), Fix: fix})
		}
	}

	// Check 10.
	if withDone {
		if !sf.done[p] {
			r.Failures = append(r.Failures, Failure{Check: "10", Rule: RuleNextPhasesDone, Path: ".harness/feature_list.json",
				Message: fmt.Sprintf("next_phases[phase==%d] of %s is not done: true", p, feature),
				Fix:     "run `harness phase complete " + feature + "` once the records above are complete"})
		}
	}
	return r, nil
}

// stopFeature is the part of one feature_list feature the record checks
// read; decoding only that keeps Stop fast on large feature lists.
type stopFeature struct {
	found   bool
	phase   int
	phaseOK bool
	done    map[int]bool // next_phases[phase==N].done == true (first entry per N)
}

// findFeature locates feature id in a feature_list.json document with exact
// (case-sensitive) keys. err is set only when the document is not a JSON
// object; a malformed features array or feature just means "not found".
func findFeature(data []byte, id string) (stopFeature, error) {
	var sf stopFeature
	// One decoding pass: the document is validated once, each feature is
	// kept as raw members.
	var top struct {
		Features []map[string]json.RawMessage `json:"features"`
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '{' && json.Valid(t) {
		return sf, errors.New("the document is not a JSON object")
	}
	if err := json.Unmarshal(data, &top); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field == "" {
			return sf, err // syntax error, or the document is not an object
		}
		// an ill-typed features array or member: look at what decoded
	}
	for _, f := range top.Features {
		if f == nil {
			continue
		}
		var fid string
		if json.Unmarshal(f["id"], &fid) != nil || fid != id {
			continue
		}
		sf.found = true
		if v, ok := f["phase"]; ok {
			sf.phase, sf.phaseOK = workspace.JSONInt(v)
		}
		sf.done = map[int]bool{}
		var nps []map[string]json.RawMessage
		if json.Unmarshal(f["next_phases"], &nps) == nil {
			seen := map[int]bool{}
			for _, np := range nps {
				n, ok := workspace.JSONInt(np["phase"])
				if !ok || seen[n] {
					continue
				}
				seen[n] = true
				sf.done[n] = string(bytes.TrimSpace(np["done"])) == "true"
			}
		}
		return sf, nil
	}
	return sf, nil
}

// mayConcern returns the eval_log line filter of feature: a line can matter
// to its record checks only if it names the feature id, is a correction, or
// uses a JSON \u escape (which could spell either); every other line is
// skipped undecoded.
func mayConcern(feature string) func([]byte) bool {
	id := []byte(feature)
	return func(line []byte) bool {
		return bytes.Contains(line, id) || bytes.Contains(line, []byte("supersedes_line")) || bytes.Contains(line, []byte(`\u`))
	}
}
