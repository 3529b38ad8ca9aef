package hook

import (
	"path/filepath"
	"runtime"

	"github.com/superagent-harness/harness/internal/pathguard"
)

// pathGuard returns the path guard of the call's workspace (c.scope.Root
// must be set): testdata/corpus/README.md §3 rules of the sprint root, plus the hook
// wiring outside it (rule path.hook-wiring) — the user-level Claude Code
// settings under HOME (or USERPROFILE) and CLAUDE_CONFIG_DIR from the hook's
// env, the session's project settings (CLAUDE_PROJECT_DIR) outside the
// root, the managed policy file, and the running harness-hook executable —
// which a Generator could otherwise change to switch the guard off for
// later sessions.
func (r runner) pathGuard(c *call) (*pathguard.Guard, error) {
	return newPathGuard(BashScope{Root: c.scope.Root, Feature: c.scope.Feature, Cwd: cwdOf(c), Env: c.env, Executable: r.executable})
}

// newPathGuard builds the path guard of s.Root for s.Feature, with the hook
// wiring located from s.Env and s.Executable. Without a root (a project
// guarded outside any sprint) it is pathguard.NewPlain, which protects only
// the wiring, the project's own .claude/settings*.json (the session's cwd,
// s.Cwd) included.
func newPathGuard(s BashScope) (*pathguard.Guard, error) {
	var g *pathguard.Guard
	if s.Root == "" {
		g = pathguard.NewPlain()
		if filepath.IsAbs(s.Cwd) {
			g = g.WithClaudeProjectDir(s.Cwd)
		}
	} else {
		var err error
		if g, err = pathguard.New(s.Root, s.Feature); err != nil {
			return nil, err
		}
	}
	g = g.WithHome(homeDir(s.Env)).WithClaudeConfigDir(s.Env["CLAUDE_CONFIG_DIR"]).
		WithClaudeProjectDir(s.Env["CLAUDE_PROJECT_DIR"]).WithManagedSettings(runtime.GOOS)
	// looked up only when a target outside the root or a $(which …) word
	// needs it (reading /proc/self/exe was ~1% of a PreToolUse process)
	return g.WithHookExecutableFunc(s.Executable), nil
}
