package pathguard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// TestHookWiring: with a home directory, a CLAUDE_CONFIG_DIR and the hook
// executable known, the user-level Claude Code settings and the hook binary
// are read-only (rule path.hook-wiring) for Bash writes and the file tools,
// however they are named; everything else outside the root stays allowed.
func TestHookWiring(t *testing.T) {
	root := newWorkspace(t)
	home := filepath.Join(t.TempDir(), "home")
	cfg := filepath.Join(t.TempDir(), "cfg")
	bin := filepath.Join(t.TempDir(), "bin")
	for _, d := range []string{filepath.Join(home, ".claude"), filepath.Join(home, ".cache"), cfg, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(bin, "harness-hook")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// a second name for the binary, the way a PATH entry often is
	linkDir := t.TempDir()
	symlink(t, exe, filepath.Join(linkDir, "harness-hook"))
	for _, lazy := range []bool{false, true} {
		g := mustGuard(t, root, "f002").WithHome(home).WithClaudeConfigDir(cfg).WithHookExecutable(exe)
		if lazy {
			// the hook's form: the executable looked up on first need
			g = mustGuard(t, root, "f002").WithHome(home).WithClaudeConfigDir(cfg).WithHookExecutableFunc(func() (string, error) { return exe, nil })
		}
		testHookWiring(t, g, root, home, cfg, bin, exe, linkDir)
	}
}

func testHookWiring(t *testing.T, g *Guard, root, home, cfg, bin, exe, linkDir string) {
	t.Helper()
	vars := map[string]string{"HOME": home}
	decide := func(cmd, cwd string) verdict.Decision {
		invs := shell.Parse(cmd, shell.Options{Vars: vars}).Invocations
		cg := g.ForCommand(invs, cwd)
		for _, inv := range invs {
			if d := cg.CheckInvocation(inv, cwd); d.Action == verdict.Block {
				return d
			}
		}
		return verdict.Decision{}
	}
	H, E := home, exe
	for _, c := range []struct{ cmd, want string }{
		// the reported tampering
		{`mkdir -p "$HOME/.claude" && echo '{"disableAllHooks":true}' > "$HOME/.claude/settings.json"`, "block"},
		{`echo '{"disableAllHooks":true}' > ~/.claude/settings.local.json`, "block"},
		{"cp /bin/true $(which harness-hook)", "block"},
		{`cp /bin/true "$(command -v harness-hook)"`, "block"},
		{"cp /bin/true `which harness-hook`", "block"},
		{"cp /bin/true $(readlink -f $(which harness-hook))", "block"},
		// other spellings and writers
		{"tee " + H + "/.claude/settings.json < /dev/null", "block"},
		{"sed -i s/a/b/ ~/.claude/settings.json", "block"},
		{"cd ~/.claude && python3 -c \"open('settings.json', 'w')\"", "block"},
		{"echo x >> " + H + "/.CLAUDE/Settings.json", "block"},
		{"rm ~/.claude/settings.json", "block"},
		{"mv ~/.claude ~/.claude.bak", "block"},
		{"rm -r ~/.claude", "block"},
		{"ln -s /tmp/evil ~/.claude/settings.json", "block"},
		{"cd /tmp && tar -xf evil.tar -C ~", "block"},
		{"echo x > " + cfg + "/settings.json", "block"},
		{"install -m 755 /bin/true " + E, "block"},
		{"cp /bin/true " + linkDir + "/harness-hook", "block"},
		{"truncate -s0 " + E, "block"},
		{"ln -sfn " + H + " /tmp/hh-" + filepath.Base(H) + " && echo x > /tmp/hh-" + filepath.Base(H) + "/.claude/settings.json", "block"},
		// allowed: reads, other files in the same folders, other programs
		{"cat ~/.claude/settings.json", "allow"},
		{"echo x > ~/.claude/notes.md", "allow"},
		{"echo x > ~/.claude/notes/x.md", "allow"}, // ~/.claude/agents/ is claude_config (TestClaudeConfig)
		{"echo x > ~/.cache/out.txt", "allow"},
		{"cp /bin/true " + bin + "/other-tool", "allow"},
		{"cp /bin/true $(which other-tool)", "allow"},
		{"cp $(which harness-hook) /tmp/copy-of-hook", "allow"},
		{"echo x > /tmp/settings.json", "allow"},
		// above the executable only delete and move count
		{"mkdir -p " + bin + "/sub && tar -xzf tool.tgz -C " + filepath.Dir(bin), "allow"},
		{"rm -rf " + bin, "block"},
		{"mv " + bin + " /tmp/oldbin", "block"},
	} {
		d := decide(c.cmd, root)
		if d.Action.String() != c.want || (c.want == "block" && d.Rule != "path.hook-wiring") {
			t.Errorf("%s:\n got %s %s (%s), want %s path.hook-wiring", c.cmd, d.Action, d.Rule, d.Message, c.want)
		}
	}
	for _, c := range []struct {
		tool string
		in   any
		want string
	}{
		{"Write", map[string]any{"file_path": filepath.Join(home, ".claude", "settings.json"), "content": "{}"}, "block"},
		{"Write", map[string]any{"file_path": "~/.claude/settings.local.json", "content": "{}"}, "block"},
		{"Edit", map[string]any{"file_path": filepath.Join(home, ".claude", "settings.json"), "old_string": "a", "new_string": "b"}, "block"},
		{"Write", map[string]any{"file_path": exe, "content": "x"}, "block"},
		{"Write", map[string]any{"file_path": filepath.Join(home, ".claude", "notes.md"), "content": "x"}, "allow"}, // CLAUDE.md there is a memory file: path.claude-config,
		{"Write", map[string]any{"file_path": filepath.Join(home, "notes.md"), "content": "x"}, "allow"},
	} {
		raw, _ := json.Marshal(c.in)
		d := g.CheckTool(c.tool, raw, root)
		if d.Action.String() != c.want || (c.want == "block" && d.Rule != "path.hook-wiring") {
			t.Errorf("%s %s: got %s %s (%s), want %s", c.tool, raw, d.Action, d.Rule, d.Message, c.want)
		}
	}
	// without a home, config dir or executable nothing outside the root is
	// protected (the corpus' "outside the root → allow")
	plain := mustGuard(t, root, "f002")
	if d := bashDecide(plain, "echo x > "+H+"/.claude/settings.json && cp /bin/true "+E, root, nil); d.Action != verdict.Allow {
		t.Fatalf("plain guard: %+v", d)
	}
}

// TestHookWiringLinkedClaudeDir: when ~/.claude is a symbolic link, the
// file it leads to is protected under its real name too.
func TestHookWiringLinkedClaudeDir(t *testing.T) {
	root := newWorkspace(t)
	home := filepath.Join(t.TempDir(), "home")
	real := filepath.Join(t.TempDir(), "dotclaude")
	for _, d := range []string{home, real} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	symlink(t, real, filepath.Join(home, ".claude"))
	g := mustGuard(t, root, "").WithHome(home)
	if d := bashDecide(g, "echo x > "+real+"/settings.json", root, nil); d.Rule != "path.hook-wiring" {
		t.Fatalf("real name: %+v", d)
	}
	if d := bashDecide(g, "echo x > "+real+"/other.json", root, nil); d.Action != verdict.Allow {
		t.Fatalf("other file: %+v", d)
	}
}

// TestHookWiringProjectAndManaged: the session's project settings outside
// the root and the managed policy file are hook wiring; inside the root the
// §3.2 rules keep deciding (readonly_file, not path.hook-wiring), so the
// corpus labels do not change.
func TestHookWiringProjectAndManaged(t *testing.T) {
	root := newWorkspace(t)
	proj := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := mustGuard(t, root, "f002").WithClaudeProjectDir(proj).WithManagedSettings("linux")
	for _, c := range []struct{ cmd, rule string }{
		{"echo '{\"disableAllHooks\":true}' > " + proj + "/.claude/settings.local.json", "path.hook-wiring"},
		{"tee /etc/claude-code/managed-settings.json < /dev/null", "path.hook-wiring"},
		{"echo x > " + proj + "/.claude/commands.md", ""},
	} {
		d := bashDecide(g, c.cmd, root, nil)
		if d.Rule != c.rule {
			t.Errorf("%s: got %s %s (%s), want %q", c.cmd, d.Action, d.Rule, d.Message, c.rule)
		}
	}
	// the project is the root itself (or below it): its rules decide
	in := mustGuard(t, root, "f002").WithClaudeProjectDir(root).WithHome(filepath.Dir(root))
	if len(in.wiring) != 0 || len(in.settingsDirs) != 1 {
		t.Fatalf("wiring inside the root kept: %+v %+v", in.wiring, in.settingsDirs)
	}
	if d := bashDecide(in, "echo x > "+root+"/.claude/settings.json", root, nil); d.Rule != "path.readonly-file" {
		t.Fatalf("root settings: %+v", d)
	}
	if in.WithManagedSettings("plan9") != in {
		t.Fatal("unknown GOOS changed the guard")
	}
}

// TestHookExecutableLookedUpOnNeed: WithHookExecutableFunc calls its
// function only for a target with a form outside the root or a word that
// may look a program up by name, at most once, and an executable that cannot
// be found protects nothing (as WithHookExecutable("") does).
func TestHookExecutableLookedUpOnNeed(t *testing.T) {
	root := newWorkspace(t)
	exe := filepath.Join(t.TempDir(), "bin", "harness-hook")
	calls := 0
	g := mustGuard(t, root, "f002").WithHookExecutableFunc(func() (string, error) { calls++; return exe, nil })
	for _, cmd := range []string{"go test ./... 2>&1 | tail -n 20", "rm -rf build", "echo x > src/main.go", "echo $HOME > out.txt"} {
		bashDecide(g, cmd, root, nil)
	}
	raw, _ := json.Marshal(map[string]any{"file_path": filepath.Join(root, "src", "main.go"), "old_string": "a", "new_string": "b"})
	g.CheckTool("Edit", raw, root)
	if calls != 0 {
		t.Fatalf("executable looked up %d times for commands and edits inside the root", calls)
	}
	if d := bashDecide(g, "cp /bin/true "+exe, root, nil); d.Rule != "path.hook-wiring" {
		t.Fatalf("write to the executable: %+v", d)
	}
	if d := bashDecide(g, "cp /bin/true $(which harness-hook)", root, nil); d.Rule != "path.hook-wiring" {
		t.Fatalf("write to $(which harness-hook): %+v", d)
	}
	if calls != 1 {
		t.Fatalf("executable looked up %d times, want once", calls)
	}
	broken := mustGuard(t, root, "f002").WithHookExecutableFunc(func() (string, error) { return "", os.ErrNotExist })
	if d := bashDecide(broken, "cp /bin/true "+exe+" && cp /bin/true $(which harness-hook)", root, nil); d.Action != verdict.Allow {
		t.Fatalf("unknown executable: %+v", d)
	}
	if d := bashDecide(mustGuard(t, root, "f002").WithHookExecutableFunc(nil), "cp /bin/true "+exe, root, nil); d.Action != verdict.Allow {
		t.Fatalf("nil function: %+v", d)
	}
}
