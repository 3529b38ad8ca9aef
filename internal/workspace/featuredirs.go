package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/digest"
	"github.com/superagent-harness/harness/internal/fsutil"
)

// FeatureDirsKey is the member of hermes_context_state.json in which
// `harness init-feature` records the feature directories it created and the
// bytes of the Hermes files it wrote there (docs/protocol.md §16
// "Authority", "Feature directories").
//
// Why: a sandboxed Generator may create new names in .harness/features/ (a
// feature id not yet in feature_list.json when its session started,
// docs/sandbox.md §6), so a directory found there, and an AGENTS.md or
// context_snapshot.md in it, may be the Generator's. Only this record,
// which no Generator can write, says which directory and which bytes are
// Hermes's.
const FeatureDirsKey = "feature_dirs"

// HermesFeatureFiles are the files of a feature directory only Hermes writes
// (init-feature) and nobody changes afterwards (docs/protocol.md §3.11):
// what a Generator session is told to read first.
var HermesFeatureFiles = []string{"AGENTS.md", "context_snapshot.md"}

// FeatureDirRecord is what init-feature recorded for one feature directory.
type FeatureDirRecord struct {
	// CreatedAt is when init-feature created the directory (UTC-Z), or
	// when the sprint started keeping the record for a directory it found.
	CreatedAt string `json:"created_at"`
	// Adopted marks a directory that existed when the sprint started
	// keeping the record (a sprint from before harness kept one): taken as
	// found, like eval_log lines before the ledger's since.
	Adopted bool `json:"adopted,omitempty"`
	// Files maps each of HermesFeatureFiles to FileHash of the bytes
	// init-feature wrote (or found, when Adopted).
	Files map[string]string `json:"files"`
}

// FeatureDirs is the record of one sprint. Known is false for a sprint that
// keeps none (hermes_context_state.json without the member, missing or
// unparsable): every check then passes, as for a sprint from before the
// record existed.
type FeatureDirs struct {
	Known bool
	Dirs  map[string]FeatureDirRecord
}

// FileHash is the record of one file's bytes: the first 8 bytes of its
// SHA-256 in hex (16 digits).
func FileHash(data []byte) string { return digest.Hex(digest.Sum256(data), 8) }

// ParseFeatureDirs reads the member's raw JSON (nil: not kept). A member
// that is not an object of records is kept but empty, so every directory is
// unrecorded (the cautious reading; validate reports the schema violation).
func ParseFeatureDirs(raw json.RawMessage) FeatureDirs {
	if len(raw) == 0 || string(raw) == "null" {
		return FeatureDirs{}
	}
	d := FeatureDirs{Known: true, Dirs: map[string]FeatureDirRecord{}}
	var m map[string]FeatureDirRecord
	if json.Unmarshal(raw, &m) == nil {
		for id, r := range m {
			if FeatureIDPattern.MatchString(id) {
				d.Dirs[id] = r
			}
		}
	}
	return d
}

// LoadFeatureDirs reads the record from hermes_context_state.json (bounded).
// A missing file or one that is not a JSON object is a sprint without the
// record; a read error other than a missing file is returned.
func (w *Workspace) LoadFeatureDirs() (FeatureDirs, error) {
	data, err := fsutil.ReadRegular(w.HermesContext(), fsutil.CapState)
	if errors.Is(err, fs.ErrNotExist) {
		return FeatureDirs{}, nil
	}
	if err != nil {
		return FeatureDirs{}, err
	}
	var hc map[string]json.RawMessage
	if json.Unmarshal(data, &hc) != nil {
		return FeatureDirs{}, nil
	}
	return ParseFeatureDirs(hc[FeatureDirsKey]), nil
}

// Problems says why the directory of feature id cannot be taken as the one
// init-feature wrote (nil when it can, or when the sprint keeps no record):
// the directory (or a name on the way to one of its Hermes files) is a
// symbolic link or not a directory, the sprint's record does not list it,
// or a Hermes file differs from the bytes recorded. A missing directory or
// Hermes file is not a problem here (preflight reports missing files).
func (d FeatureDirs) Problems(w *Workspace, id string) []string {
	if !d.Known {
		return nil
	}
	dir := w.FeatureDir(id)
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []string{err.Error()}
	}
	rel := ".harness/features/" + id
	rec, ok := d.Dirs[id]
	if !ok {
		return []string{fmt.Sprintf("%s was not created by harness init-feature (hermes_context_state.json %s has no record of it): a Generator may have planted it", rel, FeatureDirsKey)}
	}
	if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
		return []string{fmt.Sprintf("%s is not a directory but %s: something replaced the directory init-feature created", rel, modeName(st.Mode()))}
	}
	var out []string
	for _, name := range HermesFeatureFiles {
		p := filepath.Join(dir, name)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		if !fi.Mode().IsRegular() {
			out = append(out, fmt.Sprintf("%s/%s is %s, not the file init-feature wrote", rel, name, modeName(fi.Mode())))
			continue
		}
		data, err := fsutil.ReadRegular(p, fsutil.CapRecord)
		if err != nil {
			out = append(out, fmt.Sprintf("%s/%s: %v", rel, name, err))
			continue
		}
		if want, got := rec.Files[name], FileHash(data); want != got {
			out = append(out, fmt.Sprintf("%s/%s is not what init-feature wrote (sha256 %s, recorded %s): someone changed it afterwards", rel, name, got, orNone(want)))
		}
	}
	return out
}

// IDs returns the recorded feature ids in order.
func (d FeatureDirs) IDs() []string {
	ids := make([]string, 0, len(d.Dirs))
	for id := range d.Dirs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsRegular():
		return "a regular file"
	}
	return "a " + m.Type().String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// RelQuarantine is where harness moves what it finds planted at a path it
// writes or has not written itself (a directory or FIFO where a state file
// belongs, internal/ops; a feature directory init-feature has no record of):
// nothing reads it, and .harness/logs/ is read-only for a Generator
// (docs/protocol.md §1.1).
const RelQuarantine = ".harness/logs/quarantine"

// Quarantine moves the file, folder or link at rel (a slash path relative
// to the root; a link is moved, not followed) to a fresh name below
// RelQuarantine — its path below .harness/ with "__" for "/", then "." and
// now as a UTC stamp — and returns that name, relative to the root.
func (w *Workspace) Quarantine(rel string, now time.Time) (string, error) {
	dir := filepath.Join(w.Root, filepath.FromSlash(RelQuarantine))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	base := strings.ReplaceAll(strings.TrimPrefix(rel, ".harness/"), "/", "__")
	stamp := now.UTC().Format("20060102T150405Z")
	for n := 0; n < 1000; n++ {
		name := base + "." + stamp
		if n > 0 {
			name += fmt.Sprintf(".%d", n)
		}
		dst := filepath.Join(dir, name)
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Rename(filepath.Join(w.Root, filepath.FromSlash(rel)), dst); err != nil {
			return "", err
		}
		return RelQuarantine + "/" + name, nil
	}
	return "", errors.New("no free name in " + RelQuarantine)
}
