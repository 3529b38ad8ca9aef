package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/ops"
)

// CheckpointCmd groups the checkpoint operations (docs/protocol.md §5).
type CheckpointCmd struct {
	Open     CheckpointOpenCmd     `cmd:"" help:"Push a checkpoint to the user: store blockers, pending, pending_user_replies."`
	Render   CheckpointRenderCmd   `cmd:"" help:"Print the message of a checkpoint (templates/)."`
	Reply    CheckpointReplyCmd    `cmd:"" help:"Record the user's reply (1a 2b 3a, 1 选 a, 2: b, reject, suspend)."`
	ReplyAll CheckpointReplyAllCmd `cmd:"" name:"reply-all" help:"Record one message answering several checkpoints, one line each: 'cp-f001-1: 1a 2b' or, after a YOLO abort, 'cp1: 1a 2b'."`
	Due      CheckpointDueCmd      `cmd:"" help:"Send due reminders (24h/72h) and auto-approve reviews after 48h."`
}

// Help is the long help of the command group.
func (c *CheckpointCmd) Help() string {
	return `Checkpoints are the questions a sprint asks the user: gates (the work waits for the answer),
reviews (they pass after 48 hours) and notifications.

Examples:
  harness checkpoint open cp-f001-1 --blockers blockers.json
  harness checkpoint render cp-f001-1
  harness checkpoint reply cp-f001-1 '1a 2b 3a'
  harness checkpoint due`
}

// CheckpointOpenCmd is `harness checkpoint open CP_ID`.
type CheckpointOpenCmd struct {
	ID        string   `arg:"" name:"CP_ID" help:"cp-<fid>-<n>, cp-sprint-tooling or cp-sprint-dag."`
	Blockers  string   `name:"blockers" placeholder:"FILE|-" help:"JSON array of {id, question, options} (or {blockers, prompt, artifacts})."`
	Type      string   `name:"type" enum:",gate,review,notify" default:"" help:"gate, review or notify (default: as planned, else gate)."`
	Phase     int      `name:"phase" help:"Phase of a feature checkpoint that is not planned yet."`
	Prompt    string   `name:"prompt" help:"Opening line of the message."`
	Artifacts []string `name:"artifact" help:"Artifact path under review (repeatable)."`
	TaskYolo  string   `name:"task-yolo" placeholder:"TASK_FILE" help:"Running task file of a task in YOLO mode: its gates pass on their own (auto_approved_yolo_task)."`
	External  bool     `name:"external-irreversible" help:"The gate guards an external irreversible operation (git push, publish, deploy): YOLO never passes it."`
	Dir       string   `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *CheckpointOpenCmd) Help() string {
	return `Pushes a checkpoint to the user and prints the message to send. A gate needs 2 to 4 drafted
blockers with at least two options each and no default; the catch-all question is appended
last. The checkpoint becomes pending, the feature and its session wait for the user, and a
notification is logged. In pipeline YOLO a feature gate passes on its own unless it guards an
external irreversible step; with --task-yolo every gate of that task passes on its own.

Examples:
  harness checkpoint open cp-f001-1 --blockers blockers.json --prompt "Plan for f001 ready"
  harness checkpoint open cp-sprint-dag --type review --artifact .harness/feature_list.json
  harness checkpoint open cp-f003-2 --blockers - --external-irreversible < blockers.json`
}

// Run performs the command.
func (c *CheckpointOpenCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	b, err := e.readArg("--blockers", c.Blockers)
	if err != nil {
		return err
	}
	task, err := e.readArg("--task-yolo", c.TaskYolo)
	if err != nil {
		return err
	}
	rep, err := ops.CheckpointOpen(env, ops.CheckpointOpenInput{ID: c.ID, Blockers: b, Type: c.Type, Phase: c.Phase, Prompt: c.Prompt, Artifacts: c.Artifacts, TaskYolo: task, ExternalIrreversible: c.External})
	return e.opsResult(rep, err)
}

// CheckpointRenderCmd is `harness checkpoint render CP_ID`.
type CheckpointRenderCmd struct {
	ID  string `arg:"" name:"CP_ID" help:"Checkpoint id."`
	Dir string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Run performs the command.
func (c *CheckpointRenderCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	msg, err := ops.CheckpointRender(env, c.ID)
	if err != nil {
		return e.opsResult(nil, err)
	}
	e.send(msg)
	e.reply(map[string]any{"checkpoint_id": c.ID}, func(w io.Writer) {
		fmt.Fprintln(w, strings.TrimRight(msg.Text, "\n"))
	})
	return nil
}

// CheckpointReplyCmd is `harness checkpoint reply CP_ID 'TEXT'`.
type CheckpointReplyCmd struct {
	ID   string `arg:"" name:"CP_ID" help:"Checkpoint id."`
	Text string `arg:"" name:"TEXT" help:"The user's reply verbatim."`
	Dir  string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *CheckpointReplyCmd) Help() string {
	return `Records the user's reply to a checkpoint. Accepted: '1a 2b 3a', '1 选 a', '2: b'; text next to
the choices (or catch-all b with details) means approved with changes; reject / no / 不对 means
rejected; suspend and resume. When every blocker is answered and nothing else was said, the
checkpoint is approved. A missing, extra or unclear answer is refused (exit 1) with the
follow-up question to ask, and nothing is recorded. Approving the tooling checkpoint locks the
tooling; approving the dependency plan makes the sprint active.

Examples:
  harness checkpoint reply cp-f001-1 '1a 2b 3a'
  harness checkpoint reply cp-f001-2 '1a 2b, but keep the old flag as an alias'
  harness checkpoint reply cp-sprint-dag reject`
}

// Run performs the command.
func (c *CheckpointReplyCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.CheckpointReply(env, c.ID, c.Text)
	return e.opsResult(rep, err)
}

// CheckpointDueCmd is `harness checkpoint due`.
type CheckpointDueCmd struct {
	Dir string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Run performs the command.
func (c *CheckpointDueCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.CheckpointDue(env)
	return e.opsResult(rep, err)
}

// CheckpointReplyAllCmd is `harness checkpoint reply-all 'TEXT'`.
type CheckpointReplyAllCmd struct {
	Text string `arg:"" name:"TEXT" help:"The user's message verbatim, one '<checkpoint id>: <reply>' or 'cp<n>: <reply>' per line ('-' reads stdin)."`
	Dir  string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *CheckpointReplyAllCmd) Help() string {
	return `Records one message that answers several checkpoints, one '<checkpoint id>: <reply>' per line
(as after a YOLO abort). A line 'cp<n>: …' answers checkpoint n of the YOLO abort message (its
numbered block). Every line is read before anything is recorded; one unclear line refuses the
whole message with the questions to ask.

Examples:
  harness checkpoint reply-all $'cp-f001-1: 1a 2b
cp-f002-1: 1b 2a'
  harness checkpoint reply-all $'cp1: 1a 2b
cp2: 1b'          # after a YOLO abort message
  harness checkpoint reply-all - < reply.txt`
}

// Run performs the command.
func (c *CheckpointReplyAllCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	text := c.Text
	if text == "-" {
		b, err := e.readArg("TEXT", "-")
		if err != nil {
			return err
		}
		text = string(b)
	}
	rep, err := ops.CheckpointReplyAll(env, text)
	return e.opsResult(rep, err)
}

// Help is shown under the usage line.
func (c *CheckpointDueCmd) Help() string {
	return `Sends the reminders that are due and prints each message: a gate waiting 24 hours gets a
reminder, after 72 hours an urgent one offering to suspend (each once); gates never time out. A
review waiting 48 hours passes as approved on timeout. When nothing is due it prints nothing (exit
0), so its output can go to the user as it is.

Examples:
  harness checkpoint due
  harness checkpoint due ~/sprints/sprint_20260421_1 --json`
}

// Help is shown under the usage line.
func (c *CheckpointRenderCmd) Help() string {
	return `Prints the message of a checkpoint as it is sent to the user (from templates/): the title, the
opening line, the numbered blockers with options a/b/c, the catch-all last, and how to reply
(1a 2b 3a). Read-only.

Examples:
  harness checkpoint render cp-f001-1
  harness checkpoint render cp-sprint-tooling --json`
}
