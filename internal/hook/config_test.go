package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/userlog"
)

// plainProject is an ordinary project (no sprint) and a home directory,
// with the hook's environment.
type plainProject struct {
	t               *testing.T
	proj, home, dir string
	env             map[string]string
}

func newPlainProject(t *testing.T) *plainProject {
	dir := t.TempDir()
	p := &plainProject{t: t, dir: dir, proj: filepath.Join(dir, "proj"), home: filepath.Join(dir, "home")}
	p.env = map[string]string{"HOME": p.home, "XDG_STATE_HOME": filepath.Join(dir, "state"), "PATH": "/usr/bin:/bin", "CLAUDE_PROJECT_DIR": p.proj}
	mustMkdir(t, filepath.Join(p.proj, ".claude"))
	mustMkdir(t, filepath.Join(p.home, ".claude"))
	return p
}

func (p *plainProject) write(path, content string) {
	p.t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// call runs a PreToolUse call with the standard preset in the project and
// returns whether it was denied and the output.
func (p *plainProject) call(tool string, input map[string]any) (deny bool, out string) {
	p.t.Helper()
	payload, _ := json.Marshal(map[string]any{"session_id": "plain", "hook_event_name": "PreToolUse", "cwd": p.proj,
		"tool_name": tool, "tool_input": input})
	var stdout, stderr bytes.Buffer
	code := Run([]string{"--event", "PreToolUse", "--preset", "standard"}, bytes.NewReader(payload), &stdout, &stderr, p.env)
	if code != 0 {
		p.t.Fatalf("exit %d: %s", code, stderr.String())
	}
	return strings.Contains(stdout.String(), `"deny"`), stdout.String() + stderr.String()
}

func (p *plainProject) bash(cmd string) (bool, string) {
	p.t.Helper()
	return p.call("Bash", map[string]any{"command": cmd})
}

// records are the user-level audit log's records.
func (p *plainProject) records() []Record {
	p.t.Helper()
	data, err := os.ReadFile(userlog.Path(p.env, "linux"))
	if err != nil {
		p.t.Fatal(err)
	}
	var out []Record
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r Record
		if err := json.Unmarshal(l, &r); err != nil {
			p.t.Fatalf("%s: %v", l, err)
		}
		out = append(out, r)
	}
	return out
}

// TestConfigOverridesOutsideSprint: ~/.claude/harness.yaml and
// .claude/harness.yaml change the preset with the schema of rules.yaml,
// the project's decision wins over the user's, and a user rule blocks.
func TestConfigOverridesOutsideSprint(t *testing.T) {
	p := newPlainProject(t)
	// built in (standard): blocked
	if deny, out := p.bash("git push --force origin main"); !deny {
		t.Fatalf("no overrides: not denied\n%s", out)
	}
	p.write(filepath.Join(p.home, ".claude", "harness.yaml"), "disable: [git.push-force]\nblock:\n  - id: local.terraform\n    program: terraform\n    subcommand: destroy\n")
	if deny, out := p.bash("git push --force origin main"); deny {
		t.Fatalf("user disable: denied\n%s", out)
	}
	if deny, out := p.bash("terraform destroy"); !deny || !strings.Contains(out, "local.terraform") {
		t.Fatalf("user block rule: deny=%v\n%s", deny, out)
	}
	// the project's warn is higher than the user's disable: a warning, no deny
	p.write(filepath.Join(p.proj, ".claude", "harness.yaml"), "warn: [git.push-force]\n")
	deny, out := p.bash("git push --force origin main")
	if deny || !strings.Contains(out, "git.push-force") {
		t.Fatalf("project warn over user disable: deny=%v\n%s", deny, out)
	}
	// the user's block rule still applies under the project file
	if deny, _ := p.bash("terraform destroy"); !deny {
		t.Fatal("user block rule lost under the project file")
	}
}

// TestInvalidConfigKeepsPreset: an invalid override file (unknown key, a
// FIFO is in fifo tests, a reset: section) leaves the preset unchanged —
// the commands an override would allow stay blocked — and the error is in
// every decision's record of the user-level audit log.
func TestInvalidConfigKeepsPreset(t *testing.T) {
	for _, c := range []struct{ name, user, project string }{
		{"unknown key in the project file", "", "disable: [git.push-force]\nnope: 1\n"},
		{"unknown rule in the user file", "disable: [no.such-rule]\n", "disable: [git.push-force]\n"},
		{"reset section outside a sprint", "", "disable: [git.push-force]\nreset: {retries: 3}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPlainProject(t)
			if c.user != "" {
				p.write(filepath.Join(p.home, ".claude", "harness.yaml"), c.user)
			}
			p.write(filepath.Join(p.proj, ".claude", "harness.yaml"), c.project)
			if deny, out := p.bash("git push --force origin main"); !deny {
				t.Fatalf("invalid file weakened the preset\n%s", out)
			}
			recs := p.records()
			last := recs[len(recs)-1]
			if len(last.Errors) == 0 || !strings.HasPrefix(last.Errors[0], "harness.yaml: ") {
				t.Fatalf("error not logged: %+v", last)
			}
		})
	}
}

// TestAllowOnceOutsideSprint: an authorisation in the project's (or the
// user's) harness-allow.jsonl lets the exact blocked command through once;
// the second try is denied; the use is in the audit log with its reason.
func TestAllowOnceOutsideSprint(t *testing.T) {
	p := newPlainProject(t)
	cmd := "git push --force origin main"
	deny, out := p.bash(cmd)
	if !deny || !strings.Contains(out, "harness allow --once") {
		t.Fatalf("first: deny=%v, no allow-once hint\n%s", deny, out)
	}
	for _, f := range []string{allowonce.ProjectPath(p.proj), allowonce.UserPath(p.home)} {
		if _, err := allowonce.AddFile(f, "", cmd, "approved in "+filepath.Base(filepath.Dir(filepath.Dir(f)))); err != nil {
			t.Fatal(err)
		}
	}
	// an other command is not authorised
	if deny, _ := p.bash(cmd + " --tags"); !deny {
		t.Fatal("a different command used the authorisation")
	}
	if deny, out := p.bash(cmd); deny {
		t.Fatalf("authorised (project): denied\n%s", out)
	}
	if deny, out := p.bash(cmd); deny {
		t.Fatalf("authorised (user): denied\n%s", out)
	}
	if deny, _ := p.bash(cmd); !deny {
		t.Fatal("third try: allowed, but both authorisations are used")
	}
	var used []string
	for _, r := range p.records() {
		if r.AllowOnce != "" {
			used = append(used, r.AllowOnce)
		}
	}
	if strings.Join(used, ",") != "approved in proj,approved in home" {
		t.Fatalf("audit log allow-once records: %q (project first, then user)", used)
	}
}

// TestConfigFilesProtected: the agent can write neither the override files
// nor the allow-once logs of the project or the user, with a file tool or
// with Bash (redirect, cp, sed -i, an interpreter's open, an unknown
// program given the path), while reading them stays allowed.
func TestConfigFilesProtected(t *testing.T) {
	p := newPlainProject(t)
	files := []string{
		".claude/harness.yaml", "~/.claude/harness.yaml",
		".claude/harness-allow.jsonl", "~/.claude/harness-allow.jsonl",
	}
	abs := func(f string) string {
		if rest, ok := strings.CutPrefix(f, "~/"); ok {
			return filepath.Join(p.home, filepath.FromSlash(rest))
		}
		return filepath.Join(p.proj, filepath.FromSlash(f))
	}
	for _, f := range files {
		p.write(abs(f), "")
		for _, c := range []struct {
			tool  string
			input map[string]any
		}{
			{"Write", map[string]any{"file_path": abs(f), "content": "disable: [fs.rm-recursive-force]\n"}},
			{"Edit", map[string]any{"file_path": abs(f), "old_string": "a", "new_string": "b"}},
			{"Bash", map[string]any{"command": "echo 'disable: [git.push-force]' > " + f}},
			{"Bash", map[string]any{"command": "echo '{}' >> " + f}},
			{"Bash", map[string]any{"command": "cp /tmp/x " + f}},
			{"Bash", map[string]any{"command": "sed -i 's/a/b/' " + f}},
			{"Bash", map[string]any{"command": "python3 -c \"open('" + abs(f) + "','w').write('x')\""}},
			{"Bash", map[string]any{"command": "frobnicate-tool " + f}},
			{"Bash", map[string]any{"command": "rm -f " + f}},
			{"Bash", map[string]any{"command": "mv " + f + " /tmp/old"}},
		} {
			deny, out := p.call(c.tool, c.input)
			if !deny || !strings.Contains(out, "path.hook-wiring") {
				t.Errorf("%s %v: deny=%v, want a path.hook-wiring denial\n%s", c.tool, c.input, deny, out)
			}
		}
		if deny, out := p.bash("cat " + f); deny {
			t.Errorf("cat %s: denied\n%s", f, out)
		}
	}
	// the lock sidecar of an allow-once log too
	if deny, _ := p.bash("echo x > .claude/harness-allow.jsonl.lock"); !deny {
		t.Error("the allow-once lock sidecar is writable")
	}
}

// TestGuardAdminOutsideSprint: the agent cannot run the harness commands
// that authorise its own blocked command or unwire its guard, by name, by
// path or through a renamed copy; the read-only forms stay allowed.
func TestGuardAdminOutsideSprint(t *testing.T) {
	p := newPlainProject(t)
	exe := filepath.Join(p.dir, "bin", "harness")
	mustMkdir(t, filepath.Dir(exe))
	p.write(exe, "#!/bin/sh\n")
	if err := os.Chmod(exe, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd  string
		deny bool
	}{
		{"harness allow --once 'git push --force' --reason ok --project .", true},
		{"harness allow --user --once 'rm -rf /' --reason x", true},
		{"harness --json allow --once x --reason y", true},
		{exe + " allow --once x --reason y", true},
		{"harness uninstall --project .", true},
		{"harness install --user --preset strict", true},
		{"cd /tmp && env harness allow --once x --reason y", true},
		{"harness $SUB --once x --reason y", true},
		{"harness allow --list", false},
		{"harness allow --help", false},
		{"harness uninstall --dry-run", false},
		{"harness explain 'rm -rf /'", false},
		{"harness logs --since 1h", false},
	} {
		deny, out := p.bash(c.cmd)
		if deny != c.deny {
			t.Errorf("%q: deny=%v, want %v\n%s", c.cmd, deny, c.deny, out)
		}
		if deny && !strings.Contains(out, "hook.guard-admin") {
			t.Errorf("%q: denied, not by hook.guard-admin\n%s", c.cmd, out)
		}
	}
	// a call that is neither a Claude Code session's nor a hook wired for a
	// project (the corpus' Hermes, no CLAUDE_PROJECT_DIR, no --preset)
	payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": p.proj, "tool_name": "Bash",
		"tool_input": map[string]any{"command": "harness allow --once 'rm -rf build' --reason ok"}})
	var stdout bytes.Buffer
	Run([]string{"--event", "PreToolUse"}, bytes.NewReader(payload), &stdout, &bytes.Buffer{}, map[string]string{"HOME": p.home, "XDG_STATE_HOME": p.env["XDG_STATE_HOME"]})
	if strings.Contains(stdout.String(), "deny") {
		t.Fatalf("no session and no preset: %s", stdout.String())
	}
}
