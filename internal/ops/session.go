package ops

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/workspace"
)

// SessionStartInput is `harness session start FID [--session-id ID] --type T`.
type SessionStartInput struct {
	Feature   string
	SessionID string
	Type      string // cc-print | cc-interactive-mcp | mcp_direct
	// Launch, when set, is recorded as the entry's "launch" object (what
	// `harness launch` started; docs/sandbox.md §3).
	Launch *LaunchInfo
}

// LaunchInfo is session_pool.active.<fid>.launch: how `harness launch`
// started the session. Status and doctor warn about a session without the
// sandbox on every run.
type LaunchInfo struct {
	// Settings is the session's --settings file, relative to the root.
	Settings string `json:"settings"`
	// Sandbox is false for --no-sandbox; NoSandboxReason then says why.
	Sandbox         bool   `json:"sandbox"`
	NoSandboxReason string `json:"no_sandbox_reason,omitempty"`
	// Mode is print, interactive or mcp.
	Mode string `json:"mode"`
	// PID is the client's process id (0 when unknown, e.g. inside tmux).
	PID int `json:"pid,omitempty"`
	// TempDir is the sandbox's temporary directory (CLAUDE_CODE_TMPDIR).
	TempDir string `json:"temp_dir,omitempty"`
}

// SessionStart records a Generator session (docs/protocol.md §4.6 STEP 3.4):
// session_pool.active.<fid> = {session_id, session_type, status running,
// started_at, current_phase, last_activity}; a stray .current_agent.json is
// deleted; .current_agent becomes role generator with developer
// hermes-as-proxy for ids starting "hermes-proxy", else claude-code. The id
// defaults to the feature's session_id.txt; a given id that differs is
// written there (a new session after a Reset). It refuses when both are
// empty, when the feature directory is missing (run `harness init-feature`),
// when the DAG gate is not approved (Z11) or the pool is full. Starting a
// session that is already recorded with the same id is a no-op.
func SessionStart(env *Env, in SessionStartInput) (*Report, error) {
	rep := &Report{Command: "session start"}
	if !oneOf(in.Type, sessionTypes) {
		return nil, usage("--type %q: one of cc-print, cc-interactive-mcp, mcp_direct", in.Type)
	}
	return env.run(rep, func(tx *Tx) error {
		_, f, err := env.loadFeature(in.Feature)
		if err != nil {
			return err
		}
		fid := in.Feature
		fdir := env.H("features", fid)
		if st, err := os.Stat(fdir); err != nil || !st.IsDir() {
			return refuse("%s has no feature directory .harness/features/%s; run `harness init-feature %s` first (STEP 3.1–3.2)", fid, fid, fid)
		}
		st := f.Str("status")
		if st == "completed" || st == "cancelled" {
			return refuse("%s is %s; no session starts for it", fid, st)
		}
		fileID := ""
		if b, err := fsutil.ReadRegular(filepath.Join(fdir, "session_id.txt"), fsutil.CapSmall); err == nil {
			fileID = strings.TrimSpace(string(b))
		}
		id := strings.TrimSpace(in.SessionID)
		if id == "" {
			id = fileID
		}
		if id == "" {
			hint := ""
			if in.Type == "mcp_direct" {
				hint = " (mcp_direct sessions use hermes-proxy-" + fid + ")"
			}
			return refuse("no session id: --session-id is empty and .harness/features/%s/session_id.txt is empty%s", fid, hint)
		}
		if strings.ContainsAny(id, "\r\n") || len(id) > 200 {
			return refuse("the session id must be one short line (session_id.txt or --session-id); got %d bytes", len(id))
		}
		pool, err := env.readObj("session_pool.json")
		if err != nil {
			return err
		}
		active := pool.ObjAt("active")
		if active == nil {
			active = NewObj()
			pool.With("active", active)
		}
		if old := active.ObjAt(fid); old != nil && old.Str("session_id") == id && old.Str("status") == "running" {
			rep.did("session %s of %s is already recorded as running; nothing to do", id, fid)
			return nil
		}
		if reasons, err := StartBlockers(env, fid, true); err != nil {
			return err
		} else if len(reasons) > 0 {
			return refuse("%s may not start now (the start conditions of `harness next`): %s", fid, strings.Join(reasons, "; "))
		}
		if !active.Has(fid) {
			max := 2
			if m, ok := pool.Int("max_concurrent"); ok && m >= 1 {
				max = m
			}
			if n := len(active.Keys()); n >= max {
				return refuse("session_pool is full: %d active of max_concurrent %d (%s)", n, max, strings.Join(active.Keys(), ", "))
			}
		}
		now := env.stamp()
		if id != fileID {
			tx.Write(".harness/features/"+fid+"/session_id.txt", []byte(id+"\n"))
			rep.did("wrote %s to .harness/features/%s/session_id.txt", id, fid)
		}
		phase, ok := f.Int("phase")
		if !ok {
			phase = 1
		}
		entry := NewObj().With("session_id", id).With("session_type", in.Type).With("status", "running").
			With("started_at", now).With("current_phase", num(phase)).With("last_activity", now)
		if in.Launch != nil {
			entry.With("launch", in.Launch)
		}
		active.With(fid, entry)
		if err := tx.WriteJSON(relPool, pool); err != nil {
			return err
		}
		rep.did("session_pool.active.%s = {session_id %s, session_type %s, status running, current_phase %d}", fid, id, in.Type, phase)
		if _, err := os.Stat(env.H(".current_agent.json")); err == nil {
			tx.Remove(".harness/.current_agent.json")
			rep.did("deleted the stray .harness/.current_agent.json (Z18)")
		}
		developer, platform := "claude-code", "claude-code"
		if strings.HasPrefix(id, "hermes-proxy") {
			developer, platform = "hermes-as-proxy", "hermes"
		}
		ca := NewObj().With("role", "generator").With("platform", platform).With("developer", developer).
			With("session_id", id).With("started_at", now).With("current_feature", fid).
			With("current_phase", num(phase)).With("last_activity", now)
		if err := tx.WriteJSON(relCurrentAgent, ca); err != nil {
			return err
		}
		rep.did(".current_agent: role generator, developer %s, current_feature %s", developer, fid)
		rep.Notes = append(rep.Notes, "next: `harness preflight --stage started "+fid+"` (STEP 2.5), which marks the feature in_progress when every check passes")
		rep.Data = map[string]any{"feature": fid, "session_id": id, "session_type": in.Type}
		return nil
	})
}

// SessionEnd removes a feature's session from session_pool.active (a
// finished entry is deleted, never kept as completed: Z16). A feature that
// was in_progress goes back to pending (it has no session any more), and a
// .current_agent naming this feature is handed back to the evaluator
// (Hermes). Ending a session that is not recorded is a no-op.
func SessionEnd(env *Env, fid string) (*Report, error) {
	rep := &Report{Command: "session end"}
	return env.run(rep, func(tx *Tx) error {
		fl, f, err := env.loadFeature(fid)
		if err != nil {
			return err
		}
		pool, err := env.readObj("session_pool.json")
		if err != nil {
			return err
		}
		active := pool.ObjAt("active")
		if !active.Has(fid) {
			rep.did("%s has no active session; nothing to do", fid)
			return nil
		}
		active.Delete(fid)
		if err := tx.WriteJSON(relPool, pool); err != nil {
			return err
		}
		rep.did("removed %s from session_pool.active", fid)
		now := env.stamp()
		if f.Str("status") == "in_progress" {
			f.With("status", "pending")
			fl.touch(now)
			if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
				return err
			}
			rep.did("%s status in_progress → pending (no session)", fid)
		}
		if ca, err := env.readObj(".current_agent"); err == nil && ca.Str("current_feature") == fid {
			ca.With("role", "evaluator").With("platform", "hermes").With("developer", "hermes").
				With("session_id", nil).With("current_feature", nil).With("current_phase", nil).With("last_activity", now)
			if err := tx.WriteJSON(relCurrentAgent, ca); err != nil {
				return err
			}
			rep.did(".current_agent handed back to the evaluator")
		}
		return nil
	})
}

// SessionReset records a Claude Code feature Reset for Hermes (docs/protocol.md
// §8.1 step 3, §13 #9): session_pool.active.<fid>.status = resetting,
// last_activity = now, and one eval entry {event_type reset, agent
// claude-code, feature_id, phase, reason}. The reason is reason, else the
// handoff's **Trigger reason** line, else "handoff.md written (reset)". Like the
// Stop hook's bookkeeping it writes nothing when the pool entry is already
// resetting or eval_log already has a reset entry for the feature not older
// than handoff.md, so running both never records a Reset twice. A
// .current_agent naming the feature's Generator is handed back to the
// evaluator until `session start` records the new session. Afterwards the
// feature's entry of claude_code_context_state.json gets the Reset trigger
// kind "hermes" for the session on record (unless a trigger of that session
// is already there), which makes the hook refuse every tool call of that
// session but the Reset's own (docs/protocol.md §3.8, §8.1); that trigger
// is also Hermes's order on record for the Stop hook's Reset exception.
func SessionReset(env *Env, fid, reason string) (*Report, error) {
	rep, err := sessionReset(env, fid, reason)
	if err != nil {
		return rep, err
	}
	ws := &workspace.Workspace{Root: env.Root}
	detail := strings.TrimSpace(reason)
	if detail == "" {
		detail = "harness session reset " + fid
	}
	written, err := ws.UpdateContextState(fid, func(cs *workspace.ContextState) error {
		if cs.ResetTrigger != nil && cs.ResetTrigger.SessionID == cs.SessionID {
			return workspace.ErrContextStateUnchanged
		}
		cs.ResetTrigger = &workspace.ResetTrigger{Kind: workspace.TriggerHermes, Detail: detail, At: env.stamp(), SessionID: cs.SessionID}
		cs.ResetInstructedAt = ""
		cs.UpdatedAt = env.stamp()
		return nil
	})
	if err != nil {
		rep.Notes = append(rep.Notes, "could not record the Reset trigger in claude_code_context_state.json: "+err.Error())
	} else if written {
		rep.did("claude_code_context_state.json: %s reset_trigger = hermes (%s)", fid, detail)
	}
	return rep, nil
}

func sessionReset(env *Env, fid, reason string) (*Report, error) {
	rep := &Report{Command: "session reset"}
	var session, detail string
	rep, err := env.run(rep, func(tx *Tx) error {
		fl, f, err := env.loadFeature(fid)
		if err != nil {
			return err
		}
		pool, err := env.readObj("session_pool.json")
		if err != nil {
			return err
		}
		entry := pool.ObjAt("active").ObjAt(fid)
		if entry == nil {
			return refuse("%s has no active session in session_pool.json; nothing to reset", fid)
		}
		session, detail = entry.Str("session_id"), firstNonEmpty(strings.TrimSpace(reason), "Hermes ordered the Reset (harness session reset)")
		if entry.Str("status") == "resetting" {
			rep.did("session_pool.active.%s is already resetting (recorded by the Stop hook or an earlier reset); nothing to do", fid)
			return nil
		}
		log, err := tx.evalLog()
		if err != nil {
			return err
		}
		log.note(rep)
		handoff := env.H("features", fid, "handoff.md")
		var hmtime time.Time
		var trigger string
		if st, err := os.Stat(handoff); err == nil {
			hmtime = st.ModTime()
			if b, err := fsutil.ReadRegular(handoff, fsutil.CapRecord); err == nil {
				trigger = records.TriggerReason(b) // the Stop hook's own reading
			}
		}
		already := false
		for _, en := range log.Resets {
			if en.Feature != fid {
				continue
			}
			if t, err := time.Parse(time.RFC3339, en.Timestamp); err == nil && !hmtime.IsZero() && !t.Before(hmtime.Truncate(time.Second)) {
				already = true
			}
		}
		now := env.stamp()
		entry.With("status", "resetting")
		entry.With("last_activity", now)
		if err := tx.WriteJSON(relPool, pool); err != nil {
			return err
		}
		rep.did("session_pool.active.%s.status = resetting", fid)
		if ca, err := env.readObj(".current_agent"); err == nil && ca.Str("current_feature") == fid && ca.Str("role") == "generator" {
			// The session is gone; until the new one starts, Hermes holds the turn.
			ca.With("role", "evaluator").With("platform", "hermes").With("developer", "hermes").
				With("session_id", nil).With("current_feature", nil).With("current_phase", nil).With("last_activity", now)
			if err := tx.WriteJSON(relCurrentAgent, ca); err != nil {
				return err
			}
			rep.did(".current_agent handed back to the evaluator until the new session starts")
		}
		if already {
			rep.did("a reset entry for %s newer than handoff.md is already in eval_log; not appended again", fid)
			return nil
		}
		r := strings.TrimSpace(reason)
		if r == "" {
			r = trigger
		}
		if r == "" || lazyValue(r) {
			r = records.DefaultResetTrigger
		}
		e := NewObj().With("timestamp", now).With("sprint_id", fl.sprint()).With("feature_id", fid)
		if p, ok := f.Int("phase"); ok {
			e.With("phase", num(p))
		}
		e.With("event_type", "reset").With("agent", "claude-code").With("reason", r)
		if err := checkEntry(fl, e); err != nil {
			return err
		}
		if err := tx.AppendEval(e); err != nil {
			return err
		}
		rep.did("appended reset entry for %s: %s", fid, r)
		rep.Notes = append(rep.Notes, "next: start a new session for "+fid+" (`harness session start "+fid+" --session-id NEW --type …`); it reads handoff.md")
		return nil
	})
	if err != nil {
		return nil, err
	}
	ws := &workspace.Workspace{Root: env.Root}
	if _, err := ws.UpdateContextState(fid, func(cs *workspace.ContextState) error {
		if t := cs.ResetTrigger; t != nil && t.Kind == workspace.TriggerHermes && t.SessionID == session {
			return workspace.ErrContextStateUnchanged
		}
		cs.ResetTrigger = &workspace.ResetTrigger{Kind: workspace.TriggerHermes, Detail: detail, At: env.stamp(), SessionID: session}
		cs.UpdatedAt = env.stamp()
		return nil
	}); err != nil {
		rep.Notes = append(rep.Notes, "could not put the Reset order on record in claude_code_context_state.json: "+err.Error())
	} else {
		rep.did("claude_code_context_state.%s.reset_trigger = {kind hermes, session %s}", fid, session)
	}
	return rep, nil
}
