package pathguard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestClaudeConfig: in a Generator session every write to Claude Code's
// execution channels is refused (testdata/corpus/README.md §9.4) — below the
// .claude/ of the root, of the cwd, of every ancestor, of HOME and below
// $CLAUDE_CONFIG_DIR, plus .mcp.json and ~/.claude.json — by the file tools
// and by Bash; other files there, .claude/ directories Claude Code does not
// read, and every write outside a Generator session (except settings*.json)
// stay allowed.
func TestClaudeConfig(t *testing.T) {
	root := newWorkspace(t)
	parent := filepath.Dir(root)
	home := filepath.Join(t.TempDir(), "home")
	cfg := filepath.Join(t.TempDir(), "cfg")
	sibling := filepath.Join(t.TempDir(), "other-project")
	for _, d := range []string{home, cfg, sibling, filepath.Join(root, "src", "deep")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gen := mustGuard(t, root, "f002").WithHome(home).WithClaudeConfigDir(cfg)
	hermes := mustGuard(t, root, "").WithHome(home).WithClaudeConfigDir(cfg)
	src := filepath.Join(root, "src")
	for _, c := range []struct {
		path, cwd   string
		gen, hermes string // expected family in each session ("" = allow)
	}{
		{".claude/skills/deploy/SKILL.md", root, FamilyClaudeConfig, ""},
		{".claude/commands/review.md", root, FamilyClaudeConfig, ""},
		{".claude/agents/a.md", root, FamilyClaudeConfig, ""},
		{".claude/output-styles/terse.md", root, FamilyClaudeConfig, ""},
		{".claude/hooks/pre.sh", root, FamilyClaudeConfig, ""},
		{".claude/plugins/p/plugin.json", root, FamilyClaudeConfig, ""},
		{".claude/settings.json", root, FamilyReadonlyFile, FamilyReadonlyFile},
		{".claude/settings-team.json", root, FamilyReadonlyFile, FamilyReadonlyFile},
		{".claude/notes.md", root, "", ""},
		{".claude/settings.json.bak", root, "", ""},
		{".mcp.json", root, FamilyClaudeConfig, ""},
		{"src/.mcp.json", root, "", ""},
		{filepath.Join(parent, ".mcp.json"), root, FamilyClaudeConfig, ""},
		{filepath.Join(parent, ".claude", "skills", "x", "SKILL.md"), root, FamilyClaudeConfig, ""},
		{filepath.Join(parent, ".claude", "settings.json"), root, FamilyClaudeConfig, ""},
		{".claude/skills/a/SKILL.md", src, FamilyClaudeConfig, ""}, // the cwd's .claude
		{"src/.claude/skills/a/SKILL.md", root, "", ""},            // not read for this session
		{"deep/.claude/commands/c.md", src, "", ""},
		{filepath.Join(home, ".claude", "skills", "x", "SKILL.md"), root, FamilyClaudeConfig, ""},
		{filepath.Join(home, ".claude", "settings.json"), root, FamilyReadonlyFile, FamilyReadonlyFile}, // hook wiring
		{filepath.Join(home, ".claude", "settings-work.json"), root, FamilyReadonlyFile, FamilyReadonlyFile},
		{filepath.Join(home, ".claude.json"), root, FamilyClaudeConfig, ""},
		{filepath.Join(cfg, "skills", "z", "SKILL.md"), root, FamilyClaudeConfig, ""},
		{filepath.Join(cfg, "settings.json"), root, FamilyReadonlyFile, FamilyReadonlyFile},
		{filepath.Join(cfg, "notes.md"), root, "", ""},
		{filepath.Join(sibling, ".claude", "skills", "x", "SKILL.md"), root, "", ""},
		{".CLAUDE/Skills/x/SKILL.md", root, FamilyClaudeConfig, ""},
		{".claude/\u017fkills/x/SKILL.md", root, FamilyClaudeConfig, ""}, // LONG S
		{".claude/s\u212aills/x/SKILL.md", root, FamilyClaudeConfig, ""}, // KELVIN SIGN
		{".claude/\u0455kills/x/SKILL.md", root, "", ""},                 // Cyrillic dze does not fold to s
	} {
		for _, s := range []struct {
			name string
			g    *Guard
			want string
		}{{"generator", gen, c.gen}, {"hermes", hermes, c.hermes}} {
			d := s.g.CheckTool("Write", write(c.path), c.cwd)
			block := s.want != ""
			if (block && (d.Action != verdict.Block || d.Family != s.want)) || (!block && d.Action != verdict.Allow) {
				t.Errorf("%s: Write %s (cwd %s): got %s %s, want %q", s.name, c.path, c.cwd, d.Action, d.Family, s.want)
			}
		}
	}
	// Bash writes, with ~ expanded to HOME and the cd followed
	vars := map[string]string{"HOME": home}
	for _, c := range []struct{ cmd, want string }{
		{"mkdir -p .claude/skills/x && printf '%s\\n' '!`rm -rf ~`' > .claude/skills/x/SKILL.md", "block"},
		{"echo x >> ~/.claude/agents/a.md", "block"},
		{"cd ~ && echo '{}' > .claude.json", "block"},
		{"cp /tmp/evil.md .claude/commands/", "block"},
		{"ln -s /tmp/evil .claude/skills/evil", "block"},
		{"cd src && echo x > .claude/commands/c.md", "block"}, // the directory the command cd'd to
		{"cat .claude/skills/*/SKILL.md > /tmp/all.md", "allow"},
		{"echo x > .claude/notes.md", "allow"},
	} {
		if d := bashDecide(gen, c.cmd, root, vars); d.Action.String() != c.want {
			t.Errorf("%s: got %s %s (%s), want %s", c.cmd, d.Action, d.Rule, d.Message, c.want)
		}
		if d := bashDecide(hermes, c.cmd, root, vars); d.Action != verdict.Allow {
			t.Errorf("no feature: %s: got %s %s, want allow", c.cmd, d.Action, d.Rule)
		}
	}
}

// TestClaudeConfigAncestorsOfHome: with the root below HOME (the usual
// layout, HOME/work/ROOT), the .claude/ of every ancestor is read for the
// session — the root's parent, HOME itself, HOME's parent (/home) and every
// directory above it up to / — and is protected in a Generator session; the
// .claude/ of a sibling of an ancestor (another user's home, another project
// next to the root) is not read and stays writable. Round 15 fp0156
// (/home/.claude/agents/…) missed only because the corpus runner mapped
// /home/user but not /home (internal/corpustest pathSubstitute); the engine
// already judged these, and this test keeps it so.
func TestClaudeConfigAncestorsOfHome(t *testing.T) {
	top := filepath.Join(t.TempDir(), "home")
	home := filepath.Join(top, "user")
	root := filepath.Join(home, "work", "sprint_20260421_1")
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := mustGuard(t, root, "f002").WithHome(home)
	agent := func(dir string) string { return filepath.Join(dir, ".claude", "agents", "reviewer.md") }
	for _, c := range []struct {
		path  string
		block bool
	}{
		{agent(filepath.Join(home, "work")), true},       // the root's parent
		{agent(home), true},                              // HOME
		{agent(top), true},                               // above HOME (/home)
		{agent(filepath.Dir(top)), true},                 // further up
		{agent(string(filepath.Separator)), true},        // /
		{filepath.Join(top, ".mcp.json"), true},          // an ancestor's .mcp.json
		{filepath.Join(top, "CLAUDE.md"), true},          // an ancestor's memory file
		{agent(filepath.Join(top, "other")), false},      // another user's home
		{agent(filepath.Join(home, "work", "b")), false}, // a project next to the root
		{agent(filepath.Join(home, "src")), false},       // a sibling of the root's parent
		{filepath.Join(top, "other", ".mcp.json"), false},
		{filepath.Join(top, ".claude", "notes.md"), false}, // not one of the channels
	} {
		for _, tool := range []string{"Write", "Edit"} {
			in := write(c.path)
			if tool == "Edit" {
				in = toolInput(t, map[string]string{"file_path": c.path, "old_string": "a", "new_string": "b"})
			}
			d := g.CheckTool(tool, in, root)
			if c.block && (d.Action != verdict.Block || d.Family != FamilyClaudeConfig) || !c.block && d.Action != verdict.Allow {
				t.Errorf("%s %s: got %s %s, want block=%v", tool, c.path, d.Action, d.Family, c.block)
			}
		}
	}
	vars := map[string]string{"HOME": home}
	for _, c := range []struct{ cmd, want string }{
		{"echo x > " + agent(top), "block"},
		{"cd .. && cp /tmp/a.md ../../.claude/agents/", "block"},
		{"echo x > " + agent(filepath.Join(top, "other")), "allow"},
	} {
		if d := bashDecide(g, c.cmd, root, vars); d.Action.String() != c.want {
			t.Errorf("%s: got %s %s, want %s", c.cmd, d.Action, d.Rule, c.want)
		}
	}
}

// TestRelToFold: with a non-ASCII name the base and path compare component
// by component under Unicode case folding, and the rest keeps its spelling.
func TestRelToFold(t *testing.T) {
	for _, c := range []struct {
		base, p, rel string
		ok           bool
	}{
		{"/w/sprint", "/w/sprint/\u017fchemas/x.json", "\u017fchemas/x.json", true},
		{"/w/\u017fprint", "/W/SPRINT/a", "a", true},
		{"/w/S\u212aILL", "/w/skill", ".", true},
		{"/w/sprint", "/w/sprint-old/\u017f", "", false},
		{"/w/sprint/a", "/w/\u017fprint", "", false},
		{"/w/sp\u0435c", "/w/spec/x", "", false},
	} {
		rel, ok := relTo(c.base, c.p)
		if rel != c.rel || ok != c.ok {
			t.Errorf("relTo(%q, %q) = %q, %v; want %q, %v", c.base, c.p, rel, ok, c.rel, c.ok)
		}
	}
}
