package allowonce

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

func TestAddListConsume(t *testing.T) {
	root := t.TempDir()
	if ok, _, err := Consume(root, "f001", "git push --force"); ok || err != nil {
		t.Fatalf("consume without file = %v, %v", ok, err)
	}
	if _, err := os.Stat(Path(root)); !os.IsNotExist(err) {
		t.Fatalf("consume created the file: %v", err)
	}
	e, err := Add(root, "f001", "  git push --force origin f001\n", "user approved in cp-f001-2")
	if err != nil {
		t.Fatal(err)
	}
	if e.Command != "git push --force origin f001" {
		t.Fatalf("command not trimmed: %q", e.Command)
	}
	// Wrong feature or different command: no match.
	for _, c := range []struct{ f, cmd string }{
		{"f002", "git push --force origin f001"},
		{"f001", "git push --force origin main"},
		{"f001", "git push --force origin f001 && rm -rf /"},
		{"", "git push --force origin f001"},
	} {
		if ok, _, err := Consume(root, c.f, c.cmd); ok || err != nil {
			t.Fatalf("Consume(%q, %q) = %v, %v; want no match", c.f, c.cmd, ok, err)
		}
	}
	ok, reason, err := Consume(root, "f001", "git push --force origin f001")
	if !ok || err != nil || reason != "user approved in cp-f001-2" {
		t.Fatalf("first consume = %v %q %v", ok, reason, err)
	}
	if ok, _, _ := Consume(root, "f001", "git push --force origin f001"); ok {
		t.Fatal("second consume succeeded: authorisation is single-use")
	}
	list, err := List(root)
	if err != nil || len(list) != 1 || !list[0].Consumed || list[0].ConsumedAt == "" {
		t.Fatalf("List = %+v, %v", list, err)
	}
}

func TestAddRejectsEmpty(t *testing.T) {
	root := t.TempDir()
	for _, c := range [][3]string{{"", "ls", "r"}, {"f001", " ", "r"}, {"f001", "ls", " "}} {
		if _, err := Add(root, c[0], c[1], c[2]); err == nil {
			t.Errorf("Add(%q) accepted", c)
		}
	}
}

// TestConsumeExactlyOnceConcurrently races many consumers for two
// authorisations: exactly two must win.
func TestConsumeExactlyOnceConcurrently(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 2; i++ {
		if _, err := Add(root, "f001", "rm -rf build", "clean build dir"); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, _, err := Consume(root, "f001", "rm -rf build")
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 2 {
		t.Fatalf("%d consumers won, want exactly 2", wins)
	}
}

func TestListSkipsGarbage(t *testing.T) {
	root := t.TempDir()
	p := Path(root)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("not json\n{\"type\":\"consume\",\"id\":\"x\"}\n"), 0o644)
	if _, err := Add(root, "f001", "ls", "r"); err != nil {
		t.Fatal(err)
	}
	l, err := List(root)
	if err != nil || len(l) != 1 || l[0].Consumed {
		t.Fatalf("List = %+v %v", l, err)
	}
}

// TestConsumeMatchesTrimmedCommand: the stored command and the Bash command
// are compared after Normalise on both sides, whatever blanks either side had
// (harness allow ' rm -rf build' vs a hook command 'rm -rf build ', a tab, a
// CRLF), while inner spacing and non-ASCII spaces keep commands apart.
func TestConsumeMatchesTrimmedCommand(t *testing.T) {
	variants := []string{" rm -rf build", "rm -rf build ", "\trm -rf build\r\n", "rm -rf build", "  rm -rf build  "}
	for _, auth := range variants {
		for _, run := range variants {
			root := t.TempDir()
			e, err := Add(root, "f001", auth, "user approved")
			if err != nil {
				t.Fatal(err)
			}
			if e.Command != "rm -rf build" {
				t.Fatalf("Add(%q) stored %q", auth, e.Command)
			}
			for _, other := range []string{"rm  -rf build", "\u00a0rm -rf build", "rm -rf build\u00a0", "rm -rf build;", "RM -rf build"} {
				if ok, _, err := Consume(root, "f001", other); ok || err != nil {
					t.Fatalf("auth %q consumed by %q (%v)", auth, other, err)
				}
			}
			if ok, _, err := Consume(root, "f001", run); !ok || err != nil {
				t.Fatalf("auth %q not consumed by %q (%v)", auth, run, err)
			}
			if ok, _, _ := Consume(root, "f001", run); ok {
				t.Fatalf("auth %q consumed twice", auth)
			}
		}
	}
}

// TestConsumeNormalisesStoredCommand: an allow line written by hand or by an
// older version with surrounding blanks still matches its trimmed command.
func TestConsumeNormalisesStoredCommand(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Dir(Path(root)), 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"allow","id":"ao-1","feature":"f001","command":" rm -rf build ","reason":"r","created_at":"2026-04-21T03:00:00Z"}` + "\n"
	if err := os.WriteFile(Path(root), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := Consume(root, "f001", "rm -rf build"); !ok || err != nil {
		t.Fatalf("consume = %v, %v", ok, err)
	}
}

func TestAddRejectsMultiLine(t *testing.T) {
	if _, err := Add(t.TempDir(), "f001", "rm -rf a\nrm -rf b", "r"); err == nil {
		t.Fatal("Add accepted a two-line command")
	}
}

// TestFileOutsideSprint: the log of a project or user outside a sprint has
// no feature; an authorisation is used exactly once, also by concurrent
// consumers, and the sprint-only Add still requires a feature.
func TestFileOutsideSprint(t *testing.T) {
	dir := t.TempDir()
	p := ProjectPath(dir)
	if _, err := AddFile(p, "", " rm -rf /srv/cache ", "approved by me"); err != nil {
		t.Fatal(err)
	}
	if _, err := Add(dir, "", "x", "y"); err == nil {
		t.Fatal("Add without a feature succeeded")
	}
	if ok, _, err := ConsumeFile(p, "", "rm -rf /srv/other"); ok || err != nil {
		t.Fatalf("other command: %v %v", ok, err)
	}
	var wg sync.WaitGroup
	var n atomic.Int32
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, why, err := ConsumeFile(p, "", "rm -rf /srv/cache")
			if err != nil {
				t.Error(err)
			}
			if ok {
				n.Add(1)
				if why != "approved by me" {
					t.Errorf("reason %q", why)
				}
			}
		}()
	}
	wg.Wait()
	if n.Load() != 1 {
		t.Fatalf("consumed %d times, want 1", n.Load())
	}
	list, err := ListFile(p)
	if err != nil || len(list) != 1 || !list[0].Consumed || list[0].Feature != "" {
		t.Fatalf("list: %+v %v", list, err)
	}
	if got := UserPath("/home/u"); got != filepath.Join("/home/u", ".claude", "harness-allow.jsonl") {
		t.Fatalf("UserPath %s", got)
	}
}
