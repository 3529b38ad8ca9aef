//go:build !unix

package fsutil

import "os"

// openNoBlock opens path read-only (no FIFOs in the file system to fear on
// these systems: Windows named pipes live under \\.\pipe\).
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }

// openAppendNoBlock opens path for appending, created 0644 when missing.
func openAppendNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
}
