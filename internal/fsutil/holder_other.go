//go:build unix && !linux

package fsutil

// lockHolder: these systems have no lock table a process can read without
// privileges; the error names the lock file (`lsof <file>` shows the holder).
func lockHolder(side string) string { return "" }
