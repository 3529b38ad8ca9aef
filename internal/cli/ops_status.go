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
	return `Lists the features that may start now and, for every other pending feature, what stops it:
dependencies not completed, no free session slot, tooling not locked, suspended, dependency plan
not approved, an unsettled YOLO abort, a dependency cycle. Also lists the sessions Hermes must act
on: a Reset due, overdue or under way (resetting: start a new session), a stale session (no hook
record for reset.stale_after, default 30m), and Hermes' own Reset. Read-only; exit 0, or 2 when a state
file it reads is missing or does not parse.

Examples:
  harness next
  harness next --json | jq -r '.data.startable[]'`
}

// Run performs the command.
func (c *NextCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	res, err := ops.Next(env)
	if err != nil {
		return unreadableWorkspace(err)
	}
	e.reply(res, func(w io.Writer) {
		switch {
		case len(res.Startable) == 0 && len(res.Blocked) == 0:
			fmt.Fprintln(w, "start now: (none: no feature is pending)")
		case len(res.Startable) == 0:
			fmt.Fprintln(w, "start now: (none)")
		default:
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

// unreadableWorkspace is the error of a read-only overview (next, status)
// that could not read the workspace: it refuses nothing, so whatever stopped
// it is a state file that is missing or does not parse: exit 2 (the
// README's exit table: unreadable files), pointing at validate.
func unreadableWorkspace(err error) error {
	msg := err.Error()
	if r, ok := ops.IsRefusal(err); ok {
		msg = r.Error()
	}
	return usage("%s (harness validate says what is wrong)", msg)
}

// StatusCmd is `harness status`.
type StatusCmd struct {
	Mermaid bool   `name:"mermaid" help:"Print the feature DAG as a Mermaid flowchart coloured by status."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *StatusCmd) Help() string {
	return `Prints the sprint at a glance: features (status, phase, phases done, dependencies, session),
checkpoints waiting for the user, active sessions, Resets due/overdue/under way and stale sessions,
Hermes' own Reset triggers, and the guard's last denials from .harness/logs/hook.log and its rotated
files (harness doctor's probes are left out). --mermaid prints the feature dependency graph as a
Mermaid flowchart coloured by status. Read-only: it judges nothing (harness validate does) and exits 0,
or 2 when a state file it reads (feature_list.json, runtime_state.json, session_pool.json) is missing
or does not parse.

Examples:
  harness status
  harness status --mermaid > dag.mmd`
}

// Run performs the command.
func (c *StatusCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	res, err := ops.Status(env)
	if err != nil {
		return unreadableWorkspace(err)
	}
	if c.Mermaid {
		m := res.Mermaid()
		e.reply(map[string]any{"mermaid": m}, func(w io.Writer) { fmt.Fprint(w, m) })
		return nil
	}
	e.reply(res, func(w io.Writer) { fmt.Fprint(w, res.Text()) })
	return nil
}
