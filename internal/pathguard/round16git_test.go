package pathguard

import "testing"

// Round 16 (testdata/redteam/round16/README.md, through the real client):
// a new repository whose configuration or hooks the command supplies — a
// template (--template, GIT_TEMPLATE_DIR, -c init.templateDir, a config
// source set for the call) or clone's --config — writes that repository's
// config and hooks: refused in a Generator session like `git -C DIR
// config`; a plain git init, clone and a bare repository stay allowed.
func TestRound16GitTemplates(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"git init -q --template=/tmp/t src/sub/inner", "block"},
		{"git init --template /tmp/t src/x", "block"},
		{"cd src/x && git init --templ=/tmp/t", "block"},
		{"GIT_TEMPLATE_DIR=/tmp/t git init src/x", "block"},
		{"export GIT_TEMPLATE_DIR=/tmp/t; git init src/x", "block"},
		{"git -c init.templateDir=/tmp/t init src/x", "block"},
		{"git -c INIT.TEMPLATEDIR=/tmp/t init -q src/x", "block"},
		{"GIT_CONFIG_GLOBAL=/tmp/gc git init src/x", "block"},
		{"HOME=/tmp/h git init src/x", "block"},
		{"git clone -q --template=/tmp/t /tmp/o src/x", "block"},
		{"git clone -c core.fsmonitor='touch M' /tmp/o src/x", "block"},
		{"git clone --config=core.hooksPath=/tmp/h /tmp/o", "block"},
		{"git init -q src/x", "allow"},
		{"git init -q src/x && git -C src/x commit -q --allow-empty -m x", "allow"},
		{"git clone -q /tmp/o src/x", "allow"},
		{"git init --bare --template=/tmp/t /tmp/b.git", "allow"},
		{"git -c user.name=x init src/x", "allow"},
	})
}
