package records

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// ResetException is the freshness test of Stop check 1
// (testdata/sprints/README.md §7), the original's whole test; AcceptReset
// adds what earns the exception. It holds when H/features/<feature>/handoff.md exists, its raw size (as the OS
// reports it) is > 50 bytes and now − mtime < 300 s. trigger is the text
// after `**Trigger reason**` (trimmed, a leading ':' or '：' removed), or
// "handoff.md written (reset)" when that is missing, empty or lazy. A
// handoff.md that is not a regular file (a FIFO, directory) never applies and
// is never waited on. err is only for I/O errors other than a missing file.
func ResetException(ws *workspace.Workspace, feature string, now time.Time) (applies bool, trigger string, mtime time.Time, err error) {
	f, st, err := fsutil.OpenRecord(ws.Handoff(feature))
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
	if st.Size() > fsutil.CapRecord {
		return false, "", mtime, nil // over the cap of a Markdown record: never read
	}
	data, err := io.ReadAll(io.LimitReader(f, fsutil.CapRecord))
	if err != nil {
		return false, "", mtime, err
	}
	return true, TriggerReason(data), mtime, nil
}

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
