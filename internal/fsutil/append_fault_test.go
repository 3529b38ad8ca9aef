package fsutil

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// TestAppendFailingPartWayLeavesNothing: a write that stops part-way (a
// full disk: ENOSPC after some bytes; EIO) must not leave a torn line: the
// file is truncated back to its length before the append and the error says
// nothing was appended. A write failing before any byte leaves the file as
// it was too.
func TestAppendFailingPartWayLeavesNothing(t *testing.T) {
	for _, c := range []struct {
		name    string
		written int
		err     error
	}{
		{"ENOSPC after 17 bytes", 17, syscall.ENOSPC},
		{"EIO after 1 byte", 1, syscall.EIO},
		{"ENOSPC before any byte", 0, syscall.ENOSPC},
		{"short write without error", 5, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "eval_log.jsonl")
			before := []byte("{\"a\":1}\n{\"torn\":") // a torn tail: the append writes '\n' first
			if err := os.WriteFile(p, before, 0o644); err != nil {
				t.Fatal(err)
			}
			failing := func(f *os.File, b []byte) (int, error) {
				n, werr := f.Write(b[:c.written])
				if werr != nil {
					return n, werr
				}
				return n, c.err
			}
			err := appendLockedWith(p, []byte(`{"timestamp":"2026-05-02T09:14:00Z","sprint_id":"sprint_20260502_1"}`), failing)
			if err == nil {
				t.Fatal("append reported success")
			}
			if c.err != nil && !errors.Is(err, c.err) {
				t.Errorf("err = %v; want it to wrap %v", err, c.err)
			}
			got, _ := os.ReadFile(p)
			if !bytes.Equal(got, before) {
				t.Errorf("file after the failed append = %q; want it unchanged %q", got, before)
			}
		})
	}
}

// TestReadCapsDecidedFromStat: a sparse file far over its cap is refused
// from fstat alone, without reading it: the size in the error is fstat's,
// and the refusal allocates less than the cap (a read of the file, even one
// bounded by the cap, allocates more). No wall-clock threshold: the work is
// measured, not the machine.
func TestReadCapsDecidedFromStat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "session_id.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4 << 30); err != nil { // 4 GiB, no disk used
		f.Close()
		t.Skipf("sparse file: %v", err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadRegular(p, CapSmall)
	runtime.ReadMemStats(&after)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) || tl.Size != 4<<30 || tl.Cap != CapSmall {
		t.Fatalf("err = %v; want a TooLargeError for 4 GiB over CapSmall", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc >= CapSmall {
		t.Errorf("the refusal allocated %d bytes, at least the %d-byte cap: the file was read", alloc, CapSmall)
	}
	// no cap given: CapDefault
	if _, err := ReadRegular(p, 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadRegular(p, 0) = %v; want ErrTooLarge under CapDefault", err)
	}
	if got := tl.Error(); !bytes.Contains([]byte(got), []byte("4.0 GiB")) || !bytes.Contains([]byte(got), []byte("64 KiB")) {
		t.Errorf("message %q does not give the size and the cap", got)
	}
}
