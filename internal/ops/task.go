package ops

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/safetext"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Queue is the task queue under a queue root (docs/protocol.md §10): tasks/pending/,
// tasks/running/ (at most one file), tasks/failed/, tasks/cancelled/
// (terminal), sprints/<sprint_id>/TASK.json (finished). Every move is one
// rename or an atomic write followed by the removal of the source, under
// the queue lock <queue>/tasks/queue.lock.
type Queue struct {
	Root string // queue root
	Env  *Env   // clock (Root of Env is unused)
}

var reTaskID = regexp.MustCompile(`^task_([0-9]{8})_([0-9]{3})$`)

// Task is one task file as listed.
type Task struct {
	ID        string `json:"id"`
	Folder    string `json:"folder"` // pending | running | failed | cancelled | done
	Path      string `json:"path"`   // relative to the queue root
	Title     string `json:"title"`
	Priority  int    `json:"priority"`
	CreatedAt string `json:"created_at"`
	Status    string `json:"status"`
	SprintID  string `json:"sprint_id,omitempty"`
	obj       *Obj
}

func (q *Queue) dir(parts ...string) string {
	return filepath.Join(append([]string{q.Root, "tasks"}, parts...)...)
}

func (q *Queue) lock() (func(), error) {
	if err := os.MkdirAll(q.dir(), 0o755); err != nil {
		return nil, err
	}
	return fsutil.Lock(q.dir("queue"))
}

// all lists every task file in the queue, the finished ones included.
func (q *Queue) all() ([]Task, error) {
	var out []Task
	for _, folder := range []string{"pending", "running", "failed", "cancelled"} {
		ents, err := os.ReadDir(q.dir(folder))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			t := q.load(filepath.Join(q.dir(folder), e.Name()), folder)
			if t.ID == "" {
				t.ID = strings.TrimSuffix(e.Name(), ".json")
			}
			out = append(out, t)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(q.Root, "sprints", "*", "TASK.json"))
	for _, m := range matches {
		out = append(out, q.load(m, "done"))
	}
	return out, nil
}

func (q *Queue) load(path, folder string) Task {
	rel, _ := filepath.Rel(q.Root, path)
	t := Task{Folder: folder, Path: filepath.ToSlash(rel), Priority: 3}
	data, err := fsutil.ReadRegular(path, fsutil.CapConfig)
	if err != nil {
		return t
	}
	o, err := parseObj(data)
	if err != nil {
		t.Status = "unreadable"
		return t
	}
	t.obj = o
	t.ID, t.Title, t.CreatedAt, t.Status, t.SprintID = o.Str("id"), o.Str("title"), o.Str("created_at"), o.Str("status"), o.Str("sprint_id")
	if p, ok := o.Int("priority"); ok {
		t.Priority = p
	}
	return t
}

// TaskAddInput is `harness task add`.
type TaskAddInput struct {
	Title        string
	PromptFile   string // relative to the queue root, e.g. PROMPTS/slug.md
	Mode         string // interactive | yolo
	AutoApprove  bool
	Priority     int // 1..5, 0 = default 3
	PipelineHint string
	ThemeTags    []string
	KeepGatesFor []string
}

// TaskAdd writes tasks/pending/<id>.json with a fresh id task_<UTC
// yyyymmdd>_<NNN>: NNN is 1 + the highest number of that day across
// pending/, running/, failed/, cancelled/ and sprints/*/TASK.json (§13 #32),
// so ids never repeat. prompt_file must be relative (Z20).
func (q *Queue) TaskAdd(in TaskAddInput) (*Report, error) {
	rep := &Report{Command: "task add"}
	if err := q.Env.hermesOnly(rep.Command); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Title) == "" {
		return nil, usage("--title is required")
	}
	if err := safetext.CheckLine("--title", in.Title); err != nil {
		return nil, usage("%v (a newline would forge a row of `harness task list`)", err)
	}
	if in.PromptFile == "" {
		return nil, usage("--prompt-file is required (PROMPTS/<slug>.md, relative to the queue root)")
	}
	if err := q.checkPromptFile(in.PromptFile); err != nil {
		return nil, err
	}
	mode := in.Mode
	if mode == "" {
		mode = "interactive"
	}
	if mode != "interactive" && mode != "yolo" {
		return nil, usage("--mode %q: interactive or yolo", mode)
	}
	prio := in.Priority
	if prio == 0 {
		prio = 3
	}
	if prio < 1 || prio > 5 {
		return nil, usage("--priority %d: 1 (most urgent) .. 5", prio)
	}
	unlock, err := q.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	tasks, err := q.all()
	if err != nil {
		return nil, err
	}
	day := q.Env.now().Format("20060102")
	max := 0
	for _, t := range tasks {
		for _, id := range []string{t.ID, strings.TrimSuffix(filepath.Base(t.Path), ".json")} {
			if m := reTaskID.FindStringSubmatch(id); m != nil && m[1] == day {
				var n int
				fmt.Sscanf(m[2], "%d", &n)
				if n > max {
					max = n
				}
			}
		}
	}
	if max >= 999 {
		return nil, refuse("task ids of %s are exhausted (999)", day)
	}
	id := fmt.Sprintf("task_%s_%03d", day, max+1)
	o := NewObj().With("id", id).With("title", in.Title).With("prompt_file", filepath.ToSlash(in.PromptFile)).
		With("created_at", q.Env.stamp()).With("created_by", "user-via-task-builder").With("mode", mode).
		With("auto_approve_all", in.AutoApprove).With("pipeline_hint", nil).With("priority", num(prio)).
		With("status", "pending").With("sprint_id", nil).With("started_at", nil).With("theme_tags", strsToAny(in.ThemeTags))
	if in.PipelineHint != "" {
		o.With("pipeline_hint", in.PipelineHint)
	}
	if len(in.KeepGatesFor) > 0 {
		o.With("yolo_overrides", NewObj().With("keep_gates_for", strsToAny(in.KeepGatesFor)))
	}
	data, err := workspace.MarshalIndent(o)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(q.dir("pending"), 0o755); err != nil {
		return nil, err
	}
	if err := fsutil.WriteFileAtomic(q.dir("pending", id+".json"), data, 0o644); err != nil {
		return nil, err
	}
	rep.did("wrote tasks/pending/%s.json (priority %d, mode %s)", id, prio, mode)
	if _, err := os.Stat(filepath.Join(q.Root, filepath.FromSlash(in.PromptFile))); err != nil {
		rep.Notes = append(rep.Notes, "warning: prompt file "+in.PromptFile+" does not exist yet; the runner fails a task whose prompt is missing")
	}
	rep.Data = map[string]any{"id": id}
	rep.OK = true
	return rep, nil
}

// checkPromptFile requires --prompt-file to name a file below PROMPTS/ of
// the queue root (Z20): relative, no ".." anywhere, and, when it exists, a
// regular file whose real path (symbolic links resolved) is still inside
// the real PROMPTS/ folder, so neither `..` nor a link can make the runner
// read a prompt from elsewhere.
func (q *Queue) checkPromptFile(p string) error {
	slash := filepath.ToSlash(p)
	if filepath.IsAbs(p) || strings.HasPrefix(slash, "/") || filepath.VolumeName(p) != "" {
		return usage("--prompt-file %q must be relative to the queue root (Z20)", p)
	}
	for _, part := range strings.Split(slash, "/") {
		if part == ".." {
			return usage("--prompt-file %q must not contain \"..\" (a file below PROMPTS/, Z20)", p)
		}
	}
	clean := filepath.ToSlash(filepath.Clean(p))
	if !strings.HasPrefix(clean, "PROMPTS/") || clean == "PROMPTS/" {
		return usage("--prompt-file %q must be a file below PROMPTS/ (PROMPTS/<slug>.md, Z20)", p)
	}
	full := filepath.Join(q.Root, filepath.FromSlash(clean))
	if _, err := os.Lstat(full); err != nil {
		return nil // missing: TaskAdd warns, the runner fails the task
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return usage("--prompt-file %q cannot be resolved: %v", p, err)
	}
	base, err := filepath.EvalSymlinks(filepath.Join(q.Root, "PROMPTS"))
	if err != nil {
		return usage("--prompt-file %q: PROMPTS/ cannot be resolved: %v", p, err)
	}
	if rel, err := filepath.Rel(base, real); err != nil || rel == "." || strings.HasPrefix(filepath.ToSlash(rel), "../") || rel == ".." {
		return usage("--prompt-file %q resolves to %s, outside PROMPTS/ (a symbolic link out of the folder, Z20)", p, real)
	}
	if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
		return usage("--prompt-file %q is not a regular file", p)
	}
	return nil
}

// TaskNext is the runner's steps A–D (§10): refuses when tasks/running/
// holds a task (one running task at most) or tasks/pending/ is empty; picks
// the lowest priority (missing = 3), then the earliest created_at (string
// order), then the id; renames it into tasks/running/ and sets status running
// and started_at. A task whose prompt file is missing is moved to
// tasks/failed/ instead.
func (q *Queue) TaskNext() (*Report, error) {
	rep := &Report{Command: "task next"}
	if err := q.Env.hermesOnly(rep.Command); err != nil {
		return nil, err
	}
	unlock, err := q.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	tasks, err := q.all()
	if err != nil {
		return nil, err
	}
	var pending []Task
	for _, t := range tasks {
		switch t.Folder {
		case "running":
			return nil, refuse("a task is already running: %s (at most one; move it to pending/ or failed/ if its run died)", t.Path)
		case "pending":
			if t.obj != nil {
				pending = append(pending, t)
			}
		}
	}
	if len(pending) == 0 {
		return nil, refuse("tasks/pending/ is empty; nothing to run")
	}
	sort.SliceStable(pending, func(i, j int) bool {
		a, b := pending[i], pending[j]
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		if a.CreatedAt != b.CreatedAt {
			return a.CreatedAt < b.CreatedAt
		}
		return a.ID < b.ID
	})
	t := pending[0]
	src := filepath.Join(q.Root, filepath.FromSlash(t.Path))
	if err := os.MkdirAll(q.dir("running"), 0o755); err != nil {
		return nil, err
	}
	dst := q.dir("running", filepath.Base(src))
	if err := os.Rename(src, dst); err != nil {
		return nil, fmt.Errorf("move %s to tasks/running/: %w", t.Path, err)
	}
	rep.did("moved %s to tasks/running/", t.Path)
	pf := t.obj.Str("prompt_file")
	if _, err := os.Stat(filepath.Join(q.Root, filepath.FromSlash(pf))); pf == "" || err != nil {
		t.obj.With("status", "failed").With("failure_reason", "prompt file "+pf+" is missing")
		if err := q.moveTo(dst, q.dir("failed", filepath.Base(src)), t.obj); err != nil {
			return nil, err
		}
		rep.did("prompt file %q is missing: %s marked failed and moved to tasks/failed/", pf, t.ID)
		rep.Data = map[string]any{"id": t.ID, "status": "failed"}
		return rep, &Refusal{Reason: fmt.Sprintf("task %s failed: prompt file %q is missing", t.ID, pf)}
	}
	t.obj.With("status", "running").With("started_at", q.Env.stamp())
	data, err := workspace.MarshalIndent(t.obj)
	if err != nil {
		return nil, err
	}
	if err := fsutil.WriteFileAtomic(dst, data, 0o644); err != nil {
		return nil, err
	}
	rep.did("%s status running, started_at %s", t.ID, q.Env.stamp())
	mode := t.obj.Str("mode")
	if mode == "" {
		mode = "interactive"
	}
	rep.Data = map[string]any{"id": t.ID, "path": "tasks/running/" + filepath.Base(src), "mode": mode,
		"prompt_file": pf, "pipeline_hint": t.obj.Value("pipeline_hint"), "auto_approve_all": t.obj.Bool("auto_approve_all")}
	rep.OK = true
	return rep, nil
}

// moveTo writes obj to dst atomically, then removes src.
func (q *Queue) moveTo(src, dst string, obj *Obj) error {
	data, err := workspace.MarshalIndent(obj)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(dst); err == nil {
		return refuse("%s already exists; not overwritten", dst)
	}
	if err := fsutil.WriteFileAtomic(dst, data, 0o644); err != nil {
		return err
	}
	if err := os.Remove(src); err != nil {
		return fmt.Errorf("remove %s after the move: %w", src, err)
	}
	return nil
}

func (q *Queue) find(id, folder string) (Task, error) {
	if !reTaskID.MatchString(id) {
		return Task{}, usage("task id %q does not match task_YYYYMMDD_NNN", id)
	}
	p := q.dir(folder, id+".json")
	t := q.load(p, folder)
	if t.obj == nil {
		return Task{}, refuse("no task %s in tasks/%s/", id, folder)
	}
	return t, nil
}

// TaskDone finishes a running task (§10 step F, §13 #47): it requires a
// sprint_id (from the task or sprintID) whose folder sprints/<sprint_id>
// exists, and moves the task to sprints/<sprint_id>/TASK.json with status done.
func (q *Queue) TaskDone(id, sprintID string) (*Report, error) {
	rep := &Report{Command: "task done"}
	if err := q.Env.hermesOnly(rep.Command); err != nil {
		return nil, err
	}
	unlock, err := q.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	t, err := q.find(id, "running")
	if err != nil {
		return nil, err
	}
	sid := t.obj.Str("sprint_id")
	if sprintID != "" {
		if sid != "" && sid != sprintID {
			return nil, refuse("task %s already names sprint %s, not %s", id, sid, sprintID)
		}
		sid = sprintID
	}
	if sid == "" {
		return nil, refuse("task %s has no sprint_id; pass --sprint-id (the task stays in tasks/running/)", id)
	}
	if !workspace.SprintIDPattern.MatchString(sid) {
		return nil, usage("sprint id %q does not match sprint_YYYYMMDD_N", sid)
	}
	sdir := filepath.Join(q.Root, "sprints", sid)
	if st, err := os.Stat(sdir); err != nil || !st.IsDir() {
		return nil, refuse("sprints/%s does not exist; the task stays in tasks/running/", sid)
	}
	t.obj.With("sprint_id", sid).With("status", "done")
	if err := q.moveTo(q.dir("running", id+".json"), filepath.Join(sdir, "TASK.json"), t.obj); err != nil {
		return nil, err
	}
	rep.did("moved tasks/running/%s.json to sprints/%s/TASK.json (status done)", id, sid)
	rep.OK = true
	return rep, nil
}

// TaskFail moves a running (or pending) task to tasks/failed/ with status
// failed; failed tasks are never retried automatically.
func (q *Queue) TaskFail(id, reason string) (*Report, error) {
	rep := &Report{Command: "task fail"}
	if err := q.Env.hermesOnly(rep.Command); err != nil {
		return nil, err
	}
	unlock, err := q.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	t, err := q.find(id, "running")
	folder := "running"
	if err != nil {
		if t, err = q.find(id, "pending"); err != nil {
			return nil, refuse("no task %s in tasks/running/ or tasks/pending/", id)
		}
		folder = "pending"
	}
	t.obj.With("status", "failed")
	if strings.TrimSpace(reason) != "" {
		t.obj.With("failure_reason", reason)
	}
	if err := q.moveTo(q.dir(folder, id+".json"), q.dir("failed", id+".json"), t.obj); err != nil {
		return nil, err
	}
	rep.did("moved tasks/%s/%s.json to tasks/failed/ (status failed)", folder, id)
	rep.OK = true
	return rep, nil
}

// TaskList lists every task: running first, then pending in run order, then
// the finished ones.
func (q *Queue) TaskList() (*Report, error) {
	rep := &Report{Command: "task list"}
	tasks, err := q.all()
	if err != nil {
		return nil, err
	}
	rank := map[string]int{"running": 0, "pending": 1, "failed": 2, "cancelled": 3, "done": 4}
	sort.SliceStable(tasks, func(i, j int) bool {
		a, b := tasks[i], tasks[j]
		if rank[a.Folder] != rank[b.Folder] {
			return rank[a.Folder] < rank[b.Folder]
		}
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		if a.CreatedAt != b.CreatedAt {
			return a.CreatedAt < b.CreatedAt
		}
		return a.ID < b.ID
	})
	for _, t := range tasks {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%-9s %s  P%d  %s  %s", t.Folder, safetext.Line(t.ID), t.Priority, safetext.Line(t.CreatedAt), safetext.Line(t.Title)))
	}
	if tasks == nil {
		tasks = []Task{}
	}
	rep.Data = tasks
	rep.OK = true
	return rep, nil
}
