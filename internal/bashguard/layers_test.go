package bashguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// writeFile writes content to dir/name and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLayeredOverrides: the higher layer decides a rule it has an opinion
// on, the lower one decides the rest, a block rule defined twice is the
// higher layer's, and every decision names the file and entry.
func TestLayeredOverrides(t *testing.T) {
	dir := t.TempDir()
	userFile := writeFile(t, dir, "user/harness.yaml", `
disable: [fs.rm-recursive-force, priv.sudo]
block:
  - id: local.terraform
    program: terraform
    message: user rule
  - id: local.kubectl
    program: kubectl
    subcommand: delete
`)
	projFile := writeFile(t, dir, "proj/.claude/harness.yaml", `
warn: [fs.rm-recursive-force]
block:
  - id: local.terraform
    program: terraform
    subcommand: destroy
    message: project rule
`)
	user, err := LoadOverridesFile(userFile, filepath.Join(dir, "user"))
	if err != nil {
		t.Fatal(err)
	}
	proj, err := LoadOverridesFile(projFile, filepath.Join(dir, "proj"))
	if err != nil {
		t.Fatal(err)
	}
	ov := Layer(user, proj)
	if got := ov.Layers(); len(got) != 2 || got[0].Source() != projFile || got[1].Source() != userFile {
		t.Fatalf("layers: %v", got)
	}
	cases := []struct {
		cmd, rule, by string
		want          verdict.Action
	}{
		// project says warn, user says disable: the project decides
		{"rm -rf /srv/x", "fs.rm-recursive-force", projFile + ": warn fs.rm-recursive-force", verdict.Warn},
		// only the user has an opinion on sudo
		{"sudo id", "priv.sudo", userFile + ": disable priv.sudo", verdict.Allow},
		// the project's definition of local.terraform replaces the user's
		{"terraform destroy", "local.terraform", projFile, verdict.Block},
		{"terraform plan", "", "", verdict.Allow},
		// the user's other rule stays
		{"kubectl delete ns prod", "local.kubectl", userFile, verdict.Block},
	}
	for _, c := range cases {
		res := Decide(c.cmd, Context{Cwd: filepath.Join(dir, "proj"), Overrides: ov})
		if res.Decision.Action != c.want {
			t.Errorf("%q: %v, want %v (%+v)", c.cmd, res.Decision.Action, c.want, res.Matches)
			continue
		}
		if c.rule == "" {
			continue
		}
		found := false
		for _, m := range res.Matches {
			if m.Rule == c.rule {
				found = true
				if m.Override != c.by {
					t.Errorf("%q: %s decided by %q, want %q", c.cmd, m.Rule, m.Override, c.by)
				}
			}
		}
		if !found {
			t.Errorf("%q: no match of %s: %+v", c.cmd, c.rule, res.Matches)
		}
	}
	// without overrides the same commands are the built-in verdicts, and no
	// match names an override
	res := Decide("rm -rf /srv/x", Context{Cwd: dir})
	if res.Decision.Action != verdict.Block || res.Matches[0].Override != "" {
		t.Fatalf("built-in: %+v", res)
	}
}

// TestLoadOverridesFileErrors: an invalid file is an error that names the
// file; a missing one is (nil, nil); rules.yaml keeps its protocol name.
func TestLoadOverridesFileErrors(t *testing.T) {
	dir := t.TempDir()
	if ov, err := LoadOverridesFile(filepath.Join(dir, "none.yaml"), dir); ov != nil || err != nil {
		t.Fatalf("missing: %v %v", ov, err)
	}
	bad := writeFile(t, dir, "bad.yaml", "disable: [no.such-rule]\n")
	if _, err := LoadOverridesFile(bad, dir); err == nil || !strings.HasPrefix(err.Error(), bad+": ") || !strings.Contains(err.Error(), "no.such-rule") {
		t.Fatalf("invalid: %v", err)
	}
	writeFile(t, dir, ".harness/rules.yaml", "nope: 1\n")
	if _, err := LoadOverrides(dir); err == nil || !strings.HasPrefix(err.Error(), OverridesFile+": ") {
		t.Fatalf("rules.yaml: %v", err)
	}
}
