//go:build windows

package fsutil

import "os"

// lockOpenFlags open a sidecar read-write, created when missing (Windows has
// no FIFOs in the file system).
const lockOpenFlags = os.O_CREATE | os.O_RDWR

// readLockOpenFlags open a sidecar for a shared lock, never creating it.
const readLockOpenFlags = os.O_RDONLY

func isNotRegularOpen(err error) bool { return false }

// lockHolder cannot ask Windows who holds a LockFileEx lock.
func lockHolder(side string) string { return "" }
