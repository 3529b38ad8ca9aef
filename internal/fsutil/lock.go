package fsutil

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gofrs/flock"
)

// LockTimeout is how long Lock and AppendLine wait for a contended lock before
// giving up with ErrLockTimeout.
const LockTimeout = 10 * time.Second

// ErrLockTimeout is returned when a lock could not be taken within its
// timeout; the error names the lock file and, where the kernel tells
// (Linux /proc/locks), the process holding it.
var ErrLockTimeout = errors.New("fsutil: timed out waiting for lock")

// lockRetry is the pause between two attempts on a contended lock.
const lockRetry = 2 * time.Millisecond

// Lock takes the exclusive advisory lock guarding path (the sidecar file
// path+".lock") and returns the function that releases it. It waits at most
// LockTimeout (see LockWithin).
func Lock(path string) (unlock func(), err error) { return LockWithin(path, LockTimeout) }

// LockWithin is Lock waiting at most timeout. The sidecar is opened without
// ever blocking (O_NONBLOCK, no symlink followed) and checked with fstat on
// the open descriptor, so whatever is planted at its path, a FIFO, a
// directory, a socket or a held flock, the call returns within timeout:
//
//   - a FIFO, socket, device, symbolic link or empty directory at the
//     sidecar's path is removed and a regular sidecar created in its place
//     (a sidecar holds no data, so nothing is lost; the lock files of
//     .harness/ are harness's alone);
//   - anything it cannot remove (a directory with content) is a
//     *NotRegularError saying what to remove;
//   - a lock held by another process past timeout is ErrLockTimeout,
//     naming the holder's pid and command line when the kernel tells.
func LockWithin(path string, timeout time.Duration) (unlock func(), err error) {
	return lockSidecar(path, timeout, false)
}

// RLockWithin takes the shared lock guarding path (readers: one consistent
// snapshot while no writer holds Lock) and waits at most timeout. A reader
// changes nothing: the sidecar is opened read-only and never created (a
// missing sidecar means no writer ever locked, so there is nothing to wait
// for: unlock is a no-op), and a non-regular sidecar is a *NotRegularError
// instead of being replaced. A held exclusive lock past timeout is a
// *LockTimeoutError naming the holder.
func RLockWithin(path string, timeout time.Duration) (unlock func(), err error) {
	return lockSidecar(path, timeout, true)
}

func lockSidecar(path string, timeout time.Duration, shared bool) (func(), error) {
	side := path + ".lock"
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	flags := lockOpenFlags
	if shared {
		flags = readLockOpenFlags
	}
	for attempt := 0; ; attempt++ {
		if shared {
			st, err := os.Lstat(side)
			if errors.Is(err, fs.ErrNotExist) {
				return func() {}, nil
			}
			if err == nil && !st.Mode().IsRegular() {
				return nil, &NotRegularError{Path: side, Mode: st.Mode()}
			}
		} else if err := clearPlanted(side); err != nil {
			return nil, err
		}
		fl := flock.New(side, flock.SetFlag(flags), flock.SetPermissions(0o644))
		var ok bool
		var err error
		if shared {
			ok, err = fl.TryRLockContext(ctx, lockRetry)
		} else {
			ok, err = fl.TryLockContext(ctx, lockRetry)
		}
		if err != nil || !ok {
			if errors.Is(err, context.DeadlineExceeded) || (err == nil && !ok) || ctx.Err() != nil {
				return nil, &LockTimeoutError{Path: side, Timeout: timeout, Holder: lockHolder(side)}
			}
			if shared && errors.Is(err, fs.ErrNotExist) {
				return func() {}, nil // removed since the Lstat
			}
			if isNotRegularOpen(err) && attempt < 3 {
				continue // swapped for a FIFO/link/dir after clearPlanted: clear it again
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		st, err := fl.Stat() // fstat of the locked descriptor
		if err == nil && st.Mode().IsRegular() {
			return func() { _ = fl.Unlock(); _ = fl.Close() }, nil
		}
		_ = fl.Unlock()
		_ = fl.Close()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if shared || attempt >= 3 {
			return nil, &NotRegularError{Path: side, Mode: st.Mode()}
		}
	}
}

// clearPlanted removes what a regular lock sidecar cannot be: a FIFO,
// socket, device, symbolic link or empty directory at side. A missing or
// regular sidecar is left alone; a directory with content is a
// *NotRegularError (remove it by hand; `harness validate` reports it).
func clearPlanted(side string) error {
	st, err := os.Lstat(side)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	if err := os.Remove(side); err != nil && !errors.Is(err, fs.ErrNotExist) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // "read-only file system", "directory not empty"
		}
		if errors.Is(err, syscall.EBUSY) {
			// Linux: unlink of a mount point. Claude Code's sandbox mounts
			// /dev/null over the missing paths it keeps read-only.
			err = fmt.Errorf("%w: it is a mount point, as a sandbox mounts over the files it keeps read-only", err)
		}
		return &NotRegularError{Path: side, Mode: st.Mode(), Cause: err}
	}
	syncDir(filepath.Dir(side))
	return nil
}

// LockTimeoutError is ErrLockTimeout for one sidecar: Path is the lock file,
// Holder describes the process holding it ("" when unknown).
type LockTimeoutError struct {
	Path    string
	Timeout time.Duration
	Holder  string
}

func (e *LockTimeoutError) Error() string {
	who := "by another process"
	if e.Holder != "" {
		who = "by " + e.Holder
	}
	return fmt.Sprintf("%v: %s is held %s for more than %s (a harness command still running, or a process that took the lock and never released it: end it, then retry)",
		ErrLockTimeout, e.Path, who, e.Timeout)
}

// Unwrap makes errors.Is(err, ErrLockTimeout) true.
func (e *LockTimeoutError) Unwrap() error { return ErrLockTimeout }
