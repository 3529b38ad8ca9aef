package cli

import (
	"io"
	"os"
	"runtime"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/doctor"
	"github.com/superagent-harness/harness/internal/workspace"
)

// DoctorCmd is `harness doctor [DIR] [--root DIR] [--json]`: checks that the
// binaries, every settings.json of the workspace and the user-level
// ~/.claude/settings.json really wire harness-hook, pushes a known deny and a
// known allow payload through the configured command lines, and checks the
// rules override file, the embedded schemas and hook.log (internal/doctor).
type DoctorCmd struct {
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
	HookBin string `name:"hook-bin" placeholder:"PATH" help:"harness-hook binary that should be wired (default: beside this harness binary, else on PATH)."`
	NoProbe bool   `name:"no-probe" help:"Do not run the configured hook command lines (the probes add harness-doctor lines to hook.log)."`
}

// Help is the long help of the command.
func (c *DoctorCmd) Help() string {
	return `Prints one line per check (OK, WARN, FAIL, INFO) with the fix for each problem.
Exit 0 when no check fails, 1 when any does. Without a sprint root (no DIR/--root, no
HARNESS_ROOT, no .harness/ above the working directory) only the binaries and the user
settings are checked. The probes run each feature's configured PreToolUse command line
with a known deny payload (rm -rf, a Write into schemas/) and a known allow payload (ls -la),
from the feature directory, as Claude Code would.

Sandbox (docs/sandbox.md): bubblewrap able to create its namespaces and socat (Linux) or
sandbox-exec (macOS), tried for real; every running session's hook proof (UNGUARDED without its
SessionStart record), --no-sandbox sessions (warned on every run), the settings of launched
sessions held to the policy and read by the client as sandboxed and strict; the policy
harness launch would write now; and, with claude found ($CLAUDE_BIN or PATH), one sandboxed
probe through the real client (an append of nothing to feature_list.json must be refused by
the OS; it writes no hook.log record). --no-probe skips the probes.`
}

// Run performs the checks.
func (c *DoctorCmd) Run(e *Env) error {
	root := ""
	explicit := e.Root
	if c.Dir != "" {
		explicit = c.Dir
	}
	if r, err := workspace.Resolve(explicit, e.Vars, e.Cwd); err == nil {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			root = r
		} else if explicit != "" {
			return usage("sprint root %s is not a directory", r)
		}
	} else if explicit != "" {
		return usage("%v", err)
	}
	self, _ := os.Executable()
	home := e.Vars["HOME"]
	if runtime.GOOS == "windows" && home == "" {
		home = e.Vars["USERPROFILE"]
	}
	hookBin := c.HookBin
	if hookBin != "" {
		hookBin = e.abs(hookBin)
	}
	rep := doctor.Run(doctor.Options{
		Root: root, Home: home, HarnessBin: self, HookBin: hookBin,
		Env: e.Vars, Assets: harness.Assets(), NoProbe: c.NoProbe,
	})
	if rep.Checks == nil {
		rep.Checks = []doctor.Check{}
	}
	e.reply(map[string]any{"checks": rep.Checks}, func(w io.Writer) { _ = rep.WriteText(w) })
	if !rep.OK {
		failed := 0
		for _, c := range rep.Checks {
			if c.Status == doctor.StatusFail {
				failed++
			}
		}
		return silent(ExitFindings, "doctor: %d check(s) failed", failed)
	}
	return nil
}
