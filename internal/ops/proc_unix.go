//go:build unix

package ops

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// processGone reports whether no process with this pid runs any more:
// signal 0 answers ESRCH, or (Linux) /proc says it is a zombie nobody has
// reaped yet. A process of another user (EPERM) runs. A pid the system has
// given to a new process since reads as running: status then says what the
// pool says.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return errors.Is(err, syscall.ESRCH)
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// "pid (comm) S …": the state follows the last ')'
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z' || stat[i+2] == 'X'
	}
	return false
}
