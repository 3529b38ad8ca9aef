//go:build unix

package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openNoBlock opens path read-only with O_NONBLOCK, so that opening a FIFO
// with no writer returns at once instead of waiting (regular files are not
// affected by the flag).
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openAppendNoBlock opens path for appending (created 0644 when missing)
// with O_NONBLOCK, so that a FIFO without a reader fails (ENXIO) instead of
// waiting for one, and O_NOFOLLOW, so that a symbolic link planted at path
// fails (ELOOP) instead of sending the line to whatever file it names; the
// caller checks the file type with fstat.
func openAppendNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o644)
}

// openNoBlockNoFollow is openNoBlock with O_NOFOLLOW: a symbolic link at
// path fails (ELOOP, EMLINK on some BSDs) and is reported as a
// *NotRegularError naming it a link.
func openNoBlockNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil && (errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)) {
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, &NotRegularError{Path: path, Mode: st.Mode()}
		}
	}
	return f, err
}
