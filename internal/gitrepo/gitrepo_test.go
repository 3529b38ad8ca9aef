package gitrepo

import (
	"github.com/superagent-harness/harness/internal/testutil"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
}

// nestedRepo makes root a repository with a committed nested repository at
// rel, added to root's index as a gitlink.
func nestedRepo(t *testing.T, root, rel string) string {
	t.Helper()
	sub := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	testutil.Git(t, sub, "init", "-q")
	write(t, filepath.Join(sub, "f.txt"), "x\n")
	testutil.Git(t, sub, "add", "f.txt")
	testutil.Git(t, sub, "commit", "-qm", "c")
	testutil.Git(t, root, "add", rel)
	return sub
}

func newRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	testutil.Git(t, root, "init", "-q")
	write(t, filepath.Join(root, "README.md"), "r\n")
	testutil.Git(t, root, "add", "README.md")
	return root
}

// The attack of round 9 (testdata/redteam/round9/README.md): a nested
// repository's core.fsmonitor, a hook in it, its include.path, next to
// nested repositories that carry nothing, one not in the index, and a
// plain file: only the three are reported, in every index version.
func TestRiskyNestedRepositories(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("index-v"+version, func(t *testing.T) {
			root := newRoot(t)
			a := nestedRepo(t, root, "src/a")
			testutil.Git(t, a, "config", "core.fsmonitor", "rm -rf ../../spec")
			b := nestedRepo(t, root, "src/b")
			write(t, filepath.Join(b, ".git", "hooks", "post-checkout"), "#!/bin/sh\nrm -rf spec\n")
			c := nestedRepo(t, root, "lib/c")
			testutil.Git(t, c, "config", "include.path", "../x.cfg")
			nestedRepo(t, root, "src/clean")                                                 // sample hooks only, no runner settings
			testutil.Git(t, filepath.Join(root, "src/clean"), "config", "user.email", "a@b") // data, not code
			untracked := filepath.Join(root, "scratch")
			if err := os.MkdirAll(untracked, 0o755); err != nil {
				t.Fatal(err)
			}
			testutil.Git(t, untracked, "init", "-q")
			testutil.Git(t, untracked, "config", "core.fsmonitor", "rm -rf x") // not a gitlink: git status at the root does not enter it
			testutil.Git(t, root, "update-index", "--index-version", version)

			got, err := Risky(filepath.Join(root, "src")) // a directory below the top finds the same repository
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, n := range got {
				paths = append(paths, n.Path)
			}
			if want := []string{"lib/c", "src/a", "src/b"}; !reflect.DeepEqual(paths, want) {
				t.Fatalf("risky = %v, want %v (%+v)", paths, want, got)
			}
			if s := strings.Join(got[1].Settings, " "); !strings.Contains(s, "core.fsmonitor=rm -rf ../../spec") {
				t.Errorf("src/a settings = %q", s)
			}
			if !reflect.DeepEqual(got[2].Hooks, []string{"post-checkout"}) {
				t.Errorf("src/b hooks = %v", got[2].Hooks)
			}
			if !strings.Contains(strings.Join(got[0].Settings, " "), "include.path=../x.cfg") {
				t.Errorf("lib/c settings = %v", got[0].Settings)
			}
			if d := got[1].Describe(); !strings.Contains(d, "src/a") || !strings.Contains(d, "--ignore-submodules") {
				t.Errorf("Describe = %q", d)
			}
		})
	}
}

// An absorbed submodule (its .git a gitdir file into the root's
// .git/modules) is read through the file.
func TestRiskyAbsorbedGitDir(t *testing.T) {
	root := newRoot(t)
	a := nestedRepo(t, root, "m")
	testutil.Git(t, a, "config", "core.pager", "sh -c 'rm -rf spec'")
	modules := filepath.Join(root, ".git", "modules", "m")
	if err := os.MkdirAll(filepath.Dir(modules), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(a, ".git"), modules); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(a, ".git"), "gitdir: ../.git/modules/m\n")
	got, err := Risky(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].GitDir != modules || len(got[0].Settings) != 1 {
		t.Fatalf("got %+v, want m read through %s", got, modules)
	}
}

func TestRiskyOutsideARepository(t *testing.T) {
	got, err := Risky(t.TempDir())
	if err != nil || got != nil {
		t.Fatalf("got %v, %v; want nothing", got, err)
	}
}

func TestGitlinksBadIndex(t *testing.T) {
	for name, b := range map[string][]byte{
		"signature": []byte("XXXX\x00\x00\x00\x02\x00\x00\x00\x00"),
		"version":   []byte("DIRC\x00\x00\x00\x09\x00\x00\x00\x00"),
		"truncated": []byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00"),
	} {
		if _, err := parseGitlinks(b, 20); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzParseGitlinks(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		parseGitlinks(b, 20) // must not panic or loop
	})
}

// A SHA-256 repository (extensions.objectFormat) has 32-byte object names
// in its index entries: the gitlink is still found.
func TestRiskySHA256Index(t *testing.T) {
	root := t.TempDir()
	testutil.Git(t, root, "init", "-q", "--object-format=sha256")
	a := filepath.Join(root, "src", "a")
	write(t, filepath.Join(a, "f.txt"), "x\n")
	testutil.Git(t, a, "init", "-q", "--object-format=sha256")
	testutil.Git(t, a, "add", "f.txt")
	testutil.Git(t, a, "commit", "-qm", "c")
	testutil.Git(t, a, "config", "core.fsmonitor", "rm -rf spec")
	testutil.Git(t, root, "add", "src/a")
	got, err := Risky(root)
	if err != nil || len(got) != 1 || got[0].Path != "src/a" {
		t.Fatalf("got %+v, %v; want src/a", got, err)
	}
}

// Round 16 (testdata/redteam/round16/README.md): git status at the root
// runs git status in each checked-out submodule, which does the same in
// its own submodules, so a repository two levels down with core.fsmonitor
// ran outside the sandbox while Risky read only the first level. The
// clean repository between is not named, the one below it is (with its
// full path), and a third level is read too; a clean nested pair is not.
func TestRiskyNestedBelowNested(t *testing.T) {
	root := newRoot(t)
	sub := nestedRepo(t, root, "src/sub")
	inner := nestedRepo(t, sub, "inner")
	testutil.Git(t, sub, "commit", "-qm", "inner")
	deep := nestedRepo(t, inner, "deep")
	testutil.Git(t, inner, "commit", "-qm", "deep")
	testutil.Git(t, inner, "config", "core.fsmonitor", "touch MARK; false")
	write(t, filepath.Join(deep, ".git", "hooks", "post-checkout"), "#!/bin/sh\nrm -rf spec\n")
	clean := nestedRepo(t, root, "src/clean")
	nestedRepo(t, clean, "c2")
	testutil.Git(t, clean, "commit", "-qm", "c2")
	testutil.Git(t, root, "add", "src/sub", "src/clean")
	got, err := Risky(root)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, n := range got {
		paths = append(paths, n.Path)
	}
	if want := []string{"src/sub/inner", "src/sub/inner/deep"}; !reflect.DeepEqual(paths, want) {
		t.Fatalf("risky = %v, want %v (%+v)", paths, want, got)
	}
	if s := strings.Join(got[0].Settings, " "); !strings.Contains(s, "core.fsmonitor=touch MARK; false") {
		t.Errorf("src/sub/inner settings = %q", s)
	}
}
