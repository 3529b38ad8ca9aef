package testutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestRepoRootHoldsTheModule(t *testing.T) {
	root := RepoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "module github.com/superagent-harness/harness"; string(b[:len(want)]) != want {
		t.Fatalf("go.mod at %s starts %q", root, b[:len(want)])
	}
	if _, err := os.Stat(Testdata(t, "sprints", "valid-midway", ".harness")); err != nil {
		t.Fatalf("Testdata: %v", err)
	}
}

func TestCopyTreeCopiesEveryFileAndRefusesToOverwrite(t *testing.T) {
	src := Testdata(t, "sprints", "valid-midway")
	dst := filepath.Join(t.TempDir(), "sprint")
	CopyTree(t, src, dst)
	n := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(dst, rel))
		if err != nil {
			return err
		}
		if string(got) != string(want) {
			t.Errorf("%s differs", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Fatalf("only %d files in the fixture", n)
	}
	if err := CopyDir(src, dst); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("copy over an existing tree: %v, want fs.ErrExist", err)
	}
	if got := CopyFixture(t, "valid-midway"); got == src {
		t.Fatal("CopyFixture returned the source")
	} else if _, err := os.Stat(filepath.Join(got, ".harness", "feature_list.json")); err != nil {
		t.Fatal(err)
	}
}

func TestCopyDirKeepsASymlinkALink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	src, dst := t.TempDir(), t.TempDir()
	if err := os.Symlink("../outside", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	if err := CopyDir(src, dst); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(dst, "link")); err != nil || target != "../outside" {
		t.Fatalf("copied link: %q %v, want a link to ../outside", target, err)
	}
}

func TestSetMTimes(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a/b.md", "c.md"} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(f)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC)
	SetMTimes(t, root, map[string]int{"a/b.md": 120, "c.md": 0}, now)
	for f, want := range map[string]time.Time{"a/b.md": now.Add(-2 * time.Minute), "c.md": now} {
		st, err := os.Stat(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if !st.ModTime().Equal(want) {
			t.Errorf("%s: mtime %v, want %v", f, st.ModTime(), want)
		}
	}
}

func TestBuildOncePerTestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hook")
	}
	first, err := Build("harness-hook")
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(first)
	if err != nil || !st.Mode().IsRegular() {
		t.Fatalf("built hook: %v", err)
	}
	second, err := Build("harness-hook")
	if err != nil || second != first {
		t.Fatalf("second Build: %q %v, want %q", second, err, first)
	}
	st2, _ := os.Stat(second)
	if !st2.ModTime().Equal(st.ModTime()) {
		t.Fatal("the hook was built twice")
	}
	if _, err := Build("no-such-command"); err == nil {
		t.Fatal("building a missing command succeeded")
	}
}

// TestMainGivesAPrivateStateDir: Main points XDG_STATE_HOME (the state dir
// internal/userlog uses first on every OS) at a temporary directory of its
// own, so hooks run by tests never append to the user's hook.log.
func TestMainGivesAPrivateStateDir(t *testing.T) {
	d := os.Getenv("XDG_STATE_HOME")
	if d == "" || !filepath.IsAbs(d) {
		t.Fatalf("XDG_STATE_HOME = %q, want an absolute temporary directory", d)
	}
	if !strings.HasPrefix(filepath.Base(d), "harness-test-state-") {
		t.Fatalf("XDG_STATE_HOME = %q is not Main's temporary directory", d)
	}
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		t.Fatalf("state dir %s: %v", d, err)
	}
}
