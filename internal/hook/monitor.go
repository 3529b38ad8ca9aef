package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/superagent-harness/harness/internal/monitor"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/workspace"
)

// activityResolution is how stale last_activity_at may get before a call
// rewrites claude_code_context_state.json for it alone: the figures are
// written when they change, the activity time at most once a minute (stale
// sessions are reported in minutes).
const activityResolution = time.Minute

// observation is what the monitoring of one hook call found (a Generator
// session in a workspace): the entry on record after the call, the
// triggers that fire, and whether the Generator must be told now.
type observation struct {
	// on is false outside a Generator session in a workspace: nothing was
	// measured.
	on bool
	th monitor.Thresholds
	cs *workspace.ContextState
	rd monitor.Reading
	// triggers fire now; hard is set past a hard limit (or for a Hermes
	// demand on record), with the detail the refusal names.
	triggers   []monitor.Trigger
	hard       bool
	hardDetail string
	// instruct is the Reset instruction to hand the model in this call's
	// answer ("" when it was already told or this event cannot carry it).
	instruct string
	// stateErr is set when claude_code_context_state.json could not be read
	// or written (the Stop loop bound then counts in hook.log).
	stateErr bool
}

// resetTrigger is the trigger on record, nil when none (or not measured).
func (ob observation) resetTrigger() *workspace.ResetTrigger {
	if !ob.on || ob.cs == nil {
		return nil
	}
	return ob.cs.ResetTrigger
}

// tellEvents are the events whose additionalContext reaches the model
// (verified with Claude Code 2.1.332 in internal/e2e: PreToolUse,
// PostToolUse, UserPromptSubmit and SessionStart context arrive as system
// messages in the next request).
func tellEvent(ev string) bool {
	switch ev {
	case EventPreToolUse, EventPostToolUse, EventPostToolUseFailure, EventUserPromptSubmit, EventSessionStart:
		return true
	}
	return false
}

// measuredEvent reports the events the hook measures on.
func measuredEvent(ev string) bool {
	switch ev {
	case EventPreToolUse, EventPostToolUse, EventPostToolUseFailure, EventUserPromptSubmit, EventSessionStart,
		EventStop, EventPreCompact:
		return true
	}
	return false
}

// observe measures the session of c (docs/protocol.md §8.1): the context
// tokens of the transcript's latest assistant message against the model's
// window, the feature's retries (through the eval_log cache; PreToolUse
// keeps the count on record, so the guard's hot path reads no eval_log),
// the session's age; it records a trigger that fires and writes the entry
// of claude_code_context_state.json when the figures changed (PreToolUse
// only when a trigger is recorded or the Generator told). mutate, when not
// nil, may change the entry further before it is written (the Stop loop
// counter, a compaction's trigger); it returns whether it did, which forces
// the write.
func (r runner) observe(c *call, mutate func(cs *workspace.ContextState) bool) observation {
	var ob observation
	s := c.scope
	if s.Feature == "" || !s.HasState || !measuredEvent(c.event) {
		return ob
	}
	ob.on = true
	now := r.now().UTC()
	nowS := now.Format("2006-01-02T15:04:05Z")
	ws := &workspace.Workspace{Root: s.Root}
	th, err := monitor.LoadThresholds(s.Root)
	if err != nil {
		c.rec.Errors = append(c.rec.Errors, "reset thresholds: "+err.Error())
	}
	ob.th = th
	old, err := ws.ContextState(s.Feature)
	if err != nil {
		c.rec.Errors = append(c.rec.Errors, "context state: "+err.Error())
		ob.stateErr = true
	}
	rd, err := monitor.ReadTranscript(c.in.TranscriptPath)
	if err != nil {
		c.rec.Errors = append(c.rec.Errors, "transcript: "+err.Error())
	}
	ob.rd = rd

	n := old.Clone()
	if n == nil {
		n = &workspace.ContextState{}
	}
	sid := c.in.SessionID
	newSession := sid != "" && n.SessionID != sid
	retries := n.Retries
	if c.event != EventPreToolUse || newSession || old == nil {
		if k, err := records.FeatureRetries(ws, s.Feature); err != nil {
			c.rec.Errors = append(c.rec.Errors, err.Error())
		} else {
			retries = k
		}
	}
	if newSession {
		n = n.Fresh() // the figures of the earlier session go; unknown members stay
		n.SessionID = sid
		n.SessionStartedAt = poolStart(ws, s.Feature, sid, nowS)
		n.RetriesAtStart = retries
		if tr := n.ResetTrigger; tr != nil && tr.SessionID != sid {
			n.ResetTrigger = nil // the Reset of an earlier session is done: this is the new session
		}
	}
	n.Retries = retries
	if rd.Found && (rd.At == "" || n.MeasuredAt == "" || rd.At >= n.MeasuredAt) {
		n.Model = rd.Model
		n.ContextTokens = rd.Usage.Total()
		n.ContextWindow = th.Window(rd.Model)
		n.MeasuredAt = rd.At
	} else if n.ContextWindow == 0 && n.Model == "" {
		n.ContextWindow = th.Window("")
	}
	if n.ContextWindow > 0 {
		n.TokenUsageRatio = workspace.RoundRatio(float64(n.ContextTokens) / float64(n.ContextWindow))
	}
	var age time.Duration
	if t, err := time.Parse(time.RFC3339Nano, n.SessionStartedAt); err == nil && !now.Before(t) {
		age = now.Sub(t).Truncate(time.Second)
		n.SessionAgeS = int64(age / time.Second)
	}

	ob.triggers = monitor.Evaluate(monitor.Figures{Tokens: n.ContextTokens, Window: n.ContextWindow, Ratio: n.TokenUsageRatio,
		Retries: n.Retries, RetriesAtStart: n.RetriesAtStart, Age: age}, th)
	for _, tr := range ob.triggers {
		if tr.Hard && !ob.hard {
			ob.hard, ob.hardDetail = true, tr.Detail
		}
	}
	recorded := false
	if n.ResetTrigger == nil && len(ob.triggers) > 0 {
		first := ob.triggers[0]
		for _, tr := range ob.triggers {
			if tr.Hard {
				first = tr
				break
			}
		}
		n.ResetTrigger = &workspace.ResetTrigger{Kind: first.Kind, Detail: first.Detail, At: nowS, SessionID: n.SessionID}
		n.ResetInstructedAt = ""
		recorded = true
	}
	if tr := n.ResetTrigger; tr != nil && tr.Kind == workspace.TriggerHermes && !ob.hard {
		ob.hard, ob.hardDetail = true, "Hermes demands a Reset: "+tr.Detail
	}
	mutated := mutate != nil && mutate(n)
	if mutated && n.ResetTrigger != nil && !recorded && old != nil && old.ResetTrigger == nil {
		recorded = true
	}
	told := false
	// after a compaction or on resume the model has lost what it was told
	retell := c.event == EventSessionStart && (c.in.Source == "compact" || c.in.Source == "resume")
	if n.ResetTrigger != nil && (n.ResetInstructedAt == "" || retell) && tellEvent(c.event) && c.in.AgentID == "" {
		detail := n.ResetTrigger.Detail
		if ob.hard {
			detail = ob.hardDetail
		}
		ob.instruct = monitor.Instruction(s.Feature, detail, ws.Rel(ws.Handoff(s.Feature)), ws.Rel(ws.GeneratorLog(s.Feature)), ob.hard)
		n.ResetInstructedAt = nowS
		told = true
	}

	changed := old == nil || !sameFigures(old, n)
	stale := true
	if t, err := time.Parse(time.RFC3339Nano, n.LastActivityAt); err == nil && now.Sub(t) < activityResolution {
		stale = false
	}
	write := recorded || told || mutated
	if c.event != EventPreToolUse {
		write = write || changed || stale
	}
	c.rec.Monitor = monitorRecord(n, ob)
	ob.cs = n
	if !write {
		return ob
	}
	n.LastActivityAt, n.UpdatedAt = nowS, nowS
	_, err = ws.UpdateContextState(s.Feature, func(d *workspace.ContextState) error {
		keep := d.ResetTrigger
		*d = *mergeEntry(d, n)
		if keep != nil && n.ResetTrigger == nil && keep.SessionID == n.SessionID {
			d.ResetTrigger = keep // set meanwhile by another writer (Hermes) for this session
		}
		return nil
	})
	if err != nil {
		c.rec.Errors = append(c.rec.Errors, "context state: "+err.Error())
		ob.stateErr = true
	}
	return ob
}

// mergeEntry puts the figures of n onto d (the entry as it is on disk now),
// keeping d's unknown members.
func mergeEntry(d, n *workspace.ContextState) *workspace.ContextState {
	out := d.Fresh()
	out.CopyFigures(n)
	return out
}

// sameFigures reports whether a and b record the same figures and trigger
// (times of writing and activity aside).
func sameFigures(a, b *workspace.ContextState) bool {
	if a.SessionID != b.SessionID || a.Model != b.Model || a.ContextTokens != b.ContextTokens || a.ContextWindow != b.ContextWindow ||
		a.TokenUsageRatio != b.TokenUsageRatio || a.Retries != b.Retries || a.SessionStartedAt != b.SessionStartedAt ||
		a.RetriesAtStart != b.RetriesAtStart || a.StopBlocks != b.StopBlocks || a.ResetInstructedAt != b.ResetInstructedAt ||
		a.MeasuredAt != b.MeasuredAt {
		return false
	}
	if (a.ResetTrigger == nil) != (b.ResetTrigger == nil) {
		return false
	}
	return a.ResetTrigger == nil || *a.ResetTrigger == *b.ResetTrigger
}

// poolStart is session_pool.active.<feature>.started_at when that entry is
// this session, else now: when the hook first saw the session.
func poolStart(ws *workspace.Workspace, feature, sid, now string) string {
	pool, err := ws.LoadSessionPool()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return now
	}
	if pool != nil {
		if e, ok := pool.Active[feature]; ok && e.SessionID == sid && e.StartedAt != nil {
			if _, err := time.Parse(time.RFC3339Nano, *e.StartedAt); err == nil {
				return *e.StartedAt
			}
		}
	}
	return now
}

// monitorRecord is the hook.log part of the measurement.
func monitorRecord(n *workspace.ContextState, ob observation) *MonitorRecord {
	m := &MonitorRecord{
		Tokens: n.ContextTokens, Window: n.ContextWindow,
		Ratio:   fmt.Sprintf("%.4f", n.TokenUsageRatio),
		Retries: int64(n.Retries), AgeS: n.SessionAgeS,
	}
	if tr := n.ResetTrigger; tr != nil {
		m.Trigger = tr.Kind
		m.Limit = "soft"
		if ob.hard {
			m.Limit = "hard"
		}
	}
	if ob.instruct != "" {
		m.Told = "reset-instruction"
	}
	return m
}
