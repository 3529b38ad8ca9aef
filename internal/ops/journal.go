package ops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// The journal makes a multi-file change all-or-nothing across crashes: commit
// first writes every step to <root>/.harness/logs/ops.journal (atomically),
// then applies the steps, then removes the journal. The next operation that
// takes the workspace lock finds a leftover journal and replays it (writes and
// removals are idempotent; an append is skipped when its line is already in
// the file). The journal lives under H/logs/, which a Generator session cannot
// write (docs/protocol.md §1.1), and replay accepts only steps on the state files
// ops writes, so a planted journal cannot write anywhere else.
const relJournal = ".harness/logs/ops.journal"

type journalStep struct {
	Rel    string `json:"rel"`
	Data   string `json:"data,omitempty"`
	Append bool   `json:"append,omitempty"`
	Remove bool   `json:"remove,omitempty"`
}

type journal struct {
	Command string        `json:"command"`
	Steps   []journalStep `json:"steps"`
}

// journalable reports whether rel is a file ops may write in a workspace.
func journalable(rel string) bool {
	switch rel {
	case relFeatureList, relRuntime, relPool, relEvalLog, relLedgerFile, relHermesCtx, relCurrentAgent, relHermesHand, ".harness/.current_agent.json":
		return true
	}
	parts := strings.Split(rel, "/")
	if len(parts) == 4 && parts[0] == ".harness" && parts[1] == "features" && reFeatureID.MatchString(parts[2]) && parts[3] == "session_id.txt" {
		return true
	}
	if len(parts) == 4 && parts[0] == ".harness" && parts[1] == "sprint_contracts" && (parts[3] == "contract.json" || parts[3] == "tooling.md") && !strings.Contains(parts[2], "..") {
		return true
	}
	return false
}

func (t *Tx) writeJournal(command string) error {
	j := journal{Command: command}
	for _, s := range t.steps {
		j.Steps = append(j.Steps, journalStep{Rel: s.rel, Data: string(s.data), Append: s.append, Remove: s.remove})
	}
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	p := filepath.Join(t.env.Root, filepath.FromSlash(relJournal))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(p, data, 0o644)
}

func (e *Env) removeJournal() error {
	err := os.Remove(filepath.Join(e.Root, filepath.FromSlash(relJournal)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// recoverJournal replays an interrupted change (caller holds the lock).
func (e *Env) recoverJournal(rep *Report) error {
	p := filepath.Join(e.Root, filepath.FromSlash(relJournal))
	data, err := fsutil.ReadRegular(p, fsutil.CapLog)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		// A torn journal means the crash hit before any step was applied
		// (the journal is written atomically before the first step).
		return e.removeJournal()
	}
	for _, s := range j.Steps {
		if !journalable(s.Rel) {
			return fmt.Errorf("%s names %s, which harness never writes; remove the journal after checking it", relJournal, s.Rel)
		}
	}
	t := &Tx{env: e}
	var notes Report
	for _, s := range j.Steps {
		if s.Append {
			target := filepath.Join(e.Root, filepath.FromSlash(s.Rel))
			if old, err := workspace.ReadFile(target); err == nil && containsLine(old, []byte(s.Data)) {
				continue
			}
		}
		t.steps = append(t.steps, step{rel: s.Rel, data: []byte(s.Data), append: s.Append, remove: s.Remove})
	}
	if err := t.prepareTargets(&notes); err != nil {
		return fmt.Errorf("replay the interrupted %s: %w", j.Command, err)
	}
	if rep != nil {
		rep.Notes = append(rep.Notes, notes.Notes...)
	}
	if err := t.apply(e.Root, 0); err != nil {
		return fmt.Errorf("replay the interrupted %s: %w", j.Command, err)
	}
	if rep != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("completed an interrupted `harness %s` from %s (%d steps)", j.Command, relJournal, len(j.Steps)))
	}
	return e.removeJournal()
}

func containsLine(file, line []byte) bool {
	for _, l := range bytes.Split(file, []byte("\n")) {
		if bytes.Equal(bytes.TrimRight(l, "\r"), line) {
			return true
		}
	}
	return false
}
