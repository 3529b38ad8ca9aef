// Package ops implements the protocol's state-changing operations as plain
// functions over a sprint workspace (docs/protocol.md §4–§10, resolutions of §13):
// eval append/amend, phase advance/retry, sessions, checkpoints, preflight,
// scheduling (next), YOLO, resets, pipeline sink, the task queue and status.
//
// Every operation that changes a workspace goes through a Tx: the change is
// built in memory, applied to a scratch copy of <root>/.harness, validated
// there before and after (Env.Validate, i.e. `harness validate`), and written to
// the real workspace only when it adds no error finding (testdata/sprints/README.md D33:
// pre-existing findings become warnings, so one bad old line never locks the
// workspace). State files are replaced atomically under the workspace lock
// fsutil.Lock(<root>/.harness/state); eval_log lines are appended with
// fsutil.AppendLine. A change that touches several files is first written to
// the journal <root>/.harness/logs/ops.journal, so a crash between two files
// is completed by the next command instead of leaving a half-written change.
// Time comes from Env.Now, never from time.Now deep inside.
//
// State files are edited as order-preserving JSON objects (Obj): fields no
// schema knows survive a rewrite and the diff shows only what changed.
//
// In a Generator session (Env.Feature = FEATURE_ID) the only change allowed is
// eval append of the session's own phase_evaluation or retry entry, without
// decision or checkpoint fields; every other operation refuses (defense in
// depth behind the hook's harness_admin family, docs/protocol.md §1.1).
package ops

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/workspace"
)

// TimeLayout is the only timestamp shape the harness writes: UTC, whole
// seconds, literal Z (docs/protocol.md §2, Z7).
const TimeLayout = "2006-01-02T15:04:05Z"

// Finding is one `harness validate` finding as ops compares and prints it
// (the shape of validate.Finding: testdata/sprints/README.md §3 --json).
type Finding struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Pointer  string `json:"pointer,omitempty"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// String formats f as "[rule] (severity) file[:line]: message" (severity
// shown only when not error).
func (f Finding) String() string {
	loc := f.File
	if f.Line > 0 {
		loc = fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	sev := ""
	if f.Severity != "" && f.Severity != "error" {
		sev = " (" + f.Severity + ")"
	}
	return fmt.Sprintf("[%s]%s %s: %s", f.Rule, sev, loc, f.Message)
}

func (f Finding) key() string {
	return strings.Join([]string{f.Rule, f.File, fmt.Sprint(f.Line), f.Pointer, f.Message}, "\x00")
}

// Validator runs `harness validate` on a workspace root and returns every
// finding. The CLI wires internal/validate here; tests may pass their own.
type Validator func(root string) ([]Finding, error)

// OverlayValidator runs `harness validate` on the workspace at root as if the
// files of overlay (slash paths relative to root → content, nil = removed)
// were written and the bytes of appends (slash path → bytes as
// fsutil.AppendLine writes them) appended, reading nothing else in their
// place. It may keep a cache of the eval_log pass under .harness/logs/cache/
// (so an append costs its own line); it writes nothing else. evalSize ≥ 0
// reads eval_log.jsonl on disk as its first evalSize bytes (the dry run's
// snapshot; appends follow it); evalSize < 0 reads it whole.
// ledger, when not nil, is the provenance loaded from the files on disk
// under the lock the caller holds (workspace.LoadProvenance): the ledger
// file is then not read again (validate.Options.Ledger).
// EngineValidateOverlay is the internal/validate one.
type OverlayValidator func(root string, overlay, appends map[string][]byte, evalSize int64, ledger *workspace.Provenance) ([]Finding, error)

// Env is what every operation needs: the resolved sprint root, the clock and
// the validator. Now must return the current time (the CLI passes time.Now);
// Validate may be nil, which skips the before/after comparison.
type Env struct {
	Root     string
	Now      func() time.Time
	Validate Validator
	// Finalize runs `harness finalize --check` (pipeline sink refuses unless
	// it passes); nil means it cannot be checked, and sink refuses.
	Finalize Validator
	// ValidateOverlay, when set, is used for the before/after comparison
	// instead of Validate on a scratch copy: the staged change is overlaid
	// in memory on the real workspace, so nothing is copied and the sprint's
	// own schemas/ are in force exactly as for `harness validate`.
	ValidateOverlay OverlayValidator
	// HookBinary, when set, is the harness-hook executable preflight accepts
	// besides any executable named harness-hook.
	HookBinary string
	// Feature is the feature of the Generator session running the command
	// (FEATURE_ID, set by the launcher for every Generator session, §4.6
	// STEP 3.3); "" for Hermes. eval append restricts what a Generator may
	// write.
	Feature string
	// Generator marks a Generator session even when FEATURE_ID is missing
	// (the CLI sets it for FEATURE_ID or Claude Code's CLAUDECODE=1); it
	// implies the same restrictions, with any feature allowed for eval
	// append when Feature is "".
	Generator bool
	// Getenv reads configuration (HERMES_HOME, HOME); nil means no variables.
	Getenv func(string) string
}

func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Unix(0, 0).UTC()
	}
	return e.Now().UTC().Truncate(time.Second)
}

func (e *Env) stamp() string { return e.now().Format(TimeLayout) }

func (e *Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// H returns the path of a file under <root>/.harness.
func (e *Env) H(parts ...string) string {
	return filepath.Join(append([]string{e.Root, ".harness"}, parts...)...)
}

// Report is what an operation did, printed as text or with --json.
type Report struct {
	Command string `json:"command"`
	OK      bool   `json:"ok"`
	// Actions lists every change made, one human-readable line each.
	Actions []string `json:"actions"`
	// Messages are the messages for the user the operation produced, in
	// the order to send them (docs/protocol.md §5 message formats): the
	// CLI prints their text, puts them into its --json data and delivers
	// them with --notify.
	Messages []render.Message `json:"messages,omitempty"`
	// Warnings are findings that existed before the change (not caused by it).
	Warnings []Finding `json:"warnings,omitempty"`
	// Notes are extra lines for the reader (e.g. the rendered message).
	Notes []string `json:"notes,omitempty"`
	// Data is the command's structured result (preflight items, next, …).
	Data any `json:"data,omitempty"`
	// Abort is set when a trigger this command recorded aborted pipeline
	// YOLO in the same operation (docs/protocol.md §6.1).
	Abort *AbortOutcome `json:"yolo_abort,omitempty"`
}

// send adds a message for the user to the report.
func (r *Report) send(m render.Message) { r.Messages = append(r.Messages, m) }

func (r *Report) did(format string, args ...any) {
	r.Actions = append(r.Actions, fmt.Sprintf(format, args...))
}

// Refusal is returned when an operation refuses (exit 1): Reason says why,
// Findings lists the validate findings the change would have added, Question
// is the follow-up question to ask the user (checkpoint reply).
type Refusal struct {
	Reason   string    `json:"reason"`
	Findings []Finding `json:"findings,omitempty"`
	Question string    `json:"question,omitempty"`
}

// Error is the reason, each added finding on its own line, then the
// follow-up question.
func (r *Refusal) Error() string {
	var b strings.Builder
	b.WriteString(r.Reason)
	for _, f := range r.Findings {
		b.WriteString("\n  ")
		b.WriteString(f.String())
	}
	if r.Question != "" {
		b.WriteString("\n")
		b.WriteString(r.Question)
	}
	return b.String()
}

func refuse(format string, args ...any) error {
	return &Refusal{Reason: fmt.Sprintf(format, args...)}
}

// IsRefusal reports whether err is a Refusal and returns it.
func IsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

// UsageError is a malformed invocation (exit 2).
type UsageError struct{ Msg string }

// Error returns the usage message.
func (u *UsageError) Error() string { return u.Msg }

func usage(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}
