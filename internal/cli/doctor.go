package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/doctor"
	"github.com/superagent-harness/harness/internal/fsutil"
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
	if root == "" {
		// outside a sprint: is the guard wired anywhere Claude Code looks?
		wired := wiringChecks(e.Cwd, home)
		rep.Checks = append(rep.Checks, wired...)
		for _, c := range wired {
			if c.Status == doctor.StatusFail {
				rep.OK = false
			}
		}
	}
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

// wiringChecks reads every settings file Claude Code loads for a session
// started in cwd (the project's .claude/settings.json and
// settings.local.json, the user's ~/.claude/settings.json) and fails when
// none wires harness-hook as a PreToolUse hook that can fire: the event
// key spelled exactly "PreToolUse", a matcher without commas (a
// comma-separated matcher such as "Edit,Write" matches no tool) and
// "onFailure": "block" (docs/hooks.md §7).
func wiringChecks(cwd, home string) []doctor.Check {
	var files []string
	for _, f := range []string{filepath.Join(cwd, ".claude", "settings.json"), filepath.Join(cwd, ".claude", "settings.local.json")} {
		files = append(files, f)
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	var out []doctor.Check
	wired := 0
	for _, f := range files {
		data, err := fsutil.ReadRegular(f, 4<<20)
		if err != nil {
			continue
		}
		name := "wiring " + f
		var doc struct {
			Hooks map[string][]struct {
				Matcher string            `json:"matcher"`
				Hooks   []json.RawMessage `json:"hooks"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			out = append(out, doctor.Check{Name: name, Status: doctor.StatusFail, Detail: "not a valid settings file: " + err.Error(),
				Fix: "repair the JSON (Claude Code ignores a file it cannot read), then run harness install"})
			continue
		}
		good := 0
		for ev, groups := range doc.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					if !ccsettings.IsHarnessHookHandler(h, "") {
						continue
					}
					var hh struct {
						OnFailure string `json:"onFailure"`
						Command   string `json:"command"`
					}
					_ = json.Unmarshal(h, &hh)
					switch {
					case ev != "PreToolUse" && strings.EqualFold(ev, "PreToolUse"):
						out = append(out, doctor.Check{Name: name, Status: doctor.StatusFail, Detail: fmt.Sprintf("event key %q is not \"PreToolUse\": event names are case-sensitive, this hook never fires", ev),
							Fix: "rename the key to \"PreToolUse\" (harness install writes it correctly)"})
					case ev != "PreToolUse":
						continue
					case strings.Contains(g.Matcher, ","):
						out = append(out, doctor.Check{Name: name, Status: doctor.StatusFail, Detail: fmt.Sprintf("matcher %q: a comma-separated matcher matches no tool, this hook never fires", g.Matcher),
							Fix: "separate tool names with | (\"Edit|Write\"), or run harness install"})
					case hh.OnFailure != "block":
						out = append(out, doctor.Check{Name: name, Status: doctor.StatusFail, Detail: "a harness-hook PreToolUse handler without \"onFailure\": \"block\": a hook that cannot run lets the tool call through",
							Fix: "add \"onFailure\": \"block\" to the handler, or run harness install"})
					case !isExecutableFile(hh.Command):
						out = append(out, doctor.Check{Name: name, Status: doctor.StatusFail, Detail: fmt.Sprintf("command %q is not an executable file", hh.Command),
							Fix: "run harness install again (it writes the absolute path of the installed harness-hook)"})
					default:
						good++
					}
				}
			}
		}
		if good > 0 {
			wired++
			out = append(out, doctor.Check{Name: name, Status: doctor.StatusOK, Detail: fmt.Sprintf("%d harness-hook PreToolUse handler(s) wired", good)})
		}
	}
	if wired == 0 {
		out = append(out, doctor.Check{Name: "wiring", Status: doctor.StatusFail,
			Detail: "no settings file Claude Code reads here (" + strings.Join(files, ", ") + ") wires harness-hook: nothing is guarded",
			Fix:    "run harness install (this project) or harness install --user (every project)"})
	}
	return out
}

// isExecutableFile reports whether p is an absolute path to an executable
// regular file.
func isExecutableFile(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode()&0o111 != 0
}
