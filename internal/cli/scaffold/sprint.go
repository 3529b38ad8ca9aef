// Package scaffold creates sprint workspaces and feature directories
// (`harness init`, `harness init-feature`) as plain Go functions, so the CLI
// and the demo driver share one implementation.
package scaffold

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// RefusedError is a request the protocol refuses (the CLI exits 1): a
// non-empty init target, an unknown feature id.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

// EnsureEmptyDir creates dir (and parents) or accepts it when it exists and
// is empty; a non-empty or non-directory target is refused (exit 1).
func EnsureEmptyDir(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return &RefusedError{fmt.Sprintf("%s exists and is not a directory", dir)}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(ents) > 0 {
		return &RefusedError{fmt.Sprintf("%s is not empty (%d entries); init only fills an empty folder", dir, len(ents))}
	}
	return nil
}

// NewSprintDir creates sprintsDir/sprint_<yyyymmdd>_<N+1>, N being the
// highest number already used for that UTC date (docs/protocol.md §2). The folder
// is created with Mkdir, so two concurrent inits never share one.
func NewSprintDir(sprintsDir string, now time.Time) (dir, id string, err error) {
	if err := os.MkdirAll(sprintsDir, 0o755); err != nil {
		return "", "", err
	}
	prefix := "sprint_" + now.Format("20060102") + "_"
	for attempt := 0; attempt < 100; attempt++ {
		ents, err := os.ReadDir(sprintsDir)
		if err != nil {
			return "", "", err
		}
		n := 0
		for _, en := range ents {
			name := en.Name()
			if !strings.HasPrefix(name, prefix) || !workspace.SprintIDPattern.MatchString(name) {
				continue
			}
			if k, err := strconv.Atoi(strings.TrimPrefix(name, prefix)); err == nil && k > n {
				n = k
			}
		}
		id = prefix + strconv.Itoa(n+1)
		dir = filepath.Join(sprintsDir, id)
		err = os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, id, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", "", err
		}
	}
	return "", "", fmt.Errorf("could not allocate a new sprint folder in %s", sprintsDir)
}

// readOnlyPerm is the mode of the copied read-only resources.
const readOnlyPerm fs.FileMode = 0o444

// InitSprint fills the empty folder root (absolute, symlinks resolved) as
// sprint `sprint` (docs/protocol.md §4.3 steps 2–4): the read-only resources
// (schemas/, templates/, spec/ without protocols/, and spec/protocols/* as
// protocols/, mode 0444), .harness/ with features/, sprint_contracts/, logs/,
// and the seven state files at their §3.12 initial values, timestamps = now
// (UTC, whole seconds). It returns the relative paths written. On error the
// folder is emptied again, so no half workspace is left behind.
func InitSprint(root, sprint string, now time.Time) (files []string, err error) {
	defer func() {
		if err != nil {
			if ents, rerr := os.ReadDir(root); rerr == nil {
				for _, en := range ents {
					os.RemoveAll(filepath.Join(root, en.Name()))
				}
			}
		}
	}()
	return writeWorkspace(root, sprint, now)
}

func writeWorkspace(root, sprint string, now time.Time) ([]string, error) {
	var files []string
	assets := harness.Assets()
	// Read-only resources: schemas/, templates/, spec/ (without protocols/),
	// and spec/protocols/* as <root>/protocols/.
	copyTree := func(src, dst string, skip func(string) bool) error {
		return fs.WalkDir(assets, src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(p, src), "/")
			if skip != nil && skip(rel) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			out := filepath.Join(root, dst, filepath.FromSlash(rel))
			if d.IsDir() {
				return os.MkdirAll(out, 0o755)
			}
			data, err := fs.ReadFile(assets, p)
			if err != nil {
				return err
			}
			if err := fsutil.WriteFileAtomic(out, data, readOnlyPerm); err != nil {
				return err
			}
			files = append(files, path.Join(dst, rel))
			return nil
		})
	}
	// The folders' README.md files describe the repository, not the
	// protocol: a sprint gets the resources only (a README in schemas/ would
	// also be reported as a foreign schema copy).
	readme := func(rel string) bool { return rel == "README.md" }
	if err := copyTree("schemas", "schemas", readme); err != nil {
		return nil, err
	}
	if err := copyTree("templates", "templates", readme); err != nil {
		return nil, err
	}
	if err := copyTree("spec", "spec", func(rel string) bool { return rel == "protocols" || readme(rel) }); err != nil {
		return nil, err
	}
	if err := copyTree("spec/protocols", "protocols", readme); err != nil {
		return nil, err
	}

	h := filepath.Join(root, ".harness")
	for _, d := range []string{"features", "sprint_contracts", "logs"} {
		if err := os.MkdirAll(filepath.Join(h, d), 0o755); err != nil {
			return nil, err
		}
	}
	ts := now.Format("2006-01-02T15:04:05Z")
	state := []struct {
		name string
		v    any
	}{
		{"runtime_state.json", orderedMap{
			{"mode", "planning"}, {"current_sprint", sprint}, {"current_project_path", root},
			{"pending_user_replies", []string{}}, {"session_started_at", ts}, {"last_heartbeat", ts},
			{"last_reset_at", nil},
		}},
		{"feature_list.json", orderedMap{
			{"version", "1.2"}, {"sprint", sprint}, {"pipeline_id", nil}, {"pipeline_version", nil},
			{"tooling_locked", false}, {"updated_at", ts}, {"updated_by", "hermes"},
			{"features", []any{}}, {"blocked", []string{}},
		}},
		{"session_pool.json", orderedMap{
			{"max_concurrent", 2}, {"policy", "start_when_dependency_ready"}, {"active", orderedMap{}},
		}},
		{"hermes_context_state.json", orderedMap{
			{"agent", "hermes"}, {"updated_at", ts}, {"token_usage_ratio", 0},
			{"consecutive_sprints_with_retries", 0}, {"current_sprint", sprint}, {"session_start", ts},
			{"pending_eval", nil}, {"pending_checkpoints", []string{}},
			// the provenance ledger of eval_log, empty: every line is recorded
			// from the first (workspace.Provenance)
			{"eval_log_ledger", orderedMap{{"since", 0}, {"lines", []any{}}}},
		}},
		{"claude_code_context_state.json", orderedMap{}},
		{".current_agent", orderedMap{
			{"role", "planner"}, {"platform", "hermes"}, {"developer", "hermes"}, {"session_id", nil},
			{"started_at", ts}, {"current_feature", nil}, {"current_phase", nil}, {"last_activity", ts},
		}},
	}
	for _, s := range state {
		data, err := marshalIndent(s.v)
		if err != nil {
			return nil, err
		}
		if err := fsutil.WriteFileAtomic(filepath.Join(h, s.name), data, 0o644); err != nil {
			return nil, err
		}
		files = append(files, ".harness/"+s.name)
	}
	if err := fsutil.WriteFileAtomic(filepath.Join(h, "eval_log.jsonl"), nil, 0o644); err != nil {
		return nil, err
	}
	files = append(files, ".harness/eval_log.jsonl")
	return files, nil
}

// kv is one member of an orderedMap.
type kv struct {
	k string
	v any
}

// orderedMap marshals as a JSON object with its members in slice order, so
// state files read in the order of docs/protocol.md §3.12.
type orderedMap []kv

// MarshalJSON implements json.Marshaler.
func (m orderedMap) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.k)
		v, err := json.Marshal(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// marshalIndent encodes v as 2-space indented JSON with a trailing newline,
// without HTML escaping (state files are read by people too).
func marshalIndent(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}
