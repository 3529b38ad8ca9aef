package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// dirPlan is what planFeatureDir decided for one feature directory.
type dirPlan struct {
	// keep names the Hermes files (workspace.HermesFeatureFiles) that hold
	// the bytes init-feature recorded; every other one is written afresh.
	keep        map[string]bool
	quarantined []string
	notes       []string
}

// planFeatureDir decides, from the sprint's own record only
// (workspace.FeatureDirsKey), what of the directory of feature id
// init-feature may keep, moves the rest below .harness/logs/quarantine/, and
// records the directory with the bytes its Hermes files will hold. fresh
// holds the bytes init-feature writes for a Hermes file it does not keep.
// The caller holds the state lock.
//
// The record is written before the files: a crash in between leaves a
// recorded directory whose missing files the next run writes, never a
// directory of init-feature's that the next run would take for a planted one.
//
// A sprint that keeps no record yet (hermes_context_state.json without the
// member: a sprint from before it existed) starts one: the feature
// directories there are then are taken as found (Adopted) and named in a
// note. A sprint without hermes_context_state.json keeps no record.
func planFeatureDir(ws *workspace.Workspace, id string, fresh map[string][]byte) (dirPlan, error) {
	p := dirPlan{keep: map[string]bool{}}
	dir := ws.FeatureDir(id)
	rel := ws.Rel(dir)
	if _, err := os.Lstat(ws.HermesContext()); errors.Is(err, fs.ErrNotExist) {
		p.notes = append(p.notes, fmt.Sprintf("no .harness/hermes_context_state.json, so nothing records which feature directories init-feature wrote: what stands in %s is kept as found", rel))
		for _, n := range workspace.HermesFeatureFiles {
			p.keep[n] = true
		}
		return p, nil
	}
	dirs, err := ws.LoadFeatureDirs()
	if err != nil {
		return p, err
	}
	now := time.Now().UTC()
	records := map[string]workspace.FeatureDirRecord{}
	for k, v := range dirs.Dirs {
		records[k] = v
	}
	if !dirs.Known {
		ents, err := os.ReadDir(ws.FeaturesDir())
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return p, err
		}
		var adopted []string
		for _, e := range ents {
			if !e.IsDir() || !workspace.FeatureIDPattern.MatchString(e.Name()) {
				continue // a link is no directory init-feature made
			}
			files, err := hermesHashes(ws.FeatureDir(e.Name()))
			if err != nil {
				return p, err
			}
			records[e.Name()] = workspace.FeatureDirRecord{CreatedAt: now.Format(time.RFC3339), Adopted: true, Files: files}
			adopted = append(adopted, e.Name())
		}
		if len(adopted) > 0 {
			p.notes = append(p.notes, fmt.Sprintf("this sprint starts recording what init-feature writes (hermes_context_state.json %s); the feature directories already there are taken as found: %s — check that init-feature made them",
				workspace.FeatureDirsKey, strings.Join(adopted, ", ")))
		}
	}
	move := func(src, why string) error {
		dst, err := ws.Quarantine(ws.Rel(src), now)
		if err != nil {
			return fmt.Errorf("move %s out of the way: %w (remove it by hand, then re-run)", ws.Rel(src), err)
		}
		p.quarantined = append(p.quarantined, dst)
		p.notes = append(p.notes, fmt.Sprintf("moved %s to %s: %s; it is not used (inspect it, then remove it)", ws.Rel(src), dst, why))
		return nil
	}
	rec, recorded := records[id]
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return p, err
	case !recorded:
		if err := move(dir, "init-feature has no record of creating it (hermes_context_state.json "+workspace.FeatureDirsKey+"), so a Generator may have planted it"); err != nil {
			return p, err
		}
	case st.Mode()&fs.ModeSymlink != 0 || !st.IsDir():
		if err := move(dir, "it is not the directory init-feature created"); err != nil {
			return p, err
		}
	default:
		if cst, err := os.Lstat(filepath.Join(dir, ".claude")); err == nil && (cst.Mode()&fs.ModeSymlink != 0 || !cst.IsDir()) {
			if err := move(filepath.Join(dir, ".claude"), "it is not a directory (settings.json would be written where it leads)"); err != nil {
				return p, err
			}
		}
		for _, name := range workspace.HermesFeatureFiles {
			fp := filepath.Join(dir, name)
			fst, err := os.Lstat(fp)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return p, err
			}
			why := "it is not a regular file"
			if fst.Mode().IsRegular() {
				data, err := fsutil.ReadRegular(fp, fsutil.CapRecord)
				if err == nil && workspace.FileHash(data) == rec.Files[name] {
					p.keep[name] = true
					continue
				}
				why = "its bytes are not what init-feature wrote (someone changed it afterwards)"
			}
			if err := move(fp, why); err != nil {
				return p, err
			}
		}
	}
	files := map[string]string{}
	for _, name := range workspace.HermesFeatureFiles {
		if p.keep[name] {
			files[name] = rec.Files[name]
		} else {
			files[name] = workspace.FileHash(fresh[name])
		}
	}
	if !recorded || rec.CreatedAt == "" {
		rec = workspace.FeatureDirRecord{CreatedAt: now.Format(time.RFC3339)}
	}
	rec.Files = files
	records[id] = rec
	err = fsutil.UpdateFile(ws.HermesContext(), 0o644, func(old []byte) ([]byte, error) {
		obj, err := workspace.ParseObject(old)
		if err != nil {
			return nil, fmt.Errorf(".harness/hermes_context_state.json: %w (run harness validate)", err)
		}
		obj.With(workspace.FeatureDirsKey, records)
		return workspace.MarshalIndent(obj)
	})
	return p, err
}

// hermesHashes returns workspace.FileHash of each Hermes file found in dir
// (a missing or unreadable one is left out).
func hermesHashes(dir string) (map[string]string, error) {
	out := map[string]string{}
	for _, name := range workspace.HermesFeatureFiles {
		data, err := fsutil.ReadRegular(filepath.Join(dir, name), fsutil.CapRecord)
		if err == nil {
			out[name] = workspace.FileHash(data)
		}
	}
	return out, nil
}
