package pathguard

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/superagent-harness/harness/internal/lazy"
	"github.com/superagent-harness/harness/internal/verdict"
)

// Hook wiring outside the sprint root. The corpus rules (testdata/corpus/README.md §3.2) are
// about the root; a Generator that writes {"disableAllHooks": true} into the
// user-level Claude Code settings, or replaces the harness-hook binary,
// switches the guard off for every later session. This extension keeps
// those files read-only for Edit/Write/MultiEdit/NotebookEdit and Bash
// writes, in a sprint workspace and (NewPlain) in any project the hook
// guards outside one.

// NewPlain returns the guard of a session outside any sprint workspace (a
// project wired with `harness install`): it judges only the hook wiring
// (rule path.hook-wiring) — the settings*.json of the settings directories
// added with WithHome, WithClaudeConfigDir and WithClaudeProjectDir (the
// project's own .claude/ among them), the managed policy file and the hook
// executable — and allows every other write, because no sprint rule applies
// in an ordinary project. Without it an agent could write
// ~/.claude/settings.json or .claude/settings.json and switch its own guard
// off.
func NewPlain() *Guard {
	return &Guard{plain: true, rules: Rules()}
}

// wiringFile is one protected file outside the root in its two forms
// (testdata/corpus/README.md §3.1): lex as named, phys with existing links resolved.
type wiringFile struct {
	lex string
	// phys is the physical form, resolved on the first check that needs
	// it: most hook calls judge no target at all, and resolving
	// ~/.claude/settings*.json and the executable cost every PreToolUse
	// process about 35 µs of stat calls (docs/performance.md).
	phys func() string
	// exe marks the hook executable: a folder above it is protected only
	// against delete and move (installing tools under ~/.local or
	// /usr/local stays possible).
	exe bool
}

// HookWiringRule returns the rule of the user-level hook wiring: the
// Claude Code settings under $HOME/.claude (and $CLAUDE_CONFIG_DIR) and the
// running harness-hook executable.
func HookWiringRule() Rule {
	return genHookWiringRule()
}

// withWiring returns a copy of g that also protects the files ps (exe:
// they are the hook executable).
func (g *Guard) withWiring(exe bool, ps ...string) *Guard {
	n := *g
	n.wiring = append([]wiringFile(nil), g.wiring...)
	for _, p := range ps {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		lex := filepath.Clean(p)
		if g.inRoot(lex) {
			continue // the §3.2 rules of the root decide (readonly_file for .claude/settings*.json)
		}
		n.wiring = append(n.wiring, wiringFile{lex: lex, phys: lazyPhysical(lex), exe: exe})
	}
	return &n
}

// withSettingsDir returns a copy of g that also protects the settings*.json
// files of the Claude Code settings directory dir (rule path.hook-wiring,
// patterns in rules/paths.yaml), unless dir lies inside the root, whose
// rules decide (readonly_file for .claude/settings*.json).
func (g *Guard) withSettingsDir(dir string) *Guard {
	n := *g
	if dir == "" || !filepath.IsAbs(dir) {
		return &n
	}
	lex := filepath.Clean(dir)
	if g.inRoot(lex) {
		return &n
	}
	n.settingsDirs = append(append([]wiringFile(nil), g.settingsDirs...), wiringFile{lex: lex, phys: lazyPhysical(lex)})
	return &n
}

// lazyPhysical returns the physical form of the absolute path lex, resolved
// on first use.
func lazyPhysical(lex string) func() string {
	return sync.OnceValue(func() string {
		vol := filepath.VolumeName(lex)
		phys, _ := physicalFrom(vol+string(filepath.Separator), lex[len(vol):])
		return phys
	})
}

// WithClaudeConfigDir returns a copy of g that also protects the
// settings*.json in dir (Claude Code's CLAUDE_CONFIG_DIR, which replaces
// ~/.claude; rule path.hook-wiring) and, in a Generator session, the
// execution channels below it (rule path.claude-config); "" or a relative
// dir changes nothing.
func (g *Guard) WithClaudeConfigDir(dir string) *Guard {
	if dir == "" || !filepath.IsAbs(dir) {
		return g
	}
	n := g.withSettingsDir(dir)
	n.configDir = filepath.Clean(dir)
	return n
}

// WithClaudeProjectDir returns a copy of g that also protects the project
// settings dir/.claude/settings*.json of the Claude Code session
// (CLAUDE_PROJECT_DIR, which Claude Code exports to hooks) when they lie
// outside the root, and counts dir as a directory whose .claude/ Claude Code
// reads (rule path.claude-config); "" or a relative dir changes nothing.
func (g *Guard) WithClaudeProjectDir(dir string) *Guard {
	if dir == "" || !filepath.IsAbs(dir) {
		return g
	}
	n := g.withSettingsDir(filepath.Join(dir, ".claude"))
	n.projectDir = filepath.Clean(dir)
	return n
}

// managedSettingsPaths are the locations of Claude Code's managed policy
// settings per GOOS, where disableAllHooks turns off even managed hooks.
var managedSettingsPaths = lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"linux":   {"/etc/claude-code/managed-settings.json"},
		"darwin":  {"/Library/Application Support/ClaudeCode/managed-settings.json"},
		"windows": {`C:\Program Files\ClaudeCode\managed-settings.json`, `C:\ProgramData\ClaudeCode\managed-settings.json`},
	}
}}

// WithManagedSettings returns a copy of g that also protects Claude Code's
// managed policy settings file(s) of goos (runtime.GOOS); an unknown goos
// changes nothing.
func (g *Guard) WithManagedSettings(goos string) *Guard {
	ps := managedSettingsPaths.Get()[goos]
	if len(ps) == 0 {
		return g
	}
	return g.withWiring(false, ps...)
}

// inRoot reports whether p is the root or lies below one of its forms.
func (g *Guard) inRoot(p string) bool {
	_, ok := g.relRoot(p)
	return ok
}

// relRoot returns p relative to the root (its lexical form first, then its
// physical form); false when p is "" or lies in neither.
func (g *Guard) relRoot(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	for _, r := range [...]string{g.rootLex, g.rootPhys} {
		if rel, ok := relTo(r, p); ok {
			return rel, true
		}
	}
	return "", false
}

// WithHookExecutable returns a copy of g that also protects the hook
// executable at path (the hook passes os.Executable()); "" changes nothing.
// `$(which NAME)`, `$(command -v NAME)` and `type -p` of the executable's
// name in a Bash word are read as this path.
func (g *Guard) WithHookExecutable(path string) *Guard {
	if path == "" || !filepath.IsAbs(path) {
		return g
	}
	n := g.withWiring(true, path)
	n.hookExe = filepath.Clean(path)
	return n
}

// lazyExecutable is the hook executable of WithHookExecutableFunc once
// looked up: its wiring entry (ok false when the lookup failed, the path is
// relative, or it lies inside the root) and its cleaned path.
type lazyExecutable struct {
	file wiringFile
	ok   bool
	path string
}

// WithHookExecutableFunc is WithHookExecutable with the path looked up by
// exe (the hook passes os.Executable) on the first check that needs it: a
// target with a form outside the root, or a Bash word that may look a
// program up by name (which, command -v, type, readlink, realpath). Most
// hook calls need neither, and reading /proc/self/exe cost about 1% of a
// PreToolUse process (docs/performance.md). A nil exe, an error or a path
// that is not absolute changes nothing, as WithHookExecutable("") does.
func (g *Guard) WithHookExecutableFunc(exe func() (string, error)) *Guard {
	n := *g
	if exe == nil {
		return &n
	}
	base := g
	n.lazyExe = sync.OnceValue(func() lazyExecutable {
		p, err := exe()
		if err != nil || p == "" || !filepath.IsAbs(p) {
			return lazyExecutable{}
		}
		w := base.withWiring(true, p).wiring
		if len(w) == len(base.wiring) {
			// inside the root: the §3.2 rules decide, but $(which …) still
			// names it, as with WithHookExecutable
			return lazyExecutable{path: filepath.Clean(p)}
		}
		return lazyExecutable{file: w[len(w)-1], ok: true, path: filepath.Clean(p)}
	})
	return &n
}

// hookExecutable is the hook executable's cleaned path ("" when unknown),
// looking it up when it was given as a function.
func (g *Guard) hookExecutable() string {
	if g.hookExe == "" && g.lazyExe != nil {
		return g.lazyExe().path
	}
	return g.hookExe
}

// wiringFor is the wiring files judgeWiring compares t with: g.wiring and,
// when t has a form outside the root, the executable of
// WithHookExecutableFunc. A target whose forms all lie inside the root can
// be neither a wiring file nor a folder above one (wiring files are outside
// the root in the forms compared), so the lookup is skipped for it.
func (g *Guard) wiringFor(t target) []wiringFile {
	if g.lazyExe == nil || (g.inRoot(t.lex) && (t.phys == "" || g.inRoot(t.phys))) {
		return g.wiring
	}
	e := g.lazyExe()
	if !e.ok {
		return g.wiring
	}
	return append(g.wiring[:len(g.wiring):len(g.wiring)], e.file)
}

// judgeWiring blocks a target that is a hook wiring file or a folder
// above one (replacing or removing ~/.claude, extracting an archive into
// the home directory, … reaches the file too; above the executable only
// deleting or moving counts). ok is false when t is none of them.
func (g *Guard) judgeWiring(t target, o op, tool string) (verdict.Decision, bool) {
	if d, ok := g.judgeSettingsDirs(t, o, tool); ok {
		return d, true
	}
	for _, w := range g.wiringFor(t) {
		for _, p := range [...]string{t.lex, t.phys} {
			if p == "" {
				continue
			}
			for _, f := range [...]string{w.lex, w.phys()} {
				if f != w.lex && g.inRoot(f) {
					continue // reached through a link into the root: the root's rules decide
				}
				if rel, ok := relTo(p, f); ok {
					if rel != "." && w.exe && o != opTree && o != opDelete {
						continue
					}
					why := ""
					if rel != "." {
						why = "it contains " + f
					}
					return g.block(HookWiringRule(), t, o, tool, "", why), true
				}
			}
		}
	}
	return verdict.Decision{}, false
}

// expandWhich replaces a command substitution that looks the hook
// executable up by name (`$(which harness-hook)`, `$(command -v …)`,
// `$(type -p …)`, backquotes, wrapped in `readlink -f`/`realpath`) by its
// path, so `cp /bin/true "$(which harness-hook)"` names the executable.
func (g *Guard) expandWhich(raw string) string {
	if !strings.ContainsAny(raw, "$`") || !mayLookUpProgram(raw) {
		return raw
	}
	hookExe := g.hookExecutable()
	if hookExe == "" {
		return raw
	}
	name := filepath.Base(hookExe)
	names := []string{name}
	if n := strings.TrimSuffix(name, ".exe"); n != name {
		names = append(names, n)
	}
	for range 3 { // nested: $(readlink -f $(which harness-hook))
		before := raw
		for _, n := range names {
			for _, q := range [...]string{n, "'" + n + "'", `"` + n + `"`} {
				for _, lookup := range [...]string{"which ", "command -v ", "type -p ", "type -P ", "which -- ", "command -v -- "} {
					raw = strings.ReplaceAll(raw, "$("+lookup+q+")", hookExe)
					raw = strings.ReplaceAll(raw, "`"+lookup+q+"`", hookExe)
				}
			}
		}
		for _, wrap := range [...]string{"readlink -f ", "readlink -e ", "readlink -m ", "realpath "} {
			for _, q := range [...]string{hookExe, `"` + hookExe + `"`} {
				raw = strings.ReplaceAll(raw, "$("+wrap+q+")", hookExe)
			}
		}
		if raw == before {
			break
		}
	}
	return raw
}

// mayLookUpProgram reports whether raw contains one of the lookups
// expandWhich replaces (which, command -v, type -p/-P, readlink, realpath);
// without one the executable is not needed.
func mayLookUpProgram(raw string) bool {
	for _, w := range [...]string{"which ", "command -v ", "type -", "readlink -", "realpath "} {
		if strings.Contains(raw, w) {
			return true
		}
	}
	return false
}

// judgeSettingsDirs blocks a target that is a settings*.json file of one
// of g.settingsDirs (rule path.hook-wiring), or that directory itself or a
// folder above it (removing, replacing or linking ~/.claude reaches the
// settings too).
func (g *Guard) judgeSettingsDirs(t target, o op, tool string) (verdict.Decision, bool) {
	if len(g.settingsDirs) == 0 {
		return verdict.Decision{}, false
	}
	r := HookWiringRule()
	for _, d := range g.settingsDirs {
		for _, p := range [...]string{t.lex, t.phys} {
			if p == "" {
				continue
			}
			for _, f := range [...]string{d.lex, d.phys()} {
				if f != d.lex && g.inRoot(f) {
					continue // reached through a link into the root: the root's rules decide
				}
				if rel, ok := relTo(p, f); ok && (!g.plain || rel == ".") { // p is the directory or above it
					// (outside a sprint a tree operation on the project, an
					// ancestor, is left to the command rules: rm -rf of the
					// project, . or ~ is blocked there, and find . -name '*.pyc'
					// -delete stays a developer's everyday command)
					why := ""
					if rel != "." {
						why = "it contains " + f
					}
					return g.block(r, t, o, tool, "", why), true
				}
				if rel, ok := relTo(f, p); ok && !strings.Contains(rel, "/") && matchAny(r.Patterns, foldName(rel)) {
					return g.block(r, t, o, tool, "", ""), true
				}
			}
		}
	}
	return verdict.Decision{}, false
}
