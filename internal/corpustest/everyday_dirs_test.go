package corpustest

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// everydayDirs are the working directories TestEverydayInWorkspace runs
// each everyday step from: the sprint root and, by a `cd DIR || exit 1`
// line before the step, folders of the workspace. docs/, research/ and
// src/ are the Generator's own; the others are protected (testdata/corpus/README.md
// §3.2: readonly_dir, or a protected_ancestor holding protected files).
var everydayDirs = []string{"", "src", "docs", "research", ".harness/checkpoints",
	"spec", "spec/guides", "sub-skills", "templates", ".harness", ".harness/features/f002", ".harness/sprint_contracts"}

// TestEverydayInWorkspace measures the cautious defaults of
// testdata/corpus/README.md §9.1 on the everyday steps (testdata/everyday)
// run in a sprint workspace, where the path guard applies (TestEverydaySteps
// runs them outside one): from the root and from each of everydayDirs. It
// logs, per directory, how many harmless (expect allow) steps are blocked
// and how many of those blocks name a cautious default for an unknown
// program; with EVERYDAY_WS_OUT=FILE it writes every blocked step
// (dir, id, rule, reason) to FILE, so two builds can be compared.
//
// It checks the two defaults that apply wherever a program runs: from the
// sprint root and from the Generator's own folders, no harmless step may be
// blocked by the default for an unknown program's working directory, and
// the blocks naming any cautious default are the ones listed in
// everydayWorkspaceCosts.
func TestEverydayInWorkspace(t *testing.T) {
	steps := loadEverydaySteps(t)
	out := os.Getenv("EVERYDAY_WS_OUT")
	var lines []string
	var fails []string
	for _, dir := range everydayDirs {
		tmp, home, root := makePathSkeleton(t)
		_ = tmp
		env := map[string]string{"HARNESS_ROOT": root, "FEATURE_ID": "f002", "HOME": home}
		blocked, dflt, cwdDflt := 0, 0, 0
		var ids []string
		for _, s := range steps {
			if s.Expect != "allow" {
				continue
			}
			cmd := s.Cmd
			if dir != "" {
				cmd = "cd " + dir + " || exit 1\n" + cmd
			}
			a := runHook(t, env, bashPayload(cmd, root))
			if a.Outcome != "block" {
				continue
			}
			blocked++
			kind := ""
			switch {
			case strings.Contains(a.Text, everydayCwdNote):
				cwdDflt++
				kind = "cwd-default"
			case strings.Contains(a.Text, "(cautious default"):
				dflt++
				kind = "default"
			}
			if kind != "" {
				ids = append(ids, s.ID)
			}
			lines = append(lines, fmt.Sprintf("%s\t%s\t%s\t%s\t%s", dirName(dir), s.ID, a.Rule, kind, strings.ReplaceAll(a.Text, "\n", " ")))
			own := dir == "" || dir == "src" || dir == "docs" || dir == "research" || dir == ".harness/checkpoints"
			if own && kind == "cwd-default" {
				fails = append(fails, fmt.Sprintf("%s from %s: blocked by the working-directory default: %s", s.ID, dirName(dir), a.Text))
			}
			if own && kind == "default" && everydayWorkspaceCosts[s.ID] == "" {
				fails = append(fails, fmt.Sprintf("%s from %s: a new cautious-default block: %s", s.ID, dirName(dir), a.Text))
			}
		}
		sort.Strings(ids)
		t.Logf("from %-26s harmless steps blocked %3d/%d; by the unknown-program defaults %d (working directory %d, arguments %d): %s",
			dirName(dir), blocked, countAllow(steps), dflt+cwdDflt, cwdDflt, dflt, strings.Join(ids, " "))
	}
	if out != "" {
		if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(fails) > 0 {
		t.Errorf("%d everyday steps:\n%s", len(fails), strings.Join(fails, "\n"))
	}
}

// everydayCwdNote is the text of the working-directory default's note
// (pathguard: an unknown program run in a protected directory).
const everydayCwdNote = "runs in a protected directory"

// everydayWorkspaceCosts are the harmless everyday steps that a cautious
// default for an unknown program blocks when run from the sprint root or
// the Generator's own folders (id → why).
var everydayWorkspaceCosts = map[string]string{
	"e0527": "hugo --baseURL=\"/\": an unknown program handed /, which holds the hook wiring (known_costs.txt)",
	"e0430": "sync-branch over a listing of unknown names (xargs): each could be a protected file",
	"e0582": "check-feature-briefs.sh over a listing of unknown names (xargs): each could be a protected file",
	"e0716": "the step does not parse (`for` over a ${{ }} value); the token scan reads 10 as an unknown program handed .claude",
}

func dirName(dir string) string {
	if dir == "" {
		return "the root"
	}
	return dir + "/"
}

func countAllow(steps []everydayStep) int {
	n := 0
	for _, s := range steps {
		if s.Expect == "allow" {
			n++
		}
	}
	return n
}
