package hook

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// Presets (rules/presets/presets.yaml, which holds the examples the tests
// run): PresetStrict is the sprint policy and always applies inside a sprint
// workspace; PresetStandard, for ordinary projects, relaxes the rm rule for
// project build outputs and temp dirs and adds net.pipe-to-shell.
const (
	PresetStrict   = "strict"
	PresetStandard = "standard"
)

// Rule ids of the standard preset (registered in internal/ruleid).
const (
	RulePresetRmInProject = ruleid.PresetRmInProject
	RulePresetRmTemp      = ruleid.PresetRmTemp
	RulePipeToShell       = ruleid.NetPipeToShell
)

// ValidPreset reports whether p names a preset ("" is strict).
func ValidPreset(p string) bool { return p == "" || p == PresetStrict || p == PresetStandard }

// applyPreset adjusts the strict decision res of cmd for preset (the one
// selection seam: strict returns res unchanged). cwd is the project
// directory the relaxations are judged against.
func applyPreset(preset, cmd string, res bashguard.Result, cwd string, vars map[string]string) bashguard.Result {
	if preset != PresetStandard {
		return res
	}
	if d, ok := pipeToShell(cmd, res.Invocations); ok {
		res.Matches = append(res.Matches, bashguard.Match{Rule: d.Rule, Family: "pipe_to_shell", Invocation: -1, Action: verdict.Block, Why: d.Message})
		res.Decision = verdict.Max(res.Decision, d)
		return res
	}
	if res.Decision.Action != verdict.Block {
		return res
	}
	relaxed := ""
	for _, m := range res.Matches {
		if m.Action == verdict.Allow {
			continue
		}
		if m.Rule != "fs.rm-recursive-force" || m.Invocation < 0 || m.Invocation >= len(res.Invocations) {
			return res // another rule blocks (or warns): strict stands
		}
		r := rmRelaxation(res.Invocations[m.Invocation], cwd, vars)
		if r == "" {
			return res
		}
		if relaxed == "" || r == RulePresetRmInProject {
			relaxed = r
		}
	}
	if relaxed == "" {
		return res
	}
	res.Decision = verdict.Decision{Action: verdict.Allow, Rule: relaxed, Family: "preset",
		Message: "allowed by the standard preset: rm -rf of build outputs inside the project or of temp dirs"}
	return res
}

// rmRelaxation returns the relaxation rule that allows the rm invocation
// inv, or "" when an operand is outside both (see presets.yaml).
func rmRelaxation(inv shell.Invocation, cwd string, vars map[string]string) string {
	if inv.Program != "rm" || inv.UnknownSub != "" || len(inv.AltDirs) > 0 || len(inv.Via) > 0 {
		return ""
	}
	if inv.Dir != "" && filepath.Clean(inv.Dir) != filepath.Clean(cwd) {
		return ""
	}
	rule, operands := RulePresetRmInProject, 0
	endOfOpts := false
	for _, a := range inv.Args {
		if !a.Known {
			return ""
		}
		v := a.Value
		if !endOfOpts && v == "--" {
			endOfOpts = true
			continue
		}
		if !endOfOpts && strings.HasPrefix(v, "-") && v != "-" {
			continue
		}
		operands++
		switch {
		case inProject(v):
		case underTemp(v, vars):
			if rule != RulePresetRmInProject {
				rule = RulePresetRmTemp
			}
			if operands == 1 {
				rule = RulePresetRmTemp
			}
		default:
			return ""
		}
	}
	if operands == 0 {
		return ""
	}
	return rule
}

// inProject: a relative path strictly below the working directory, not
// .git or below it, whose first element is no glob.
func inProject(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, `\`) || filepath.IsAbs(p) {
		return false
	}
	c := path.Clean(filepath.ToSlash(p))
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return false
	}
	first := strings.SplitN(c, "/", 2)[0]
	if first == ".git" || strings.ContainsAny(first, "*?[") {
		return false
	}
	return true
}

// underTemp: an absolute path strictly below /tmp, /var/tmp or $TMPDIR.
func underTemp(p string, vars map[string]string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	c := path.Clean(p)
	for _, t := range []string{"/tmp", "/var/tmp", strings.TrimRight(vars["TMPDIR"], "/")} {
		if t == "" || t == "/" {
			continue
		}
		if strings.HasPrefix(c, t+"/") && !strings.ContainsAny(c[len(t)+1:], "*?[") {
			return true
		}
	}
	return false
}

// shellsReadingStdin are shells that run a script read from stdin when
// given no script operand.
func shellsReadingStdin(s string) bool {
	switch s {
	case "sh", "bash", "zsh", "dash", "ksh", "fish":
		return true
	}
	return false
}

// pipeToShell blocks curl/wget … | sh: a download and, later in the same
// pipeline text, a shell given no script file (only options, -s, or -c
// absent).
func pipeToShell(cmd string, invs []shell.Invocation) (verdict.Decision, bool) {
	if !strings.Contains(cmd, "|") {
		return verdict.Decision{}, false
	}
	download := false
	for _, inv := range invs {
		prog := path.Base(inv.Program)
		if prog == "curl" || prog == "wget" {
			download = true
			continue
		}
		if !download || !shellsReadingStdin(prog) {
			continue
		}
		script := false
		for _, a := range inv.Args {
			if a.Value == "-s" || a.Value == "--" {
				break // -s: the script is stdin; -- ends the options
			}
			if a.Value == "-c" || !strings.HasPrefix(a.Value, "-") {
				script = true
				break
			}
		}
		if !script {
			return verdict.Decision{Action: verdict.Block, Rule: RulePipeToShell, Family: "pipe_to_shell", Subject: inv.Program,
				Message: "a download piped into " + prog + " runs code nobody has read",
				Hint:    "download to a file (curl -o install.sh URL), read it, then run it: sh install.sh"}, true
		}
	}
	return verdict.Decision{}, false
}
