// Package userlog is the user-level audit log of harness-hook: where the
// hook records its decisions when it runs outside a sprint workspace (a
// project guarded with `harness install`), and where `harness logs` reads
// them. Inside a sprint the log is the sprint's .harness/logs/hook.log.
//
// The file is <state dir>/harness/hook.log, JSON Lines, one record per hook
// call (the same records as a sprint's hook.log, credentials masked by the
// hook before they are written). The state dir is $XDG_STATE_HOME, else
// ~/.local/state on Linux and other Unix systems, ~/Library/Logs on macOS
// and %LocalAppData% on Windows. It is capped at MaxBytes: an append that
// would pass the cap first renames hook.log to hook.log.1 (replacing the
// previous one), so at most twice the cap is kept.
package userlog

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// MaxBytes caps hook.log before it is rotated to hook.log.1.
const MaxBytes = 4 << 20

// Path returns the user-level hook.log for the environment env on goos
// ("linux", "darwin", "windows", …), or "" when no home or state dir is
// known.
func Path(env map[string]string, goos string) string {
	dir := StateDir(env, goos)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "harness", "hook.log")
}

// StateDir is the per-user state directory (see the package doc).
func StateDir(env map[string]string, goos string) string {
	if d := env["XDG_STATE_HOME"]; d != "" && filepath.IsAbs(d) {
		return d
	}
	switch goos {
	case "windows":
		if d := env["LOCALAPPDATA"]; d != "" {
			return d
		}
		if h := env["USERPROFILE"]; h != "" {
			return filepath.Join(h, "AppData", "Local")
		}
		return ""
	case "darwin":
		if h := env["HOME"]; h != "" {
			return filepath.Join(h, "Library", "Logs")
		}
		return ""
	}
	if h := env["HOME"]; h != "" {
		return filepath.Join(h, ".local", "state")
	}
	return ""
}

// Append adds one JSON line to the log at path (locked, whole line),
// rotating it first when it would pass max bytes.
func Append(path string, line []byte, max int64) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	unlock, err := fsutil.Lock(path + ".rotate")
	if err != nil {
		return err
	}
	defer unlock()
	if st, err := os.Lstat(path); err == nil {
		if !st.Mode().IsRegular() {
			return errors.New(path + " is not a regular file")
		}
		if st.Size()+int64(len(line)) > max {
			if err := os.Rename(path, path+".1"); err != nil {
				return err
			}
		}
	}
	return fsutil.AppendLine(path, line)
}
