//go:build windows

package fsutil

// syncDir is a no-op on Windows: directories cannot be opened for fsync, and
// MoveFileEx (used by os.Rename) is already durable on NTFS.
func syncDir(string) {}
