package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/ops"
)

// NextCmd is `harness next`.
type NextCmd struct {
	Dir string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *NextCmd) Help() string {
	return `docs/protocol.md §7 and §13 #51: lists the features that may start now and, for every other pending feature,
each condition that stops it (dependencies not completed, no free slot of max_concurrent, tooling not
locked, suspended, cp-sprint-dag not approved, unsettled YOLO abort, dependency cycle). Also lists the
sessions Hermes must act on (docs/protocol.md §8): a Reset due, overdue or under way (resetting: start a new
session), a stale session (no hook record for reset.stale_after, default 30m), and Hermes' own Reset.
Read-only; exit 0.`
}

// Run performs the command.
func (c *NextCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	res, err := ops.Next(env)
	if err != nil {
		return e.opsResult(nil, err)
	}
	e.reply(res, func(w io.Writer) {
		if len(res.Startable) == 0 {
			fmt.Fprintln(w, "start now: (none)")
		} else {
			fmt.Fprintf(w, "start now: %s\n", strings.Join(res.Startable, " "))
		}
		for _, b := range res.Blocked {
			fmt.Fprintf(w, "wait %s: %s\n", b.Feature, strings.Join(b.Reasons, "; "))
		}
		for _, cy := range res.Cycles {
			fmt.Fprintf(w, "cycle: %s\n", strings.Join(append(cy, cy[0]), " → "))
		}
		fmt.Fprintf(w, "sessions: %d active of max_concurrent %d\n", res.Active, res.Max)
		for _, l := range (&ops.ResetView{Features: res.Resets, Hermes: res.HermesReset}).ResetLines() {
			fmt.Fprintln(w, l)
		}
	})
	return nil
}

// StatusCmd is `harness status`.
type StatusCmd struct {
	Mermaid bool   `name:"mermaid" help:"Print the feature DAG as a Mermaid flowchart coloured by status."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *StatusCmd) Help() string {
	return `Features (status, phase, done phases, dependencies, session), checkpoints waiting for the user, active
sessions, Resets due/overdue/under way and stale sessions (the hook's figures in
.harness/claude_code_context_state.json against the thresholds of docs/protocol.md §8), Hermes' own Reset
triggers, and the last hook denials from .harness/logs/hook.log (read backwards, then its rotated files;
JSON lines; legacy text lines skipped). Read-only.`
}

// Run performs the command.
func (c *StatusCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	res, err := ops.Status(env)
	if err != nil {
		return e.opsResult(nil, err)
	}
	if c.Mermaid {
		m := res.Mermaid()
		e.reply(map[string]any{"mermaid": m}, func(w io.Writer) { fmt.Fprint(w, m) })
		return nil
	}
	e.reply(res, func(w io.Writer) { fmt.Fprint(w, res.Text()) })
	return nil
}
