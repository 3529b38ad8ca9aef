//go:build unix

package fsutil

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLockSurvivesPlantedSidecars: whatever is planted at the sidecar's
// path, Lock returns at once: a FIFO (opening it O_RDONLY used to block
// forever), a socket, a symbolic link (to a file the lock would otherwise
// create or write), an empty directory are replaced by a regular sidecar;
// a directory with content is refused with the path to remove.
func TestLockSurvivesPlantedSidecars(t *testing.T) {
	plant := map[string]func(t *testing.T, side string){
		"fifo": func(t *testing.T, side string) {
			if err := syscall.Mkfifo(side, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"symlink": func(t *testing.T, side string) {
			if err := os.Symlink(filepath.Join(filepath.Dir(side), "target"), side); err != nil {
				t.Fatal(err)
			}
		},
		"dangling symlink loop": func(t *testing.T, side string) {
			if err := os.Symlink(side, side); err != nil {
				t.Fatal(err)
			}
		},
		"empty dir": func(t *testing.T, side string) {
			if err := os.Mkdir(side, 0o755); err != nil {
				t.Fatal(err)
			}
		},
		"socket": func(t *testing.T, side string) {
			fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { syscall.Close(fd) })
			if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: side}); err != nil {
				t.Skipf("bind: %v", err)
			}
		},
	}
	for name, p := range plant {
		t.Run(name, func(t *testing.T) {
			dir := shortTempDir(t)
			path := filepath.Join(dir, "state")
			p(t, path+".lock")
			done := make(chan error, 1)
			go func() {
				unlock, err := LockWithin(path, 2*time.Second)
				if err == nil {
					unlock()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Lock with a planted %s: %v", name, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("Lock with a planted %s hangs", name)
			}
			st, err := os.Lstat(path + ".lock")
			if err != nil || !st.Mode().IsRegular() {
				t.Fatalf("sidecar after Lock: %v %v; want a regular file", st, err)
			}
			if _, err := os.Lstat(filepath.Join(dir, "target")); err == nil {
				t.Errorf("Lock created the symlink's target")
			}
		})
	}
	t.Run("dir with content", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "state")
		if err := os.MkdirAll(path+".lock/x", 0o755); err != nil {
			t.Fatal(err)
		}
		// an hour's timeout: a Lock that waited instead of refusing at once
		// would not answer within the minute below (no wall-clock threshold
		// near the real cost, so load cannot make this fail)
		done := make(chan error, 1)
		go func() { _, err := LockWithin(path, time.Hour); done <- err }()
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			t.Fatal("Lock waited on a directory sidecar instead of refusing it")
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "state.lock") {
			t.Fatalf("err = %v; want ErrNotRegular naming the sidecar", err)
		}
	})
}

// TestLockTimeoutNamesHolder: a lock held by another process (flock(1), as
// `flock .harness/state.lock sleep 1e9 &` would) makes Lock give up after
// its timeout, not hang, with an error that names the holder's pid and
// command line where the kernel lists it (Linux).
func TestLockTimeoutNamesHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	holder := exec.Command(os.Args[0], "-test.run=^$")
	holder.Env = append(os.Environ(), "FSUTIL_LOCK_HELPER="+path)
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := holder.StdinPipe() // its end of file ends the helper, also when this process dies
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); holder.Wait() })
	buf := make([]byte, 16)
	if _, err := stdout.Read(buf); err != nil { // "locked\n"
		t.Fatal(err)
	}
	// the property is "gives up, does not hang": answering at all within a
	// minute shows it (a bound far from the 300 ms, so load cannot fail it)
	done := make(chan error, 1)
	go func() { _, err := LockWithin(path, 300*time.Millisecond); done <- err }()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatal("Lock hung on a lock held by another process; the timeout is 300ms")
	}
	var le *LockTimeoutError
	if !errors.As(err, &le) || !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("err = %v; want a LockTimeoutError", err)
	}
	if runtime.GOOS == "linux" {
		want := "pid " + strconv.Itoa(holder.Process.Pid)
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "-test.run=^$") {
			t.Errorf("error %q does not name the holder (%s, its command line)", err, want)
		}
	}
	// a shared lock waits for the exclusive holder too
	if _, err := RLockWithin(path, 100*time.Millisecond); !errors.Is(err, ErrLockTimeout) {
		t.Errorf("RLock while held exclusively: %v; want ErrLockTimeout", err)
	}
}

// TestSharedLocks: readers share, a writer waits for them; a reader never
// creates the sidecar (no writer ever locked: nothing to wait for) and never
// replaces a planted one.
func TestSharedLocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	noop, err := RLockWithin(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	noop()
	if _, err := os.Lstat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a shared lock created the sidecar: %v", err)
	}
	w0, err := LockWithin(path, time.Second) // creates it
	if err != nil {
		t.Fatal(err)
	}
	w0()
	r1, err := RLockWithin(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := RLockWithin(path, time.Second)
	if err != nil {
		t.Fatalf("second shared lock: %v", err)
	}
	if _, err := LockWithin(path, 50*time.Millisecond); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("exclusive lock while shared locks are held: %v; want ErrLockTimeout", err)
	}
	r1()
	r2()
	w, err := LockWithin(path, time.Second)
	if err != nil {
		t.Fatalf("exclusive lock after the readers left: %v", err)
	}
	w()
	fifo := filepath.Join(t.TempDir(), "jam")
	if err := syscall.Mkfifo(fifo+".lock", 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := RLockWithin(fifo, time.Second); !errors.Is(err, ErrNotRegular) {
		t.Errorf("shared lock on a FIFO sidecar: %v; want ErrNotRegular", err)
	}
	if st, err := os.Lstat(fifo + ".lock"); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("a shared lock replaced the planted FIFO")
	}
}

// shortTempDir is a temp dir with a short path (a Unix socket path is
// limited to ~100 bytes).
func shortTempDir(t *testing.T) string {
	d, err := os.MkdirTemp("/tmp", "fl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}
