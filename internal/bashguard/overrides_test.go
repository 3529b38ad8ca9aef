package bashguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

func writeOverrides(t *testing.T, content string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".harness"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".harness", "rules.yaml"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestLoadOverridesMissingFile(t *testing.T) {
	ov, err := LoadOverrides(t.TempDir())
	if err != nil || ov != nil {
		t.Fatalf("missing file: got %v, %v; want nil, nil", ov, err)
	}
}

func TestOverrides(t *testing.T) {
	root := writeOverrides(t, `
disable: [git.commit-amend]
warn: [priv.sudo]
allow:
  - rule: fs.rm-recursive-force
    targets: ["build/**", "dist"]
block:
  - id: local.terraform-destroy
    program: terraform
    subcommand: destroy
    message: terraform destroy removes the infrastructure
    hint: ask the user
  - id: local.no-force-install
    program: npm
    subcommand: install
    flags: ["--force"]
    action: warn
`)
	ov, err := LoadOverrides(root)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd  string
		want verdict.Action
		rule string
	}{
		{"git commit --amend --no-edit", verdict.Allow, ""},
		{"sudo id", verdict.Warn, "priv.sudo"},
		{"rm -rf build", verdict.Allow, ""},
		{"rm -rf build/out dist", verdict.Allow, ""},
		{"rm -rf ./build/x", verdict.Allow, ""},
		{"cd build && rm -rf out", verdict.Allow, ""},
		{"rm -rf build src", verdict.Block, "fs.rm-recursive-force"},
		{"rm -rf build/../src", verdict.Block, "fs.rm-recursive-force"},
		{"rm -rf", verdict.Block, "fs.rm-recursive-force"},
		{`rm -rf "$X"`, verdict.Block, "fs.rm-recursive-force"},
		{"rm -rf /tmp/build", verdict.Block, "fs.rm-recursive-force"},
		{"rm -rf ROOT/build", verdict.Allow, ""},
		{"cd sub && rm -rf ../build", verdict.Allow, ""},
		{"cd / && rm -rf build", verdict.Block, "fs.rm-recursive-force"},
		// an allowed target must be allowed in every directory the command
		// may run in: if cd build fails, rm -rf out removes ./out
		{"cd build; rm -rf out", verdict.Block, "fs.rm-recursive-force"},
		{"cd build 2>/dev/null || true; rm -rf out", verdict.Block, "fs.rm-recursive-force"},
		{"cd build || exit 1; rm -rf out", verdict.Allow, ""},
		{"cd build; rm -rf ROOT/build/out", verdict.Allow, ""},
		{"terraform destroy -auto-approve", verdict.Block, "local.terraform-destroy"},
		{"bash -c 'terraform destroy'", verdict.Block, "local.terraform-destroy"},
		{"terraform plan", verdict.Allow, ""},
		{"npm install --force", verdict.Warn, "local.no-force-install"},
		{"npm install", verdict.Allow, ""},
		{"git push --force", verdict.Block, "git.push-force"},
	}
	for _, c := range cases {
		cmd := strings.ReplaceAll(c.cmd, "ROOT", filepath.ToSlash(root))
		res := Decide(cmd, Context{Feature: "f002", Overrides: ov, Cwd: root})
		if res.Decision.Action != c.want || res.Decision.Rule != c.rule {
			t.Errorf("%q: got %s %q, want %s %q", c.cmd, res.Decision.Action, res.Decision.Rule, c.want, c.rule)
		}
	}
	// without overrides the defaults apply
	if res := Decide("rm -rf build", Context{}); res.Decision.Action != verdict.Block {
		t.Errorf("defaults: rm -rf build not blocked")
	}
}

func TestInvalidOverridesKeepDefaults(t *testing.T) {
	for name, content := range map[string]string{
		"syntax":        "disable: [unclosed",
		"unknown key":   "disabel: [git.commit-amend]",
		"unknown rule":  "disable: [git.no-such-rule]",
		"bad glob":      "allow:\n  - targets: ['build/[']",
		"empty targets": "allow:\n  - rule: fs.rm-recursive-force",
		"block no id":   "block:\n  - program: terraform",
		"bad action":    "block:\n  - id: x.y\n    program: terraform\n    action: deny",
		"builtin id":    "block:\n  - id: git.push-force\n    program: git",
		"disable limit": "disable: [shell.too-complex]",
	} {
		root := writeOverrides(t, content)
		ov, err := LoadOverrides(root)
		if err == nil {
			t.Errorf("%s: invalid override file accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), "rules.yaml") {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
		// the hook passes the nil overrides on: defaults stay in force
		if res := Decide("git commit --amend", Context{Overrides: ov}); res.Decision.Action != verdict.Block {
			t.Errorf("%s: defaults not in force after an invalid file", name)
		}
	}
}

func TestEmptyOverridesFile(t *testing.T) {
	ov, err := LoadOverrides(writeOverrides(t, "\n# nothing yet\n"))
	if err != nil {
		t.Fatal(err)
	}
	if res := Decide("rm -rf x", Context{Overrides: ov}); res.Decision.Action != verdict.Block {
		t.Error("empty override file weakened the defaults")
	}
}

// The targets of an allow override are the operands and the values of
// value-taking options as the model parses them: an attached or
// abbreviated target directory is a target too, a subcommand word is not.
func TestOverrideTargetsByTheModel(t *testing.T) {
	root := writeOverrides(t, `
allow:
  - targets: ["build/**", "dist"]
`)
	ov, err := LoadOverrides(root)
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]verdict.Action{
		"rm -rf build":                          verdict.Allow,
		"rm -rf -- build/x dist":                verdict.Allow,
		"rm -rf build src":                      verdict.Block,
		"rm -rf -- build -src":                  verdict.Block,
		"rm -r --interactive=never build":       verdict.Allow,
		"git clean -fdx build":                  verdict.Allow,
		"git clean -fdx":                        verdict.Block,
		"git -C /etc clean -fdx build":          verdict.Block,
		"git -C/etc clean -fdx build":           verdict.Block,
		"git --git-dir=/etc/x clean -fdx build": verdict.Block,
		"git clean -fdx -e build dist":          verdict.Allow,
		"chmod -R 777 build":                    verdict.Block,
		"mkdir -p build/x":                      verdict.Allow,
		"mkdir -m 777 build/x":                  verdict.Block,
		"mkdir -m777 build/x":                   verdict.Block,
		"mkdir --mode=777 build/x":              verdict.Block,
	} {
		res := Decide(strings.ReplaceAll(cmd, "ROOT", filepath.ToSlash(root)), Context{Feature: "f002", Overrides: ov, Cwd: root})
		if res.Decision.Action != want {
			t.Errorf("%q: got %s %q, want %s", cmd, res.Decision.Action, res.Decision.Rule, want)
		}
	}
}

// TestUserRuleReadsTheModel: a project block rule's subcommand, flags and
// args are read from the option model: the subcommand after global
// options and their values, a flag bundled, abbreviated or attached, and
// no flag after "--".
func TestUserRuleReadsTheModel(t *testing.T) {
	root := writeOverrides(t, `
block:
  - id: local.no-force-install
    program: npm
    subcommand: install
    flags: ["--force"]
  - id: local.no-verify
    program: git
    subcommand: commit
    flags: ["-n"]
  - id: local.terraform-auto
    program: terraform
    subcommand: apply
    flags: ["-auto-approve"]
  - id: local.deploy-prod
    program: deploytool
    args: ["prod*"]
`)
	ov, err := LoadOverrides(root)
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{
		"npm install --force":                "local.no-force-install",
		"npm install --force=true x":         "local.no-force-install",
		"npm --prefix d install --force":     "local.no-force-install",
		"npm install -- --force":             "",
		"npm install x":                      "",
		"git commit -n -m x":                 "local.no-verify",
		"git commit -anm x":                  "local.no-verify",
		"git -C /tmp/r commit -n -m x":       "local.no-verify",
		"git commit --no-verify -m x":        "",
		"git commit -m -n":                   "",
		"terraform apply -auto-approve":      "local.terraform-auto",
		"terraform apply -auto-approve=true": "local.terraform-auto",
		"terraform plan -auto-approve":       "",
		"terraform apply":                    "",
		"deploytool prod-eu":                 "local.deploy-prod",
		"deploytool -v prod-eu":              "local.deploy-prod",
		"deploytool staging":                 "",
	} {
		res := Decide(cmd, Context{Feature: "f002", Overrides: ov, Cwd: root})
		if res.Decision.Rule != want {
			t.Errorf("%q: got %s %q, want %q", cmd, res.Decision.Action, res.Decision.Rule, want)
		}
	}
}
