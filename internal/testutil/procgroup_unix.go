//go:build unix

package testutil

import (
	"os/exec"
	"syscall"
)

// OwnGroup starts cmd (when it is started) as the leader of a new process
// group and makes the cancellation of its context (exec.CommandContext)
// kill the whole group with SIGKILL, so that what the command started —
// a client's hook and tool processes, sandbox helpers such as socat — ends
// with it instead of outliving the test. After Wait, KillGroup ends what is
// left of the group when the leader exited on its own. cmd must come from
// exec.CommandContext (exec refuses a Cancel otherwise); call before Start.
func OwnGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// KillGroup sends SIGKILL to every process left in the group cmd led
// (OwnGroup), after cmd.Wait returned: background children the command
// left behind. A group with no member left is not an error. The group id
// stays reserved while any member lives, so the signal cannot reach an
// unrelated process.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process == nil || cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setpgid {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
