package validate

import (
	"encoding/json"
	"strings"

	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/schema"
	"github.com/superagent-harness/harness/internal/workspace"
)

// The fast path of the eval_log pass (docs/performance.md "harness
// validate on real-shaped lines"). Almost every line of a real log has the
// fixed shape of workspace.DecodeEvalFlat and breaks no one-line rule; for
// such a line checkEvalLine's general path builds the line's map, runs the
// schema and every rule on it, finds nothing, and keeps at most a reduced
// entry. fastLine reaches the same end from the fixed slots: it answers
// only when it can tell that no one-line rule reports anything at the line
// (and keeps what keepEntry would keep); otherwise it changes nothing and
// the general path checks the line, words every finding and decides.
//
// Each condition below is the negation of one finding of the general path,
// in the order of checkEvalLine; TestFastLineMatchesGeneralPath compares
// the two paths line by line (findings, kept entries, corrections) on the
// fixtures and on random and mutated logs, and
// TestFastPathFindsWhatTheGeneralPathFinds whole reports.

// fastLine checks physical line n (at byte offset at) on the fast path and
// reports whether it did; false leaves c unchanged.
func (c *checker) fastLine(n int, at int64, line []byte) bool {
	f := &c.flat
	if !workspace.DecodeEvalFlat(line, f) {
		return false
	}
	// evalSchemaTime: schema.eval_log (the quick check the Set would run;
	// c.fast only when the Set uses it), time.utc-z (timestamp is the
	// shape's only time key, at any depth), time.timestamp-field (the shape
	// has no created_at)
	if !schema.QuickAcceptsFlat(f) || !workspace.UTCZPattern.MatchString(f.Val[workspace.FlatTimestamp]) {
		return false
	}
	// evalSprintID
	if c.fl != nil && f.Val[workspace.FlatSprintID] != c.fl.Sprint {
		return false
	}
	// evalEntryRules: no supersedes_line in the shape, so no eval.superseded
	// and no correction
	fid := f.Val[workspace.FlatFeatureID]
	if c.fl != nil && f.Has(workspace.FlatFeatureID) && c.fl.Feature(fid) == nil {
		return false // eval.feature-exists
	}
	reason, hasReason := f.Str(workspace.FlatReason)
	if hasReason && (records.Length(reason) == 0 || records.IsLazy(reason)) {
		return false // eval.reason-not-lazy
	}
	result := f.Val[workspace.FlatResult]
	phase := f.Val[workspace.FlatPhase] // QuickAcceptsFlat: one digit 1–4 when present
	if f.Val[workspace.FlatEventType] == workspace.EventPhaseEvaluation {
		if !f.Has(workspace.FlatFeatureID) || !f.Has(workspace.FlatPhase) || !f.Has(workspace.FlatResult) || !hasReason {
			return false // eval.phase-fields
		}
		if records.Length(reason) < records.MinReasonBytes {
			return false // eval.reason-min-length
		}
		if phase == "3" && result == "pass" && !f.Has(workspace.FlatAcceptanceResults) {
			return false // eval.acceptance-results-present
		}
	}
	if f.Has(workspace.FlatAcceptanceResults) {
		var feat *workspace.Feature
		if c.fl != nil {
			feat = c.fl.Feature(fid)
		}
		if feat != nil {
			if len(f.Acceptance) != len(feat.Acceptance) {
				return false // eval.acceptance-results-match
			}
			for i, a := range f.Acceptance {
				if a.Criteria != feat.Acceptance[i] || result == "pass" && a.Status == "fail" {
					return false // eval.acceptance-results-match
				}
			}
		}
		for _, a := range f.Acceptance {
			if records.Length(a.Evidence) == 0 || records.IsLazy(a.Evidence) {
				return false // eval.evidence-not-lazy
			}
		}
	}
	// eval.provenance
	if v, _ := c.prov.OfFlat(at, line, f); v == workspace.Forged {
		return false
	}
	et := f.Val[workspace.FlatEventType]
	decision, _ := f.Str(workspace.FlatDecision)
	if c.finalize {
		// finalizeEntry
		if !hasReason || records.Length(reason) == 0 {
			return false // finalize.eval-reason-present
		}
		if et == workspace.EventCheckpoint && f.Val[workspace.FlatCheckpointType] != "notify" && records.Length(decision) == 0 {
			return false // finalize.checkpoint-decision-present
		}
	}
	// keepEntry
	cp, _ := f.Str(workspace.FlatCheckpointID)
	gate, pass, rollback := c.keepKind(et, cp, result, decision, phase != "")
	if gate || pass || rollback {
		ph := 0
		if phase != "" {
			ph = int(phase[0] - '0')
		}
		c.keep(n, fid, ph, gate, pass, rollback, reducedFlat(f))
	}
	return true
}

// reducedFlat is reduced for a line of the fixed shape: the keptFields it
// has, strings cloned, null as nil, phase as json.Number.
func reducedFlat(f *workspace.FlatEntry) map[string]any {
	m := make(map[string]any, len(keptFields))
	for _, k := range [...]workspace.FlatField{workspace.FlatEventType, workspace.FlatFeatureID, workspace.FlatPhase, workspace.FlatResult,
		workspace.FlatDecision, workspace.FlatCheckpointID, workspace.FlatCheckpointType, workspace.FlatTimestamp, workspace.FlatCommit} {
		switch {
		case !f.Has(k):
		case f.IsNull(k):
			m[workspace.FlatNames[k]] = nil
		case k == workspace.FlatPhase:
			m[workspace.FlatNames[k]] = json.Number(strings.Clone(f.Val[k]))
		default:
			m[workspace.FlatNames[k]] = strings.Clone(f.Val[k])
		}
	}
	return m
}
