// Package ccsettings is the one model of a Claude Code settings file
// (settings.json, settings.local.json, a --settings file): reading it
// (bounded, regular files only), merging the harness's own entries into it
// while keeping everything else, and writing it atomically.
//
// What the harness owns in a settings file:
//
//   - hook handlers that run harness-hook (docs/hooks.md §7): exec form, an
//     absolute "command" and "args" naming the event, root, feature and
//     sprint, a "timeout" in seconds, and "onFailure": "block" on PreToolUse
//     (a hook that cannot start, is killed or times out then denies the
//     tool call; the real CLI 2.1.332 honours it, internal/e2e);
//   - for the file `harness launch` writes, the "sandbox" and "permissions"
//     blocks (typed here as Sandbox and Permissions).
//
// Everything else (other top-level keys, other events, other matcher groups,
// other handlers) is kept: the document is held as an order-preserving JSON
// object (workspace.Object), so keys keep their order and values their
// content, and a merge that changes nothing returns the original bytes.
//
// Users: `harness init-feature` (the feature's .claude/settings.json),
// `harness launch` (the session's --settings file), `harness doctor` (the
// typed read view Settings) and `harness install/uninstall`.
package ccsettings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// MaxSize bounds a settings file read (bytes); Claude Code's own files are a
// few KB.
const MaxSize = 4 << 20

// Doc is one settings document as an order-preserving JSON object.
type Doc struct {
	obj  *workspace.Object
	orig []byte // the bytes it was parsed from (nil for a new document)
}

// New returns an empty settings document.
func New() *Doc { return &Doc{obj: workspace.NewObject()} }

// Parse decodes data as a settings document. Empty or all-white-space data is
// an empty document; anything but one JSON object (null, an array, trailing
// data, invalid JSON) is an error.
func Parse(data []byte) (*Doc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &Doc{obj: workspace.NewObject(), orig: data}, nil
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, errors.New("settings are null, not a JSON object")
	}
	o, err := workspace.ParseObject(data)
	if err != nil {
		return nil, fmt.Errorf("settings are not a JSON object: %w", err)
	}
	return &Doc{obj: o, orig: data}, nil
}

// Read parses the settings file at path; a missing file is an empty
// document. The file must be a regular file of at most MaxSize bytes
// (fsutil.ReadRegular: a FIFO never blocks the read).
func Read(path string) (*Doc, error) {
	data, err := fsutil.ReadRegular(path, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Bytes renders the document as Claude Code settings are usually written:
// two-space indent, no HTML escaping, trailing newline. When the content is
// the same as what the document was parsed from (same members, same values,
// same order), the original bytes are returned unchanged.
func (d *Doc) Bytes() ([]byte, error) {
	out, err := workspace.MarshalIndent(d.obj)
	if err != nil {
		return nil, err
	}
	if d.orig != nil && sameJSON(d.orig, out) {
		return d.orig, nil
	}
	return out, nil
}

// sameJSON reports whether a and b are the same JSON text up to
// insignificant white space.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if len(bytes.TrimSpace(a)) == 0 {
		a = []byte("{}")
	}
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// Update reads the settings file at path under its sidecar lock, applies fn
// and writes the result atomically (fsutil.UpdateFile); a file whose content
// fn does not change keeps its bytes. perm applies to a new file.
func Update(path string, perm os.FileMode, fn func(*Doc) error) error {
	return fsutil.UpdateFile(path, perm, func(old []byte) ([]byte, error) {
		d, err := Parse(old)
		if err != nil {
			return nil, err
		}
		if err := fn(d); err != nil {
			return nil, err
		}
		return d.Bytes()
	})
}

// Write replaces the file at path with the document (atomic: temp file and
// rename).
func Write(path string, d *Doc, perm os.FileMode) error {
	data, err := d.Bytes()
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, data, perm)
}

// Has reports whether the document has the top-level key.
func (d *Doc) Has(key string) bool { return d.obj.Has(key) }

// Set replaces (in place) or appends the top-level key with v, encoded as
// JSON now.
func (d *Doc) Set(key string, v any) error { return d.obj.Set(key, v) }

// Delete removes the top-level key.
func (d *Doc) Delete(key string) { d.obj.Delete(key) }

// Decode unmarshals the top-level key into dst; false when the key is
// absent or does not fit dst.
func (d *Doc) Decode(key string, dst any) bool { return d.obj.Decode(key, dst) }

// SetSandbox replaces the "sandbox" block.
func (d *Doc) SetSandbox(s Sandbox) error { return d.Set("sandbox", s) }

// SetPermissions replaces the "permissions" block.
func (d *Doc) SetPermissions(p Permissions) error { return d.Set("permissions", p) }

// Settings decodes the typed view of the document (see Decode).
func (d *Doc) Settings() (Settings, error) {
	b, err := d.obj.MarshalJSON()
	if err != nil {
		return Settings{}, err
	}
	return Decode(b)
}
