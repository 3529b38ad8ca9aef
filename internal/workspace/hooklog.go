package workspace

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// HookLogRotateSize is the size at which harness-hook rotates
// H/logs/hook.log (docs/protocol.md §15): before appending a record to a
// hook.log of at least this many bytes, it renames the file to
// hook.log.<N+1> (N the highest number in use, so a larger number is newer)
// and starts a new one. Rotated files are never deleted or rewritten: every
// record is kept. Readers that need history (harness status, doctor) read
// hook.log and then the rotated files, newest first, each backwards.
const HookLogRotateSize = 8 << 20

// HookLogFiles returns the hook log at path (H/logs/hook.log) and its
// rotated files path.<N>, newest first; files that do not exist are left
// out except path itself.
func HookLogFiles(path string) []string {
	out := []string{path}
	rot := rotatedHookLogs(path)
	for i := len(rot) - 1; i >= 0; i-- {
		out = append(out, rot[i].path)
	}
	return out
}

type rotatedLog struct {
	path string
	n    int
}

// rotatedHookLogs lists path.<N> files in increasing N.
func rotatedHookLogs(path string) []rotatedLog {
	dir, base := filepath.Split(path)
	ents, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return nil
	}
	var out []rotatedLog
	for _, e := range ents {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, base+".")
		if !ok || e.IsDir() {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || strconv.Itoa(n) != rest {
			continue
		}
		out = append(out, rotatedLog{filepath.Join(dir, name), n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n < out[j].n })
	return out
}

// NextRotatedHookLog is the name the hook log at path gets when it is
// rotated: path.<N+1>.
func NextRotatedHookLog(path string) string {
	n := 0
	if rot := rotatedHookLogs(path); len(rot) > 0 {
		n = rot[len(rot)-1].n
	}
	return path + "." + strconv.Itoa(n+1)
}
