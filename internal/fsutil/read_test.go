package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	if err := os.WriteFile(p, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRegular(p, 0)
	if err != nil || string(got) != `{"a":1}` {
		t.Fatalf("ReadRegular = %q, %v", got, err)
	}
	if got, err = ReadRegular(p, 7); err != nil || string(got) != `{"a":1}` {
		t.Fatalf("ReadRegular at the limit = %q, %v", got, err)
	}
	if got, err = ReadRegular(p, 6); !errors.Is(err, ErrTooLarge) || got != nil {
		t.Fatalf("ReadRegular over the limit = %q, %v (want ErrTooLarge)", got, err)
	}
	if _, err = ReadRegular(filepath.Join(dir, "missing"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v (want fs.ErrNotExist)", err)
	}
	if _, err = ReadRegular(dir, 0); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("directory: %v (want ErrNotRegular)", err)
	}
	// a symlink to a regular file is followed
	l := filepath.Join(dir, "link")
	if err := os.Symlink(p, l); err == nil {
		if got, err = ReadRegular(l, 0); err != nil || string(got) != `{"a":1}` {
			t.Fatalf("symlink: %q, %v", got, err)
		}
	}
}

func TestAppendLineRefusesDirectory(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := AppendLine(p, []byte("x")); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("AppendLine to a directory: %v (want ErrNotRegular)", err)
	}
}
