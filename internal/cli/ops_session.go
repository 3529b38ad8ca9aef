package cli

import "github.com/superagent-harness/harness/internal/ops"

// SessionCmd groups the session pool operations.
type SessionCmd struct {
	Start SessionStartCmd `cmd:"" help:"Record a started Generator session (STEP 3.4)."`
	End   SessionEndCmd   `cmd:"" help:"Remove a feature's session from the pool."`
	Reset SessionResetCmd `cmd:"" help:"Record a Claude Code feature Reset (pool resetting + reset entry)."`
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
	return `docs/protocol.md §4.6 STEP 3.4: session_pool.active.<fid> = {session_id, session_type, status running,
started_at, current_phase, last_activity}; deletes a stray .current_agent.json; .current_agent role
generator (developer hermes-as-proxy for hermes-proxy-* ids, §13 #18). Refuses without a session id,
without the feature directory, before cp-sprint-dag is approved (Z11) or when the pool is full.
Then run 'harness preflight --stage started FID'.`
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
	return `docs/protocol.md §8.1 step 3, §13 #9: pool status resetting and one reset eval entry (agent claude-code).
Idempotent with the Stop hook's Reset bookkeeping: nothing is written twice for one handoff.`
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
	return `Deletes session_pool.active.<fid> (a finished entry is removed, never kept as completed: Z16, §3.3);
an in_progress feature goes back to pending and a .current_agent naming it is handed back to the
evaluator (§13 #18: it records the last handover only). A completed feature's entry is already removed
by 'phase advance' at phase 4 (§13 #9). No-op when there is no entry.`
}
