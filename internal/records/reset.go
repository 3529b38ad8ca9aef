package records

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/digest"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// The feature Reset thresholds of docs/protocol.md §8.1, as read from the
// figures on record in claude_code_context_state.json.
const (
	resetTokenRatio = 0.70
	resetRetries    = 2
	resetAgeS       = 2 * 60 * 60
)

// HandoffHeaders are the header lines a handoff.md must fill
// (templates/claude_code_handoff.template.md, docs/protocol.md §3.11), and
// HandoffSections its headings, each with a non-blank body.
var (
	HandoffHeaders  = []string{"**Generated at**", "**Feature**", "**Sprint**", "**Trigger reason**"}
	HandoffSections = []string{"## 当前状态", "### 已完成", "### 进行中", "## 下一步计划", "## 关键架构决策", "## 最近失败模式", "## 运行时依赖变更", "## 给新 session 的提醒"}
)

// ResetInput is what Stop check 1 needs besides the workspace.
type ResetInput struct {
	Feature string
	// SessionID is the Claude Code session asking to stop (the payload's
	// session_id): the exception opens at most once per session.
	SessionID string
	Now       time.Time
	// LockTimeout bounds the wait for the workspace lock of the bookkeeping
	// (0: fsutil.LockTimeout).
	LockTimeout time.Duration
	// DryRun decides without recording anything.
	DryRun bool
}

// ResetOutcome is the decision of Stop check 1.
type ResetOutcome struct {
	// Fresh: handoff.md exists, its raw size is > 50 bytes and it was
	// modified < 300 s ago (not in the future): the original's test.
	Fresh bool
	// Accepted: the Reset exception opens; the session may stop.
	Accepted bool
	// Why says, in one line, why the Reset was or was not accepted.
	Why string
	// Trigger is the handoff's **Trigger reason** text.
	Trigger string
	// OnRecord names what allowed it: a Reset trigger on record, Hermes's
	// order, or a pool entry already resetting.
	OnRecord string
	// Recorded: the pool entry and the reset eval entry were written now.
	Recorded bool
}

// AcceptReset decides Stop check 1 and, when it opens, records the Reset.
// The exception is earned, once (docs/protocol.md §8.1, §16):
//
//  1. handoff.md is fresh (ResetException) and no larger than the Markdown
//     record cap;
//  2. it fills the handoff template: the header lines HandoffHeaders with
//     values (**Feature** naming this feature, a **Trigger reason** that is
//     neither empty, lazy nor a template placeholder) and every heading of
//     HandoffSections with a non-blank body — `touch` or junk bytes never
//     open it;
//  3. its content differs from the handoff of every earlier Reset of the
//     feature (SHA-256, ContextState.Resets), and this session has not
//     ended under a Reset before;
//  4. a Reset is on record for the session: the feature's reset_trigger in
//     claude_code_context_state.json (the hook's measurement or Hermes's
//     `harness session reset`, kind hermes), the figures on record past a
//     threshold (token ratio > 0.70, ≥ 2 retries, session older than 2 h),
//     or the pool entry already resetting (Hermes ordered it).
//
// When it opens (and not DryRun), under the workspace lock: the pool entry
// becomes resetting with last_activity now and one reset eval entry is
// appended (reason: the trigger line), unless the pool entry already was
// resetting; and the Reset is added to the feature's resets record (session,
// time, handoff hash, trigger, where the eval line went). A Reset that
// cannot be recorded is not accepted: the error says why (a held lock
// names its holder).
func AcceptReset(ws *workspace.Workspace, in ResetInput) (ResetOutcome, error) {
	var out ResetOutcome
	fresh, _, mtime, err := ResetException(ws, in.Feature, in.Now)
	if err != nil {
		return out, err
	}
	if !fresh {
		out.Why = notFresh(ws, in.Feature, in.Now, mtime)
		return out, nil
	}
	out.Fresh = true
	data, err := fsutil.ReadRecord(ws.Handoff(in.Feature), fsutil.CapRecord)
	if err != nil {
		out.Why = "handoff.md cannot be read: " + err.Error()
		return out, nil
	}
	out.Trigger = TriggerReason(data)
	if miss := HandoffProblems(data, in.Feature); len(miss) > 0 {
		out.Why = "handoff.md does not fill the handoff template (templates/claude_code_handoff.template.md): " + strings.Join(miss, "; ")
		return out, nil
	}
	hash := digest.Hex(digest.Sum256(data), 32)
	cs, err := ws.ContextState(in.Feature)
	if err != nil {
		out.Why = "the Reset record (claude_code_context_state.json) cannot be read: " + err.Error()
		return out, nil
	}
	if why := priorReset(cs, in.SessionID, hash); why != "" {
		out.Why = why
		return out, nil
	}
	onRecord := triggerOnRecord(cs, in.SessionID)
	pool, perr := ws.LoadSessionPool()
	resetting := false
	if perr == nil {
		if e, ok := pool.Active[in.Feature]; ok && e.Status == "resetting" {
			resetting = true
			if onRecord == "" {
				onRecord = "Hermes ordered it (session_pool.active." + in.Feature + ".status is resetting)"
			}
		}
	}
	if onRecord == "" {
		out.Why = "no Reset trigger is on record for this session (claude_code_context_state.json: no reset_trigger, token ratio, retries and session age under the thresholds) and Hermes did not order one (`harness session reset " + in.Feature + "`); finish the phase's records instead"
		return out, nil
	}
	out.OnRecord = onRecord
	if in.DryRun {
		out.Accepted = true
		out.Why = fmt.Sprintf("handoff.md fills the template (trigger: %s) and %s", out.Trigger, onRecord)
		return out, nil
	}
	recorded, err := recordReset(ws, in, out.Trigger, hash, resetting)
	var prior errPrior
	if errors.As(err, &prior) {
		out.Why = prior.why
		return out, nil
	}
	if err != nil {
		out.Why = "the Reset could not be recorded, so it is not accepted: " + err.Error()
		return out, nil
	}
	out.Accepted, out.Recorded = true, recorded
	out.Why = fmt.Sprintf("handoff.md fills the template (trigger: %s) and %s", out.Trigger, onRecord)
	return out, nil
}

// priorReset says why an earlier Reset of the feature rules this one out
// (the same handoff.md, or the same session), or "".
func priorReset(cs *workspace.ContextState, session, hash string) string {
	if cs == nil {
		return ""
	}
	for _, r := range cs.Resets {
		if r.HandoffSHA256 == hash {
			return fmt.Sprintf("handoff.md is the same as the one of the Reset at %s (session %s); a new Reset needs a new snapshot", r.At, r.SessionID)
		}
		if r.SessionID == session {
			return fmt.Sprintf("this session (%s) already ended under a Reset at %s; the exception opens once per session", session, r.At)
		}
	}
	return ""
}

// errPrior is a Reset ruled out by priorReset once the lock was taken (a
// concurrent Stop recorded it first).
type errPrior struct{ why string }

func (e errPrior) Error() string { return e.why }

// notFresh says why handoff.md does not pass the freshness test.
func notFresh(ws *workspace.Workspace, feature string, now, mtime time.Time) string {
	f, info, err := fsutil.OpenRecord(ws.Handoff(feature))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no handoff.md"
	case err != nil:
		return "handoff.md cannot be read: " + err.Error()
	}
	f.Close()
	switch {
	case info.Size() <= HandoffMinRawBytes:
		return fmt.Sprintf("handoff.md is %d bytes (more than %d are needed)", info.Size(), HandoffMinRawBytes)
	case info.Size() > fsutil.CapRecord:
		return "handoff.md is larger than the Markdown record cap"
	case now.Sub(mtime) < -HandoffClockSkew:
		return "handoff.md is dated in the future"
	}
	return fmt.Sprintf("handoff.md was last written %s ago (a Reset snapshot is written within %s of stopping)", now.Sub(mtime).Round(time.Second), HandoffMaxAge)
}

// HandoffProblems lists what a handoff.md misses of the template, for
// feature: header lines without a value, a **Feature** naming another
// feature, an empty, lazy or placeholder **Trigger reason**, headings
// missing or with an empty body.
func HandoffProblems(data []byte, feature string) []string {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	var miss []string
	header := func(h string) (string, bool) {
		for _, l := range lines {
			if i := strings.Index(l, h); i >= 0 {
				v := strings.TrimSpace(l[i+len(h):])
				v = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(v, ":"), "："))
				return v, true
			}
		}
		return "", false
	}
	for _, h := range HandoffHeaders {
		v, ok := header(h)
		switch {
		case !ok:
			miss = append(miss, "no "+h+" line")
		case v == "" || strings.Contains(v, "{{") || strings.Contains(v, "{feature_id}") || strings.Contains(v, "<"):
			miss = append(miss, h+" has no value")
		case h == "**Feature**" && strings.Trim(v, "` ") != feature:
			miss = append(miss, fmt.Sprintf("**Feature** is %q, not %s", v, feature))
		case h == "**Trigger reason**" && (IsLazy(v) || len(v) < 6):
			miss = append(miss, fmt.Sprintf("**Trigger reason** %q names no trigger (say which: token ratio, retries or session age, with the measured value)", v))
		}
	}
	for _, h := range HandoffSections {
		level := len(h) - len(strings.TrimLeft(h, "#"))
		at := -1
		inFence := false
		for k, l := range lines {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				inFence = !inFence
			}
			if !inFence && (t == h || strings.HasPrefix(t, h+" ") || strings.HasPrefix(t, h+"(") || strings.HasPrefix(t, h+"（")) {
				at = k
				break
			}
		}
		if at < 0 {
			miss = append(miss, "no `"+h+"` section")
			continue
		}
		// the body runs to the next heading of the same or a higher level;
		// a subsection (### 已完成 under ## 当前状态) is part of it
		body := false
		for _, l := range lines[at+1:] {
			t := strings.TrimSpace(l)
			if lv := len(t) - len(strings.TrimLeft(t, "#")); lv > 0 && lv <= level && strings.HasPrefix(t[lv:], " ") {
				break
			}
			if t != "" && t != "---" {
				body = true
				break
			}
		}
		if !body {
			miss = append(miss, "the `"+h+"` section is empty")
		}
	}
	return miss
}

// triggerOnRecord names the Reset trigger on record for session in the
// feature's context state, or "".
func triggerOnRecord(cs *workspace.ContextState, session string) string {
	if cs == nil {
		return ""
	}
	if t := cs.ResetTrigger; t != nil && (t.SessionID == "" || t.SessionID == session) {
		if t.Kind == workspace.TriggerHermes {
			return "Hermes ordered it (reset_trigger kind hermes: " + t.Detail + ")"
		}
		return fmt.Sprintf("a Reset trigger is on record (%s: %s)", t.Kind, t.Detail)
	}
	if cs.SessionID != "" && cs.SessionID != session {
		return ""
	}
	switch {
	case cs.TokenUsageRatio > resetTokenRatio:
		return fmt.Sprintf("a Reset trigger is on record (context: token_usage_ratio %.2f > %.2f)", cs.TokenUsageRatio, resetTokenRatio)
	case cs.Retries >= resetRetries:
		return fmt.Sprintf("a Reset trigger is on record (retries: %d ≥ %d)", cs.Retries, resetRetries)
	case cs.SessionAgeS > resetAgeS:
		return fmt.Sprintf("a Reset trigger is on record (age: session %d s > %d s)", cs.SessionAgeS, resetAgeS)
	}
	return ""
}

// recordReset writes the bookkeeping of an accepted Reset under the
// workspace lock (see AcceptReset); recorded reports whether the pool entry
// and the eval entry were written (false when the pool entry was already
// resetting).
func recordReset(ws *workspace.Workspace, in ResetInput, trigger, hash string, resetting bool) (recorded bool, err error) {
	timeout := in.LockTimeout
	if timeout <= 0 {
		timeout = fsutil.LockTimeout
	}
	unlock, err := fsutil.LockWithin(ws.StateLock(), timeout)
	if err != nil {
		return false, err
	}
	defer unlock()
	// a concurrent Stop may have recorded this Reset while we waited
	if cs, err := ws.ContextState(in.Feature); err != nil {
		return false, err
	} else if why := priorReset(cs, in.SessionID, hash); why != "" {
		return false, errPrior{why}
	}
	if pool, err := ws.LoadSessionPool(); err == nil {
		if e, ok := pool.Active[in.Feature]; ok && e.Status == "resetting" {
			resetting = true
		}
	}
	nowS := in.Now.UTC().Format("2006-01-02T15:04:05Z")
	rec := workspace.ResetRecord{SessionID: in.SessionID, At: nowS, HandoffSHA256: hash, Trigger: trigger, EvalAt: -1}
	if !resetting {
		if err := setPoolResetting(ws, in.Feature, nowS); err != nil {
			return false, err
		}
		line, err := resetEntry(ws, in.Feature, nowS, trigger)
		if err != nil {
			return false, err
		}
		at, err := fsutil.AppendLineAtWithin(ws.EvalLog(), line, timeout)
		if err != nil {
			return false, err
		}
		rec.EvalAt, rec.EvalSHA256 = at, workspace.LineHash(line)
		recorded = true
	}
	_, err = ws.UpdateContextState(in.Feature, func(cs *workspace.ContextState) error {
		cs.Resets = append(cs.Resets, rec)
		return nil
	})
	return recorded, err
}

// setPoolResetting sets session_pool.active.<feature>.status to resetting
// and last_activity to now (the caller holds the workspace lock); a missing
// pool or entry is left alone.
func setPoolResetting(ws *workspace.Workspace, feature, nowS string) error {
	old, err := fsutil.ReadRegular(ws.SessionPool(), fsutil.CapState)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	top, err := workspace.ParseObject(old)
	if err != nil {
		return fmt.Errorf("session_pool.json: %w", err)
	}
	var active *workspace.Object
	if !top.Decode("active", &active) || active == nil {
		return nil
	}
	var ent *workspace.Object
	if !active.Decode(feature, &ent) || ent == nil {
		return nil
	}
	if err := ent.Set("status", "resetting"); err != nil {
		return err
	}
	if err := ent.Set("last_activity", nowS); err != nil {
		return err
	}
	if err := active.Set(feature, ent); err != nil {
		return err
	}
	if err := top.Set("active", active); err != nil {
		return err
	}
	out, err := workspace.MarshalIndent(top)
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(ws.SessionPool(), out, 0o644)
}

// resetEntry is the reset eval entry {timestamp, sprint_id, feature_id,
// phase, event_type reset, agent claude-code, reason} (docs/protocol.md
// §8.1; phase and sprint left out when feature_list cannot be read).
func resetEntry(ws *workspace.Workspace, feature, nowS, trigger string) ([]byte, error) {
	entry := &workspace.Object{}
	_ = entry.Set("timestamp", nowS)
	sprint := ""
	phase, havePhase := 0, false
	if fl, err := ws.LoadFeatureList(); err == nil {
		sprint = fl.Sprint
		if f := fl.Feature(feature); f != nil && f.PhaseOK() {
			phase, havePhase = f.Phase, true
		}
	}
	if sprint == "" {
		if rs, err := ws.LoadRuntimeState(); err == nil && rs.CurrentSprint != nil {
			sprint = *rs.CurrentSprint
		}
	}
	if sprint != "" {
		_ = entry.Set("sprint_id", sprint)
	}
	_ = entry.Set("feature_id", feature)
	if havePhase {
		_ = entry.Set("phase", phase)
	}
	_ = entry.Set("event_type", workspace.EventReset)
	_ = entry.Set("agent", "claude-code")
	_ = entry.Set("reason", trigger)
	return workspace.MarshalLine(entry)
}
