package cli

import "github.com/superagent-harness/harness/internal/ops"

// TaskCmd groups the task queue operations (docs/protocol.md §10).
type TaskCmd struct {
	Add  TaskAddCmd  `cmd:"" help:"Queue a task: tasks/pending/<id>.json with a unique id."`
	Next TaskNextCmd `cmd:"" help:"Move the next task to tasks/running/ (one running task at most)."`
	Done TaskDoneCmd `cmd:"" help:"Move a running task to sprints/<sprint_id>/TASK.json (status done)."`
	Fail TaskFailCmd `cmd:"" help:"Move a running or pending task to tasks/failed/."`
	List TaskListCmd `cmd:"" help:"List every task."`
}

// queueFlag is the --queue flag shared by the task commands.
type queueFlag struct {
	Queue string `name:"queue" placeholder:"DIR" default:"." help:"Queue root (holds tasks/, PROMPTS/, sprints/)."`
}

func (q queueFlag) queue(e *Env) *ops.Queue {
	return &ops.Queue{Root: e.abs(q.Queue), Env: e.opsEnvAt("")}
}

// TaskAddCmd is `harness task add`.
type TaskAddCmd struct {
	queueFlag
	Title        string   `name:"title" required:"" help:"Task title."`
	PromptFile   string   `name:"prompt-file" required:"" placeholder:"PROMPTS/<slug>.md" help:"Prompt file, relative to the queue root (Z20)."`
	Mode         string   `name:"mode" enum:"interactive,yolo" default:"interactive" help:"interactive or yolo."`
	AutoApprove  bool     `name:"auto-approve-all" help:"Task YOLO: auto-approve gates (with --mode yolo)."`
	Priority     int      `name:"priority" default:"3" help:"1 (most urgent) .. 5."`
	PipelineHint string   `name:"pipeline-hint" placeholder:"ID" help:"Pipeline id to use."`
	ThemeTags    []string `name:"theme-tag" help:"Theme tag (repeatable)."`
	KeepGatesFor []string `name:"keep-gates-for" help:"yolo_overrides.keep_gates_for entry, e.g. external_irreversible."`
}

// Help is shown under the usage line.
func (c *TaskAddCmd) Help() string {
	return `docs/protocol.md §10, §13 #32: the id task_<UTC yyyymmdd>_<NNN> numbers across pending/, running/, failed/,
cancelled/ and sprints/*/TASK.json, so ids never repeat.`
}

// Run performs the command.
func (c *TaskAddCmd) Run(e *Env) error {
	rep, err := c.queue(e).TaskAdd(ops.TaskAddInput{Title: c.Title, PromptFile: c.PromptFile, Mode: c.Mode,
		AutoApprove: c.AutoApprove, Priority: c.Priority, PipelineHint: c.PipelineHint, ThemeTags: c.ThemeTags, KeepGatesFor: c.KeepGatesFor})
	return e.opsResult(rep, err)
}

// TaskNextCmd is `harness task next`.
type TaskNextCmd struct{ queueFlag }

// Help is shown under the usage line.
func (c *TaskNextCmd) Help() string {
	return `Runner steps A-D (docs/protocol.md §10): exit 1 when a task is running or nothing is pending; otherwise the
lowest priority (missing = 3), then the earliest created_at, is renamed into tasks/running/ with status
running and started_at. A missing prompt file fails the task (tasks/failed/, exit 1).`
}

// Run performs the command.
func (c *TaskNextCmd) Run(e *Env) error {
	rep, err := c.queue(e).TaskNext()
	return e.opsResult(rep, err)
}

// TaskDoneCmd is `harness task done ID`.
type TaskDoneCmd struct {
	queueFlag
	ID       string `arg:"" name:"ID" help:"Task id."`
	SprintID string `name:"sprint-id" placeholder:"SPRINT" help:"sprint_id, when the task file has none."`
}

// Run performs the command.
func (c *TaskDoneCmd) Run(e *Env) error {
	rep, err := c.queue(e).TaskDone(c.ID, c.SprintID)
	return e.opsResult(rep, err)
}

// TaskFailCmd is `harness task fail ID`.
type TaskFailCmd struct {
	queueFlag
	ID     string `arg:"" name:"ID" help:"Task id."`
	Reason string `name:"reason" help:"Why it failed (failure_reason)."`
}

// Run performs the command.
func (c *TaskFailCmd) Run(e *Env) error {
	rep, err := c.queue(e).TaskFail(c.ID, c.Reason)
	return e.opsResult(rep, err)
}

// TaskListCmd is `harness task list`.
type TaskListCmd struct{ queueFlag }

// Run performs the command.
func (c *TaskListCmd) Run(e *Env) error {
	rep, err := c.queue(e).TaskList()
	return e.opsResult(rep, err)
}

// Help is shown under the usage line.
func (c *TaskDoneCmd) Help() string {
	return `docs/protocol.md §10 step F, §13 #47: requires a sprint_id (the task's, or --sprint-id) whose folder
sprints/<sprint_id> exists; the task moves to sprints/<sprint_id>/TASK.json with status done (atomic write,
then the running file is removed). Otherwise it stays in tasks/running/ (exit 1).`
}

// Help is shown under the usage line.
func (c *TaskFailCmd) Help() string {
	return `Moves a running (or pending) task to tasks/failed/ with status failed and failure_reason. Failed tasks
are never retried automatically (docs/protocol.md §10).`
}

// Help is shown under the usage line.
func (c *TaskListCmd) Help() string {
	return `Every task: running first, then pending in run order (priority, created_at), then failed, cancelled
(terminal, §13 #32) and done (sprints/*/TASK.json).`
}
