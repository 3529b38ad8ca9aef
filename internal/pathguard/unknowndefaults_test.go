package pathguard

import (
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestUnknownProgramWorkingDir: the working-directory default for a
// program the table does not know (testdata/corpus/README.md §9.1 cautious
// default). Run in a protected directory of the root it is judged as
// writing there, though no path is on its line: a new file in a read-only
// directory, another feature's directory, .harness/logs or a feature's
// .claude; everything in a folder that holds protected files (.harness,
// .harness/sprint_contracts/<sprint>, the root's .claude). The root, the
// running feature's own directory (where a Generator starts), the
// Generator's folders and a cd the guard cannot follow are not judged by
// it; known readers and shell functions are not unknown programs.
func TestUnknownProgramWorkingDir(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	cases := []bashCase{
		{"cd protocols && lint-fix", "block"},
		{"(cd schemas && ./regen --all)", "block"},
		{"env -C templates render-html", "block"},
		{"cd spec/guides; mkdocs-gen", "block"},
		{"pushd sub-skills && bundle-skill", "block"},
		{"cd .harness && sprintctl sync", "block"},
		{"cd .harness/sprint_contracts/s1 && contract-tool", "block"},
		{"cd .harness/logs && rotate", "block"},
		{"cd .harness/features/f001 && notes-tool", "block"},
		{"cd .harness/features/f002/.claude && notes-tool", "block"},
		{"cd .claude && claude-sync", "block"},
		{"cd src && lint-fix", "allow"},
		{"cd docs && mkdocs-gen", "allow"},
		{"cd research && summarize", "allow"},
		{"cd .harness/checkpoints && snapshotter", "allow"},
		{"cd .harness/features/f002 && notes-tool", "allow"},
		{"lint-fix", "allow"},
		{"cd spec && cat index.md", "allow"},
		{"cd .harness && pwd", "allow"},
		{"cd .harness && printenv HOME", "allow"},
		{"cd spec && tr a-z A-Z < index.md", "allow"},
		{"f() { echo hi; }; cd .harness && f", "allow"},
		{`cd "$DIR" && lint-fix`, "allow"},
	}
	checkBashCases(t, g, root, cases)
	d := bashDecide(g, "cd templates && render-html", root, nil)
	if d.Action != verdict.Block || !strings.Contains(d.Message, "render-html is not a known reader or writer and runs in a protected directory (templates/)") ||
		!strings.Contains(d.Message, "(cautious default)") || !strings.Contains(d.Hint, "run it from the root") {
		t.Errorf("reason %q (hint %q) does not name render-html, its directory and the cautious default", d.Message, d.Hint)
	}
}

// TestUnknownProgramOutputValues: the output-shaped values of a program
// the table does not know that the operand default missed: a short -o with
// its value attached and KEY=VALUE operands whose key names an output
// (cautious default, testdata/corpus/README.md §9.1). Other keys and values
// that name no protected path stay allowed.
func TestUnknownProgramOutputValues(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"genx -ospec/out.md", "block"},
		{"genx -o=templates/t.html in.txt", "block"},
		{"genx dest=protocols/p.md", "block"},
		{"genx out=SKILL.md", "block"},
		{"genx OUTPUT_DIR=sub-skills/x", "block"},
		{"genx DESTDIR=schemas install", "block"},
		{"genx of=README.md", "block"},
		{"genx target=.harness/feature_list.json", "block"},
		{"genx -obuild/out.md", "allow"},
		{"genx -ospec.md", "allow"},
		{"genx dest=build", "allow"},
		{"genx name=spec", "allow"},
		{"genx mode=README.md", "allow"},
		{"genx -- -ospec/x", "allow"},
	})
	d := bashDecide(g, "genx dest=protocols/p.md", root, nil)
	if d.Action != verdict.Block || !strings.Contains(d.Message, "genx is not a known reader or writer, so the value of its output option dest= is judged as written by it (cautious default)") {
		t.Errorf("reason %q does not name genx and the cautious default", d.Message)
	}
}
