package ops

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// SandboxTempDir is the sandbox's temporary directory of a sprint (the
// client's CLAUDE_CODE_TMPDIR, which harness launch sets):
// /tmp/harness-<8 hex digits of the root's hash> on Unix, one per sprint
// root, so the build caches below it survive from one session to the next
// of the same sprint and are shared with nothing else. It is short on
// purpose: Claude Code 2.1.332 keeps its sockets below it and silently falls
// back to the shared /tmp/claude-<uid> (writable by every sandboxed session
// of the user) when the path is longer than about 35 characters (checked
// with the real client; a macOS $TMPDIR is too long).
//
// It is removed by the launch that created it when that launch fails, and
// when the sprint closes (`harness finalize --close`, `harness pipeline sink`;
// removeSandboxTempDir);
// between the sessions of a sprint it stays (docs/sandbox.md).
func SandboxTempDir(root string) string {
	base := "/tmp"
	if runtime.GOOS == "windows" {
		base = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(base, "harness-"+hex.EncodeToString(sum[:4]))
}

// removeSandboxTempDir removes the sprint's sandbox temporary directory
// when it is a real directory of this user (not a link someone planted in
// /tmp) and says so in rep; a failure is reported, not fatal.
func (env *Env) removeSandboxTempDir(rep *Report) {
	dir := SandboxTempDir(env.Root)
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the sandbox's temporary directory %s could not be removed: %v", dir, err))
		return
	}
	rep.did("removed the sandbox's temporary directory %s (the sessions' build caches)", dir)
}
