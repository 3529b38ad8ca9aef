// Package render renders the text templates of templates/ (embedded through
// harness.Assets) with text/template and Option("missingkey=error"): a field
// the template names but the data lacks is an error, never an empty string.
//
// Each template has a typed data struct below; Render takes the template's
// file name (e.g. "generator_log.template.md") and any data value, and the
// typed helpers (GeneratorLog, ContextSnapshot, …) pick the right file.
package render

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"text/template"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/safetext"
)

// Template file names under templates/.
const (
	ToolingFile         = "tooling.template.md"
	GeneratorLogFile    = "generator_log.template.md"
	ContextSnapshotFile = "feature_session_init.template.md"
	HandoffFile         = "claude_code_handoff.template.md"
	HermesHandoffFile   = "hermes_handoff.template.md"
	GateFile            = "checkpoint_gate.template.md"
	ReviewFile          = "checkpoint_review.template.md"
	NotifyFile          = "checkpoint_notify.template.md"
	ReminderFile        = "checkpoint_reminder.template.md"
	YoloAbortFile       = "yolo_abort.template.md"
	FinalizingFile      = "sprint_finalizing.template.md"
	SprintDoneFile      = "sprint_done.template.md"
)

// CatchAllID is the id of the fixed last blocker of a gate (docs/protocol.md §3.2).
const CatchAllID = "catch_all"

// Tooling is the data of tooling.template.md (docs/protocol.md §3.5 header lines).
type Tooling struct {
	Sprint      string // sprint id
	GeneratedBy string // "Hermes"
	GeneratedAt string // UTC-Z timestamp
}

// GeneratorLog is the data of generator_log.template.md: only the title block
// (`# Generator Log: <fid>` and two `>` lines, docs/protocol.md §3.11).
type GeneratorLog struct {
	FeatureID, Name, Sprint string
}

// Dependency is one depends_on feature as shown in a context snapshot.
type Dependency struct {
	ID, Name, Status string
	// Artifacts is the union of the dependency's checkpoints[].artifacts and the
	// paths under `### 产出物` in its generator_log; empty renders "(none yet)".
	Artifacts []string
}

// ContextSnapshot is the data of feature_session_init.template.md, rendered
// into context_snapshot.md by `harness init-feature` (docs/protocol.md §3.11).
type ContextSnapshot struct {
	FeatureID, Name, Title, Sprint string
	Description                    string // optional; omitted when empty
	Phase                          int
	PhaseAction                    string // plan, implement, verify, deliver
	DonePhases                     string // e.g. "1 (plan)" or "none"
	NextPhase                      string // e.g. "2 (implement)" or "none (last phase)"
	Acceptance                     []string
	VerificationMode               string
	ExecutionPath                  string
	ToolingPath                    string // relative to the sprint root
	RetryHint                      string // optional; omitted when empty
	Dependencies                   []Dependency
}

// Handoff is the data of claude_code_handoff.template.md (a Generator's
// handoff.md at Reset, docs/protocol.md §3.11 and §8.1).
type Handoff struct {
	FeatureID, Sprint, GeneratedAt string
	TriggerReason                  string // copied by the Stop hook into the reset eval entry
	Phase                          int
	PhaseAction                    string
	PercentDone                    int
	LastWork, CurrentFiles         string
	Blockers                       string
	Done, NextSteps, Decisions     []string
	Failures, RuntimeChanges       []string
}

// FeatureRow is one line of the feature_list summary in a Hermes handoff.
type FeatureRow struct {
	ID, Status string
	Phase      int
}

// HermesHandoff is the data of hermes_handoff.template.md (docs/protocol.md §8.2).
type HermesHandoff struct {
	Sprint, GeneratedAt, TriggerReason string
	Mode, Activity                     string
	// PendingEvalJSON is the pending_eval object as JSON; empty renders the
	// literal `无 pending eval`.
	PendingEvalJSON    string
	PendingCheckpoints []string
	Features           []FeatureRow
	OpenQuestions      []string
}

// Blocker is one checkpoint question (docs/protocol.md §3.2 checkpoint.blockers[]).
type Blocker struct {
	ID, Question string
	Options      []string
}

// Checkpoint is the data of the gate, review and notify messages
// (docs/protocol.md §5 message formats).
type Checkpoint struct {
	CheckpointID, FeatureID, Name, Prompt string
	// Done is the work summary of the message's "我做完了<Done>" line: what
	// was finished before the checkpoint (e.g. "f003 的 phase 3 (verify)").
	Done     string
	Blockers []Blocker
}

// Reminder is the data of checkpoint_reminder.template.md: Urgent selects the
// 72h 【催办-紧急】 form, which also offers `suspend`. Parallel lists the
// features that kept running while the checkpoint waits ("f004 name"; the
// protocol's parallel_features).
type Reminder struct {
	Checkpoint
	Urgent      bool
	WaitedHours int
	Parallel    []string
}

// YoloAbort is the data of yolo_abort.template.md (docs/protocol.md §6.1 step
// 4): one message listing every revoked checkpoint with its original
// blockers, numbered 1…n; the user answers checkpoint n on a line `cp<n>: …`.
type YoloAbort struct {
	Sprint, Cause string
	Checkpoints   []Checkpoint
}

// Finalizing is the data of sprint_finalizing.template.md, the finalizer's
// question after its checklist (docs/protocol.md §9.2 step 3).
type Finalizing struct {
	Sprint string
	// Checks is the number of checklist items, Passed and Failed split it;
	// Errors and Infos count the findings of `harness finalize --check`.
	Checks, Passed, Failed, Errors, Infos int
	Problems                              []string // one line per failed item
	// Pipeline is the pipeline the sprint would sink into (a version bump
	// from Version); "" offers a new pipeline v1.0.
	Pipeline, Version string
	// ForcedClose: more than 30 % of the records are missing, so sinking is
	// refused and the sprint can only be archived (§9.2 consequences).
	ForcedClose bool
}

// SprintDone is the data of sprint_done.template.md (docs/protocol.md §9.2
// step 6): Outcome "sunk" (into Pipeline vVersion) or "closed".
type SprintDone struct {
	Sprint, Outcome, Pipeline, Version string
	Archive                            string // where the sprint's records are kept
}

// Message is one message for the user, as every message-producing command
// gives it in its --json data ({"message": {…}}) and as internal/notify
// delivers it. Text is the whole message, title line first, ready to send;
// Title is its first line; ReplyFormat shows the answer the message asks for
// ("1a 2a 3a", "cp1: 1a 2a\ncp2: 1a", "a | b | c", "1a 2a | suspend"), ""
// when no answer is expected (notify, 【Sprint 完成】).
type Message struct {
	Title       string `json:"title"`
	Text        string `json:"text"`
	ReplyFormat string `json:"reply_format"`
}

// message renders template name with data into a Message.
func message(name string, data any, reply string) (Message, error) {
	text, err := Render(name, data)
	if err != nil {
		return Message{}, err
	}
	title, _, _ := strings.Cut(text, "\n")
	return Message{Title: strings.TrimSpace(title), Text: text, ReplyFormat: reply}, nil
}

// Render executes the template file name (a base name under templates/) with
// data. A field or map key the template uses but data lacks is an error.
func Render(name string, data any) (string, error) {
	src, err := fs.ReadFile(harness.Assets(), "templates/"+name)
	if err != nil {
		return "", fmt.Errorf("render: template %s: %w", name, err)
	}
	t, err := template.New(name).Option("missingkey=error").Funcs(funcs()).Parse(string(src))
	if err != nil {
		return "", fmt.Errorf("render: parse %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return "", fmt.Errorf("render: %w", err)
	}
	// the message goes to a person (Feishu, a terminal): no control
	// character a value carried survives (internal/safetext)
	return safetext.Escape(buf.String()), nil
}

// Names lists the template files under templates/ (README.md excluded).
func Names() ([]string, error) {
	ents, err := fs.ReadDir(harness.Assets(), "templates")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".template.md") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// GeneratorLogTitle renders the title block of a generator_log.md.
func GeneratorLogTitle(d GeneratorLog) (string, error) { return Render(GeneratorLogFile, d) }

// ContextSnapshotText renders a context_snapshot.md.
func ContextSnapshotText(d ContextSnapshot) (string, error) { return Render(ContextSnapshotFile, d) }

// CheckpointMessage renders the message for a checkpoint of type kind
// ("gate", "review" or "notify"; docs/protocol.md §5 message formats).
func CheckpointMessage(kind string, d Checkpoint) (Message, error) {
	switch kind {
	case "gate":
		return message(GateFile, d, exampleReply(d.Blockers))
	case "review":
		reply := ""
		if len(d.Blockers) > 0 {
			reply = exampleReply(d.Blockers)
		}
		return message(ReviewFile, d, reply)
	case "notify":
		return message(NotifyFile, d, "")
	}
	return Message{}, fmt.Errorf("render: unknown checkpoint type %q (want gate, review or notify)", kind)
}

// ReminderMessage renders the 24h 【催办】 or, with d.Urgent, the 72h
// 【催办-紧急】 reminder of a gate (docs/protocol.md §5 step 4).
func ReminderMessage(d Reminder) (Message, error) {
	reply := exampleReply(d.Blockers)
	if d.Urgent {
		reply += " | suspend"
	}
	return message(ReminderFile, d, reply)
}

// YoloAbortMessage renders the one aggregated message of a global YOLO abort
// (docs/protocol.md §6.1 step 4).
func YoloAbortMessage(d YoloAbort) (Message, error) {
	return message(YoloAbortFile, d, abortReply(d.Checkpoints))
}

// FinalizingMessage renders 【Sprint finalizing】 (docs/protocol.md §9.2 step 3).
func FinalizingMessage(d Finalizing) (Message, error) {
	return message(FinalizingFile, d, "a | b | c")
}

// SprintDoneMessage renders 【Sprint 完成】 (docs/protocol.md §9.2 step 6).
func SprintDoneMessage(d SprintDone) (Message, error) {
	if d.Outcome != "sunk" && d.Outcome != "closed" {
		return Message{}, fmt.Errorf("render: sprint outcome %q (want sunk or closed)", d.Outcome)
	}
	return message(SprintDoneFile, d, "")
}

// funcs are the helpers the templates may call.
func funcs() template.FuncMap {
	return template.FuncMap{
		"inc":        func(i int) int { return i + 1 },
		"blockers":   orderBlockers,
		"option":     optionLine,
		"example":    exampleReply,
		"abortReply": abortReply,
		"join":       strings.Join,
	}
}

// orderBlockers returns bs with catch_all moved to the end (it is always the
// last question of a gate, docs/protocol.md §5).
func orderBlockers(bs []Blocker) []Blocker {
	out := make([]Blocker, 0, len(bs))
	var tail []Blocker
	for _, b := range bs {
		if b.ID == CatchAllID {
			tail = append(tail, b)
			continue
		}
		out = append(out, b)
	}
	return append(out, tail...)
}

// optionLine labels option j with its letter (a, b, c, …) unless the option
// text already starts with that label ("a. 没有").
func optionLine(j int, o string) string {
	label := string(rune('a' + j))
	t := strings.TrimSpace(o)
	for _, p := range []string{label + ".", label + ")", label + "、", label + " "} {
		if strings.HasPrefix(t, p) {
			return t
		}
	}
	return label + ". " + t
}

// exampleReply builds the reply hint "1a 2a 3a" for the ordered blockers.
func exampleReply(bs []Blocker) string {
	parts := make([]string, 0, len(bs))
	for i := range orderBlockers(bs) {
		parts = append(parts, fmt.Sprintf("%da", i+1))
	}
	if len(parts) == 0 {
		return "1a"
	}
	return strings.Join(parts, " ")
}

// abortReply builds the reply lines of a YOLO abort message: one
// "cp<n>: 1a 2a …" line per revoked checkpoint, n its number in the message.
func abortReply(cps []Checkpoint) string {
	lines := make([]string, 0, len(cps))
	for i, c := range cps {
		lines = append(lines, fmt.Sprintf("cp%d: %s", i+1, exampleReply(c.Blockers)))
	}
	return strings.Join(lines, "\n")
}
