package ops

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// relQuarantine is where a commit moves what was planted at a path it writes.
const relQuarantine = workspace.RelQuarantine

// prepareTargets checks every path the staged steps write or remove, before
// anything is written, so that a commit never half-applies: each target must
// be missing or a regular file, and each folder above it under .harness/
// missing or a directory. What a Generator could plant there instead, a
// directory (mkdir -p .harness/.current_agent.json/x), a FIFO, a socket or
// a device, holds no record, and is moved to .harness/logs/quarantine/
// (nothing is deleted; a note says where it went), after which the commit
// proceeds. A symbolic link is not moved (its target may hold the real
// data): the commit refuses, nothing written, naming the link and the fix.
func (t *Tx) prepareTargets(rep *Report) error {
	seen := map[string]bool{}
	for _, s := range t.steps {
		if seen[s.rel] {
			continue
		}
		seen[s.rel] = true
		if err := t.env.prepareTarget(s.rel, rep, true); err != nil {
			return err
		}
	}
	return nil
}

// prepareTarget is prepareTargets for one slash path relative to the root.
// Symbolic links refuse only when strict (a write target); otherwise they are
// left for the write that meets them.
func (e *Env) prepareTarget(rel string, rep *Report, strict bool) error {
	parts := strings.Split(rel, "/")
	if len(parts) < 2 || parts[0] != ".harness" {
		return nil
	}
	// the folders below .harness/ leading to the target, then the target
	for i := 2; i <= len(parts); i++ {
		sub := strings.Join(parts[:i], "/")
		p := filepath.Join(e.Root, filepath.FromSlash(sub))
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // the rest is created by the write
		}
		if err != nil {
			return fmt.Errorf("check %s: %w", sub, err)
		}
		last := i == len(parts)
		switch {
		case !last && st.IsDir(), last && st.Mode().IsRegular():
			continue
		case st.Mode()&fs.ModeSymlink != 0 && !strict:
			return nil
		case st.Mode()&fs.ModeSymlink != 0:
			return refuse("refused: %s is a symbolic link, where harness keeps a %s; nothing was written. Check where it points, move its content into place as a regular %s and remove the link (`harness validate` reports it as layout.not-regular)",
				sub, map[bool]string{true: "regular file", false: "directory"}[last], map[bool]string{true: "file", false: "directory"}[last])
		}
		dest, err := e.quarantine(sub)
		if err != nil {
			return refuse("refused: %s is a %s, where harness keeps a %s, and moving it aside failed (%v); nothing was written. Remove it, then retry",
				sub, fsutil.TypeName(st.Mode()), map[bool]string{true: "regular file", false: "directory"}[last], err)
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("moved the %s planted at %s to %s (harness keeps a %s there)",
			fsutil.TypeName(st.Mode()), sub, dest, map[bool]string{true: "regular file", false: "directory"}[last]))
		return nil
	}
	return nil
}

// quarantine moves the file or folder at rel to a fresh name under
// .harness/logs/quarantine/ and returns that name (relative).
func (e *Env) quarantine(rel string) (string, error) {
	return (&workspace.Workspace{Root: e.Root}).Quarantine(rel, e.now())
}

// clearPlantedState runs prepareTarget on every state file ops reads or
// writes at fixed paths (the journalable files of .harness/ and the
// sprint's contract and tooling files), before an operation reads them, so
// that a directory or FIFO planted where a file is expected (say
// .harness/.current_agent.json/x, or contract.json before planning wrote
// it) is moved aside instead of failing every command that reads it.
func (e *Env) clearPlantedState(rep *Report) error {
	rels := []string{relFeatureList, relRuntime, relPool, relEvalLog, relHermesCtx, relCurrentAgent, relHermesHand,
		".harness/.current_agent.json", ".harness/claude_code_context_state.json"}
	if fl, err := e.loadFeatureList(); err == nil && fl.sprint() != "" && !strings.ContainsAny(fl.sprint(), "/\\") && fl.sprint() != ".." {
		rels = append(rels, ".harness/sprint_contracts/"+fl.sprint()+"/contract.json", ".harness/sprint_contracts/"+fl.sprint()+"/tooling.md")
	}
	for _, rel := range rels {
		if err := e.prepareTarget(rel, rep, false); err != nil {
			return err
		}
	}
	return nil
}
