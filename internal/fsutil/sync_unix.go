//go:build !windows

package fsutil

import "os"

// syncDir fsyncs a directory so a completed rename survives a power loss.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
