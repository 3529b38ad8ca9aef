package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/fsutil"
)

// sprintIDRe is the sprint id format of protocol.md §2.
var sprintIDRe = regexp.MustCompile(`^sprint_[0-9]{8}_[0-9]+$`)

// InitCmd is `harness init`: STEP 1 of the protocol (§4.3) in one command.
type InitCmd struct {
	Dir        string `arg:"" optional:"" placeholder:"DIR" help:"Sprint root to create (same as --root)."`
	Sprint     string `name:"sprint" placeholder:"ID" help:"Sprint id (sprint_YYYYMMDD_N); default: the root's folder name when it has that form."`
	SprintsDir string `name:"sprints-dir" placeholder:"DIR" help:"Create DIR/sprint_<UTC yyyymmdd>_<N+1> instead of a given root."`
}

// Help is shown under the command's usage line.
func (c *InitCmd) Help() string {
	return `Copies the embedded read-only resources (schemas/, templates/, spec/, and spec/protocols/* to protocols/),
creates .harness/ with features/, sprint_contracts/, logs/ and the seven state files at their initial
values (protocol.md §3.12), and prints the sprint root's real path as the last stdout line.

Exit 1 when the target exists and is not empty; exit 2 on usage errors.`
}

// initResult is the --json output of init.
type initResult struct {
	Root   string   `json:"root"`
	Sprint string   `json:"sprint"`
	Files  []string `json:"files"`
}

// Run performs the command.
func (c *InitCmd) Run(e *Env) error {
	target := e.Root
	if c.Dir != "" {
		if target != "" && filepath.Clean(target) != filepath.Clean(c.Dir) {
			return usage("--root %q and DIR %q disagree; give one", target, c.Dir)
		}
		target = c.Dir
	}
	now := time.Now().UTC()
	var sprint string
	switch {
	case c.SprintsDir != "" && target != "":
		return usage("give either --sprints-dir or --root/DIR, not both")
	case c.SprintsDir != "":
		if c.Sprint != "" {
			return usage("--sprint cannot be combined with --sprints-dir (the id is numbered automatically)")
		}
		dir, id, err := newSprintDir(e.abs(c.SprintsDir), now)
		if err != nil {
			return err
		}
		target, sprint = dir, id
	case target != "":
		target = e.abs(target)
		sprint = c.Sprint
		if sprint == "" {
			sprint = filepath.Base(target)
			if !sprintIDRe.MatchString(sprint) {
				return usage("--sprint ID is required: the folder name %q is not a sprint id (sprint_YYYYMMDD_N)", sprint)
			}
		}
		if !sprintIDRe.MatchString(sprint) {
			return usage("sprint id %q does not match sprint_YYYYMMDD_N", sprint)
		}
		if err := ensureEmptyDir(target); err != nil {
			return err
		}
	default:
		return usage("give --root DIR --sprint ID, a positional DIR, or --sprints-dir DIR")
	}
	real, err := filepath.EvalSymlinks(target)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", target, err)
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return err
	}
	files, err := writeWorkspace(real, sprint, now)
	if err != nil {
		// The target was empty before: leave it empty again rather than
		// half-initialised (a half workspace would pass the walk-up lookup).
		if ents, rerr := os.ReadDir(real); rerr == nil {
			for _, en := range ents {
				os.RemoveAll(filepath.Join(real, en.Name()))
			}
		}
		return fmt.Errorf("init %s: %w", real, err)
	}
	if e.JSON {
		return writeJSON(e.Stdout, initResult{Root: real, Sprint: sprint, Files: files})
	}
	fmt.Fprintf(e.Stdout, "initialised sprint %s (%d files)\n", sprint, len(files))
	fmt.Fprintln(e.Stdout, real)
	return nil
}

// ensureEmptyDir creates dir (and parents) or accepts it when it exists and
// is empty; a non-empty or non-directory target is refused (exit 1).
func ensureEmptyDir(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return refused("%s exists and is not a directory", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(ents) > 0 {
		return refused("%s is not empty (%d entries); init only fills an empty folder", dir, len(ents))
	}
	return nil
}

// newSprintDir creates sprintsDir/sprint_<yyyymmdd>_<N+1>, N being the
// highest number already used for that UTC date (protocol.md §2). The folder
// is created with Mkdir, so two concurrent inits never share one.
func newSprintDir(sprintsDir string, now time.Time) (dir, id string, err error) {
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
			if !strings.HasPrefix(name, prefix) || !sprintIDRe.MatchString(name) {
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

// writeWorkspace fills the empty folder root: resources, runtime folders and
// the initial state files. It returns the relative paths it wrote.
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
	if err := copyTree("schemas", "schemas", nil); err != nil {
		return nil, err
	}
	if err := copyTree("templates", "templates", nil); err != nil {
		return nil, err
	}
	if err := copyTree("spec", "spec", func(rel string) bool { return rel == "protocols" }); err != nil {
		return nil, err
	}
	if err := copyTree("spec/protocols", "protocols", nil); err != nil {
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
// state files read in the order of protocol.md §3.12.
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
