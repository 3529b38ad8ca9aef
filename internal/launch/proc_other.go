//go:build !unix

package launch

import (
	"io/fs"
	"os/exec"
)

// detach is a no-op here: the client stays in launch's process group.
func detach(cmd *exec.Cmd) {}

// signalGroup kills the client (no process groups to signal).
func signalGroup(cmd *exec.Cmd, kill bool) { _ = cmd.Process.Kill() }

// ownedPrivate accepts the directory (no owner or mode bits to check).
func ownedPrivate(st fs.FileInfo) error { return nil }
