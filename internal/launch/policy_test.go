package launch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/pathguard"
	"github.com/superagent-harness/harness/internal/testutil"
	"github.com/superagent-harness/harness/internal/verdict"
	"github.com/superagent-harness/harness/internal/workspace"
)

// sprint copies the valid-midway fixture (features f001, f002, f003; f001
// and f002 have directories) and adds a product tree, a .git and the
// binaries' directory.
func sprint(t *testing.T) (root string, in PolicyInput) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "sprint_20260421_1")
	testutil.CopyTree(t, testutil.Testdata(t, "sprints", "valid-midway"), root)
	for _, d := range []string{"src", ".git/hooks", ".git/objects", "schemas", "bin-in-tree"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/config", "README.md", "Schemas-notes.txt"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(base, "bin")
	in = PolicyInput{
		Root: root, Feature: "f002", FeatureIDs: []string{"f001", "f002", "f003"},
		HarnessBin: filepath.Join(bin, "harness"), HookBin: filepath.Join(bin, "harness-hook"),
		TempDir: filepath.Join(base, "tmp"), CacheDir: filepath.Join(base, "tmp", "cache"),
		PathDirs: []string{bin, "/usr/bin", filepath.Join(root, "bin-in-tree")},
		Home:     filepath.Join(base, "home"), GitDir: filepath.Join(root, ".git"),
	}
	return root, in
}

func denied(p Policy, path string) bool { return Covered(p.DenyWrite, path) }

func editDenied(p Policy, path string) bool {
	for _, e := range p.DenyEdit {
		if e.Path == path || e.Dir && within(path, e.Path) {
			return true
		}
	}
	return false
}

// TestPolicyDeniesEveryProtectedPath: every path MustDeny lists (corpus
// README §3.2 and §9.4) is read-only for sandboxed commands, and the path
// guard (the hook's judge of Write) agrees that each is protected.
func TestPolicyDeniesEveryProtectedPath(t *testing.T) {
	root, in := sprint(t)
	p := BuildPolicy(in)
	g, err := pathguard.New(root, in.Feature)
	if err != nil {
		t.Fatal(err)
	}
	must := MustDeny(root, in.Feature, in.FeatureIDs)
	if len(must) < 22 {
		t.Fatalf("MustDeny lists only %d paths", len(must))
	}
	for _, path := range must {
		if !denied(p, path) {
			t.Errorf("%s is writable in the sandbox", path)
		}
		// the path guard judges a write below a directory; a directory of
		// MustDeny is probed with a file in it
		probe := path
		switch base := filepath.Base(path); {
		case base == ".mcp.json":
			continue // corpus README §9.4 claude_config: not in the path guard yet, the sandbox holds it alone
		case base == ".claude":
			probe = filepath.Join(path, "settings.json")
		case filepath.Ext(base) == "" && base != ".current_agent":
			probe = filepath.Join(path, "x")
		}
		input, _ := json.Marshal(map[string]string{"file_path": probe, "content": "x"})
		// the Generator's working directory: the feature directory, whose
		// ancestors' memory files (CLAUDE.md) the client loads
		if d := g.CheckTool("Write", input, filepath.Join(root, ".harness", "features", in.Feature)); d.Action != verdict.Block {
			t.Errorf("MustDeny lists %s, but the path guard allows a Write to %s (%v)", path, probe, d)
		}
	}
	if u := Uncovered(p.DenyWrite, must); len(u) > 0 {
		t.Errorf("Uncovered = %v", u)
	}
}

// TestPolicyKeepsTheWorkArea: the product tree, the feature's own records,
// .git objects and the caches stay writable; .git/hooks, .git/config, the
// binaries' and PATH directories inside the tree do not.
func TestPolicyKeepsTheWorkArea(t *testing.T) {
	root, in := sprint(t)
	p := BuildPolicy(in)
	if !slices.Contains(p.AllowWrite, root) || !slices.Contains(p.AllowWrite, in.CacheDir) {
		t.Fatalf("allowWrite = %v", p.AllowWrite)
	}
	own := filepath.Join(root, ".harness", "features", "f002")
	for _, w := range []string{
		filepath.Join(root, "src", "main.go"), filepath.Join(root, "new-top-level.txt"), filepath.Join(root, "docs"),
		filepath.Join(own, "generator_log.md"), filepath.Join(own, "handoff.md"),
		filepath.Join(root, ".git", "objects", "ab"), filepath.Join(root, ".git", "index"),
		filepath.Join(in.CacheDir, "go-build"),
	} {
		if denied(p, w) {
			t.Errorf("%s is denied; it is in the work area", w)
		}
	}
	for _, d := range []string{
		filepath.Join(root, ".git", "hooks", "pre-commit"), filepath.Join(root, ".git", "config"),
		filepath.Join(root, "bin-in-tree", "harness"), filepath.Join(filepath.Dir(in.HarnessBin), "harness"),
		filepath.Join(own, "session_id.txt"), filepath.Join(own, "AGENTS.md"), filepath.Join(own, ".claude", "settings.local.json"),
		filepath.Join(own, workspace.GeneratorOutputName), filepath.Join(root, ".harness", "features", "f003", "handoff.md"),
		filepath.Join(root, ".harness", "features", "f009x"), filepath.Join(root, ".harness", "sessions", "s", "settings.json"),
		filepath.Join(root, "Schemas-notes.txt"), // not protected: only the name schemas
	} {
		want := !strings.HasSuffix(d, "Schemas-notes.txt")
		if strings.HasSuffix(d, "f009x") {
			want = false // a feature id nobody listed and no directory: the gap docs/sandbox.md names
		}
		if got := denied(p, d); got != want {
			t.Errorf("denied(%s) = %v, want %v", d, got, want)
		}
	}
}

// TestPolicyEditRules: the Write/Edit tools are not sandboxed, so their deny
// rules cover the protected paths too — except tooling.md (Edit below its
// "## 6." heading is judged by the hook) and the own records — and the
// user's Claude Code configuration, start-up files and PATH.
func TestPolicyEditRules(t *testing.T) {
	root, in := sprint(t)
	p := BuildPolicy(in)
	h := filepath.Join(root, ".harness")
	for _, path := range []string{
		filepath.Join(h, "feature_list.json"), filepath.Join(h, "eval_log.jsonl"), filepath.Join(h, "logs", "hook.log"),
		filepath.Join(h, "sprint_contracts", "sprint_20260421_1", "contract.json"), filepath.Join(h, "features", "f001", "handoff.md"),
		filepath.Join(h, "features", "f002", ".claude", "settings.json"), filepath.Join(root, ".claude", "skills", "x", "SKILL.md"),
		filepath.Join(root, "schemas", "a.json"), filepath.Join(in.Home, ".claude", "settings.json"), filepath.Join(in.Home, ".bashrc"),
		filepath.Join(filepath.Dir(root), ".claude", "commands", "x.md"), filepath.Join("/usr/bin", "harness"),
		filepath.Join(h, "sessions", "abc", "settings.json"),
	} {
		if !editDenied(p, path) {
			t.Errorf("no Edit deny rule covers %s", path)
		}
	}
	for _, path := range []string{
		filepath.Join(h, "sprint_contracts", "sprint_20260421_1", "tooling.md"),
		filepath.Join(h, "features", "f002", "generator_log.md"), filepath.Join(h, "features", "f002", "handoff.md"),
		filepath.Join(root, "src", "main.go"),
	} {
		if editDenied(p, path) {
			t.Errorf("an Edit deny rule covers %s", path)
		}
	}
	perm := p.Permissions(false)
	if !slices.Contains(perm.Deny, "Edit("+"/"+filepath.ToSlash(filepath.Join(h, "feature_list.json"))+")") {
		t.Errorf("permissions.deny = %v", perm.Deny)
	}
	if slices.Contains(perm.Allow, "Bash") {
		t.Error("Bash allowed outright with the sandbox on")
	}
	if off := p.Permissions(true); !slices.Contains(off.Allow, "Bash") {
		t.Errorf("--no-sandbox permissions.allow = %v", off.Allow)
	}
}

// TestPolicyDeniesHermesHome: Hermes' home (task queue, pipelines, the
// Hermes skill) is denied to the Write/Edit tools wherever it is, and to
// Bash as well when it lies inside the work area.
func TestPolicyDeniesHermesHome(t *testing.T) {
	root, in := sprint(t)
	in.HermesHome = filepath.Join(in.Home, ".hermes")
	p := BuildPolicy(in)
	if !editDenied(p, filepath.Join(in.HermesHome, "skills", "harness", "SKILL.md")) {
		t.Errorf("no Edit deny rule covers the Hermes skill (%v)", p.DenyEdit)
	}
	if denied(p, in.HermesHome) {
		t.Errorf("a Hermes home outside the work area is in denyWrite (it is read-only there anyway)")
	}
	in.HermesHome = filepath.Join(root, "hermes-home")
	p = BuildPolicy(in)
	if !denied(p, filepath.Join(in.HermesHome, "tasks", "pending", "t.json")) || !editDenied(p, filepath.Join(in.HermesHome, "pipelines", "p.json")) {
		t.Errorf("a Hermes home inside the work area is writable: denyWrite %v", p.DenyWrite)
	}
	if got := ops.HermesHome(func(k string) string { return map[string]string{"HOME": "/h"}[k] }); got != filepath.Join("/h", ".hermes") {
		t.Errorf("ops.HermesHome without HERMES_HOME = %q", got)
	}
}

// TestPolicyExcludesOnlyTheGeneratorsCommands: exactly eval append and phase
// complete leave the sandbox, by absolute path, and by bare name only for a
// binary called harness.
func TestPolicyExcludesOnlyTheGeneratorsCommands(t *testing.T) {
	_, in := sprint(t)
	p := BuildPolicy(in)
	want := []string{in.HarnessBin + " eval append *", in.HarnessBin + " phase complete *", "harness eval append *", "harness phase complete *"}
	if !slices.Equal(p.Excluded, want) {
		t.Fatalf("excluded = %q\nwant %q", p.Excluded, want)
	}
	in.HarnessBin = "/opt/x/hx"
	if got := BuildPolicy(in).Excluded; len(got) != 2 || !strings.HasPrefix(got[0], "/opt/x/hx eval append") {
		t.Fatalf("renamed binary: excluded = %q", got)
	}
	s := p.Sandbox(false)
	if !*s.Enabled || !*s.FailIfUnavailable || *s.AllowUnsandboxedCommands || !*s.AutoAllowBashIfSandboxed {
		t.Fatalf("sandbox = %+v", s)
	}
	if off := p.Sandbox(true); *off.Enabled || off.Filesystem != nil || len(off.ExcludedCommands) > 0 {
		t.Fatalf("--no-sandbox block = %+v", off)
	}
}

func TestSessionPath(t *testing.T) {
	root := "/w/sprint_1"
	env := map[string]string{"PATH": "/usr/bin:relative/bin::/w:/w/sprint_1:/w/sprint_1/node_modules/.bin:/opt/h:/usr/bin"}
	got := sessionPath(env, root, "/opt/h/harness", "/opt/hook/harness-hook")
	want := []string{"/opt/h", "/opt/hook", "/usr/bin", "/w/sprint_1/node_modules/.bin"}
	if !slices.Equal(got, want) {
		t.Fatalf("sessionPath = %q, want %q", got, want)
	}
}

func TestNewSessionID(t *testing.T) {
	a, err := newSessionID()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newSessionID()
	if a == b || len(a) != 36 || a[14] != '4' || !strings.ContainsRune("89ab", rune(a[19])) {
		t.Fatalf("session ids %q %q", a, b)
	}
}

// TestVerify: the settings launch writes hold the policy; each weakening is
// reported.
func TestVerify(t *testing.T) {
	root, in := sprint(t)
	w := ccsettings.Wiring{HookBin: in.HookBin, Root: root, Feature: in.Feature, Sprint: "sprint_20260421_1"}
	file := filepath.Join(root, ".harness", "sessions", "0f0f", "settings.json")
	good, err := SessionSettings(w, BuildPolicy(in), false)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(b []byte) ccsettings.Settings {
		s, err := ccsettings.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if bad := Verify(decode(good), file, in); len(bad) > 0 {
		t.Fatalf("the settings launch writes fail Verify:\n%s", strings.Join(bad, "\n"))
	}
	cases := map[string]func(s *ccsettings.Settings){
		"allowUnsandboxedCommands": func(s *ccsettings.Settings) { s.Sandbox.AllowUnsandboxedCommands = ccsettings.Bool(true) },
		"failIfUnavailable":        func(s *ccsettings.Settings) { s.Sandbox.FailIfUnavailable = nil },
		"excludedCommands has \"python3 *\"": func(s *ccsettings.Settings) {
			s.Sandbox.ExcludedCommands = append(s.Sandbox.ExcludedCommands, "python3 *")
		},
		"does not cover the protected": func(s *ccsettings.Settings) {
			s.Sandbox.Filesystem.DenyWrite = slices.DeleteFunc(s.Sandbox.Filesystem.DenyWrite, func(d string) bool { return strings.HasSuffix(d, "eval_log.jsonl") })
			s.Permissions.Deny = slices.DeleteFunc(s.Permissions.Deny, func(d string) bool { return strings.Contains(d, "eval_log.jsonl") })
		},
		"the directory of": func(s *ccsettings.Settings) {
			bin := ccsettings.SandboxPath(filepath.Dir(in.HarnessBin))
			s.Sandbox.Filesystem.DenyWrite = slices.DeleteFunc(s.Sandbox.Filesystem.DenyWrite, func(d string) bool { return d == bin })
			s.Permissions.Deny = slices.DeleteFunc(s.Permissions.Deny, func(d string) bool { return strings.Contains(d, bin) })
		},
		"above the sprint root": func(s *ccsettings.Settings) {
			s.Sandbox.Filesystem.AllowWrite = append(s.Sandbox.Filesystem.AllowWrite, "//")
		},
		"no harness-hook handler for": func(s *ccsettings.Settings) { delete(s.Hooks, "Stop") },
		"sandbox.enabled is not true": func(s *ccsettings.Settings) { s.Sandbox.Enabled = ccsettings.Bool(false) },
		"denyRead does not hide the lock file": func(s *ccsettings.Settings) {
			s.Sandbox.Filesystem.DenyRead = slices.DeleteFunc(s.Sandbox.Filesystem.DenyRead, func(d string) bool { return strings.HasSuffix(d, "/state.lock") })
		},
	}
	for want, mutate := range cases {
		s := decode(good)
		mutate(&s)
		bad := Verify(s, file, in)
		if !slices.ContainsFunc(bad, func(b string) bool { return strings.Contains(b, want) }) {
			t.Errorf("mutation %q not reported; Verify = %q", want, bad)
		}
	}
}

// TestPolicyHidesTheLockFiles: flock(2) works on a read-only descriptor, so
// denyWrite alone let a sandboxed program hold Hermes's workspace lock for
// the whole session (TestRealClaudeGeneratorCannotHoldTheWorkspaceLock).
// Every lock sidecar harness takes, and any other *.lock found in .harness/
// and .harness/logs/, is in denyRead; nothing else is hidden.
func TestPolicyHidesTheLockFiles(t *testing.T) {
	root, in := sprint(t)
	h := filepath.Join(root, ".harness")
	if err := os.WriteFile(filepath.Join(h, "logs", "other.jsonl.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := BuildPolicy(in)
	for _, n := range append(append([]string{}, LockSidecars...), "logs/other.jsonl.lock") {
		if path := filepath.Join(h, filepath.FromSlash(n)); !Covered(p.DenyRead, path) {
			t.Errorf("%s is readable in the sandbox", path)
		}
	}
	for _, d := range p.DenyRead {
		if !strings.HasSuffix(d, ".lock") {
			t.Errorf("denyRead hides %s, which is no lock file", d)
		}
	}
	s := p.Sandbox(false)
	if len(s.Filesystem.DenyRead) != len(p.DenyRead) {
		t.Errorf("the settings block has %d denyRead paths, the policy %d", len(s.Filesystem.DenyRead), len(p.DenyRead))
	}
}

// TestWritersOfAFeatureDirectory: a running, sandboxed session of f001
// launched before f004 was in feature_list.json does not deny f004's
// directory, so a program it runs can rewrite what f004's Generator is told
// to read first: launch refuses f004 while it runs (writersOf names it), and
// not once its settings deny the directory or it is no longer running.
func TestWritersOfAFeatureDirectory(t *testing.T) {
	root, in := sprint(t)
	ws := &workspace.Workspace{Root: root}
	in.Feature = "f001"
	settings, err := SessionSettings(ccsettings.Wiring{HookBin: in.HookBin, Root: root, Feature: "f001", Sprint: "sprint_20260421_1"}, BuildPolicy(in), false)
	if err != nil {
		t.Fatal(err)
	}
	rel := ".harness/sessions/s1/settings.json"
	if err := os.MkdirAll(filepath.Join(root, ".harness", "sessions", "s1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), settings, 0o644); err != nil {
		t.Fatal(err)
	}
	pool := func(status string) {
		t.Helper()
		doc := map[string]any{"max_concurrent": 2, "active": map[string]any{"f001": map[string]any{
			"session_id": "s1", "status": status, "started_at": "2026-04-21T02:00:00Z",
			"launch": map[string]any{"settings": rel, "sandbox": true, "mode": "print", "pid": os.Getpid()}}}}
		b, _ := json.Marshal(doc)
		if err := os.WriteFile(ws.SessionPool(), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pool("running")
	if got := writersOf(ws, "f004"); len(got) != 1 || !strings.Contains(got[0], "session s1 of f001") {
		t.Errorf("writersOf(f004) = %q, want the f001 session that predates it", got)
	}
	if got := writersOf(ws, "f003"); len(got) != 0 {
		t.Errorf("writersOf(f003) = %q: f003 was known when f001 started, its directory is denied", got)
	}
	pool("resetting")
	if got := writersOf(ws, "f004"); len(got) != 0 {
		t.Errorf("a session that is not running is named: %q", got)
	}
}
