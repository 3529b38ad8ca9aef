// Package scaffold creates sprint workspaces and feature directories
// (`harness init`, `harness init-feature`) as plain Go functions, so the CLI
// and the demo driver share one implementation.
package scaffold

import (
	"bytes"
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
// (UTC, whole seconds), except what carryOver takes from the previous sprint
// of the same folder (Hermes' consecutive_sprints_with_retries and session
// start, §13 #26). It returns the relative paths written. On error the
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
	cr := carryOver(root, sprint, now)
	state := []struct {
		name string
		v    any
	}{
		{"runtime_state.json", orderedMap{
			{"mode", "planning"}, {"current_sprint", sprint}, {"current_project_path", root},
			{"pending_user_replies", []string{}}, {"session_started_at", cr.sessionStart}, {"last_heartbeat", ts},
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
			{"consecutive_sprints_with_retries", cr.consecutive}, {"current_sprint", sprint}, {"session_start", cr.sessionStart},
			{"pending_eval", nil}, {"pending_checkpoints", []string{}},
			// the provenance ledger of eval_log, empty: every line is recorded
			// from the first, in .harness/logs/eval_ledger.jsonl (format 2,
			// workspace.Provenance; the file is created by the first append; the
			// empty lines keep the member valid for schemas from before format 2)
			{"eval_log_ledger", orderedMap{{"since", 0}, {"format", workspace.LedgerFormatFile}, {"lines", []any{}}}},
			// the feature directories init-feature created, none yet: a
			// directory found in .harness/features/ without a record is not
			// Hermes's (workspace.FeatureDirsKey)
			{"feature_dirs", orderedMap{}},
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

// carried is what a new sprint takes over from the previous sprint of the
// same sprints folder (docs/protocol.md §13 #26: Hermes' Reset triggers would
// otherwise restart with every sprint).
type carried struct {
	// consecutive is consecutive_sprints_with_retries: the previous
	// sprint's count + 1 when its eval_log has a retry, else 0.
	consecutive int
	// sessionStart is Hermes' session start: the previous sprint's
	// (session_started_at, or last_reset_at when later) while its last
	// heartbeat is at most hermesSameProcess old (the same Hermes process
	// goes on), else now.
	sessionStart string
}

// hermesSameProcess is how recent the previous sprint's last_heartbeat must
// be for the new sprint to count as the same Hermes session.
const hermesSameProcess = time.Hour

// carryOver reads the previous sprint next to root: the sibling folder with
// the greatest sprint id below sprint (sprint_YYYYMMDD_N ordered by date,
// then N). Without one, the initial values of docs/protocol.md §3.12 apply.
func carryOver(root, sprint string, now time.Time) carried {
	cr := carried{sessionStart: now.Format("2006-01-02T15:04:05Z")}
	prev := previousSprint(filepath.Dir(root), sprint)
	if prev == "" {
		return cr
	}
	ws := &workspace.Workspace{Root: prev}
	if hc, err := ws.LoadHermesContext(); err == nil && hc.ConsecutiveSprintsWithRetries != nil && hadRetries(ws) {
		cr.consecutive = *hc.ConsecutiveSprintsWithRetries + 1
	} else if err == nil && hadRetries(ws) {
		cr.consecutive = 1
	}
	if rt, err := ws.LoadRuntimeState(); err == nil && rt.LastHeartbeat != nil && rt.SessionStartedAt != nil {
		hb, err1 := time.Parse(time.RFC3339, *rt.LastHeartbeat)
		st, err2 := time.Parse(time.RFC3339, *rt.SessionStartedAt)
		if err1 == nil && err2 == nil && !now.Before(hb) && now.Sub(hb) <= hermesSameProcess {
			if rt.LastResetAt != nil {
				if lr, err := time.Parse(time.RFC3339, *rt.LastResetAt); err == nil && lr.After(st) {
					st = lr
				}
			}
			cr.sessionStart = st.UTC().Format("2006-01-02T15:04:05Z")
		}
	}
	return cr
}

// previousSprint returns the sprint folder in dir with the greatest id
// below sprint, or "".
func previousSprint(dir, sprint string) string {
	key := func(id string) (string, int, bool) {
		if !workspace.SprintIDPattern.MatchString(id) {
			return "", 0, false
		}
		parts := strings.Split(id, "_") // sprint, yyyymmdd, N
		n, err := strconv.Atoi(parts[2])
		return parts[1], n, err == nil
	}
	d0, n0, ok := key(sprint)
	if !ok {
		return ""
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	best, bd, bn := "", "", 0
	for _, e := range ents {
		d, n, ok := key(e.Name())
		if !ok || !e.IsDir() || (d > d0 || d == d0 && n >= n0) {
			continue
		}
		if best == "" || d > bd || d == bd && n > bn {
			best, bd, bn = e.Name(), d, n
		}
	}
	if best == "" {
		return ""
	}
	p := filepath.Join(dir, best)
	if st, err := os.Stat(filepath.Join(p, workspace.HarnessDir)); err != nil || !st.IsDir() {
		return ""
	}
	return p
}

// hadRetries reports whether the sprint's eval_log has an entry with result
// "retry" (docs/protocol.md §3.6).
func hadRetries(ws *workspace.Workspace) bool {
	entries, err := workspace.ScanEvalLog(ws.EvalLog(), func(line []byte) bool { return bytes.Contains(line, []byte("retry")) })
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Result() == "retry" {
			return true
		}
	}
	return false
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

// ActiveSprint returns the first sprint folder of sprintsDir (a
// sprint_YYYYMMDD_N folder with a .harness/) that is still running: its
// runtime_state.mode is not idle and its contract is not final (sunk or
// closed). `harness init` refuses a new sprint beside it (docs/protocol.md
// §4.3, Z8: one runtime runs one sprint at a time; `harness finalize
// --close` ends one). skip names a folder to ignore (the new sprint's own).
// A folder whose state cannot be read is not counted (validate reports it).
func ActiveSprint(sprintsDir, skip string) (id, why string) {
	ents, err := os.ReadDir(sprintsDir)
	if err != nil {
		return "", ""
	}
	for _, en := range ents {
		name := en.Name()
		if !en.IsDir() || name == skip || !workspace.SprintIDPattern.MatchString(name) {
			continue
		}
		h := filepath.Join(sprintsDir, name, ".harness")
		var rt struct {
			Mode          string  `json:"mode"`
			CurrentSprint *string `json:"current_sprint"`
		}
		data, err := fsutil.ReadRegular(filepath.Join(h, "runtime_state.json"), 1<<20)
		if err != nil || json.Unmarshal(data, &rt) != nil {
			continue
		}
		if rt.Mode == "idle" || rt.Mode == "" {
			continue
		}
		var c struct {
			Status string `json:"status"`
		}
		if data, err := fsutil.ReadRegular(filepath.Join(h, "sprint_contracts", name, "contract.json"), 1<<20); err == nil {
			_ = json.Unmarshal(data, &c)
		}
		if c.Status == "sunk" || c.Status == "closed" {
			continue
		}
		return name, fmt.Sprintf("runtime_state.mode %s, contract status %s", rt.Mode, firstNonEmptyStr(c.Status, "(none)"))
	}
	return "", ""
}

func firstNonEmptyStr(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
