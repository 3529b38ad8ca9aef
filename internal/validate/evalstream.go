package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/schema"
	"github.com/superagent-harness/harness/internal/workspace"
)

// evalFindings are the findings at eval_log lines made while the log is
// streamed, in three groups that validateRules and finalizeRules add at the
// places their rules run, so that the findings at one line keep the order of
// the rules: schema.eval_log, time.*, eval.jsonl-parse and
// ids.sprint-consistent (first); gates.sprint-gates-approved (added later
// from the kept entries); eval.* (rules); finalize.commit-hash (kept
// entries); finalize.eval-reason-present and
// finalize.checkpoint-decision-present (final).
type evalFindings struct {
	first, rules, final Report
}

// loadEvalLog streams .harness/eval_log.jsonl (or its overlay) line by line:
// each line is decoded, checked by every rule that looks at one line alone,
// and dropped; only its findings, its correction (supersededBy) and, for
// the few lines the rules across lines read, a reduced entry are kept. A
// 100,000-line log is checked in a few MB instead of holding every line as
// a decoded map. A missing file is left to files.required; a read error
// reports eval.jsonl-parse "cannot read" and checks no line, as before.
func (c *checker) loadEvalLog() {
	c.supersededBy = map[int]int{}
	// the provenance first: the one-line rules (cached or not) judge each
	// line by it, and the cache key includes it
	c.loadProvenance()
	c.fast = !c.opts.generalOnly && c.schemas.Quick(schema.EvalLog)
	p := c.ws.EvalLog()
	app := c.opts.Appends[relEvalLog]
	var r io.Reader
	if data, ok := c.overlaid(p); ok {
		if data == nil && app == nil {
			return
		}
		r = io.MultiReader(bytes.NewReader(data), bytes.NewReader(app))
	} else {
		f, st, err := fsutil.OpenRegular(p)
		switch {
		case errors.Is(err, fs.ErrNotExist) && app != nil:
			r = bytes.NewReader(app) // the append creates the file
		case err != nil:
			if !errors.Is(err, fs.ErrNotExist) {
				c.rep.add(Finding{File: relEvalLog, Rule: ruleid.EvalJSONLParse, Message: "cannot read: " + err.Error()})
			}
			return
		default:
			defer f.Close()
			if st.Size() > fsutil.CapLog {
				return // files.size-cap reports it; no line is checked
			}
			size := st.Size()
			if lim := c.opts.EvalSize; lim != nil && *lim < size {
				size = max(*lim, 0)
			}
			if c.opts.EvalCache && !c.finalize {
				c.lastRollback = map[rollbackKey]int{}
				if err := c.streamCached(f, size); err != nil {
					c.entries, c.evalFound, c.supersededBy = nil, evalFindings{}, map[int]int{}
					c.rep.add(Finding{File: relEvalLog, Rule: "eval.jsonl-parse", Message: "cannot read: " + fmt.Errorf("read %s: %w", p, err).Error()})
				}
				c.endKeep()
				return
			}
			r = io.MultiReader(io.NewSectionReader(f, 0, size), bytes.NewReader(app))
		}
	}
	c.lastRollback = map[rollbackKey]int{}
	if err := workspace.EachEvalLineAt(r, fsutil.CapLine, c.checkEvalLine, func(n int, _, size int64) { c.evalLineTooLong(n, size) }); err != nil {
		c.entries, c.evalFound, c.supersededBy = nil, evalFindings{}, map[int]int{}
		c.rep.add(Finding{File: relEvalLog, Rule: ruleid.EvalJSONLParse, Message: "cannot read: " + fmt.Errorf("read %s: %w", p, err).Error()})
	}
	c.endKeep()
}

// evalLineTooLong reports eval.line-too-long: a line over fsutil.CapLine is
// never read by any harness reader (the hook and the commands skip it), so
// it cannot count as an entry.
func (c *checker) evalLineTooLong(n int, size int64) {
	c.evalFound.first.add(Finding{File: relEvalLog, Line: n, Rule: ruleid.EvalLineTooLong,
		Message: fmt.Sprintf("line %d is %s, over the %s cap of one eval_log line; every reader skips it unread, so it is no entry (if it was meant as one, append a correction with `harness eval amend --line %d --reason '补录: …'`)",
			n, fsutil.Bytes(size), fsutil.Bytes(fsutil.CapLine), n)})
}

// loadProvenance builds the eval_log provenance (workspace.Provenance) from
// the state files as read (overlay included): the ledger of
// hermes_context_state.json (with its file, .harness/logs/eval_ledger.jsonl,
// in the file format) and the Stop hook's resets records.
func (c *checker) loadProvenance() {
	c.prov = &workspace.Provenance{}
	hc, _ := c.docs[relHermesContext].(map[string]any)
	c.prov.SetLedgerValue(hc[workspace.LedgerKey])
	if c.prov.InFile {
		// the ledger's file, as the dry run's overlay would leave it
		// (through the ledger's cache, never written here: validate keeps
		// only its own eval_log cache)
		p := filepath.Join(c.ws.H(), filepath.FromSlash(workspace.LedgerFile))
		app := c.opts.Appends[relLedgerFile]
		_, hcOverlaid := c.overlaid(c.ws.HermesContext())
		if data, ok := c.overlaid(p); ok {
			_ = c.prov.ReadLedgerFile(bytes.NewReader(data), int64(len(data)), app, filepath.Join(c.ws.H(), filepath.FromSlash(workspace.LedgerCacheFile)), false)
		} else if !hcOverlaid && c.prov.ShareLedger(c.opts.Ledger, app) {
			// the caller's read of the same file
		} else if c.ws.ReadLedger(c.prov, app, false) != nil {
			c.prov.SetLedgerFile(app) // unreadable: no entry of it, so no line is Hermes's by it
		}
	}
	cc, _ := c.docs[relClaudeContext].(map[string]any)
	for _, v := range cc {
		f, _ := v.(map[string]any)
		raw, err := json.Marshal(f["resets"])
		if err != nil || f["resets"] == nil {
			continue
		}
		var rs []workspace.ResetRecord
		if json.Unmarshal(raw, &rs) == nil {
			c.prov.AddResets(rs)
		}
	}
}

// checkEvalLine runs the one-line rules on physical line n, which starts at
// byte offset at.
func (c *checker) checkEvalLine(n int, at int64, line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return // blank lines are ignored (D26)
	}
	if c.fast && c.fastLine(n, at, line) {
		if c.opts.fastLines != nil {
			*c.opts.fastLines++
		}
		return
	}
	m, err := workspace.DecodeEvalLine(line)
	if err != nil {
		txt := string(line)
		if len(txt) > 120 {
			txt = txt[:120] + "…"
		}
		c.evalFound.first.add(Finding{File: relEvalLog, Line: n, Rule: ruleid.EvalJSONLParse,
			Message: fmt.Sprintf("line is not one JSON object (%v): %s", err, txt)})
		return
	}
	e := &workspace.EvalEntry{Line: n, At: at, Fields: m}
	c.evalSchemaTime(&c.evalFound.first, e)
	c.evalSprintID(&c.evalFound.first, e)
	c.evalEntryRules(&c.evalFound.rules, e)
	if v, why := c.prov.Of(at, line, e); v == workspace.Forged {
		// eval.provenance: no Hermes-side record backs it and a Generator
		// may not write it; it decides nothing (no correction, no gate, no
		// verdict, no finalize item)
		c.evalFound.rules.add(Finding{File: relEvalLog, Line: n, Rule: ruleid.EvalProvenance,
			Message: fmt.Sprintf("%s entry%s has no Hermes-side record (hermes_context_state.json %s, the Stop hook's resets) although it is one only Hermes writes: %s. Every harness reader ignores it; the log is append-only, so it stays as evidence. If the decision it claims was real, record it again with the harness command that makes it (e.g. harness checkpoint reply)",
				firstWord(e.EventType()), featureNote(e), workspace.LedgerKey, why)})
		return
	}
	if c.finalize {
		c.finalizeEntry(&c.evalFound.final, e)
	}
	if sl, ok := e.SupersedesLine(); ok && e.IsCorrection() {
		c.supersededBy[sl] = n
	}
	c.keepEntry(e)
}

// firstWord is s, or "an" for an entry without event_type.
func firstWord(s string) string {
	if s == "" {
		return "an"
	}
	return "a " + s
}

// evalSchemaTime adds schema.eval_log, time.utc-z and time.timestamp-field
// of one entry to rep; a timestamp reported by time.utc-z is not repeated as
// a schema pattern failure at the same pointer (as timeRules does for the
// state files).
func (c *checker) evalSchemaTime(rep *Report, e *workspace.EvalEntry) {
	var tmp Report
	c.validateValueTo(&tmp, relEvalLog, schema.EvalLog, ruleid.SchemaEvalLog, e.Line, e.Fields)
	var timePtrs []string
	if !flatTimesOK(e.Fields) {
		walkTimes(e.Fields, "", func(ptr, key, val string) {
			timePtrs = append(timePtrs, ptr)
			tmp.add(Finding{File: relEvalLog, Line: e.Line, Pointer: ptr, Rule: ruleid.TimeUTCZ,
				Message: fmt.Sprintf("%s %q is not a UTC-Z timestamp (YYYY-MM-DDTHH:MM:SSZ, no offset)", key, val)})
		})
	}
	if e.Has("created_at") && !e.Has("timestamp") {
		tmp.add(Finding{File: relEvalLog, Line: e.Line, Pointer: "/created_at", Rule: ruleid.TimeTimestampField,
			Message: "entry has created_at but no timestamp: eval_log entries carry their time in timestamp"})
	}
	for _, f := range tmp.Findings {
		if strings.HasPrefix(f.Rule, "schema.") && containsString(timePtrs, f.Pointer) {
			continue
		}
		rep.Findings = append(rep.Findings, f)
	}
}

// flatTimesOK reports that walkTimes finds nothing in m without walking it
// the way walkTimes does (which sorts the keys of every object and builds
// a pointer for every value): every string under a time key, at any depth
// and in arrays directly under a time key, is UTC-Z. Real entries carry
// acceptance_results and blockers_resolved arrays of objects; those are
// looked at in place.
func flatTimesOK(m map[string]any) bool { return timesOK(m, 0) }

func timesOK(v any, depth int) bool {
	if depth > 64 {
		return false // let walkTimes decide
	}
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if isTimeKey(k) {
				switch tv := val.(type) {
				case string:
					if !workspace.UTCZPattern.MatchString(tv) {
						return false
					}
					continue
				case []any:
					for _, el := range tv {
						if s, ok := el.(string); ok && !workspace.UTCZPattern.MatchString(s) {
							return false
						}
					}
					continue
				}
			}
			if !timesOK(val, depth+1) {
				return false
			}
		}
	case []any:
		for _, el := range x {
			if !timesOK(el, depth+1) {
				return false
			}
		}
	}
	return true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// evalSprintID is ids.sprint-consistent for one entry.
func (c *checker) evalSprintID(rep *Report, e *workspace.EvalEntry) {
	if c.fl == nil {
		return
	}
	if s, ok := e.Str("sprint_id"); ok && s != c.fl.Sprint {
		rep.add(Finding{File: relEvalLog, Line: e.Line, Pointer: "/sprint_id", Rule: ruleid.IDsSprintConsistent,
			Message: fmt.Sprintf("sprint_id %q differs from feature_list sprint %q", s, c.fl.Sprint)})
	}
}

// finalizeEntry is finalize.eval-reason-present and
// finalize.checkpoint-decision-present for one entry.
func (c *checker) finalizeEntry(rep *Report, e *workspace.EvalEntry) {
	if r, ok := e.Reason(); !ok || strings.TrimSpace(r) == "" {
		rep.add(Finding{File: relEvalLog, Line: e.Line, Pointer: "/reason", Rule: ruleid.FinalizeEvalReasonPresent,
			Message: fmt.Sprintf("%s entry has no reason%s", e.EventType(), featureNote(e))})
	}
	if e.IsCorrection() {
		return
	}
	if e.EventType() == workspace.EventCheckpoint && e.CheckpointType() != "notify" && strings.TrimSpace(e.Decision()) == "" {
		rep.add(Finding{File: relEvalLog, Line: e.Line, Pointer: "/decision", Rule: ruleid.FinalizeCheckpointDecisionPresent,
			Message: fmt.Sprintf("checkpoint entry %s has no decision%s", e.CheckpointID(), featureNote(e))})
	}
}

// sprintGates are the checkpoint ids gatesApproved looks for.
var sprintGates = [...]string{"cp-sprint-tooling", "cp-sprint-dag"}

// keptFields are the fields the rules across lines read of a kept entry
// (gatesApproved; finalizeFeatures through records.IsPhaseEval,
// records.RollbackMark and the commit). supersedes_line and reason are not
// kept: only entries that are not corrections are kept, and without them
// IsCorrection stays false.
var keptFields = [...]string{"event_type", "feature_id", "phase", "result", "decision", "checkpoint_id", "checkpoint_type", "timestamp", "commit"}

// rollbackKey names the rollback marks of one feature at one phase value.
type rollbackKey struct {
	feature string
	phase   int
}

// keepEntry appends to c.entries the reduced copy of e when a rule across
// lines may read it: a sprint gate checkpoint entry (gatesApproved), and
// under finalize a passing phase_evaluation (records.IsPhaseEval with
// result pass) or a rollback mark (records.IsRollback). Corrections are
// skipped by all of them.
//
// Under finalize the state is kept per (feature, phase value), not per
// line, so a log of a million verdicts keeps a handful of entries:
// finalizeFeatures reads only the last pass of each (f, p), and
// records.RollbackMark(entries, f, p, line of that pass) — the latest mark
// of f at a phase ≥ p before it, or anywhere when there is no pass. So
// only these are kept: the last pass of each (f, ph) (c.lastPass); the
// latest mark of each (f, ph) (c.lastRollback), which answers for a phase
// without a pass; and, for each (f, ph), a copy of the latest mark at a
// phase ≥ ph present when its last pass arrived (c.anchor), which answers
// for the pass. Any other kept mark of f at a phase ≥ p before that pass is
// not later than the anchor, so RollbackMark still returns it. endKeep
// orders the entries by line, which RollbackMark relies on. Of the sprint
// gates only the last entry of each is kept (c.lastGate).
func (c *checker) keepEntry(e *workspace.EvalEntry) {
	if e.IsCorrection() {
		return
	}
	ph, phOK := e.Phase()
	gate, pass, rollback := c.keepKind(e.EventType(), e.CheckpointID(), e.Result(), e.Decision(), phOK)
	if !gate && !pass && !rollback {
		return
	}
	c.keep(e.Line, e.FeatureID(), ph, gate, pass, rollback, reduced(e))
}

// keepKind says why keepEntry keeps an entry that is not a correction,
// with event_type et, checkpoint_id cp, result res and decision dec (""
// when absent or not strings) and an integer phase when phOK: a sprint
// gate, a passing verdict, a rollback mark (the last two under finalize).
func (c *checker) keepKind(et, cp, res, dec string, phOK bool) (gate, pass, rollback bool) {
	gate = et == workspace.EventCheckpoint && (cp == sprintGates[0] || cp == sprintGates[1])
	if c.finalize && phOK {
		pass = et == workspace.EventPhaseEvaluation && res == "pass"
		rollback = res == "retry" || res == "fail" || et == workspace.EventFail ||
			(et == workspace.EventCheckpoint && dec == "rejected")
	}
	return gate, pass, rollback
}

// keep records the entry at line (feature fid, phase ph, reduced fields
// red) as keepEntry decided.
func (c *checker) keep(line int, fid string, ph int, gate, pass, rollback bool, red map[string]any) {
	k := rollbackKey{fid, ph}
	drop := func(m map[rollbackKey]int, k rollbackKey) {
		if i, ok := m[k]; ok {
			c.entries[i] = nil // no longer a possible answer
			c.droppedEntries++
		}
	}
	add := func() int {
		c.entries = append(c.entries, &workspace.EvalEntry{Line: line, Fields: red})
		return len(c.entries) - 1
	}
	if gate {
		// gatesApproved reads the last entry of each gate
		if c.lastGate == nil {
			c.lastGate = map[rollbackKey]int{}
		}
		cp, _ := red["checkpoint_id"].(string)
		gk := rollbackKey{feature: cp}
		drop(c.lastGate, gk)
		c.lastGate[gk] = add()
	}
	if pass {
		if c.lastPass == nil {
			c.lastPass, c.anchor = map[rollbackKey]int{}, map[rollbackKey]int{}
		}
		drop(c.lastPass, k)
		drop(c.anchor, k)
		delete(c.anchor, k)
		best := -1
		for mk, i := range c.lastRollback {
			if mk.feature == fid && mk.phase >= ph && (best < 0 || c.entries[i].Line > c.entries[best].Line) {
				best = i
			}
		}
		if best >= 0 {
			c.entries = append(c.entries, &workspace.EvalEntry{Line: c.entries[best].Line, Fields: c.entries[best].Fields})
			c.anchor[k] = len(c.entries) - 1
		}
		c.lastPass[k] = add()
	}
	if rollback {
		drop(c.lastRollback, k)
		c.lastRollback[k] = add()
	}
	if c.droppedEntries > 1024 && c.droppedEntries > len(c.entries)/2 {
		c.compactEntries()
	}
}

// reduced copies the fields of e the rules across lines read (keptFields);
// the decoded strings share the line's memory, so they are cloned.
func reduced(e *workspace.EvalEntry) map[string]any {
	n := 0
	for _, k := range keptFields {
		if _, ok := e.Fields[k]; ok {
			n++
		}
	}
	m := make(map[string]any, n) // up to 8 fit the map's first group
	for _, k := range keptFields {
		if v, ok := e.Fields[k]; ok {
			switch x := v.(type) {
			case string:
				v = strings.Clone(x)
			case json.Number:
				v = json.Number(strings.Clone(string(x)))
			}
			m[k] = v
		}
	}
	return m
}

// compactEntries removes the dropped (nil) entries and re-indexes the keep
// maps.
func (c *checker) compactEntries() {
	idx := make(map[int]int, len(c.entries)) // old index → new
	kept := c.entries[:0]
	for i, e := range c.entries {
		if e != nil {
			idx[i] = len(kept)
			kept = append(kept, e)
		}
	}
	clear(c.entries[len(kept):])
	c.entries = kept
	for _, m := range []map[rollbackKey]int{c.lastRollback, c.lastPass, c.anchor, c.lastGate} {
		for k, i := range m {
			m[k] = idx[i]
		}
	}
	c.droppedEntries = 0
}

// endKeep finishes the eval_log pass: dropped entries removed, the rest in
// line order (an anchor is a copy of an earlier line).
func (c *checker) endKeep() {
	c.compactEntries()
	sort.SliceStable(c.entries, func(i, j int) bool { return c.entries[i].Line < c.entries[j].Line })
	c.lastRollback, c.lastPass, c.anchor, c.lastGate = nil, nil, nil, nil
}

// evalEntryRules is the eval.* rules (eval.superseded's own checks
// included) for one entry.
func (c *checker) evalEntryRules(rep *Report, e *workspace.EvalEntry) {
	at := func(f Finding) { f.File, f.Line = relEvalLog, e.Line; rep.add(f) }
	fid := e.FeatureID()
	about := ""
	if fid != "" {
		about = " (feature " + fid
		if p, ok := e.Phase(); ok {
			about += fmt.Sprintf(", phase=%d", p)
		}
		about += ")"
	}
	if _, has := e.Fields["supersedes_line"]; has && !e.IsCorrection() {
		n, isInt := e.SupersedesLine()
		why := ""
		switch {
		case !isInt:
			why = "supersedes_line is not an integer"
		case n < 1 || n >= e.Line:
			why = fmt.Sprintf("supersedes_line %d is not an earlier line", n)
		default:
			why = "its reason does not start with 补录:"
		}
		at(Finding{Pointer: "/supersedes_line", Rule: ruleid.EvalSuperseded,
			Message: "not a valid correction (" + why + "); it supersedes nothing"})
	}
	// eval.feature-exists
	if c.fl != nil && e.Has("feature_id") {
		if v, ok := e.Str("feature_id"); !ok || c.fl.Feature(v) == nil {
			at(Finding{Pointer: "/feature_id", Rule: ruleid.EvalFeatureExists,
				Message: fmt.Sprintf("feature_id %s is not a feature in feature_list", schema.Verbatim(e.Fields["feature_id"]))})
		}
	}
	// eval.reason-not-lazy
	if rv, has := e.Fields["reason"]; has {
		r, isStr := rv.(string)
		switch {
		case !isStr || strings.TrimSpace(r) == "":
			at(Finding{Pointer: "/reason", Rule: ruleid.EvalReasonNotLazy, Message: "reason is empty" + about})
		case records.IsLazy(r):
			at(Finding{Pointer: "/reason", Rule: ruleid.EvalReasonNotLazy,
				Message: fmt.Sprintf("reason %q is a lazy value; say what was checked (acceptance ids, numbers)%s", strings.TrimSpace(r), about)})
		}
	}
	if e.IsCorrection() {
		return
	}
	isPE := e.EventType() == workspace.EventPhaseEvaluation
	if isPE {
		var miss []string
		for _, k := range []string{"feature_id", "phase", "result", "reason"} {
			if !e.Has(k) {
				miss = append(miss, k)
			}
		}
		if len(miss) > 0 {
			at(Finding{Rule: ruleid.EvalPhaseFields, Message: "phase_evaluation entry lacks " + strings.Join(miss, ", ") + about})
		}
		if r, ok := e.Reason(); ok && strings.TrimSpace(r) != "" && records.Length(r) < records.MinReasonBytes {
			at(Finding{Pointer: "/reason", Rule: ruleid.EvalReasonMinLength,
				Message: fmt.Sprintf("phase_evaluation reason %q is %d bytes, below %d%s", strings.TrimSpace(r), records.Length(r), records.MinReasonBytes, about)})
		}
		if p, ok := e.Phase(); ok && p == 3 && e.Result() == "pass" {
			if _, has := e.Fields["acceptance_results"]; !has {
				at(Finding{Pointer: "", Rule: ruleid.EvalAcceptanceResultsPresent,
					Message: "phase=3 pass entry has no acceptance_results" + about})
			}
		}
	}
	ar, hasAR := e.AcceptanceResults()
	if !hasAR {
		return
	}
	var f *workspace.Feature
	if c.fl != nil {
		f = c.fl.Feature(fid)
	}
	if f != nil {
		if len(ar) != len(f.Acceptance) {
			at(Finding{Pointer: "/acceptance_results", Rule: ruleid.EvalAcceptanceResultsMatch,
				Message: fmt.Sprintf("acceptance_results has %d item(s) but feature %s has %d acceptance item(s)%s", len(ar), fid, len(f.Acceptance), about)})
		}
		for i, it := range ar {
			m, _ := it.(map[string]any)
			if i < len(f.Acceptance) {
				if cr, _ := m["criteria"].(string); cr != f.Acceptance[i] {
					at(Finding{Pointer: fmt.Sprintf("/acceptance_results/%d/criteria", i), Rule: ruleid.EvalAcceptanceResultsMatch,
						Message: fmt.Sprintf("acceptance_results[%d].criteria %q is not the acceptance text of feature %s item %d (must be verbatim)%s", i, cr, fid, i+1, about)})
				}
			}
			if e.Result() == "pass" {
				if st, _ := m["status"].(string); st == "fail" {
					at(Finding{Pointer: fmt.Sprintf("/acceptance_results/%d/status", i), Rule: ruleid.EvalAcceptanceResultsMatch,
						Message: fmt.Sprintf("result pass with acceptance_results[%d] status fail%s", i, about)})
				}
			}
		}
	}
	for i, it := range ar {
		m, _ := it.(map[string]any)
		ev, isStr := m["evidence"].(string)
		switch {
		case !isStr || strings.TrimSpace(ev) == "":
			at(Finding{Pointer: fmt.Sprintf("/acceptance_results/%d/evidence", i), Rule: ruleid.EvalEvidenceNotLazy,
				Message: fmt.Sprintf("acceptance_results[%d] evidence is missing or empty%s", i, about)})
		case records.IsLazy(ev):
			at(Finding{Pointer: fmt.Sprintf("/acceptance_results/%d/evidence", i), Rule: ruleid.EvalEvidenceNotLazy,
				Message: fmt.Sprintf("acceptance_results[%d] evidence %q is a lazy value%s", i, strings.TrimSpace(ev), about)})
		}
	}
}
