package pathguard

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/superagent-harness/harness/internal/verdict"
)

// Claude Code's own execution channels (testdata/corpus/README.md §9.4, rule
// claude_config): a skill's !`cmd` lines run shell commands with no Bash
// hook, and settings, commands, agents, output styles, hooks, plugins and
// MCP servers all make later turns or sessions run what they say. In a
// Generator session every write to them is refused: below every .claude/
// directory Claude Code reads for the session — the root's, the cwd's and
// every ancestor's up to /, the user's ~/.claude/ and $CLAUDE_CONFIG_DIR —
// the files the rule's patterns name, plus .mcp.json in the root, the cwd
// and their ancestors and ~/.claude.json. Outside a Generator session only
// the settings*.json stay protected (rule path.hook-wiring, wiring.go, and
// readonly_file for the root's).

// ClaudeConfigRule returns the claude_config rule (rules/paths.yaml kind
// claude-config): its patterns are relative to a .claude/ directory.
func ClaudeConfigRule() Rule {
	return genClaudeConfigRule()
}

// matchAny reports whether the folded slash path rel matches one of the
// doublestar patterns.
func matchAny(patterns []string, rel string) bool {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// judgeClaudeConfig blocks a write to one of Claude Code's execution
// channels in a Generator session. Besides the root's, Claude Code reads the
// .claude/ of t.cwd (the payload's cwd, or the directory a Bash command has
// cd'd to) and of the session's cwd (g.sessionCwd, ForCommand). ok is false
// when t is none.
func (g *Guard) judgeClaudeConfig(t target, o op, tool string) (verdict.Decision, bool) {
	if g.feature == "" {
		return verdict.Decision{}, false
	}
	r := ClaudeConfigRule()
	for _, p := range [...]string{t.lex, t.phys} {
		if p == "" {
			continue
		}
		if g.configDir != "" {
			if rel, ok := relTo(g.configDir, p); ok && claudeRel(r, rel) {
				return g.block(r, t, o, tool, "", "below $CLAUDE_CONFIG_DIR "+g.configDir), true
			}
		}
		if dir, rel, ok := g.claudeDirOf(p, t); ok && claudeRel(r, rel) {
			return g.block(r, t, o, tool, "", "below "+dir+", which Claude Code reads for this session"), true
		}
		parent, base := filepath.Dir(p), filepath.Base(p)
		for _, f := range r.ProjectFiles {
			if namesEqual(base, f) && g.readsFrom(parent, t) {
				return g.block(r, t, o, tool, "", ""), true
			}
		}
		for _, f := range r.HomeFiles {
			if namesEqual(base, f) && (g.homeDir != "" && samePath(parent, g.homeDir) || g.configDir != "" && samePath(parent, g.configDir)) {
				return g.block(r, t, o, tool, "", ""), true
			}
		}
	}
	return verdict.Decision{}, false
}

// claudeRel reports whether rel, a path below a .claude/ directory ("." for
// the directory itself), is one of the rule's channels. The directory itself
// counts too: creating, replacing, linking or removing it changes them all.
func claudeRel(r Rule, rel string) bool {
	return rel == "." || matchAny(r.Patterns, foldName(rel))
}

// claudeDirOf finds a component named .claude (case-folded) in the absolute
// path p whose parent is a directory Claude Code reads, and returns that
// .claude directory and p relative to it.
func (g *Guard) claudeDirOf(p string, t target) (dir, rel string, ok bool) {
	if isASCII(p) && !strings.Contains(asciiLower(p), ".claude") {
		return "", "", false // the common case: no .claude component at all
	}
	vol := filepath.VolumeName(p)
	comps := splitComponents(p[len(vol):])
	for i, c := range comps {
		if !namesEqual(c, ".claude") {
			continue
		}
		parent := vol + string(filepath.Separator) + filepath.Join(comps[:i]...)
		if !g.readsFrom(parent, t) {
			continue
		}
		rel = "."
		if i+1 < len(comps) {
			rel = strings.Join(comps[i+1:], "/")
		}
		return filepath.Join(parent, c), rel, true
	}
	return "", "", false
}

// readsFrom reports whether Claude Code reads dir's .claude/ (and
// .mcp.json) for this session: dir is the root, the cwd, the project dir or
// one of their ancestors (up to /), or the home directory.
func (g *Guard) readsFrom(dir string, t target) bool {
	if g.homeDir != "" && samePath(dir, g.homeDir) {
		return true
	}
	for _, d := range [...]string{g.rootLex, g.rootPhys, g.projectDir} {
		if d != "" {
			if _, ok := relTo(dir, d); ok {
				return true
			}
		}
	}
	for _, d := range [...]string{t.cwd, g.sessionCwd} {
		if d != "" && filepath.IsAbs(d) {
			if _, ok := relTo(dir, filepath.Clean(d)); ok {
				return true
			}
		}
	}
	return false
}

// samePath reports whether a and b name the same entry (case-folded).
func samePath(a, b string) bool {
	rel, ok := relTo(a, b)
	return ok && rel == "."
}
