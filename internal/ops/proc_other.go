//go:build !unix

package ops

import "os"

// processGone reports whether no process with this pid exists (Windows:
// the process cannot be opened).
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	_ = p.Release()
	return false
}
