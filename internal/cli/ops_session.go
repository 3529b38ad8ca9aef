package cli

import "github.com/superagent-harness/harness/internal/ops"

// SessionCmd groups the session pool operations.
type SessionCmd struct {
	Start SessionStartCmd `cmd:"" help:"Record a started Generator session in the pool."`
	End   SessionEndCmd   `cmd:"" help:"Remove a feature's session from the pool."`
	Reset SessionResetCmd `cmd:"" help:"Record a Claude Code feature Reset (pool resetting + reset entry)."`
}

// Help is the long help of the command group.
func (c *SessionCmd) Help() string {
	return `The session pool tracks the Generator sessions that are running, one per feature.

Examples:
  harness session start f001 --type cc-print
  harness session reset f001 --reason "token_usage_ratio 0.74 > 0.70"
  harness session end f001`
}

// SessionStartCmd is `harness session start FID`.
type SessionStartCmd struct {
	Feature   string `arg:"" name:"FID" help:"Feature id."`
	SessionID string `name:"session-id" placeholder:"ID" help:"Session id (default: the feature's session_id.txt)."`
	Type      string `name:"type" required:"" enum:"cc-print,cc-interactive-mcp,mcp_direct" help:"session_type: cc-print, cc-interactive-mcp, mcp_direct."`
	Dir       string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *SessionStartCmd) Help() string {
	return `Records that a Generator session was started for a feature: its entry in the session pool
(session id, type, running, phase) and .current_agent naming the Generator. Refused without a
session id, without the feature directory, before the sprint's dependency plan is approved, or
when the pool is full. Then run 'harness preflight --stage started FID'.

Examples:
  harness session start f001 --type cc-print
  harness session start f002 --type cc-interactive-mcp --session-id 7b1c2d9e-…`
}

// Run performs the command.
func (c *SessionStartCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.SessionStart(env, ops.SessionStartInput{Feature: c.Feature, SessionID: c.SessionID, Type: c.Type})
	return e.opsResult(rep, err)
}

// SessionEndCmd is `harness session end FID`.
type SessionEndCmd struct {
	Feature string `arg:"" name:"FID" help:"Feature id."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Run performs the command.
func (c *SessionEndCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.SessionEnd(env, c.Feature)
	return e.opsResult(rep, err)
}

// SessionResetCmd is `harness session reset FID`.
type SessionResetCmd struct {
	Feature string `arg:"" name:"FID" help:"Feature id."`
	Reason  string `name:"reason" placeholder:"TEXT" help:"Reset trigger (default: handoff.md's **Trigger reason** line)."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *SessionResetCmd) Help() string {
	return `Records a Feature Reset of a Claude Code session (its context is too full, it retried too
often, or Hermes decided so): the pool entry becomes resetting and one reset entry goes into
eval_log. Nothing is written twice when the Stop hook already recorded the same handoff.

Examples:
  harness session reset f001
  harness session reset f001 --reason "token_usage_ratio 0.74 > 0.70"`
}

// Run performs the command.
func (c *SessionResetCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.SessionReset(env, c.Feature, c.Reason)
	return e.opsResult(rep, err)
}

// Help is shown under the usage line.
func (c *SessionEndCmd) Help() string {
	return `Removes a feature's session from the pool. A feature still in progress goes back to pending,
and a .current_agent naming it is handed back to the evaluator. A completed feature's entry was
already removed by 'harness phase advance'. Nothing happens when there is no entry.

Examples:
  harness session end f001
  harness session end f002 ~/sprints/sprint_20260421_1 --json`
}
