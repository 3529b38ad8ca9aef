//go:build unix

package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNoBlockOnFIFO: reading, updating or appending to a FIFO (with no
// writer / reader on the other end) fails at once with ErrNotRegular instead
// of waiting forever.
func TestNoBlockOnFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	ops := map[string]func() error{
		"ReadRegular":         func() error { _, err := ReadRegular(p, 0); return err },
		"ReadRegular symlink": func() error { _, err := ReadRegular(link, 1<<20); return err },
		"OpenRegular": func() error {
			f, _, err := OpenRegular(p)
			if err == nil {
				f.Close()
			}
			return err
		},
		"AppendLine":      func() error { return AppendLine(p, []byte("x")) },
		"CheckAppendable": func() error { return CheckAppendable(p) },
		"UpdateFile": func() error {
			return UpdateFile(p, 0o644, func(old []byte) ([]byte, error) { return []byte("{}"), nil })
		},
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- op() }()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) {
					t.Fatalf("err = %v, want ErrNotRegular", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("blocked on a FIFO")
			}
		})
	}
	// a FIFO with a live reader: AppendLine's non-blocking open succeeds,
	// and the fstat check still refuses it
	t.Run("AppendLine with a reader", func(t *testing.T) {
		r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if err := AppendLine(p, []byte("x")); !errors.Is(err, ErrNotRegular) {
			t.Fatalf("err = %v, want ErrNotRegular", err)
		}
	})
}

// TestReadRegularSparse: a sparse file claiming 64 GiB is refused by its
// size before any read, and its claimed size never sizes a buffer.
func TestReadRegularSparse(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Truncate(p, 64<<30); err != nil {
		t.Skipf("sparse file: %v", err)
	}
	if _, err := ReadRegular(p, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// TestOpenRecordRefusesALink: OpenRecord and ReadRecord never follow a
// symbolic link at the path (a Generator's record replaced by a link to a
// file its sandbox may not read); OpenRegular still does.
func TestOpenRecordRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "secret")
	if err := os.WriteFile(target, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "handoff.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	var nre *NotRegularError
	if _, _, err := OpenRecord(link); !errors.As(err, &nre) || nre.Mode&fs.ModeSymlink == 0 {
		t.Fatalf("OpenRecord(link) = %v, want a *NotRegularError for a symbolic link", err)
	}
	if data, err := ReadRecord(link, 0); err == nil || len(data) > 0 {
		t.Fatalf("ReadRecord(link) = %q, %v", data, err)
	}
	if data, err := ReadRecord(target, 0); err != nil || string(data) != "secret\n" {
		t.Fatalf("ReadRecord(regular) = %q, %v", data, err)
	}
	if f, _, err := OpenRegular(link); err != nil {
		t.Fatalf("OpenRegular(link) = %v (it follows links)", err)
	} else {
		f.Close()
	}
}
