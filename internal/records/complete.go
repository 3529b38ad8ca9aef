package records

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// ErrIncomplete is returned by CompletePhase when a record check (3–9) fails;
// the Report lists the failures and nothing was written.
var ErrIncomplete = errors.New("phase records are incomplete")

// CompletePhase implements `harness phase complete <feature>` (testdata/sprints/README.md
// §7, docs/protocol.md §13 #42): under the workspace lock it runs checks
// 3–9 with the same code as Stop and, only if they all pass, sets
// `done: true` on the next_phases entry whose phase equals the feature's
// current phase P, by an atomic replace of feature_list.json that keeps every
// other byte of meaning (unknown fields, key order). It never changes
// `phase` or `current`. Errors: ErrIncomplete (Report.Failures says why);
// an error when the feature is unknown, feature_list.json is missing or
// broken, or the entry for P does not exist; I/O and lock errors.
func CompletePhase(ws *workspace.Workspace, feature string) (Report, error) {
	unlock, err := fsutil.Lock(ws.StateLock())
	if err != nil {
		return Report{Feature: feature}, err
	}
	defer unlock()
	r, err := check(ws, feature, false, EvalStateOptions{})
	if err != nil {
		return r, err
	}
	if r.Skipped {
		return r, errors.New(r.SkipReason)
	}
	if !r.OK() {
		return r, ErrIncomplete
	}
	p := r.Phase
	err = fsutil.UpdateFile(ws.FeatureList(), 0o644, func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, errors.New(".harness/feature_list.json is missing")
		}
		return markDone(old, feature, p)
	})
	return r, err
}

// errUnchanged aborts UpdateFile when done is already true (nothing to write).
var errUnchanged = errors.New("unchanged")

// markDone sets features[id==feature].next_phases[phase==p].done = true in
// the feature_list document, editing only that member.
func markDone(doc []byte, feature string, p int) ([]byte, error) {
	top, err := workspace.ParseObject(doc)
	if err != nil {
		return nil, fmt.Errorf(".harness/feature_list.json: %w", err)
	}
	var feats []*workspace.Object
	if !top.Decode("features", &feats) {
		return nil, errors.New(".harness/feature_list.json: features is not an array of objects")
	}
	for _, fo := range feats {
		var id string
		if !fo.Decode("id", &id) || id != feature {
			continue
		}
		var nps []*workspace.Object
		if !fo.Decode("next_phases", &nps) {
			return nil, fmt.Errorf("feature %s: next_phases is not an array of objects", feature)
		}
		found := false
		for _, np := range nps {
			var ph int
			if np.Decode("phase", &ph) && ph == p {
				if err := np.Set("done", true); err != nil {
					return nil, err
				}
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("feature %s has no next_phases entry with phase=%d", feature, p)
		}
		if err := fo.Set("next_phases", nps); err != nil {
			return nil, err
		}
		if err := top.Set("features", feats); err != nil {
			return nil, err
		}
		out, err := workspace.MarshalIndent(top)
		if err == nil && !bytes.HasSuffix(doc, []byte("\n")) {
			out = bytes.TrimSuffix(out, []byte("\n")) // keep the file's own ending
		}
		return out, err
	}
	return nil, fmt.Errorf("feature %s is not in .harness/feature_list.json", feature)
}

// ResetException evaluates Stop check 1 (testdata/sprints/README.md §7): it applies
// when H/features/<feature>/handoff.md exists, its raw size (as the OS
// reports it) is > 50 bytes and now − mtime < 300 s. trigger is the text
// after `**Trigger reason**` (trimmed, a leading ':' or '：' removed), or
// "handoff.md written (reset)" when that is missing, empty or lazy. A
// handoff.md that is not a regular file (a FIFO, directory) never applies and
// is never waited on. err is only for I/O errors other than a missing file.
func ResetException(ws *workspace.Workspace, feature string, now time.Time) (applies bool, trigger string, mtime time.Time, err error) {
	f, st, err := fsutil.OpenRegular(ws.Handoff(feature))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fsutil.ErrNotRegular) {
		return false, "", time.Time{}, nil
	}
	if err != nil {
		return false, "", time.Time{}, err
	}
	defer f.Close()
	mtime = st.ModTime()
	// A handoff dated in the future (touch -d '+1 year') is not fresh: it would
	// otherwise open the exception for as long as the date lies ahead and
	// defeat the once-per-handoff bookkeeping. HandoffClockSkew tolerates the
	// file system's clock running slightly ahead of ours.
	age := now.Sub(mtime)
	if st.Size() <= HandoffMinRawBytes || age >= HandoffMaxAge || age < -HandoffClockSkew {
		return false, "", mtime, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxHandoffRead))
	if err != nil {
		return false, "", mtime, err
	}
	return true, TriggerReason(data), mtime, nil
}

// maxHandoffRead is how much of handoff.md the reset exception reads (only
// its **Trigger reason** line matters; the Generator writes the file and
// could make it a sparse file of any size).
const maxHandoffRead = 4 << 20

// DefaultResetTrigger is the reset reason used when handoff.md has no usable
// **Trigger reason** line.
const DefaultResetTrigger = "handoff.md written (reset)"

// TriggerReason extracts the **Trigger reason** text of a handoff.md.
func TriggerReason(handoff []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(handoff))
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, "**Trigger reason**")
		if i < 0 {
			continue
		}
		t := strings.TrimSpace(line[i+len("**Trigger reason**"):])
		t = strings.TrimPrefix(t, ":")
		t = strings.TrimPrefix(t, "：")
		t = strings.TrimSpace(t)
		if t == "" || IsLazy(t) {
			return DefaultResetTrigger
		}
		return t
	}
	return DefaultResetTrigger
}

// RecordReset performs the Reset bookkeeping of Stop check 1 (testdata/sprints/README.md
// §7, D32) under the workspace lock, once per handoff.md: it writes
// nothing when session_pool.active.<feature>.status is already "resetting"
// or eval_log already has a reset entry for feature whose timestamp is not
// earlier than the handoff's mtime (whole seconds). Otherwise it sets that
// pool entry's status to "resetting" and last_activity to now (when the
// entry exists; atomic replace keeping every other member) and appends one
// eval entry {timestamp, sprint_id, feature_id, phase, event_type:"reset",
// agent:"claude-code", reason:<trigger>} with fsutil.AppendLine (phase left
// out when feature_list.json cannot be read). recorded reports whether it
// wrote. Call it only when ResetException applies.
func RecordReset(ws *workspace.Workspace, feature string, now time.Time) (recorded bool, err error) {
	unlock, err := fsutil.Lock(ws.StateLock())
	if err != nil {
		return false, err
	}
	defer unlock()
	f, st, err := fsutil.OpenRegular(ws.Handoff(feature))
	if err != nil {
		return false, err
	}
	mtime := st.ModTime().UTC().Truncate(time.Second)
	handoff, err := io.ReadAll(io.LimitReader(f, maxHandoffRead))
	f.Close()
	if err != nil {
		return false, err
	}
	trigger := TriggerReason(handoff)

	if pool, err := ws.LoadSessionPool(); err == nil {
		if e, ok := pool.Active[feature]; ok && e.Status == "resetting" {
			return false, nil
		}
	}
	lines, err := workspace.ReadEvalLog(ws.EvalLog())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	for _, e := range workspace.Entries(lines) {
		if e.EventType() != workspace.EventReset || e.FeatureID() != feature {
			continue
		}
		if t, err := time.Parse(time.RFC3339Nano, e.Timestamp()); err == nil && !t.Before(mtime) {
			return false, nil
		}
	}

	nowS := now.UTC().Format("2006-01-02T15:04:05Z")
	if _, err := os.Stat(ws.SessionPool()); err == nil {
		err := fsutil.UpdateFile(ws.SessionPool(), 0o644, func(old []byte) ([]byte, error) {
			top, err := workspace.ParseObject(old)
			if err != nil {
				return nil, err
			}
			var active *workspace.Object
			if !top.Decode("active", &active) || active == nil {
				return nil, errUnchanged
			}
			var ent *workspace.Object
			if !active.Decode(feature, &ent) || ent == nil {
				return nil, errUnchanged
			}
			if err := ent.Set("status", "resetting"); err != nil {
				return nil, err
			}
			if err := ent.Set("last_activity", nowS); err != nil {
				return nil, err
			}
			if err := active.Set(feature, ent); err != nil {
				return nil, err
			}
			if err := top.Set("active", active); err != nil {
				return nil, err
			}
			return workspace.MarshalIndent(top)
		})
		if err != nil && !errors.Is(err, errUnchanged) {
			return false, fmt.Errorf("record reset in session_pool.json: %w", err)
		}
	}

	entry := &workspace.Object{}
	_ = entry.Set("timestamp", nowS)
	sprint := ""
	phase, havePhase := 0, false
	if fl, err := ws.LoadFeatureList(); err == nil {
		sprint = fl.Sprint
		if f := fl.Feature(feature); f != nil && f.PhaseOK() {
			phase, havePhase = f.Phase, true
		}
	}
	if sprint == "" {
		if rs, err := ws.LoadRuntimeState(); err == nil && rs.CurrentSprint != nil {
			sprint = *rs.CurrentSprint
		}
	}
	if sprint != "" {
		_ = entry.Set("sprint_id", sprint)
	}
	_ = entry.Set("feature_id", feature)
	if havePhase {
		_ = entry.Set("phase", phase)
	}
	_ = entry.Set("event_type", workspace.EventReset)
	_ = entry.Set("agent", "claude-code")
	_ = entry.Set("reason", trigger)
	line, err := workspace.MarshalLine(entry)
	if err != nil {
		return false, err
	}
	if err := fsutil.AppendLine(ws.EvalLog(), line); err != nil {
		return false, err
	}
	return true, nil
}
