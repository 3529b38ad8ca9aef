package monitor

import (
	"fmt"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

// Figures are one session's measurements, as the triggers read them.
type Figures struct {
	// Tokens and Window give Ratio = Tokens / Window (Window 0: unknown,
	// the context trigger cannot fire).
	Tokens, Window int64
	Ratio          float64
	// Retries is the feature's retry count; RetriesAtStart the count when
	// the session started (a fresh session has a fresh context, so only a
	// retry verdict during the session can make it Reset for retries).
	Retries, RetriesAtStart int
	// Age is the session's age (0: unknown).
	Age time.Duration
}

// Trigger is one Feature Reset trigger that fired.
type Trigger struct {
	// Kind is workspace.TriggerContext, TriggerRetries or TriggerAge.
	Kind string
	// Detail says what was measured against which limit
	// ("token_usage_ratio 0.74 > 0.70").
	Detail string
	// Hard is true past the hard limit: every tool call but the Reset's own
	// is refused.
	Hard bool
}

// Evaluate returns the triggers that fire for f under t, in the order
// context, retries, age (docs/protocol.md §8.1: ratio > 0.70, ≥ 2 retries,
// older than 2 h).
func Evaluate(f Figures, t Thresholds) []Trigger {
	var out []Trigger
	if f.Window > 0 && f.Ratio > t.ContextRatio {
		tr := Trigger{Kind: workspace.TriggerContext, Detail: fmt.Sprintf("token_usage_ratio %s > %s", ratioText(f.Ratio), ratioText(t.ContextRatio))}
		if f.Ratio > t.ContextHardRatio {
			tr.Hard = true
			tr.Detail = fmt.Sprintf("token_usage_ratio %s > %s (hard limit %s)", ratioText(f.Ratio), ratioText(t.ContextRatio), ratioText(t.ContextHardRatio))
		}
		out = append(out, tr)
	}
	if f.Retries >= t.Retries && f.Retries > f.RetriesAtStart {
		tr := Trigger{Kind: workspace.TriggerRetries, Detail: fmt.Sprintf("retries %d >= %d", f.Retries, t.Retries)}
		if f.Retries >= t.RetriesHard {
			tr.Hard = true
			tr.Detail += fmt.Sprintf(" (hard limit %d)", t.RetriesHard)
		}
		out = append(out, tr)
	}
	if f.Age > t.SessionAge {
		tr := Trigger{Kind: workspace.TriggerAge, Detail: fmt.Sprintf("session_age %s > %s", DurationText(f.Age), DurationText(t.SessionAge))}
		if f.Age > t.SessionAgeHard {
			tr.Hard = true
			tr.Detail += fmt.Sprintf(" (hard limit %s)", DurationText(t.SessionAgeHard))
		}
		out = append(out, tr)
	}
	return out
}

// ratioText prints a ratio with two decimals ("0.74"), or more when two
// would hide a difference from a limit ("0.7012").
func ratioText(r float64) string {
	s := fmt.Sprintf("%.2f", r)
	if fmt.Sprintf("%.4f", r) != s+"00" {
		s = strings.TrimRight(fmt.Sprintf("%.4f", r), "0")
	}
	return s
}

// DurationText prints d in whole minutes as Go does ("2h5m", "45m", "0m").
func DurationText(d time.Duration) string {
	d = d.Truncate(time.Minute)
	if d <= 0 {
		return "0m"
	}
	s := d.String() // "2h5m0s"
	s = strings.TrimSuffix(s, "0s")
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
