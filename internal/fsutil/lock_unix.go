//go:build unix

package fsutil

import (
	"errors"
	"os"
	"syscall"
)

// lockOpenFlags open a sidecar read-write, created when missing, never
// waiting (a FIFO opens at once) and never through a symbolic link.
const lockOpenFlags = os.O_CREATE | os.O_RDWR | syscall.O_NONBLOCK | syscall.O_NOFOLLOW | syscall.O_CLOEXEC

// readLockOpenFlags open a sidecar for a shared lock: read-only, never
// created, never waiting, never through a symbolic link.
const readLockOpenFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW | syscall.O_CLOEXEC

// isNotRegularOpen reports an open error caused by what is at the path: a
// symbolic link (O_NOFOLLOW), a directory, a FIFO without reader.
func isNotRegularOpen(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.ENXIO) ||
		errors.Is(err, syscall.EMLINK) || errors.Is(err, syscall.ENOTDIR)
}
