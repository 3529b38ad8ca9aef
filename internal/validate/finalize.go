package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/workspace"
)

var commitRe = regexp.MustCompile(`^[0-9a-f]{7,40}$`)

// finalizeRules runs testdata/sprints/README.md §6. Corrections are not events here,
// except that they need a reason like every entry.
func (c *checker) finalizeRules() {
	c.featuresDone()
	c.finalizeFeatures()
	// finalize.eval-reason-present and finalize.checkpoint-decision-present,
	// found while streaming the log (finalizeEntry)
	c.rep.Findings = append(c.rep.Findings, c.evalFound.final.Findings...)
	if c.hc != nil && len(c.hc.PendingEval) > 0 && string(c.hc.PendingEval) != "null" {
		c.rep.add(Finding{File: relHermesContext, Pointer: "/pending_eval", Rule: ruleid.FinalizeNoPendingEval,
			Message: "pending_eval is not null: a verdict was reached but never written to eval_log: " + compact(c.hc.PendingEval)})
	}
	c.noPendingCheckpoints()
	c.tooling()
}

func featureNote(e *workspace.EvalEntry) string {
	if f := e.FeatureID(); f != "" {
		if p, ok := e.Phase(); ok {
			return fmt.Sprintf(" (feature %s, phase=%d)", f, p)
		}
		return " (feature " + f + ")"
	}
	return ""
}

func compact(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// finalize.features-done
func (c *checker) featuresDone() {
	if c.fl == nil {
		return
	}
	if len(c.fl.Features) == 0 {
		c.rep.add(Finding{File: relFeatureList, Pointer: "/features", Rule: ruleid.FinalizeFeaturesDone, Message: "features is empty"})
	}
	for i, f := range c.fl.Features {
		if f.Status != workspace.StatusCompleted && f.Status != workspace.StatusCancelled {
			c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/status", i), Rule: ruleid.FinalizeFeaturesDone,
				Message: fmt.Sprintf("feature %s has status %q (phase=%d); finalize needs completed or cancelled", f.ID, f.Status, f.Phase)})
		}
	}
}

// finalize.generator-log-sections, -key-decisions, phase-evals-present, commit-hash.
func (c *checker) finalizeFeatures() {
	if c.fl == nil {
		return
	}
	for i := range c.fl.Features {
		f := &c.fl.Features[i]
		if f.Status != workspace.StatusCompleted {
			continue
		}
		// last passing phase_evaluation per phase (not corrections)
		lastPass := map[int]*workspace.EvalEntry{}
		for _, e := range c.entries {
			for p := 1; p <= 4; p++ {
				if records.IsPhaseEval(e, f.ID, p) && e.Result() == "pass" {
					lastPass[p] = e
				}
			}
		}
		for p := 1; p <= 4; p++ {
			if lastPass[p] == nil {
				c.rep.add(Finding{File: relEvalLog, Rule: ruleid.FinalizePhaseEvalsPresent,
					Message: fmt.Sprintf("feature %s has no phase_evaluation with result pass for phase=%d", f.ID, p)})
			}
		}
		c.genlogSections(f, lastPass)
		// commit hash
		fc := ""
		if f.Commit != nil {
			fc = *f.Commit
		}
		if !commitRe.MatchString(fc) {
			v := "null"
			if f.Commit != nil {
				v = fmt.Sprintf("%q", fc)
			}
			c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/commit", i), Rule: ruleid.FinalizeCommitHash,
				Message: fmt.Sprintf("feature %s commit is %s; a completed feature needs the phase=4 commit hash (7-40 lowercase hex)", f.ID, v)})
		}
		if e := lastPass[4]; e != nil {
			ec := e.Commit()
			if !commitRe.MatchString(ec) {
				c.rep.add(Finding{File: relEvalLog, Line: e.Line, Pointer: "/commit", Rule: ruleid.FinalizeCommitHash,
					Message: fmt.Sprintf("the last passing phase=4 phase_evaluation of feature %s has commit %s; it needs the commit hash (7-40 lowercase hex)", f.ID, verb(e, "commit"))})
			} else if commitRe.MatchString(fc) && !strings.HasPrefix(fc, ec) && !strings.HasPrefix(ec, fc) {
				c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/commit", i), Rule: ruleid.FinalizeCommitHash,
					Message: fmt.Sprintf("feature %s commit %s and the phase=4 entry's commit %s (%s) differ", f.ID, fc, ec, evalAt(e.Line))})
			}
		}
	}
}

func verb(e *workspace.EvalEntry, k string) string {
	v, ok := e.Fields[k]
	if !ok {
		return "missing"
	}
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}

func (c *checker) genlogSections(f *workspace.Feature, lastPass map[int]*workspace.EvalEntry) {
	rel := relFeaturesDir + "/" + f.ID + "/generator_log.md"
	data, err := c.readFile(c.ws.GeneratorLog(f.ID))
	if errors.Is(err, fs.ErrNotExist) {
		c.rep.add(Finding{File: rel, Rule: ruleid.FinalizeGeneratorLogSections,
			Message: fmt.Sprintf("feature %s is completed but %s is missing", f.ID, rel)})
		return
	}
	if err != nil {
		c.rep.add(Finding{File: rel, Rule: ruleid.FinalizeGeneratorLogSections, Message: "cannot read: " + err.Error()})
		return
	}
	gl := records.ParseGeneratorLog(string(data))
	for p := 1; p <= 4; p++ {
		before := 0
		if lp := lastPass[p]; lp != nil {
			before = lp.Line
		}
		mark := records.RollbackMark(c.entries, f.ID, p, before)
		counting := 0
		secs := gl.ForPhase(p)
		for _, s := range secs {
			if records.SectionCounts(s, mark) {
				counting++
			}
		}
		if counting == 0 {
			msg := fmt.Sprintf("feature %s: %s has no `## phase=%d` section", f.ID, rel, p)
			if mark != nil && len(secs) > 0 {
				msg = fmt.Sprintf("feature %s: %s has no phase=%d section written after the rollback verdict at %s (%s)", f.ID, rel, p, evalAt(mark.Entry.Line), mark.Entry.Timestamp())
			}
			c.rep.add(Finding{File: rel, Rule: ruleid.FinalizeGeneratorLogSections, Message: msg})
		}
		for _, s := range secs {
			if n := s.Length(); n < records.MinSectionBytes {
				c.rep.add(Finding{File: rel, Line: s.Line, Rule: ruleid.FinalizeGeneratorLogSections,
					Message: fmt.Sprintf("feature %s: the phase=%d section body is %d bytes, below %d", f.ID, p, n, records.MinSectionBytes)})
			}
			if !s.KeyDecisions {
				c.rep.add(Finding{File: rel, Line: s.Line, Rule: ruleid.FinalizeGeneratorLogKeyDecisions,
					Message: fmt.Sprintf("feature %s: the phase=%d section has no `### 关键决策` (key decisions) subsection", f.ID, p)})
			}
		}
	}
}

// finalize.no-pending-checkpoints
func (c *checker) noPendingCheckpoints() {
	if c.rs != nil && len(c.rs.PendingUserReplies) > 0 {
		c.rep.add(Finding{File: relRuntimeState, Pointer: "/pending_user_replies", Rule: ruleid.FinalizeNoPendingCheckpoints,
			Message: "pending_user_replies is not empty: " + strings.Join(c.rs.PendingUserReplies, ", ")})
	}
	if c.hc != nil && len(c.hc.PendingCheckpoints) > 0 {
		c.rep.add(Finding{File: relHermesContext, Pointer: "/pending_checkpoints", Rule: ruleid.FinalizeNoPendingCheckpoints,
			Message: "pending_checkpoints is not empty: " + strings.Join(c.hc.PendingCheckpoints, ", ")})
	}
	if c.fl == nil {
		return
	}
	for i := range c.fl.Features {
		f := &c.fl.Features[i]
		if f.Status != workspace.StatusCompleted {
			continue
		}
		for k, cp := range f.Checkpoints {
			if cp.Status == "pending" || cp.Status == "revoked" {
				c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/checkpoints/%d/status", i, k), Rule: ruleid.FinalizeNoPendingCheckpoints,
					Message: fmt.Sprintf("checkpoint %s of completed feature %s has status %s", cp.ID, f.ID, cp.Status)})
			}
		}
	}
}

var (
	toolingHeadingRe = regexp.MustCompile(`^##[ \t]+([0-9]+)\.[ \t]`)
	reasonMarkerRe   = regexp.MustCompile(`(?i)because|reason`)
)

var toolingTitles = map[int]string{1: "1. 任务能力清单", 2: "2. 能力 → 工具映射", 3: "3. 选型决策记录", 4: "4. 禁止清单", 5: "5. 全局约束", 6: "6. 运行时新增"}

// finalize.tooling-sections and finalize.tooling-reasons.
func (c *checker) tooling() {
	if c.fl == nil || c.relCT == "" {
		return
	}
	rel := relContractsDir + "/" + c.fl.Sprint + "/tooling.md"
	data, err := c.readFile(c.ws.Tooling(c.fl.Sprint))
	if err != nil {
		c.rep.add(Finding{File: rel, Rule: ruleid.FinalizeToolingSections, Message: rel + " is missing"})
		return
	}
	lines := records.SplitMarkdown(string(data))
	have := map[int][]string{}
	for _, l := range lines {
		if l.Fenced {
			continue
		}
		if m := toolingHeadingRe.FindStringSubmatch(l.Text); m != nil {
			var n int
			fmt.Sscanf(m[1], "%d", &n)
			have[n] = append(have[n], l.Text)
		}
	}
	for n := 1; n <= 6; n++ {
		hs, ok := have[n]
		if !ok {
			c.rep.add(Finding{File: rel, Rule: ruleid.FinalizeToolingSections,
				Message: fmt.Sprintf("tooling.md has no section heading `## %s`", toolingTitles[n])})
			continue
		}
		if n == 6 {
			good := false
			for _, h := range hs {
				good = good || strings.HasPrefix(h, "## 6. 运行时新增")
			}
			if !good {
				c.rep.add(Finding{File: rel, Rule: ruleid.FinalizeToolingSections,
					Message: fmt.Sprintf("tooling.md section 6 heading %q must start with `## 6. 运行时新增`", hs[0])})
			}
		}
	}
	// Section 3 selection records.
	in := false
	var recs [][]string
	var recLine []int
	for i, l := range lines {
		if !l.Fenced && records.LevelOneTwoHeading(l.Text) {
			m := toolingHeadingRe.FindStringSubmatch(l.Text)
			in = m != nil && m[1] == "3"
			continue
		}
		if !in {
			continue
		}
		t := l.Text
		switch {
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* "):
			recs = append(recs, []string{t})
			recLine = append(recLine, i+1)
		case len(recs) > 0 && strings.TrimSpace(t) != "" && (t[0] == ' ' || t[0] == '\t'):
			recs[len(recs)-1] = append(recs[len(recs)-1], t)
		case strings.TrimSpace(t) == "":
			// a blank line keeps the record open for indented continuations
		default:
			if len(recs) > 0 {
				recs = append(recs, nil) // a non-indented line closes the record
				recLine = append(recLine, 0)
			}
		}
	}
	for k, r := range recs {
		if r == nil {
			continue
		}
		text := strings.Join(r, "\n")
		if strings.Contains(text, "理由") || strings.Contains(text, "因") || reasonMarkerRe.MatchString(text) {
			continue
		}
		c.rep.add(Finding{File: rel, Line: recLine[k], Rule: ruleid.FinalizeToolingReasons,
			Message: fmt.Sprintf("selection record in section 3 has no reason (理由/因/because/reason): %s", strings.TrimSpace(r[0]))})
	}
}
