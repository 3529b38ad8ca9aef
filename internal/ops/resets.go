package ops

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/monitor"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Reset states of a feature's session (ResetView).
const (
	// ResetDue: a Feature Reset trigger fired and the session has not Reset
	// yet (the Generator was told how).
	ResetDue = "due"
	// ResetOverdue: past a hard limit, or due for longer than
	// Thresholds.overdueAfter: Hermes runs `harness session reset FID`.
	ResetOverdue = "overdue"
	// ResetResetting: the pool entry is resetting: Hermes starts a new
	// session for the feature (docs/protocol.md §8.1 step 5).
	ResetResetting = "resetting"
)

// overdueAfter is how long a due Reset may wait for the Generator before it
// is reported overdue.
const overdueAfter = 15 * time.Minute

// FeatureReset is the Reset view of one feature with a session (a pool
// entry or figures on record): the hook's figures, the trigger, and what
// Hermes has to do.
type FeatureReset struct {
	Feature        string                  `json:"feature"`
	PoolStatus     string                  `json:"pool_status,omitempty"`
	SessionID      string                  `json:"session_id,omitempty"`
	ContextTokens  int64                   `json:"context_tokens"`
	ContextWindow  int64                   `json:"context_window"`
	Ratio          float64                 `json:"token_usage_ratio"`
	Retries        int                     `json:"retries"`
	SessionAgeS    int64                   `json:"session_age_s"`
	IdleS          int64                   `json:"idle_s"`
	LastActivityAt string                  `json:"last_activity_at,omitempty"`
	Trigger        *workspace.ResetTrigger `json:"reset_trigger"`
	// Reset is "", due, overdue or resetting.
	Reset string `json:"reset,omitempty"`
	// Stale is true for a running session without a hook record for
	// Thresholds.StaleAfter (docs/protocol.md §7: a crashed session).
	Stale bool `json:"stale"`
	// Why says, in one line, what was measured and what to do.
	Why string `json:"why,omitempty"`
}

// HermesReset is Hermes' own Reset (docs/protocol.md §8.2): due when any
// trigger holds.
type HermesReset struct {
	Due                           bool     `json:"due"`
	Reasons                       []string `json:"reasons"`
	SessionAgeS                   int64    `json:"session_age_s"`
	TokenUsageRatio               float64  `json:"token_usage_ratio"`
	ConsecutiveSprintsWithRetries int      `json:"consecutive_sprints_with_retries"`
}

// ResetView is what Hermes needs to schedule Resets: every feature with a
// session, and Hermes' own triggers.
type ResetView struct {
	Features []FeatureReset `json:"features"`
	Hermes   HermesReset    `json:"hermes"`
	// Errors are files that could not be read (the view is partial).
	Errors []string `json:"errors,omitempty"`
}

// Attention returns the features that need Hermes (a Reset due, overdue or
// under way, or a stale session), in feature order.
func (v *ResetView) Attention() []FeatureReset {
	var out []FeatureReset
	for _, f := range v.Features {
		if f.Reset != "" || f.Stale {
			out = append(out, f)
		}
	}
	return out
}

// Resets reads the Reset view of the workspace (read-only): the pool, the
// hook's figures (claude_code_context_state.json), the thresholds
// (rules.yaml reset:), runtime_state and hermes_context_state. A feature's
// triggers are evaluated again with its age as of now, so a session that
// stopped calling the hook still becomes due; idle time is now minus the
// last hook record (or the pool's last_activity).
func Resets(env *Env) (*ResetView, error) {
	ws := &workspace.Workspace{Root: env.Root}
	now := env.now()
	v := &ResetView{Features: []FeatureReset{}, Hermes: HermesReset{Reasons: []string{}}}
	th, err := monitor.LoadThresholds(env.Root)
	if err != nil {
		v.Errors = append(v.Errors, err.Error())
	}
	states, err := ws.LoadContextStates()
	if err != nil {
		v.Errors = append(v.Errors, "claude_code_context_state.json: "+err.Error())
		states = &workspace.ContextStates{Entries: map[string]*workspace.ContextState{}}
	}
	pool, _ := env.readObj("session_pool.json")
	active := pool.ObjAt("active")
	ids := active.Keys()
	for _, id := range states.Order {
		if !active.Has(id) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		e := active.ObjAt(id)
		cs := states.Entries[id]
		if e == nil && (cs == nil || cs.ResetTrigger == nil) {
			continue // figures of a finished session: nothing to schedule
		}
		fr := FeatureReset{Feature: id}
		if e != nil {
			fr.PoolStatus, fr.SessionID = e.Str("status"), e.Str("session_id")
		}
		started := ""
		last := ""
		if e != nil {
			started, last = e.Str("started_at"), e.Str("last_activity")
		}
		if cs != nil {
			fr.ContextTokens, fr.ContextWindow, fr.Ratio, fr.Retries = cs.ContextTokens, cs.ContextWindow, cs.TokenUsageRatio, cs.Retries
			fr.Trigger = cs.ResetTrigger
			if cs.SessionID != "" {
				fr.SessionID = cs.SessionID
			}
			if cs.SessionStartedAt != "" {
				started = cs.SessionStartedAt
			}
			if cs.LastActivityAt != "" {
				last = cs.LastActivityAt
			}
		}
		fr.LastActivityAt = last
		var age time.Duration
		if t, err := time.Parse(time.RFC3339Nano, started); err == nil && now.After(t) {
			age = now.Sub(t)
			fr.SessionAgeS = int64(age / time.Second)
		}
		if t, err := time.Parse(time.RFC3339Nano, last); err == nil && now.After(t) {
			fr.IdleS = int64(now.Sub(t) / time.Second)
		}
		running := fr.PoolStatus == "running"
		fr.Stale = running && last != "" && time.Duration(fr.IdleS)*time.Second > th.StaleAfter
		at := 0
		if cs != nil {
			at = cs.RetriesAtStart
		}
		fired := monitor.Evaluate(monitor.Figures{Tokens: fr.ContextTokens, Window: fr.ContextWindow, Ratio: fr.Ratio,
			Retries: fr.Retries, RetriesAtStart: at, Age: age}, th)
		hard := false
		for _, tr := range fired {
			hard = hard || tr.Hard
		}
		detail := ""
		switch {
		case fr.Trigger != nil:
			detail = fr.Trigger.Detail
			hard = hard || fr.Trigger.Kind == workspace.TriggerHermes
		case len(fired) > 0:
			detail = fired[0].Detail
		}
		switch {
		case fr.PoolStatus == "resetting":
			fr.Reset = ResetResetting
			fr.Why = "the session ended for a Reset: start a new session for " + id + " (it reads handoff.md)"
		case detail != "" && (running || fr.PoolStatus == ""):
			fr.Reset = ResetDue
			since := ""
			if fr.Trigger != nil {
				since = " since " + fr.Trigger.At
				if t, err := time.Parse(time.RFC3339, fr.Trigger.At); err == nil && now.Sub(t) > overdueAfter {
					hard = true
				}
			}
			fr.Why = fmt.Sprintf("Reset due (%s)%s; the Generator was told how", detail, since)
			if hard {
				fr.Reset = ResetOverdue
				fr.Why = fmt.Sprintf("Reset overdue (%s)%s: run `harness session reset %s` and start a new session", detail, since, id)
			}
		}
		if fr.Stale {
			w := fmt.Sprintf("no hook record for %s (stale after %s): the session may have crashed; check it, then `harness session reset %s`",
				monitor.DurationText(time.Duration(fr.IdleS)*time.Second), monitor.DurationText(th.StaleAfter), id)
			if fr.Why != "" {
				fr.Why += "; " + w
			} else {
				fr.Why = w
			}
		}
		v.Features = append(v.Features, fr)
	}
	sort.SliceStable(v.Features, func(i, j int) bool { return v.Features[i].Feature < v.Features[j].Feature })
	v.Hermes = hermesReset(env, th, now)
	return v, nil
}

// hermesReset evaluates Hermes' triggers (docs/protocol.md §8.2): its own
// token ratio, consecutive sprints with retries, and the age of its session
// (runtime_state.session_started_at, or last_reset_at when later).
func hermesReset(env *Env, th monitor.Thresholds, now time.Time) HermesReset {
	h := HermesReset{Reasons: []string{}}
	if rt, err := env.readObj("runtime_state.json"); err == nil {
		start := rt.Str("session_started_at")
		if lr := rt.Str("last_reset_at"); lr > start {
			start = lr
		}
		if t, err := time.Parse(time.RFC3339Nano, start); err == nil && now.After(t) {
			age := now.Sub(t)
			h.SessionAgeS = int64(age / time.Second)
			if age > th.HermesSessionAge {
				h.Reasons = append(h.Reasons, fmt.Sprintf("session_age %s > %s", monitor.DurationText(age), monitor.DurationText(th.HermesSessionAge)))
			}
		}
	}
	if hc, err := env.readObj("hermes_context_state.json"); err == nil {
		if v, ok := hc.Value("token_usage_ratio").(interface{ String() string }); ok {
			fmt.Sscan(v.String(), &h.TokenUsageRatio)
		}
		if h.TokenUsageRatio > th.HermesContextRatio {
			h.Reasons = append(h.Reasons, fmt.Sprintf("token_usage_ratio %.2f > %.2f", h.TokenUsageRatio, th.HermesContextRatio))
		}
		if n, ok := hc.Int("consecutive_sprints_with_retries"); ok {
			h.ConsecutiveSprintsWithRetries = n
			if n >= th.HermesConsecutiveSprints {
				h.Reasons = append(h.Reasons, fmt.Sprintf("consecutive_sprints_with_retries %d >= %d", n, th.HermesConsecutiveSprints))
			}
		}
	}
	h.Due = len(h.Reasons) > 0
	return h
}

// ResetLines renders the attention list and Hermes' Reset for a terminal
// (status, next, checkpoint due).
func (v *ResetView) ResetLines() []string {
	var out []string
	for _, f := range v.Attention() {
		tag := strings.ToUpper(f.Reset)
		if tag == "" {
			tag = "STALE"
		} else if f.Stale {
			tag += ", STALE"
		}
		out = append(out, fmt.Sprintf("reset %s %s: %s", tag, f.Feature, f.Why))
	}
	if v.Hermes.Due {
		out = append(out, "reset DUE hermes: "+strings.Join(v.Hermes.Reasons, "; ")+" (harness reset hermes --handoff FILE)")
	}
	return out
}

// WatchEvent is one line of `harness watch`: something Hermes' scheduler
// acts on (docs/protocol.md §7, §8).
type WatchEvent struct {
	Time string `json:"time"`
	// Event is reset_due, reset_overdue, resetting, stale_session or
	// hermes_reset_due.
	Event           string   `json:"event"`
	Feature         string   `json:"feature,omitempty"`
	SessionID       string   `json:"session_id,omitempty"`
	Trigger         string   `json:"trigger,omitempty"`
	Detail          string   `json:"detail"`
	TokenUsageRatio *float64 `json:"token_usage_ratio,omitempty"`
	Retries         *int     `json:"retries,omitempty"`
	SessionAgeS     *int64   `json:"session_age_s,omitempty"`
	IdleS           *int64   `json:"idle_s,omitempty"`
}

// Key identifies an event across polls: the same event of the same feature
// for the same trigger and session.
func (ev WatchEvent) Key() string {
	return ev.Event + "\x00" + ev.Feature + "\x00" + ev.SessionID + "\x00" + ev.Trigger
}

// Events turns the view into watch events, features first (in order), then
// Hermes' Reset; t is the time stamped on each.
func (v *ResetView) Events(t string) []WatchEvent {
	var out []WatchEvent
	for _, f := range v.Attention() {
		base := WatchEvent{Time: t, Feature: f.Feature, SessionID: f.SessionID, Detail: f.Why}
		ratio, retries, age, idle := f.Ratio, f.Retries, f.SessionAgeS, f.IdleS
		base.TokenUsageRatio, base.Retries, base.SessionAgeS, base.IdleS = &ratio, &retries, &age, &idle
		if f.Trigger != nil {
			base.Trigger = f.Trigger.Kind
		}
		switch f.Reset {
		case ResetDue:
			ev := base
			ev.Event = "reset_due"
			out = append(out, ev)
		case ResetOverdue:
			ev := base
			ev.Event = "reset_overdue"
			out = append(out, ev)
		case ResetResetting:
			ev := base
			ev.Event = "resetting"
			out = append(out, ev)
		}
		if f.Stale {
			ev := base
			ev.Event = "stale_session"
			out = append(out, ev)
		}
	}
	if v.Hermes.Due {
		age := v.Hermes.SessionAgeS
		ratio := v.Hermes.TokenUsageRatio
		out = append(out, WatchEvent{Time: t, Event: "hermes_reset_due", Detail: strings.Join(v.Hermes.Reasons, "; "),
			SessionAgeS: &age, TokenUsageRatio: &ratio})
	}
	return out
}

// WatchOnce is one poll of `harness watch`: the events of the Reset view
// now.
func WatchOnce(env *Env) ([]WatchEvent, error) {
	v, err := Resets(env)
	if err != nil {
		return nil, err
	}
	return v.Events(env.stamp()), nil
}
