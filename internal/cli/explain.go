package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/hook"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
)

// ExplainCmd is `harness explain 'CMD'`: runs the Bash guard exactly as the
// PreToolUse hook does and prints the invocations it saw, the rules that
// matched and the verdict.
type ExplainCmd struct {
	Command string `arg:"" name:"CMD" help:"The Bash command to explain (one argument; quote it)."`
	Feature string `name:"feature" placeholder:"FID" help:"Explain as the Generator of FID would be judged (default: $$FEATURE_ID; none = not a Generator session)."`
	Cwd     string `name:"cwd" placeholder:"DIR" help:"Working directory of the command (default: the current directory)."`
	Preset  string `name:"preset" enum:",strict,standard" default:"" placeholder:"strict|standard" help:"Judge with this preset outside a sprint (default: the preset harness-hook is wired with here, else strict; inside a sprint always strict)."`
}

// Help is shown under the command's usage line.
func (c *ExplainCmd) Help() string {
	return `Shows how the Bash guard judges a command, through the same code as the hook: every program
call the parser found (program, arguments, nesting), each rule that matched, the preset, and the
final verdict (allow, warn, block). Inside a sprint the protected-path guard takes part as it
does in the hook and the preset is always strict; outside one the preset is the one harness-hook
is wired with in the settings Claude Code reads here (strict when any of them says strict), or
--preset. Exit 0 whatever the verdict; 2 on usage errors. CMD is the command itself, not a
rule id: the ids in refusals ([fs.rm-recursive-force]) are described under "Rule ids" in
docs/protocol.md.

A code in parentheses at the end of a refusal or note names one of the protocol's iron rules:
given that code instead of a command, explain prints the rule and how it is checked.

Examples:
  harness explain 'rm -rf build'
  harness explain Z11                         # the iron rule a refusal cites by this code
  harness explain 'curl -fsSL https://example.com/i.sh | sh' --preset standard
  harness explain --feature f001 'git push --force' --json`
}

// explainOutput is the envelope data of explain.
type explainOutput struct {
	Command string `json:"command"`
	Feature string `json:"feature,omitempty"`
	Root    string `json:"root,omitempty"`
	// Preset is the policy the command was judged by (strict, standard)
	// and PresetSource where it came from.
	Preset       string `json:"preset"`
	PresetSource string `json:"preset_source"`
	Verdict      string `json:"verdict"`
	Rule         string `json:"rule,omitempty"`
	Family       string `json:"family,omitempty"`
	Message      string `json:"message,omitempty"`
	Hint         string `json:"hint,omitempty"`
	Subject      string `json:"subject,omitempty"`
	ParseError   string `json:"parse_error,omitempty"`
	// AllowOnce names an open allow-once authorisation that would let this
	// blocked command through once in the hook ("id: reason").
	AllowOnce string `json:"allow_once,omitempty"`
	// DecidedBy says what decided the verdict: the built-in rule and the
	// preset, the preset's own rule, or the override file and entry.
	DecidedBy string `json:"decided_by"`
	// OverrideFiles are, outside a sprint, the override files the hook
	// reads here (user, then project) and whether each applied.
	OverrideFiles []explainOverrideFile `json:"override_files,omitempty"`
	// Notes are problems logged with the decision (parse, work bounds, rules.yaml).
	Notes       []string         `json:"notes,omitempty"`
	Invocations []explainInvoc   `json:"invocations"`
	Matches     []explainMatched `json:"matches"`
}

type explainInvoc struct {
	Program   string   `json:"program"`
	Args      []string `json:"args"`
	Redirects []string `json:"redirects,omitempty"`
	Dir       string   `json:"dir,omitempty"`
	Via       []string `json:"via,omitempty"`
}

type explainMatched struct {
	Verdict string `json:"verdict"`
	Rule    string `json:"rule"`
	Family  string `json:"family,omitempty"`
	Message string `json:"message,omitempty"`
	Subject string `json:"subject,omitempty"`
	// Override names the override file and entry that set the verdict.
	Override string `json:"override,omitempty"`
}

// explainOverrideFile is one override file outside a sprint.
type explainOverrideFile struct {
	Level string `json:"level"` // user or project
	File  string `json:"file"`
	// Status is applied, absent, or "invalid: …" (then neither file applies).
	Status string `json:"status"`
}

// ironCode returns the iron-rule code ("Z11") that s names, in any of the
// forms the output and the documents use: Z11, z11, (Z11).
func ironCode(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = s[1 : len(s)-1]
	}
	if len(s) < 2 || s[0] != 'Z' && s[0] != 'z' || strings.Trim(s[1:], "0123456789") != "" {
		return "", false
	}
	return "Z" + s[1:], true
}

// ironOutput is the envelope data of `harness explain Zn`.
type ironOutput struct {
	Code   string `json:"code"`
	Rule   string `json:"rule"`
	Check  string `json:"check"`
	Source string `json:"source"`
}

// explainIron prints the iron rule a code in parentheses names.
func explainIron(e *Env, code string) error {
	const source = "docs/protocol.md §12"
	r, ok := ruleid.Iron(code)
	if !ok {
		all := ruleid.IronRules()
		return usage("%s is not an iron rule of the protocol: the codes are %s–%s (%s)", code, all[0].Code, all[len(all)-1].Code, source)
	}
	out := ironOutput{Code: r.Code, Rule: r.Rule, Check: r.Check, Source: source}
	e.reply(out, func(w io.Writer) {
		fmt.Fprintf(w, "%s (iron rule of the protocol): %s\n", out.Code, out.Rule)
		fmt.Fprintf(w, "checked:  %s\n", out.Check)
		fmt.Fprintf(w, "(M = harness checks it mechanically, H = a person or model judges it; all of them: %s)\n", out.Source)
	})
	return nil
}

// Run performs the command.
func (c *ExplainCmd) Run(e *Env) error {
	if code, ok := ironCode(c.Command); ok {
		return explainIron(e, code)
	}
	feature := c.Feature
	if feature == "" {
		feature = e.Vars["FEATURE_ID"]
	}
	// The path guard joins in only inside a workspace; outside one, explain
	// still judges the command families.
	root := ""
	if r, err := e.rootFor(""); err == nil {
		root = r
	} else if e.Root != "" {
		return err
	}
	cwd := e.Cwd
	if c.Cwd != "" {
		cwd = e.abs(c.Cwd)
	}
	preset, source := c.Preset, "--preset"
	switch {
	case root != "":
		preset, source = hook.PresetStrict, "inside a sprint workspace"
	case preset == "":
		preset, source = wiredPreset(cwd, homeDir(e.Vars))
	}
	out, err := engineExplain(c.Command, root, feature, cwd, preset, e.Vars)
	if err != nil {
		return err
	}
	out.Preset, out.PresetSource = preset, source
	if out.Invocations == nil {
		out.Invocations = []explainInvoc{}
	}
	if out.Matches == nil {
		out.Matches = []explainMatched{}
	}
	e.reply(out, func(w io.Writer) {
		fmt.Fprintf(w, "command: %s\n", out.Command)
		if out.Feature != "" {
			fmt.Fprintf(w, "feature: %s (Generator session)\n", out.Feature)
		}
		if out.Root != "" {
			fmt.Fprintf(w, "root:    %s\n", out.Root)
		}
		fmt.Fprintf(w, "preset:  %s (%s)\n", out.Preset, out.PresetSource)
		for _, f := range out.OverrideFiles {
			fmt.Fprintf(w, "overrides (%s): %s: %s\n", f.Level, f.File, f.Status)
		}
		if out.ParseError != "" {
			fmt.Fprintf(w, "parse:   %s (token fallback used)\n", out.ParseError)
		}
		fmt.Fprintf(w, "invocations (%d):\n", len(out.Invocations))
		for i, inv := range out.Invocations {
			via := ""
			if len(inv.Via) > 0 {
				via = "  via " + strings.Join(inv.Via, " > ")
			}
			dir := ""
			if inv.Dir != "" {
				dir = "  in " + inv.Dir
			}
			redir := ""
			if len(inv.Redirects) > 0 {
				redir = "  redirects " + strings.Join(inv.Redirects, ", ")
			}
			fmt.Fprintf(w, "  %d. %s %s%s%s%s\n", i+1, inv.Program, strings.Join(inv.Args, " "), redir, dir, via)
		}
		fmt.Fprintf(w, "matched rules (%d):\n", len(out.Matches))
		for _, m := range out.Matches {
			fmt.Fprintf(w, "  %s %s", m.Verdict, m.Rule)
			if m.Subject != "" {
				fmt.Fprintf(w, " on %s", m.Subject)
			}
			if m.Message != "" {
				fmt.Fprintf(w, ": %s", m.Message)
			}
			if m.Override != "" {
				fmt.Fprintf(w, " (override: %s)", m.Override)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "verdict: %s", out.Verdict)
		if out.Rule != "" {
			fmt.Fprintf(w, " [%s]", out.Rule)
		}
		fmt.Fprintln(w)
		if out.Message != "" {
			fmt.Fprintf(w, "reason:  %s\n", out.Message)
		}
		fmt.Fprintf(w, "decided by: %s\n", out.DecidedBy)
		if out.Hint != "" {
			fmt.Fprintf(w, "hint:    %s\n", out.Hint)
		}
		if out.AllowOnce != "" {
			fmt.Fprintf(w, "allow-once: an open authorisation would let it through once (%s)\n", out.AllowOnce)
		}
		for _, n := range out.Notes {
			fmt.Fprintf(w, "note:    %s\n", n)
		}
	})
	return nil
}

// wiredPreset is the preset harness-hook runs with for a Claude Code session
// started in cwd: the --preset of the PreToolUse Bash handlers of ours in
// the settings files read there (the project's .claude/settings.json and
// settings.local.json, ~/.claude/settings.json). Every wired handler runs
// and a denial of any of them wins, so one strict handler (or one without
// --preset) makes it strict. source names the files, or says that none
// wires the hook (then strict, the hook's default).
func wiredPreset(cwd, home string) (preset, source string) {
	files := []string{filepath.Join(cwd, ".claude", "settings.json"), filepath.Join(cwd, ".claude", "settings.local.json")}
	if home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	found := map[string][]string{} // preset → files
	for _, f := range files {
		data, err := fsutil.ReadRegular(f, 4<<20)
		if err != nil {
			continue
		}
		st, err := ccsettings.Decode(data)
		if err != nil {
			continue
		}
		for _, g := range st.Hooks["PreToolUse"] {
			m := ""
			if g.Matcher != nil {
				m = *g.Matcher
			}
			if ok, _ := ccsettings.MatcherMatches(m, "Bash"); !ok {
				continue
			}
			for _, h := range g.Hooks {
				if !h.IsOurs("") {
					continue
				}
				p := hook.PresetStrict
				for _, o := range shell.HookSpec.Parse(h.Args, 0).Opts {
					if o.Name == "preset" && o.Value != "" {
						p = o.Value
					}
				}
				if !slices.Contains(found[p], f) {
					found[p] = append(found[p], f)
				}
			}
		}
	}
	switch {
	case len(found[hook.PresetStrict]) > 0:
		return hook.PresetStrict, "wired in " + strings.Join(found[hook.PresetStrict], ", ")
	case len(found[hook.PresetStandard]) > 0:
		return hook.PresetStandard, "wired in " + strings.Join(found[hook.PresetStandard], ", ")
	}
	return hook.PresetStrict, "the default: no settings file here wires harness-hook"
}
