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

// Help is the long help of the command group.
func (c *TaskCmd) Help() string {
	return `The task queue of the task runner: a folder holding tasks/, PROMPTS/ and sprints/.

Examples:
  harness task add --queue ~/queue --title "Add CSV export" --prompt-file PROMPTS/csv-export.md
  harness task next --queue ~/queue
  harness task list --queue ~/queue`
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
	PromptFile   string   `name:"prompt-file" required:"" placeholder:"PROMPTS/<slug>.md" help:"Prompt file, relative to the queue root."`
	Mode         string   `name:"mode" enum:"interactive,yolo" default:"interactive" help:"interactive or yolo."`
	AutoApprove  bool     `name:"auto-approve-all" help:"Task YOLO: auto-approve gates (with --mode yolo)."`
	Priority     int      `name:"priority" default:"3" help:"1 (most urgent) .. 5."`
	PipelineHint string   `name:"pipeline-hint" placeholder:"ID" help:"Pipeline id to use."`
	ThemeTags    []string `name:"theme-tag" help:"Theme tag (repeatable)."`
	KeepGatesFor []string `name:"keep-gates-for" help:"yolo_overrides.keep_gates_for entry, e.g. external_irreversible."`
}

// Help is shown under the usage line.
func (c *TaskAddCmd) Help() string {
	return `Queues a task for the task runner: tasks/pending/<id>.json, with an id task_<UTC date>_<NNN>
that is unique across pending, running, failed, cancelled and finished tasks.

Examples:
  harness task add --queue ~/queue --title "Add CSV export" --prompt-file PROMPTS/csv-export.md
  harness task add --queue ~/queue --title "Bump deps" --prompt-file PROMPTS/bump.md --mode yolo --auto-approve-all --priority 1`
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
	return `Starts the next task: the most urgent pending task (lowest priority number, then the oldest)
moves to tasks/running/. Exit 1 when a task is already running or nothing is pending; a task
whose prompt file is missing fails (tasks/failed/, exit 1).

Examples:
  harness task next --queue ~/queue
  harness task next --queue ~/queue --json`
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
	return `Finishes a running task: it moves to sprints/<sprint_id>/TASK.json with status done. The
sprint folder must exist (the task's sprint_id, or --sprint-id); otherwise the task stays
running (exit 1).

Examples:
  harness task done task_20260421_001 --queue ~/queue
  harness task done task_20260421_002 --queue ~/queue --sprint-id sprint_20260421_2`
}

// Help is shown under the usage line.
func (c *TaskFailCmd) Help() string {
	return `Moves a running or pending task to tasks/failed/ with its failure reason. Failed tasks are
never retried automatically.

Examples:
  harness task fail task_20260421_003 --queue ~/queue --reason "the Claude Code CLI is not installed"`
}

// Help is shown under the usage line.
func (c *TaskListCmd) Help() string {
	return `Lists every task: running first, then pending in the order they will run, then failed,
cancelled and done.

Examples:
  harness task list --queue ~/queue
  harness task list --queue ~/queue --json`
}
