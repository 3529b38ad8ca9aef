//go:build unix

package launch

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"syscall"
)

// detach starts the client in its own session, so that it outlives launch
// and the terminal it ran in.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// signalGroup sends SIGTERM (kill: SIGKILL) to the client's process group
// when it leads one, else to the process.
func signalGroup(cmd *exec.Cmd, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	pid := cmd.Process.Pid
	if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid {
		_ = syscall.Kill(-pid, sig)
		return
	}
	_ = cmd.Process.Signal(sig)
}

// ownedPrivate checks that a directory belongs to this user and is closed
// to everyone else (mode 0700).
func ownedPrivate(st fs.FileInfo) error {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return errors.New("it belongs to another user")
	}
	if st.Mode().Perm()&0o077 != 0 {
		return errors.New("others may use it (mode " + st.Mode().Perm().String() + ", want drwx------)")
	}
	return nil
}
