package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/hook"
)

// checkProject is doctor outside a sprint: it checks every settings file
// Claude Code reads for a session started in o.Cwd (the project's
// .claude/settings.json and .claude/settings.local.json, the user's
// ~/.claude/settings.json; docs/hooks.md §7), fails when none of them wires
// harness-hook as a PreToolUse guard that can fire (`harness install` is the
// fix), and probes the command line of each file that does.
func checkProject(o Options, hookBin string) []Check {
	var ts []target
	if o.Cwd != "" {
		// In the home directory the project's .claude/settings.json is the
		// user's: checked (and probed) once, as the user's below.
		inHome := o.Home != "" && filepath.Clean(o.Cwd) == filepath.Clean(o.Home)
		for _, n := range []string{"settings.json", "settings.local.json"} {
			if inHome && n == "settings.json" {
				continue
			}
			p := filepath.Join(o.Cwd, ".claude", n)
			ts = append(ts, target{path: p, rel: p, kind: kindProject, project: o.Cwd, env: o.Env})
		}
	}
	if o.Home != "" {
		p := filepath.Join(o.Home, ".claude", "settings.json")
		// a session started in cwd runs the user's hooks with cwd as the project dir
		project := o.Cwd
		if project == "" {
			project = o.Home
		}
		ts = append(ts, target{path: p, rel: p, kind: kindUser, project: project, env: o.Env})
	}
	var cs []Check
	var wired []*wiring
	disabled := false
	paths := make([]string, len(ts))
	for i, t := range ts {
		paths[i] = t.path
		if !isFile(t.path) {
			continue
		}
		c, w := checkSettings(t, hookBin, "")
		cs = append(cs, c...)
		if w == nil {
			continue
		}
		disabled = disabled || w.disabled
		if w.bash != nil && !hasFail(c) {
			wired = append(wired, w)
		}
	}
	cs = append(cs, checkOverrideFiles(o)...)
	if len(wired) == 0 {
		cs = append(cs, Check{Name: "wiring", Status: StatusFail,
			Detail: "no settings file Claude Code reads here (" + strings.Join(paths, ", ") + ") wires harness-hook as a working PreToolUse guard: nothing is guarded",
			Fix:    "run harness install (this project) or harness install --user (every project)"})
		return cs
	}
	for _, w := range wired {
		what := "Bash"
		if w.write != nil {
			what += " and the file tools"
		}
		cs = append(cs, Check{Name: "wiring " + w.t.rel, Status: StatusOK, Detail: "harness-hook guards " + what})
	}
	if o.NoProbe || disabled {
		return cs
	}
	for _, w := range wired {
		cs = append(cs, probe(w, "", hookBin, o)...)
	}
	return cs
}

// hasFail reports whether any check failed.
func hasFail(cs []Check) bool {
	for _, c := range cs {
		if c.Status == StatusFail {
			return true
		}
	}
	return false
}

// fix is the command that rewrites the harness's entries of t's settings
// file, for fix texts.
func (t target) fix() string {
	switch t.kind {
	case kindProject:
		return "harness install"
	case kindUser:
		return "harness install --user"
	case kindFeature, kindLocal:
		if t.feature != "" {
			return "harness init-feature " + t.feature
		}
		return "harness install"
	}
	return "harness init-feature <feature>"
}

// probeName labels the probe checks of one wiring.
func (w *wiring) probeName() string {
	if w.t.feature != "" {
		return "probe " + w.t.feature
	}
	return fmt.Sprintf("probe %s", w.t.rel)
}

// checkOverrideFiles reads the override files the hook reads for a session
// started in o.Cwd (~/.claude/harness.yaml, .claude/harness.yaml; rules/README.md
// "Outside a sprint") with the hook's own loader: an invalid one FAILs,
// because the hook then ignores both and runs the preset unchanged.
func checkOverrideFiles(o Options) []Check {
	_, loaded, err := hook.NewConfigScope(map[string]string{"HOME": o.Home}, o.Cwd).LoadConfig()
	switch {
	case err != nil:
		return []Check{{Name: "overrides", Status: StatusFail,
			Detail: err.Error() + ": the hook ignores every override file and applies the preset unchanged",
			Fix:    "correct the file (the keys of rules/README.md \"Project overrides\"; harness explain CMD shows the effect)"}}
	case len(loaded) > 0:
		return []Check{{Name: "overrides", Status: StatusOK, Detail: "applied: " + strings.Join(loaded, ", ")}}
	}
	return nil
}
