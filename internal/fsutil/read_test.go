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

// TestAppendLineRefusesSymlink: a symbolic link planted where a log is kept
// (eval_log.jsonl -> runtime_state.json, hook.log -> ~/.bashrc) is never
// followed: every append function refuses it with ErrNotRegular and the file
// it names stays byte for byte unchanged, whether that file exists or not.
func TestAppendLineRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "runtime_state.json")
	if err := os.WriteFile(victim, []byte(`{"a":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "created-through-link")
	for name, target := range map[string]string{"existing": victim, "missing": missing} {
		link := filepath.Join(dir, name+".jsonl")
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("symlink: %v", err)
		}
		appends := map[string]func() error{
			"AppendLine":         func() error { return AppendLine(link, []byte(`{"forged":1}`)) },
			"AppendLineLocked":   func() error { return AppendLineLocked(link, []byte(`{"forged":1}`)) },
			"AppendLineAtWithin": func() error { _, err := AppendLineAtWithin(link, []byte(`{"forged":1}`), LockTimeout); return err },
			"CheckAppendable":    func() error { return CheckAppendable(link) },
		}
		for fn, call := range appends {
			err := call()
			var nr *NotRegularError
			if !errors.As(err, &nr) || nr.Mode&fs.ModeSymlink == 0 || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("%s through a link to a %s file: %v (want a NotRegularError naming the symbolic link)", fn, name, err)
			}
		}
	}
	if got, _ := os.ReadFile(victim); string(got) != `{"a":1}`+"\n" {
		t.Errorf("the linked file changed: %q", got)
	}
	if _, err := os.Lstat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an append created the file a dangling link names: %v", err)
	}
}
