package gitrepo_test

import (
	"github.com/superagent-harness/harness/internal/testutil"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/gitrepo"
	"github.com/superagent-harness/harness/internal/pathguard"
)

func put(t *testing.T, root, rel, s string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// protectedRepo is a committed sprint root: SKILL.md, spec/index.md,
// .claude/settings.json and src/main.go on main.
func protectedRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	testutil.Git(t, root, "init", "-q", "-b", "main")
	put(t, root, "SKILL.md", "skill\n")
	put(t, root, "spec/index.md", "spec\n")
	put(t, root, ".claude/settings.json", "{}\n")
	put(t, root, "src/main.go", "package main\n")
	testutil.Git(t, root, "add", "-A")
	testutil.Git(t, root, "commit", "-qm", "base")
	return root
}

func changes(t *testing.T, root string) []string {
	t.Helper()
	got, err := gitrepo.ProtectedChanges(root, pathguard.GitPathspecs())
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Round 16 #13 (testdata/redteam/round16/README.md): a branch commits
// changed protected files (one new, one removed) and HEAD moves to it
// while the work tree keeps the old content (the sandbox refused writing
// them); a git checkout -- . outside the sandbox would write them. Every
// such path is named, src/ is not; a clean repository and a change only in
// src/ name nothing; a change staged in the index only is named too.
func TestProtectedChangesHeadMoved(t *testing.T) {
	root := protectedRepo(t)
	if got := changes(t, root); got != nil {
		t.Fatalf("clean repository: %v", got)
	}
	put(t, root, "src/main.go", "package main // changed\n")
	if got := changes(t, root); got != nil {
		t.Fatalf("change in src/ only: %v", got)
	}
	testutil.Git(t, root, "checkout", "-q", "-b", "evil")
	put(t, root, "SKILL.md", "EVIL\n")
	put(t, root, "spec/index.md", "EVIL\n")
	put(t, root, "CLAUDE.md", "EVIL\n")
	testutil.Git(t, root, "rm", "-q", ".claude/settings.json")
	testutil.Git(t, root, "add", "-A")
	testutil.Git(t, root, "commit", "-qm", "evil")
	// the work tree back to main's content, HEAD left on evil (what the
	// sandbox's refusals leave after `git checkout evil`)
	testutil.Git(t, root, "symbolic-ref", "HEAD", "refs/heads/main")
	testutil.Git(t, root, "reset", "-q", "--hard")
	testutil.Git(t, root, "symbolic-ref", "HEAD", "refs/heads/evil")
	got := changes(t, root)
	want := []string{".claude/settings.json", "CLAUDE.md", "SKILL.md", "spec/index.md"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("HEAD on evil: %v, want %v", got, want)
	}
	d := gitrepo.DescribeProtectedChanges(got)
	if !strings.Contains(d, "git diff HEAD -- .claude/settings.json CLAUDE.md SKILL.md spec/index.md") || !strings.Contains(d, "reset HEAD to the commit Hermes recorded") {
		t.Errorf("Describe = %q", d)
	}

	// back on main, with evil's SKILL.md only in the index: git checkout
	// -- . writes the index's content
	testutil.Git(t, root, "symbolic-ref", "HEAD", "refs/heads/main")
	testutil.Git(t, root, "checkout", "-q", "evil", "--", "SKILL.md")
	put(t, root, "SKILL.md", "skill\n")
	if got := changes(t, root); !reflect.DeepEqual(got, []string{"SKILL.md"}) {
		t.Fatalf("index only: %v", got)
	}
}

func TestProtectedChangesOutsideARepository(t *testing.T) {
	if got, err := gitrepo.ProtectedChanges(t.TempDir(), pathguard.GitPathspecs()); err != nil || got != nil {
		t.Fatalf("got %v, %v", got, err)
	}
}

// An unborn HEAD (git init, nothing committed) has no content to write.
func TestProtectedChangesUnbornHead(t *testing.T) {
	root := t.TempDir()
	testutil.Git(t, root, "init", "-q")
	put(t, root, "SKILL.md", "x\n")
	if got := changes(t, root); got != nil {
		t.Fatalf("got %v", got)
	}
}
