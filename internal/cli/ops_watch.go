package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/superagent-harness/harness/internal/ops"
)

// WatchCmd is `harness watch`.
type WatchCmd struct {
	Once     bool          `name:"once" help:"Print the events of now and exit."`
	Interval time.Duration `name:"interval" default:"30s" help:"Time between polls (without --once)."`
	Count    int           `name:"count" default:"0" help:"Stop after this many polls (0: until interrupted)."`
	Dir      string        `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *WatchCmd) Help() string {
	return `Prints what Hermes' scheduler must act on, as events: reset_due (a Feature Reset
trigger fired; the Generator was told how), reset_overdue (past a hard limit, or due for 15 minutes: run
harness session reset FID), resetting (the session ended for a Reset: start a new one), stale_session (a
running session without a hook record for reset.stale_after, default 30m), hermes_reset_due (Hermes' own
triggers: > 3h session, consecutive_sprints_with_retries >= 3, its own ratio > 0.70). The figures come from
.harness/claude_code_context_state.json, which harness-hook keeps. Read-only.

With --once it prints the events of now and exits (nothing at all when none is due). Otherwise it polls every --interval and prints an event
when it appears (again after it went away). With --json every event is one line, a CLI envelope whose data
is the event (a stream of envelopes: one per event, none when nothing is due):
  {"ok":true,"command":"watch","data":{"time":"…","event":"reset_due","feature":"f002","session_id":"…",
   "trigger":"context","detail":"Reset due (token_usage_ratio 0.74 > 0.70) since …","token_usage_ratio":0.74,…}}

Examples:
  harness watch --once --json
  harness watch --interval 1m`
}

// Run performs the command.
func (c *WatchCmd) Run(e *Env) error {
	if c.Interval <= 0 && !c.Once {
		return usage("--interval must be positive")
	}
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	e.streamed = true
	seen := map[string]bool{}
	for poll := 1; ; poll++ {
		evs, err := ops.WatchOnce(env)
		if err != nil {
			return e.opsResult(nil, err)
		}
		now := map[string]bool{}
		for _, ev := range evs {
			now[ev.Key()] = true
			if !c.Once && seen[ev.Key()] {
				continue
			}
			if err := writeWatchEvent(e.Stdout, e.JSON, ev); err != nil {
				return err
			}
		}
		seen = now
		if c.Once || (c.Count > 0 && poll >= c.Count) {
			return nil
		}
		time.Sleep(c.Interval)
	}
}

// writeWatchEvent prints one event: a compact JSON line, or a text line.
func writeWatchEvent(w io.Writer, asJSON bool, ev ops.WatchEvent) error {
	if asJSON {
		// one compact line per event, itself a CLI envelope whose data is
		// the event, so every line a scheduler reads has the envelope's shape
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(Envelope{OK: true, Command: "watch", Data: ev})
	}
	who := ev.Feature
	if who == "" {
		who = "hermes"
	}
	_, err := fmt.Fprintf(w, "%s %s %s: %s\n", ev.Time, ev.Event, who, ev.Detail)
	return err
}
