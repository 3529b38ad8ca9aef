package hook

import (
	"github.com/superagent-harness/harness/internal/pathguard"
)

// pathGuard returns the path guard of the call's workspace (c.scope.Root
// must be set): the corpus README §3 rules of the sprint root, plus the hook
// wiring outside it (rule path.hook-wiring) — the user-level Claude Code
// settings under HOME (or USERPROFILE) and CLAUDE_CONFIG_DIR from the hook's
// env, and the running harness-hook executable — which a Generator could
// otherwise change to switch the guard off for later sessions.
func (r runner) pathGuard(c *call) (*pathguard.Guard, error) {
	g, err := pathguard.New(c.scope.Root, c.scope.Feature)
	if err != nil {
		return nil, err
	}
	g = g.WithHome(homeDir(c.env)).WithClaudeConfigDir(c.env["CLAUDE_CONFIG_DIR"])
	if r.executable != nil {
		if exe, err := r.executable(); err == nil {
			g = g.WithHookExecutable(exe)
		}
	}
	return g, nil
}
