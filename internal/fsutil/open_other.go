//go:build !unix

package fsutil

import (
	"io/fs"
	"os"
)

// openNoBlock opens path read-only (no FIFOs in the file system to fear on
// these systems: Windows named pipes live under \\.\pipe\).
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }

// openAppendNoBlock opens path for appending, created 0644 when missing. A
// symbolic link at path is refused (these systems have no O_NOFOLLOW; the
// Lstat leaves a window a Unix open does not).
func openAppendNoBlock(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
}

// openNoBlockNoFollow is openNoBlock refusing a symbolic link at path (no
// O_NOFOLLOW here: the Lstat leaves a window a Unix open does not).
func openNoBlockNoFollow(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return os.Open(path)
}
