package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ops"
)

// opsEnv builds the ops environment for a command: the resolved root, the
// real clock (HARNESS_NOW=<UTC-Z> overrides it for scripted tests, never in a
// Generator session), the
// validate engine for the before/after comparison, and the variables.
func (e *Env) opsEnv(positional string) (*ops.Env, error) {
	root, err := e.workspaceFor(positional)
	if err != nil {
		return nil, err
	}
	return e.opsEnvAt(root), nil
}

// clock is the command's clock: HARNESS_NOW (UTC-Z) fixes it for scripted
// tests; a Generator session (FEATURE_ID set) always gets the real clock, so
// it cannot date its entries.
func (e *Env) clock() func() time.Time {
	if s := e.Vars["HARNESS_NOW"]; s != "" && !e.generator() {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			return func() time.Time { return t }
		}
	}
	return time.Now
}

func (e *Env) generator() bool { return e.Vars["FEATURE_ID"] != "" || e.Vars["CLAUDECODE"] == "1" }

func (e *Env) opsEnvAt(root string) *ops.Env {
	e.root = root
	generator := e.generator()
	return &ops.Env{
		Root:     root,
		Now:      e.clock(),
		Validate: ops.EngineValidate,
		// the dry run of every change overlays it on the real workspace
		ValidateOverlay: ops.EngineValidateOverlay,
		Feature:         e.Vars["FEATURE_ID"],
		Generator:       generator,
		Getenv:          func(k string) string { return e.Vars[k] },
	}
}

// opsData is the envelope data of an operation's report: the changes made
// (actions), pre-existing findings (warnings), extra lines (notes) and the
// command's structured result, plus on a refusal the findings the change
// would have added and the follow-up question.
type opsData struct {
	Actions  []string      `json:"actions"`
	Warnings []ops.Finding `json:"warnings"`
	Notes    []string      `json:"notes,omitempty"`
	Result   any           `json:"result,omitempty"`
	// YoloAbort: the command's trigger aborted pipeline YOLO (the revoked
	// ids and the one message to send).
	YoloAbort *ops.AbortOutcome `json:"yolo_abort,omitempty"`
	Findings  []ops.Finding     `json:"findings,omitempty"`
	Question  string            `json:"question,omitempty"`
}

func newOpsData(rep *ops.Report) *opsData {
	d := &opsData{Actions: []string{}, Warnings: []ops.Finding{}}
	if rep != nil {
		if rep.Actions != nil {
			d.Actions = rep.Actions
		}
		if rep.Warnings != nil {
			d.Warnings = rep.Warnings
		}
		d.Notes, d.Result, d.YoloAbort = rep.Notes, rep.Data, rep.Abort
	}
	return d
}

// opsResult prints an operation's report (text or the envelope's data) and
// maps its error to the exit code: refused → 1 (with the reason and, for a
// reply, the follow-up question), usage → 2.
func (e *Env) opsResult(rep *ops.Report, err error) error {
	if err != nil {
		if r, ok := ops.IsRefusal(err); ok {
			d := newOpsData(rep)
			d.Findings, d.Question = r.Findings, r.Question
			e.reply(d, func(w io.Writer) {
				if rep != nil {
					printReport(w, rep) // what was done before the refusal (e.g. task next failing a task)
				}
			})
			return refused("%s", r.Error())
		}
		var ue *ops.UsageError
		if errors.As(err, &ue) {
			return usage("%s", ue.Msg)
		}
		return err
	}
	e.send(rep.Messages...)
	e.reply(newOpsData(rep), func(w io.Writer) { printReport(w, rep) })
	return nil
}

func printReport(w io.Writer, rep *ops.Report) {
	for _, f := range rep.Warnings {
		fmt.Fprintf(w, "warning: pre-existing finding (not caused by this command): %s\n", f)
	}
	for _, a := range rep.Actions {
		fmt.Fprintf(w, "%s: %s\n", rep.Command, a)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(w, strings.TrimRight(n, "\n"))
	}
	for _, m := range rep.Messages {
		fmt.Fprintln(w, strings.TrimRight(m.Text, "\n"))
	}
}

// maxArgFile bounds a FILE argument (--entry, --acceptance-results,
// --handoff, --prompt-file, …) and stdin given as "-": 8 MiB, far above any
// entry or text these commands take.
const maxArgFile = 8 << 20

// readArg reads a FILE argument: "-" is stdin, "" is nothing. A file must be
// a regular file of at most maxArgFile bytes and is opened without blocking
// (fsutil.ReadRegular), stdin is read up to maxArgFile: `eval append` and
// `phase complete` run outside the sandbox in a Generator session, and
// --entry /dev/zero grew without bound while --entry FIFO hung forever.
func (e *Env) readArg(name, path string) ([]byte, error) {
	switch path {
	case "":
		return nil, nil
	case "-":
		b, err := io.ReadAll(io.LimitReader(e.Stdin, maxArgFile+1))
		if err != nil {
			return nil, usage("%s: reading stdin: %v", name, err)
		}
		if len(b) > maxArgFile {
			return nil, usage("%s: stdin holds more than %d bytes", name, maxArgFile)
		}
		return b, nil
	}
	b, err := fsutil.ReadRegular(e.abs(path), maxArgFile)
	if err != nil {
		return nil, usage("%s: %v", name, err)
	}
	return b, nil
}
