package pathguard

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRound5MetadataWrites: mode, owner, ACL and timestamp changes of
// protected files (chmod/chown/chgrp/setfacl, utime/chown/chmod in
// interpreter code) are writes to them, as touch is; readers and
// unprotected targets stay allowed.
func TestRound5MetadataWrites(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"setfacl -b spec/index.md", "block"},
		{"setfacl --modify=g:staff:r templates/t.md", "block"},
		{"setfacl -M acl.txt README.md", "block"},
		{"setfacl -m u:x:rw research/notes.md", "allow"},
		{"setfacl --test -m u:x:r SKILL.md", "allow"},
		{"getfacl SKILL.md", "allow"},
		{"chmod 644 SKILL.md", "block"},
		{"chown -h me:staff spec/index.md", "block"},
		{"chgrp staff templates", "block"},
		{"chmod --reference=SKILL.md research/n.md", "allow"},
		{"chmod u+x src/app.go", "allow"},
		{`python3 -c 'import pathlib; pathlib.Path("SKILL.md").chmod(0o600)'`, "block"},
		{`ruby -e 'File.utime(0, 0, "README.md")'`, "block"},
		{`node -e 'require("fs").chmodSync("research/n.md", 0o644)'`, "allow"},
		{`python3 -c 'import os; os.utime("README.md", (0, 0))'`, "block"},
		{`node -e 'require("fs").utimesSync("spec/index.md", 0, 0)'`, "block"},
		{`perl -e 'utime undef, undef, "SKILL.md"'`, "block"},
		{`python3 -c 'import os; os.utime("research/n.md")'`, "allow"},
		{`python3 -c 'import os; print(os.stat("SKILL.md").st_mtime)'`, "allow"},
	})
}

// TestClaudeCLIWrites: the claude CLI's mcp add / add-json / remove and
// plugin install / marketplace add write Claude Code's execution channels
// (.mcp.json at the project, ~/.claude.json, ~/.claude/plugins); listings
// and lookups write nothing.
func TestClaudeCLIWrites(t *testing.T) {
	root := newWorkspace(t)
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	g := mustGuard(t, root, "f002").WithHome(home)
	vars := map[string]string{"HOME": home}
	for _, c := range []struct{ cmd, want string }{
		{"claude mcp add -s project x -- npx srv", "block"},
		{"claude mcp add --scope=user x -- npx srv", "block"},
		{"claude mcp add-json x '{\"command\":\"node\"}'", "block"},
		{"claude mcp add --transport http x https://example.com/mcp", "block"},
		{"claude mcp remove x", "block"},
		{"claude mcp add-from-claude-desktop", "block"},
		{"claude plugin install p@m --scope project", "block"},
		{"claude plugin marketplace add owner/repo", "block"},
		{"npx @anthropic-ai/claude-code mcp add x -- node s.js", "block"},
		{"claude mcp list", "allow"},
		{"claude mcp get x", "allow"},
		{"claude --version", "allow"},
		{"claude plugin list", "allow"},
		{"claude -p 'mcp add is a command'", "allow"},
	} {
		if d := bashDecide(g, c.cmd, root, vars); d.Action.String() != c.want {
			t.Errorf("%s: got %s %s (%s), want %s", c.cmd, d.Action, d.Rule, d.Message, c.want)
		}
	}
}
