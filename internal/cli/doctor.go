package cli

import (
	"io"
	"os"

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
	return `Checks that the guard really runs: the binaries, every Claude Code settings file that should wire
harness-hook, the rules, the schemas and the hook log. Prints one line per check (OK, WARN, FAIL,
INFO) with the fix for each problem; exits 0 when no check fails, 1 when any does.

In a sprint (DIR, --root, HARNESS_ROOT, or a folder above holding .harness/) it checks each
feature's settings. Outside one it checks the settings a Claude Code session started here reads
(.claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json) and fails when none
wires harness-hook: run 'harness install' then.

Unless --no-probe is given, doctor runs each wired command line as Claude Code would, with a
payload that must be denied (rm -rf /harness-doctor-probe; in a sprint also a Write into schemas/)
and one that must be allowed (ls -la). The hook logs these calls as probes; status and logs hide them.

In a sprint it also checks the sandbox (docs/sandbox.md): bubblewrap able to create its namespaces
and socat (Linux) or sandbox-exec (macOS), tried for real; every running session's hook proof
(UNGUARDED without its SessionStart record); --no-sandbox sessions; the settings of launched
sessions held to the policy; and, with claude found ($CLAUDE_BIN or PATH), one sandboxed probe
through the real client (an append to feature_list.json must be refused by the OS).

Examples:
  harness doctor                        # the project in the current directory
  harness doctor ~/sprints/sprint_20260421_1
  harness doctor --no-probe --json`
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
	home := homeDir(e.Vars)
	hookBin := c.HookBin
	if hookBin != "" {
		hookBin = e.abs(hookBin)
	}
	rep := doctor.Run(doctor.Options{
		Root: root, Home: home, Cwd: e.Cwd, HarnessBin: self, HookBin: hookBin,
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
