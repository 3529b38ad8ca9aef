package fsutil

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// StaleTempAge is the age after which WriteFileAtomic deletes a leftover
// temporary file of its target (10 min): a live writer holds its temp for
// milliseconds (write, fsync, rename), so a temp this old belongs to a
// writer that was killed between create and rename.
const StaleTempAge = 10 * time.Minute

// tempPrefix and tempInfix build the temporary name of WriteFileAtomic:
// "." + base + ".tmp-" + decimal digits (os.CreateTemp's random part).
const (
	tempPrefix = "."
	tempInfix  = ".tmp-"
)

// TempTarget reports whether name (a base name, no directory) is a temporary
// file of WriteFileAtomic, ".<target>.tmp-<digits>", and returns <target>.
// `harness validate` reports such files (layout.stale-temp).
func TempTarget(name string) (target string, ok bool) {
	if !strings.HasPrefix(name, tempPrefix) {
		return "", false
	}
	i := strings.LastIndex(name, tempInfix)
	if i <= len(tempPrefix) {
		return "", false
	}
	digits := name[i+len(tempInfix):]
	if digits == "" {
		return "", false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	return name[len(tempPrefix):i], true
}

// sweepStaleTemps deletes, best effort, the temporary files of path's
// WriteFileAtomic (".<base>.tmp-<digits>" in the same directory) whose
// modification time is at least StaleTempAge before now. Temps of other
// targets and younger temps (a concurrent writer's) are left alone.
func sweepStaleTemps(path string, now time.Time) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if target, ok := TempTarget(e.Name()); !ok || target != base || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < StaleTempAge {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}
