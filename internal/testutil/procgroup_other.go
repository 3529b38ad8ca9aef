//go:build !unix

package testutil

import "os/exec"

// OwnGroup is a no-op where there are no process groups to signal: the
// context's cancellation kills the command itself (exec.CommandContext).
func OwnGroup(cmd *exec.Cmd) {}

// KillGroup is a no-op where there are no process groups.
func KillGroup(cmd *exec.Cmd) {}
