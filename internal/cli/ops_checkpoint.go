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

// CheckpointOpenCmd is `harness checkpoint open CP_ID`.
type CheckpointOpenCmd struct {
	ID        string   `arg:"" name:"CP_ID" help:"cp-<fid>-<n>, cp-sprint-tooling or cp-sprint-dag."`
	Blockers  string   `name:"blockers" placeholder:"FILE|-" help:"JSON array of {id, question, options} (or {blockers, prompt, artifacts})."`
	Type      string   `name:"type" enum:",gate,review,notify" default:"" help:"gate, review or notify (default: as planned, else gate)."`
	Phase     int      `name:"phase" help:"Phase of a feature checkpoint that is not planned yet."`
	Prompt    string   `name:"prompt" help:"Opening line of the message."`
	Artifacts []string `name:"artifact" help:"Artifact path under review (repeatable)."`
	TaskYolo  string   `name:"task-yolo" placeholder:"TASK_FILE" help:"Running task file of a task in YOLO mode: gates pass as auto_approved_yolo_task (§6.2)."`
	External  bool     `name:"external-irreversible" help:"The gate guards an external irreversible operation (git push, publish, deploy): YOLO never passes it."`
	Dir       string   `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *CheckpointOpenCmd) Help() string {
	return `docs/protocol.md §5 steps 1-3, §13 #48: a gate needs 2-4 drafted blockers (≥ 2 options each, no default);
the fixed catch_all is appended last. Sets status pending and created_at, adds the id to
pending_user_replies and pending_checkpoints, puts the feature and its pool entry into waiting_human.
Sprint gates live in feature_list.sprint_checkpoints[] (§13 #5). A notify is logged at once (D14).
Under pipeline YOLO a feature gate passes as auto_approved_yolo unless external_irreversible; with
--task-yolo every gate passes as auto_approved_yolo_task (task_id, yolo_context mode task_level).
Prints the message to send.`
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
	return `docs/protocol.md §5: strict '1a 2b 3a' or loose '1 选 a', '2: b'; text next to the choices (or catch_all b with
details) → approved_with_changes with that feedback; reject/no/不对 → rejected; suspend/resume. All
blockers answered, nothing else, catch_all a → approved. Missing, extra or ambiguous answers are refused
(exit 1) with the follow-up question; nothing is recorded. Writes feature_list (status, decision,
feedback, responded_at), one checkpoint eval entry and pending_user_replies; cp-sprint-tooling approved →
tooling_locked + contract planned; cp-sprint-dag approved → contract active, mode active, evaluator.
Resolutions: §13 #3 (status passed for approving decisions, failed for rejected), #17 (sprint-gate
approval set), #40 (mode back to active once nothing is pending), #2 (a revoked checkpoint is answered
like a pending one).`
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
	return `docs/protocol.md §5 (after a YOLO abort the user answers several checkpoints in one message). A line
'cp<n>: …' answers checkpoint n of the YOLO abort message (its '========== n. cp-… ==========' block). Every line
is parsed before anything is recorded; one unclear line refuses the whole message with the questions.`
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
	return `docs/protocol.md §5 step 4: a gate waiting ≥ 24h gets 【催办】 and ≥ 72h 【催办-紧急】 (offering suspend), each
once, recorded in reminded_at; gates never time out (D17). A review waiting ≥ 48h passes as
auto_approved_timeout (status passed, checkpoint eval entry, removed from pending_user_replies and
pending_checkpoints). Prints every due message.`
}

// Help is shown under the usage line.
func (c *CheckpointRenderCmd) Help() string {
	return `docs/protocol.md §5 step 2: the message from templates/checkpoint_{gate,review,notify}.template.md: title
【Checkpoint】/【Review】/【Notify】 <fid> <name>, the prompt, numbered blockers with options a/b/c, catch_all
last, and the reply hint (1a 2b 3a). No links. Read-only.`
}
