package ops

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// HookProofWindow is how much earlier than a session's started_at its
// SessionStart hook record may be and still prove that the session's hooks
// are live (docs/sandbox.md §4): `harness launch` waits for the record and
// then records the session, `harness session start` run by hand may come
// before or after the client started. A record for the same id from an
// earlier run of that id is older and proves nothing.
const HookProofWindow = 2 * time.Minute

// HookRecord is the part of a hook.log record the proof and the status
// read (internal/hook Record).
type HookRecord struct {
	Time    string `json:"time"`
	Event   string `json:"event"`
	Session string `json:"session"`
	Feature string `json:"feature"`
	Verdict string `json:"verdict"`
	Sandbox string `json:"sandbox"`
}

// recordTime reads the time of a hook.log record written by harness-hook,
// whose first member is "time" (UTC-Z, whole seconds).
func recordTime(line []byte) (time.Time, bool) {
	const prefix = `{"time":"`
	if len(line) < len(prefix)+20 || string(line[:len(prefix)]) != prefix || line[len(prefix)+20] != '"' {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, string(line[len(prefix):len(prefix)+20]))
	return t, err == nil
}

// At is the record's time (zero when it does not parse).
func (r HookRecord) At() time.Time {
	t, _ := time.Parse(time.RFC3339, r.Time)
	return t
}

// SessionStartRecord returns the newest SessionStart record of hook.log for
// session sid whose time is not before notBefore (whole seconds). The log is
// read backwards and the search stops at the first record older than
// notBefore minus HookProofWindow, so the cost does not grow with the log.
// A missing hook.log is no record, not an error.
func SessionStartRecord(root, sid string, notBefore time.Time) (HookRecord, bool, error) {
	needle, _ := json.Marshal(sid)
	needle = bytes.Trim(needle, `"`)
	floor := notBefore.Truncate(time.Second)
	var found HookRecord
	ok, done := false, false
	event := []byte(`"SessionStart"`)
	visit := func(line []byte) bool {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] != '{' {
			return true
		}
		if !bytes.Contains(t, event) {
			// not a SessionStart: only its time matters (harness-hook writes
			// "time" first); the line is not decoded
			if at, ok := recordTime(t); ok && at.Before(floor.Add(-HookProofWindow)) {
				done = true
				return false
			}
			return true
		}
		var r HookRecord
		if json.Unmarshal(t, &r) != nil {
			return true
		}
		at := r.At()
		if !at.IsZero() && at.Before(floor.Add(-HookProofWindow)) {
			done = true
			return false
		}
		if r.Event != "SessionStart" || r.Session != sid || !bytes.Contains(t, needle) || at.Before(floor) {
			return true
		}
		found, ok, done = r, true, true
		return false
	}
	// hook.log, then its rotated files, newest first (it may have rotated
	// since the session started)
	for i, path := range workspace.HookLogFiles((&workspace.Workspace{Root: root}).HookLog()) {
		f, st, err := fsutil.OpenRegular(path)
		if errors.Is(err, fs.ErrNotExist) && i == 0 {
			continue
		}
		if err != nil {
			return HookRecord{}, false, err
		}
		_, err = fsutil.EachLineBackward(f, st.Size(), fsutil.BackwardOptions{MaxLine: 1 << 20}, visit)
		f.Close()
		if err != nil || done {
			return found, ok, err
		}
	}
	return found, ok, nil
}
