package hook

import (
	"fmt"
	"os"
	"strings"

	"github.com/superagent-harness/harness/internal/monitor"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/workspace"
)

// stopLoopBound is how many Stop blocks in a row one session gets before
// the hook gives up (testdata/sprints/README.md §7 "Loop bound", D31): the 8th call
// allows with a systemMessage and records stop_forced_incomplete. Claude
// Code itself stops honouring blocks after 8 in a row.
const stopLoopBound = 7

// Stop rule ids the hook adds to those of package records.
const (
	ruleStopLoopBound = ruleid.StopLoopBound
	ruleStopIOError   = ruleid.StopIOError
)

// stop runs the Stop checks of testdata/sprints/README.md §7: 0 (no feature: allow),
// 1 (fresh handoff.md: Reset bookkeeping, allow), 2 (feature_list missing,
// feature unknown, phase not an integer: allow), 2b (feature_list.json does
// not parse: block), then the record checks 3–10 (records.CheckPhase); any
// failure blocks with every failing check, its fix and the Reset hint,
// unless the loop bound gives up. Stop never uses additionalContext.
func (r runner) stop(c *call) Output {
	s := c.scope
	feature := s.Feature
	if feature == "" {
		return r.stopAllow(c, records.RuleSkip, "no feature (no --feature, FEATURE_ID or cwd inside .harness/features/<F>/): nothing to check")
	}
	if s.Root == "" {
		return r.stopAllow(c, records.RuleSkip, "no sprint workspace: nothing to check for feature "+feature)
	}
	ws := &workspace.Workspace{Root: s.Root}
	now := r.now()
	if bad := nonRegularRecords(ws, feature); len(bad) > 0 {
		// Reading a FIFO would hang the hook until Claude Code's timeout, which
		// fails open; a record that is not a regular file is a real fault.
		rep := records.Report{Feature: feature, Handoff: ws.Rel(ws.Handoff(feature))}
		for _, b := range bad {
			rep.Failures = append(rep.Failures, records.Failure{Check: "io", Rule: ruleStopIOError, Path: b,
				Message: b + " is not a regular file", Fix: "restore it as a regular file"})
		}
		return r.stopBlock(c, rep)
	}

	reset, err := records.AcceptReset(ws, records.ResetInput{Feature: feature, SessionID: c.in.SessionID, Now: now, LockTimeout: hookLockTimeout})
	if err != nil {
		c.rec.Errors = append(c.rec.Errors, "reset exception: "+err.Error())
	}
	if reset.Accepted {
		msg := fmt.Sprintf("Reset accepted: %s", reset.Why)
		if reset.Recorded {
			msg += "; recorded the reset in session_pool.json and eval_log.jsonl"
		}
		c.rec.Path = ws.Rel(ws.Handoff(feature))
		return r.stopAllow(c, records.RuleResetException, msg+"; the session may end")
	}
	if reset.Fresh {
		// a Reset was attempted: say why it was refused (hook.log and the
		// block reason)
		c.rec.Errors = append(c.rec.Errors, "Reset not accepted: "+reset.Why)
	}

	rep, err := records.CheckPhase(ws, feature)
	for _, l := range rep.Ignored {
		c.rec.Errors = append(c.rec.Errors, "ignored eval_log line without Hermes-side provenance: "+l)
	}
	if err != nil {
		// The records exist but cannot be read: a real fault, not a reason
		// to let an incomplete phase end silently.
		rep.Failures = append(rep.Failures, records.Failure{Check: "io", Rule: ruleStopIOError, Path: ".harness",
			Message: "cannot read the records of feature " + feature + ": " + err.Error(),
			Fix:     "make the workspace files readable, then stop again"})
		if rep.Handoff == "" {
			rep.Handoff = ws.Rel(ws.Handoff(feature))
		}
	}
	if rep.Skipped {
		return r.stopAllow(c, records.RuleSkip, rep.SkipReason)
	}
	if rep.OK() {
		return r.stopAllow(c, "", fmt.Sprintf("feature %s phase=%d records are complete", feature, rep.Phase))
	}
	if reset.Fresh {
		rep.ResetRefusal = reset.Why
	}
	return r.stopBlock(c, rep)
}

// nonRegularRecords lists (relative to the root) the record files Stop reads
// that exist but are not regular files (handoff.md is checked by
// records.ResetException, which never opens a non-regular file).
func nonRegularRecords(ws *workspace.Workspace, feature string) []string {
	var bad []string
	for _, p := range []string{ws.FeatureList(), ws.SessionPool(), ws.EvalLog(), ws.GeneratorLog(feature)} {
		if st, err := os.Stat(p); err == nil && !st.Mode().IsRegular() {
			bad = append(bad, ws.Rel(p))
		}
	}
	return bad
}

// stopLate answers a Stop whose checks did not finish within the budget: the
// records could not be judged, so the phase is not accepted as complete;
// it blocks (within the loop bound) with the cause instead of letting
// Claude Code's timeout fail open.
func (r runner) stopLate(c *call) Output {
	feature := c.scope.Feature
	ws := &workspace.Workspace{Root: c.scope.Root}
	rep := records.Report{Feature: feature, Handoff: ws.Rel(ws.Handoff(feature))}
	rep.Failures = append(rep.Failures, records.Failure{Check: "io", Rule: ruleDeadline, Path: ".harness",
		Message: fmt.Sprintf("the Stop check of feature %s did not finish within %s: the workspace is jammed (a lock held by another process, or a record that cannot be read in time), so the records could not be judged", feature, r.budget()),
		Fix:     "run `harness validate` to see what is planted or held in .harness/ (it names the holder of a lock), let Hermes clear it, then stop again"})
	return r.stopBlock(c, rep)
}

// stopBlock blocks with every failure of rep, unless the loop bound gives
// up. The blocks in a row are counted in the session's entry of
// claude_code_context_state.json (stop_blocks_in_row), so a Stop reads no
// log; only when that file cannot be read or written does it count the
// session's records at the end of hook.log (at most maxLoopScan bytes).
func (r runner) stopBlock(c *call, rep records.Report) Output {
	s := c.scope
	feature := s.Feature
	failing := make([]string, 0, len(rep.Failures))
	for _, f := range rep.Failures {
		failing = append(failing, f.Rule)
	}
	c.rec.Failing = failing
	c.rec.Rule = rep.Failures[0].Rule
	reason := rep.Reason()

	// the count on record is this session's only when the entry is; for
	// another session (or no readable entry) hook.log's end counts
	n := -1
	ws := &workspace.Workspace{Root: s.Root}
	if cs, err := ws.ContextState(feature); err == nil && cs != nil && cs.SessionID == c.in.SessionID && c.in.SessionID != "" {
		n = cs.StopBlocks
	}
	if n < 0 {
		var err error
		n, err = consecutiveStopBlocks(hookLogPath(s.Root), c.in.SessionID, stopLoopBound)
		if err != nil {
			c.rec.Errors = append(c.rec.Errors, "loop bound: reading hook.log: "+err.Error())
		}
	}
	c.obs = r.observe(c, func(cs *workspace.ContextState) bool {
		if n >= stopLoopBound {
			cs.StopBlocks = 0
		} else {
			cs.StopBlocks = n + 1
		}
		return true
	})
	if n >= stopLoopBound {
		msg := fmt.Sprintf("harness-hook gave up after %d Stop blocks in a row [%s]: the session ends with feature %s %s records incomplete (%s). Hermes must resume the feature. Missing:\n%s",
			n, ruleStopLoopBound, feature, rep.PhaseLabel(), strings.Join(failing, ", "), reason)
		c.rec.Verdict, c.rec.Rule, c.rec.Reason = verdictForced, ruleStopLoopBound, msg
		return Output{SystemMessage: msg}
	}
	if tr := c.obs.resetTrigger(); tr != nil {
		reason += "\n\n" + monitor.Instruction(feature, tr.Detail, ws.Rel(ws.Handoff(feature)), ws.Rel(ws.GeneratorLog(feature)), c.obs.hard)
	}
	c.rec.Verdict, c.rec.Reason = "block", reason
	return encodeStopBlock(reason)
}

// stopAllow records an allowing Stop decision and answers {}; the
// session's Stop blocks in a row start again from 0.
func (r runner) stopAllow(c *call, rule, why string) Output {
	c.obs = r.observe(c, func(cs *workspace.ContextState) bool {
		if cs.StopBlocks == 0 {
			return false
		}
		cs.StopBlocks = 0
		return true
	})
	c.rec.Verdict, c.rec.Rule, c.rec.Reason = "allow", rule, why
	return Output{}
}
