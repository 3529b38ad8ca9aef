package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	mvshell "mvdan.cc/sh/v3/shell"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/shell"
)

// knownEvents are hook event names of Claude Code 2.1.332 that doctor knows
// (docs/hooks.md §5 and §1); a key that equals one of them ignoring
// case but not exactly is never run by the CLI.
var knownEvents = []string{
	"SessionStart", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse", "PermissionRequest",
	"PostToolUse", "PostToolUseFailure", "Stop", "StopFailure", "SubagentStop", "SubagentStart",
	"PreCompact", "PostCompact", "SessionEnd", "Notification", "Setup", "CwdChanged", "FileChanged",
	"TaskCompleted", "TeammateIdle",
}

// guardedTools must reach the PreToolUse hook (testdata/corpus/README.md §3.2 columns).
var guardedTools = []string{"Bash", "Edit", "Write", "NotebookEdit", "MultiEdit"}

// unguardedTools do not need the hook; a matcher that catches them only
// costs time.
var unguardedTools = []string{"Read", "Glob", "Grep", "WebFetch", "WebSearch", "Task", "Agent", "TodoWrite", "LS"}

// settingsKind says which rules a settings file must satisfy.
type settingsKind int

const (
	kindFeature settingsKind = iota // .harness/features/<F>/.claude/settings.json: must wire the hook
	kindLocal                       // a settings.local.json next to one: merged, may disable hooks
	kindRoot                        // the sprint root's .claude/settings.json
	kindUser                        // ~/.claude/settings.json (read-only for doctor)
	kindProject                     // outside a sprint: <cwd>/.claude/settings(.local).json
)

// target is one settings file to check.
type target struct {
	path    string
	rel     string // for messages
	kind    settingsKind
	project string // the directory claude runs in (parent of .claude)
	feature string // for kindFeature
	// env is the process environment (PATH lookups, $VAR in shell-form commands).
	env map[string]string
}

// checkUserSettings reads ~/.claude/settings.json (never writes it).
func checkUserSettings(home string, env map[string]string) []Check {
	if home == "" {
		return nil
	}
	p := filepath.Join(home, ".claude", "settings.json")
	if !isFile(p) {
		return []Check{{Name: "user settings", Status: StatusInfo, Detail: p + " absent"}}
	}
	cs, _ := checkSettings(target{path: p, rel: p, kind: kindUser, project: home, env: env}, "", "")
	return cs
}

// wiring is what checkSettings learnt about one settings file, for the probes.
type wiring struct {
	t        target
	bash     *ccsettings.Handler // the handler that runs for PreToolUse Bash (ours)
	write    *ccsettings.Handler // the handler that runs for PreToolUse Write (ours)
	disabled bool
}

// checkSettings validates one settings file. hookBin is the expected hook
// ("" = unknown); root is the sprint root ("" for user settings).
func checkSettings(t target, hookBin, root string) ([]Check, *wiring) {
	name := "settings " + t.rel
	data, err := fsutil.ReadRegular(t.path, fsutil.CapConfig)
	if err != nil {
		return []Check{{Name: name, Status: StatusFail, Detail: err.Error(), Fix: "run " + t.fix()}}, nil
	}
	sf, err := ccsettings.Decode(data)
	if err != nil {
		return []Check{{Name: name, Status: StatusFail,
			Detail: "not a valid settings file: " + err.Error() + " (claude -p silently ignores a settings file that fails validation: no hook of it runs)",
			Fix:    "fix the JSON, then run " + t.fix()}}, nil
	}
	w := &wiring{t: t}
	var cs []Check
	fail := func(detail, fix string) {
		cs = append(cs, Check{Name: name, Status: StatusFail, Detail: detail, Fix: fix})
	}
	warn := func(detail, fix string) {
		cs = append(cs, Check{Name: name, Status: StatusWarn, Detail: detail, Fix: fix})
	}
	if sf.DisableAllHooks != nil && *sf.DisableAllHooks {
		w.disabled = true
		fail(`"disableAllHooks": true turns off every hook (settings merge across levels): the harness guards nothing`,
			`remove "disableAllHooks" from `+t.path)
	}
	// event keys
	events := make([]string, 0, len(sf.Hooks))
	for ev := range sf.Hooks {
		events = append(events, ev)
	}
	sort.Strings(events)
	for _, ev := range events {
		if slices.Contains(knownEvents, ev) {
			continue
		}
		if i := slices.IndexFunc(knownEvents, func(k string) bool { return strings.EqualFold(k, ev) }); i >= 0 {
			fail(fmt.Sprintf("hook event key %q is not %q: Claude Code matches event names exactly and never runs these handlers", ev, knownEvents[i]),
				fmt.Sprintf("rename the key to %q", knownEvents[i]))
		} else {
			warn(fmt.Sprintf("unknown hook event key %q", ev), "check the spelling against docs/hooks.md §5")
		}
	}
	// handlers
	for _, ev := range events {
		for gi, g := range sf.Hooks[ev] {
			for hi := range g.Hooks {
				h := &sf.Hooks[ev][gi].Hooks[hi]
				where := fmt.Sprintf("%s[%d].hooks[%d]", ev, gi, hi)
				cs = append(cs, checkHandler(name, where, ev, h, t, hookBin, root)...)
			}
			// a comma list ("Write,Bash", "Write, Bash") is exact names, and
			// Claude Code 2.1.332 fires it (internal/e2e
			// TestRealClaudeMatcherSyntax): nothing to report
			if g.Matcher != nil && ev == "PreToolUse" {
				if _, err := ccsettings.MatcherMatches(*g.Matcher, "Bash"); err != nil {
					fail(fmt.Sprintf("%s[%d] matcher %q is not a valid regular expression: %v", ev, gi, *g.Matcher, err), "use exact names separated by | (Bash or Edit|Write|MultiEdit|NotebookEdit)")
				}
			}
		}
	}
	// the handler of ours that runs for a tool (nil: none)
	ours := func(ev, tool string) *ccsettings.Handler {
		for gi, g := range sf.Hooks[ev] {
			m := ""
			if g.Matcher != nil {
				m = *g.Matcher
			}
			if tool != "" {
				if ok, err := ccsettings.MatcherMatches(m, tool); err != nil || !ok {
					continue
				}
			}
			for hi := range g.Hooks {
				h := &sf.Hooks[ev][gi].Hooks[hi]
				if isOurHook(h, t) {
					return h
				}
			}
		}
		return nil
	}
	if t.kind == kindUser || t.kind == kindProject {
		// outside a sprint these carry the guard (harness install)
		w.bash, w.write = ours("PreToolUse", "Bash"), ours("PreToolUse", "Write")
	}
	if t.kind != kindFeature {
		if len(cs) == 0 {
			cs = append(cs, Check{Name: name, Status: StatusOK, Detail: fmt.Sprintf("valid; %d hook event(s), none conflicts", len(events))})
		}
		return cs, w
	}
	// a feature's settings must wire our hook for the needed events
	fixInit := "run " + t.fix() + " (it rewrites only its own entries)"
	for _, ev := range []string{"SessionStart", "Stop"} {
		if ours(ev, "") == nil {
			fail(fmt.Sprintf("no harness-hook handler for %s", ev), fixInit)
		}
	}
	if ours("SubagentStop", "") == nil {
		warn("no harness-hook handler for SubagentStop (it only logs, but init-feature registers it)", fixInit)
	}
	for _, tool := range guardedTools {
		h := ours("PreToolUse", tool)
		switch {
		case h == nil && tool == "MultiEdit":
			warn("PreToolUse does not cover MultiEdit (legacy tool of older CLIs)", "use the matcher Edit|Write|MultiEdit|NotebookEdit")
		case h == nil:
			fail(fmt.Sprintf("PreToolUse does not run harness-hook for %s: those tool calls are not guarded", tool), fixInit)
		case tool == "Bash":
			w.bash = h
		case tool == "Write":
			w.write = h
		}
	}
	// over-broad matchers
	for gi, g := range sf.Hooks["PreToolUse"] {
		m := ""
		if g.Matcher != nil {
			m = *g.Matcher
		}
		if m == "" || m == ccsettings.AllToolsMatcher {
			// "every tool" is said on purpose: init-feature and launch
			// write such a group so that the monitor measures every call
			continue
		}
		var extra []string
		for _, tool := range unguardedTools {
			if ok, _ := ccsettings.MatcherMatches(m, tool); ok {
				extra = append(extra, tool)
			}
		}
		if len(extra) > 0 && slices.ContainsFunc(g.Hooks, func(h ccsettings.Handler) bool { return isOurHook(&h, t) }) {
			warn(fmt.Sprintf("PreToolUse[%d] matcher %q also runs harness-hook for %s (harmless, ~3 ms each)", gi, m, strings.Join(extra, ", ")),
				"use exact names: Bash and Edit|Write|MultiEdit|NotebookEdit (an unanchored regex such as Edit.* matches more than it says)")
		}
	}
	if !slices.ContainsFunc(cs, func(c Check) bool { return c.Status == StatusFail }) {
		cs = append(cs, Check{Name: name, Status: StatusOK, Detail: "harness-hook wired for SessionStart, PreToolUse (Bash, Edit, Write, NotebookEdit), Stop"})
	}
	return cs, w
}

// checkHandler checks one handler: type, command existence, --event,
// --root/--feature, timeout, onFailure.
func checkHandler(name, where, event string, h *ccsettings.Handler, t target, hookBin, root string) []Check {
	var cs []Check
	fail := func(detail, fix string) {
		cs = append(cs, Check{Name: name, Status: StatusFail, Detail: where + ": " + detail, Fix: fix})
	}
	warn := func(detail, fix string) {
		cs = append(cs, Check{Name: name, Status: StatusWarn, Detail: where + ": " + detail, Fix: fix})
	}
	if h.Type != "command" {
		if h.Type == "" {
			fail(`handler without "type"`, `add "type": "command"`)
		}
		return cs
	}
	argv, err := commandLine(h, t)
	if err != nil || len(argv) == 0 {
		fail(fmt.Sprintf("cannot read the command %q: %v", h.Command, err), "use the exec form: command = absolute path of harness-hook, args = [--event, …]")
		return cs
	}
	prog := resolveProgram(argv[0], t)
	if prog == "" || !isExecutable(prog) {
		fail(fmt.Sprintf("command %q does not exist or is not executable: the call exits 127, which Claude Code treats as allow (the guard is silently off)", argv[0]),
			"point command at the absolute path of an existing harness-hook: run "+t.fix()+" --hook-bin PATH")
	}
	if !isOurHook(h, t) {
		return cs
	}
	if hookBin != "" && prog != "" && !sameFile(prog, hookBin) {
		warn(fmt.Sprintf("runs %s, not the harness-hook beside this harness (%s)", prog, hookBin), "run "+t.fix()+" so both come from the same build")
	}
	flags := parseFlags(argv[1:])
	switch ev, ok := flags["event"]; {
	case !ok:
		fail("no --event argument: the hook then depends on the payload's hook_event_name and cannot tell its role when stdin is unreadable",
			fmt.Sprintf(`add "--event", "%s" to args (%s does)`, event, t.fix()))
	case ev != event:
		fail(fmt.Sprintf("--event %s registered under %s: the hook answers as the wrong event", ev, event), fmt.Sprintf("use --event %s", event))
	}
	if root != "" && t.kind == kindFeature {
		if r, ok := flags["root"]; ok && !samePath(r, root) {
			fail(fmt.Sprintf("--root %s is not this sprint root %s (a settings file copied from another sprint guards the wrong workspace)", r, root), "run harness init-feature "+t.feature)
		}
		if f, ok := flags["feature"]; ok && f != t.feature {
			fail(fmt.Sprintf("--feature %s in the directory of feature %s: the wrong feature's records are checked and its directory is writable", f, t.feature), "run harness init-feature "+t.feature)
		} else if !ok {
			warn("no --feature argument (the hook falls back to FEATURE_ID or the cwd)", "run harness init-feature "+t.feature)
		}
	}
	switch {
	case h.Timeout == nil:
		fail("no timeout: the default is 600 s, so a hung hook stalls the session for 10 minutes and then fails open",
			`add "timeout": 10 (PreToolUse) or 30 (SessionStart, Stop)`)
	case *h.Timeout <= 0:
		fail(fmt.Sprintf("timeout %v is not positive", *h.Timeout), `use "timeout": 10`)
	}
	if event == "PreToolUse" && h.OnFailure != "block" {
		got := "no"
		if h.OnFailure != "" {
			got = fmt.Sprintf("%q instead of", h.OnFailure)
		}
		fail(got+` "onFailure": "block": if the hook binary is missing, killed or times out, Claude Code 2.1.332 runs the tool anyway (checked end to end)`,
			`add "onFailure": "block" to the PreToolUse handlers (`+t.fix()+` writes it)`)
	}
	if h.Async {
		fail(`"async": true: the CLI does not wait for the decision`, `remove "async"`)
	}
	return cs
}

// commandLine returns the argv Claude Code would run: exec form (command +
// args, placeholders substituted) or shell form (the command string split
// as sh would, with $CLAUDE_PROJECT_DIR known).
func commandLine(h *ccsettings.Handler, t target) ([]string, error) {
	project := t.project
	subst := func(s string) string {
		return strings.NewReplacer("${CLAUDE_PROJECT_DIR}", project, "$CLAUDE_PROJECT_DIR", project).Replace(s)
	}
	if h.Args != nil {
		argv := []string{subst(h.Command)}
		for _, a := range h.Args {
			argv = append(argv, subst(a))
		}
		return argv, nil
	}
	return mvshell.Fields(h.Command, func(name string) string {
		if name == "CLAUDE_PROJECT_DIR" {
			return project
		}
		return t.env[name]
	})
}

// shellForm reports whether the handler runs through sh -c.
func shellForm(h *ccsettings.Handler) bool { return h.Args == nil }

// isOurHook reports whether the handler runs harness-hook.
func isOurHook(h *ccsettings.Handler, t target) bool {
	argv, err := commandLine(h, t)
	if err != nil || len(argv) == 0 {
		return strings.Contains(h.Command, "harness-hook")
	}
	base := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	return base == "harness-hook"
}

// resolveProgram finds the program the way the CLI spawns it: a path with a
// separator relative to the project dir, a bare name on PATH.
func resolveProgram(p string, t target) string {
	project := t.project
	if !strings.ContainsAny(p, `/\`) {
		found, err := lookPath(p, t.env)
		if err != nil {
			return ""
		}
		return found
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(project, p)
	}
	return p
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && (runtime.GOOS == "windows" || fi.Mode()&0o111 != 0)
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// parseFlags reads harness-hook's arguments by the hook's own grammar
// (shell.HookSpec): the flags given, by name, with their values.
func parseFlags(args []string) map[string]string {
	m := map[string]string{}
	p := shell.HookSpec.Parse(args, 0)
	for _, o := range p.Opts {
		m[o.Name] = o.Value
	}
	return m
}

// findSettings lists the settings files of a workspace: the root's
// .claude/settings.json and settings.local.json, and every feature's.
func findSettings(root string, env map[string]string) ([]target, error) {
	var ts []target
	rootClaude := filepath.Join(root, ".claude")
	for _, n := range []string{"settings.json", "settings.local.json"} {
		p := filepath.Join(rootClaude, n)
		if isFile(p) {
			k := kindRoot
			if n == "settings.local.json" {
				k = kindLocal
			}
			ts = append(ts, target{path: p, rel: filepath.ToSlash(filepath.Join(".claude", n)), kind: k, project: root, env: env})
		}
	}
	featDir := filepath.Join(root, ".harness", "features")
	entries, err := os.ReadDir(featDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ts, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		fdir := filepath.Join(featDir, e.Name())
		rel := filepath.ToSlash(filepath.Join(".harness", "features", e.Name(), ".claude"))
		ts = append(ts, target{path: filepath.Join(fdir, ".claude", "settings.json"), rel: rel + "/settings.json",
			kind: kindFeature, project: fdir, feature: e.Name(), env: env})
		if p := filepath.Join(fdir, ".claude", "settings.local.json"); isFile(p) {
			ts = append(ts, target{path: p, rel: rel + "/settings.local.json", kind: kindLocal, project: fdir, feature: e.Name(), env: env})
		}
	}
	return ts, nil
}

// quote renders argv for messages.
func quote(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\"'$\\") {
			a = strconv.Quote(a)
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
