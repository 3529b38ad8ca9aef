package fsutil

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestAppendLineConcurrentWholeLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				line := []byte(strings.Repeat(string(rune('a'+w)), 100+i))
				if err := AppendLine(p, line); err != nil {
					t.Error(err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) != 8*200 {
		t.Fatalf("got %d lines, want %d", len(lines), 8*200)
	}
	for i, l := range lines {
		if len(l) == 0 || strings.Count(string(l), string(l[0])) != len(l) {
			t.Fatalf("line %d is torn or mixed: %.40q", i+1, l)
		}
	}
}

func TestAppendLineRepairsTornTail(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(p, []byte("{\"a\":1}\n{\"torn\":"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendLine(p, []byte(`{"b":2}`)); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := "{\"a\":1}\n{\"torn\":\n{\"b\":2}\n"
	if string(got) != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestAppendLineRejectsEmbeddedNewline(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	if err := AppendLine(p, []byte("a\nb")); err == nil {
		t.Fatal("want error for embedded newline")
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatal("nothing may be written when the line is rejected")
	}
}

func TestWriteFileAtomicKeepsModeAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "new" {
		t.Fatalf("content %q", got)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600 kept", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temp files left behind: %v", ents)
	}
}

func TestUpdateFileErrorWritesNothing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(p, []byte("keep"), 0o644)
	err := UpdateFile(p, 0o644, func(old []byte) ([]byte, error) { return nil, os.ErrInvalid })
	if err == nil {
		t.Fatal("want error")
	}
	got, _ := os.ReadFile(p)
	if string(got) != "keep" {
		t.Fatalf("file changed: %q", got)
	}
}
