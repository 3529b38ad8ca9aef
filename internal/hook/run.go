package hook

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
)

// Usage is printed for -h/--help (on stdout, without reading stdin).
const Usage = `harness-hook: the Claude Code hook of the superAgent harness (every hook event).

Usage: harness-hook [--event EVENT] [--root DIR] [--feature FID] [--sprint SID] [--preset P] < payload.json

Reads one hook payload (JSON) on stdin and prints one JSON answer on stdout; exit status 0.
  --event    hook event (SessionStart, PreToolUse, Stop, …); default: the payload's hook_event_name
  --root     sprint root; default: $HARNESS_ROOT, else the nearest folder above the payload's cwd holding .harness/
  --feature  running feature; default: $FEATURE_ID, else a cwd inside .harness/features/<FID>/
  --sprint   sprint id; default: $SPRINT_ID, else feature_list.json's sprint
  --preset   policy outside a sprint workspace: strict (default, the sprint policy) or standard (harness install)

Example (a captured payload of this repository; the answer is a deny of its rm -rf):
  harness-hook --event PreToolUse < testdata/hook-input/pretooluse-bash-subagent.json
`

// flags are the command-line arguments harness init-feature writes
// (docs/protocol.md §4.6).
type flags struct {
	event, root, feature, sprint string
	// preset is --preset (harness install writes it): the policy outside
	// a sprint workspace.
	preset string
}

// parseFlags parses args by harness-hook's row of the program table
// (shell.HookSpec: Go flag syntax, -name and --name, value in the next
// word or after "="), the same grammar `harness doctor` reads the settings
// with. -h/--help gives flag.ErrHelp; an unknown flag, a flag without its
// value or an operand is an error.
func parseFlags(args []string) (flags, error) {
	var f flags
	p := shell.HookSpec.Parse(args, 0)
	for _, o := range p.Opts {
		var dst *string
		switch o.Name {
		case "h", "help":
			return f, flag.ErrHelp
		case "event":
			dst = &f.event
		case "root":
			dst = &f.root
		case "feature":
			dst = &f.feature
		case "sprint":
			dst = &f.sprint
		case "preset":
			dst = &f.preset
		default:
			return f, fmt.Errorf("unknown flag --%s", o.Name)
		}
		if !o.HasValue {
			return f, fmt.Errorf("flag --%s needs a value", o.Name)
		}
		*dst = o.Value
	}
	if !ValidPreset(f.preset) {
		return f, fmt.Errorf("unknown --preset %q (strict, standard)", f.preset)
	}
	if len(p.Operands) > 0 {
		return f, fmt.Errorf("unexpected arguments %q", p.OperandValues())
	}
	return f, nil
}

// call is everything one hook invocation knows.
type call struct {
	start time.Time
	flags flags
	// flagErr is a problem with the command line.
	flagErr error
	// raw is the payload as read; in is what decoded of it.
	raw []byte
	in  Input
	// inputErr is why the payload could not be read or decoded (nil when fine).
	inputErr error
	// event is the event answered: --event, else hook_event_name.
	event string
	scope scope
	env   map[string]string
	// rec is the hook.log record, filled in by the handlers.
	rec Record
	// obs is the monitoring of a Generator session (observe).
	obs observation
	// reply is the process's one answer (nil outside run: tests that
	// call a handler directly).
	reply *reply
}

// Owners of a reply.
const (
	replyFree   int32 = iota
	replyCaller       // the goroutine that runs the call (run)
	replyTimer        // the budget's timer (timed, process mode)
)

// reply is the one answer of a hook process: stdout and the hook.log record
// are written by whoever claims it first, the decision when it finishes
// within its budget or else the budget's timer (timed); the other writes
// nothing, so exactly one whole answer is written.
type reply struct {
	owner  atomic.Int32
	stdout io.Writer
	// done is closed once the timer has answered and r.exit returned
	// (tests only: in the process r.exit does not return).
	done chan struct{}
}

// claim reports whether who owns the reply, taking it when it is free.
func (p *reply) claim(who int32) bool {
	return p.owner.CompareAndSwap(replyFree, who) || p.owner.Load() == who
}

// runner runs hook calls. Its zero value is not usable; see Run.
type runner struct {
	now func() time.Time
	// inject, when set (tests only), runs once the event is known, right
	// before it is decided, inside the failure-policy recovery; tests use it
	// to make a handler panic or fail.
	inject func(event string)
	// stderr receives diagnostics (never stdout: stdout is the protocol).
	stderr io.Writer
	// executable returns the path of the running hook binary (os.Executable),
	// which the path guard protects; nil in tests that do not need it.
	executable func() (string, error)
	// decideBudget bounds the wall-clock time of one PreToolUse decision;
	// 0 means defaultDecideBudget.
	decideBudget time.Duration
	// eventBudget bounds the wall-clock time of a Stop or SessionStart
	// answer; 0 means defaultEventBudget.
	eventBudget time.Duration
	// pause waits between two reads of a transcript the client has not
	// finished writing (settledRecovery); nil means time.Sleep. Tests
	// replace it to play the client's late write.
	pause func(time.Duration)
	// exit ends the process (Main: os.Exit). When set, a decision runs on
	// the calling goroutine and a missed budget is answered from the
	// timer, which then calls exit(0) (timed); when nil (Run: in-process
	// callers), the decision runs on a goroutine of its own and run
	// returns at the budget.
	exit func(code int)
}

// Run is the whole harness-hook process: it reads one payload from stdin,
// decides, prints exactly one JSON object on stdout, appends one record to
// <root>/.harness/logs/hook.log and returns the exit status, which is always 0
// (a decision travels in the JSON; exit 1 would fail open and exit 2 is never
// needed, docs/hooks.md §2, §9). Panics are recovered and answered by
// the failure policy of the package doc. Configuration comes from args
// (--event/--root/--feature/--sprint) and env (HARNESS_ROOT, FEATURE_ID,
// SPRINT_ID); env is never read from the process.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, env map[string]string) int {
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	r := runner{now: time.Now, stderr: stderr, executable: os.Executable}
	return r.run(args, stdin, stdout, env)
}

// Main is Run for the harness-hook process itself (cmd/harness-hook): the
// same answers, but a decision that misses its budget is answered from the
// budget's timer, which writes the answer and the hook.log record and ends
// the process with status 0 (os.Exit) while the decision is abandoned.
// The common case thus needs no second goroutine. In-process callers use
// Run, which never exits the process.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env map[string]string) int {
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	r := runner{now: time.Now, stderr: stderr, executable: os.Executable, exit: os.Exit}
	return r.run(args, stdin, stdout, env)
}

func (r runner) run(args []string, stdin io.Reader, stdout io.Writer, env map[string]string) (code int) {
	c := &call{start: r.now(), env: env, reply: &reply{stdout: stdout, done: make(chan struct{})}}
	if env == nil {
		c.env = map[string]string{}
	}
	answered := false
	defer func() {
		// Last line of defence: a panic outside the guarded handler (flag
		// parsing, encoding, logging) still gets a contract-valid answer,
		// unless the budget's timer owns the answer.
		if p := recover(); p != nil {
			fmt.Fprintf(r.stderr, "harness-hook: internal error: %v\n%s", p, debug.Stack())
			if !answered && c.reply.claim(replyCaller) {
				_ = writeOutput(stdout, r.failure(c, ruleInternalError, fmt.Errorf("internal error: %v", p)))
			}
		}
		code = 0
	}()

	c.flags, c.flagErr = parseFlags(args)
	if errors.Is(c.flagErr, flag.ErrHelp) {
		fmt.Fprint(stdout, Usage)
		answered = true
		return 0
	}
	if c.flagErr != nil {
		// for a person at a terminal; the answer on stdout says it too
		fmt.Fprintf(r.stderr, "harness-hook: %v (see harness-hook --help)\n", c.flagErr)
	}
	raw, err := readPayload(stdin)
	c.raw = raw
	if err != nil {
		c.inputErr = err
	}
	in, derr := decodeInput(raw)
	c.in = in
	if c.inputErr == nil && derr != nil {
		c.inputErr = derr
	}
	c.event = c.flags.event
	if c.event == "" {
		c.event = in.HookEventName
	}
	if c.event == "" && c.inputErr != nil {
		c.event = salvageEvent(raw)
	}
	c.scope = resolveScope(c.flags, c.env, in.Cwd)
	c.rec = Record{
		Time:    c.start.UTC().Format("2006-01-02T15:04:05Z"),
		Event:   c.event,
		Session: in.SessionID,
		Feature: c.scope.Feature,
		Tool:    in.ToolName,
		Verdict: "allow",
	}
	c.rec.Errors = append(c.rec.Errors, c.scope.Errors...)
	if c.flagErr != nil {
		c.rec.Errors = append(c.rec.Errors, "arguments: "+c.flagErr.Error())
	}
	if c.inputErr != nil {
		c.rec.Errors = append(c.rec.Errors, "payload: "+c.inputErr.Error())
	}
	if c.flags.event != "" && in.HookEventName != "" && c.flags.event != in.HookEventName {
		c.rec.Errors = append(c.rec.Errors, fmt.Sprintf("event mismatch: --event %s but hook_event_name %s; answered as %s", c.flags.event, in.HookEventName, c.flags.event))
	}

	out := r.decide(c)
	if !c.reply.claim(replyCaller) {
		// the budget's timer answered (tests only: in the process it
		// exited before the decision returned)
		<-c.reply.done
		return 0
	}
	r.answer1(c, out, stdout, &answered)
	return 0
}

// answer1 writes the call's one answer on stdout and its hook.log record;
// the caller owns c.reply. *answered turns true once the answer is written.
func (r runner) answer1(c *call, out Output, stdout io.Writer, answered *bool) {
	if err := writeOutput(stdout, out); err != nil {
		fmt.Fprintf(r.stderr, "harness-hook: cannot write the answer: %v\n", err)
	}
	*answered = true
	c.rec.DurationUS = time.Since(c.start).Microseconds()
	if !c.scope.HasState {
		c.rec.Project, c.rec.Preset = cwdOf(c), c.flags.preset
	}
	appendRecord(c.scope, c.rec, c.env, r.stderr)
}

// decide dispatches on the event inside the recovery of the failure policy.
func (r runner) decide(c *call) (out Output) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(r.stderr, "harness-hook: internal error: %v\n%s", p, debug.Stack())
			out = r.failure(c, ruleInternalError, fmt.Errorf("internal error: panic: %v", p))
		}
	}()
	if r.inject != nil {
		r.inject(c.event)
	}
	switch c.event {
	case EventPreToolUse:
		if c.inputErr != nil {
			return r.failure(c, ruleInputInvalid, c.inputErr)
		}
		if c.flagErr != nil {
			return r.failure(c, ruleInputInvalid, fmt.Errorf("bad arguments: %w", c.flagErr))
		}
		return r.timedPreToolUse(c, r.preToolUse)
	case EventStop:
		// Stop needs nothing from the payload but session_id: it still runs
		// its checks on a broken payload (the workspace comes from the flags).
		return r.timed(c, r.budget(), r.stop, r.stopLate)
	case EventSubagentStop:
		// A subagent does not own the feature's records (testdata/sprints/README.md §7).
		return Output{}
	case EventSessionStart:
		return r.timed(c, r.budget(), func(c *call) Output {
			c.obs = r.observe(c, nil)
			return r.sessionStart(c)
		}, func(c *call) Output {
			return r.failure(c, ruleDeadline, fmt.Errorf("SessionStart did not finish within %s (a workspace file or lock could not be read in time)", r.budget()))
		})
	case EventPostToolUse, EventPostToolUseFailure, EventUserPromptSubmit:
		// measured; the Reset instruction when it is due (docs/protocol.md §8.1)
		c.obs = r.observe(c, nil)
		return r.tellOnly(c)
	case EventPreCompact:
		c.obs = r.observe(c, compactionTrigger(c, r.now().UTC().Format("2006-01-02T15:04:05Z")))
		return r.preCompact(c)
	case "":
		cause := errors.New("the hook event is unknown (no --event and no hook_event_name in the payload)")
		if c.flagErr != nil {
			cause = fmt.Errorf("bad arguments: %v (see harness-hook --help), and the hook event is unknown (no --event and no hook_event_name in the payload)", c.flagErr)
		}
		return r.failure(c, ruleInputInvalid, cause)
	default:
		// SessionEnd, Notification, SubagentStart, PermissionRequest and
		// events this version does not know: logged, no decision.
		return Output{}
	}
}

// Failure rule ids (hook.log "rule" and the deny reason).
const (
	ruleInputInvalid  = ruleid.HookPayloadInvalid
	ruleInternalError = ruleid.HookInternalError
	// ruleDeadline: a Stop or SessionStart answer did not finish within its
	// budget (the workspace is jammed: a held lock, a file that cannot be
	// read in time).
	ruleDeadline = ruleid.HookDeadline
)

// defaultEventBudget is the wall-clock budget of a Stop or SessionStart
// answer (8 s): well inside the 30 s handler timeout `harness init-feature`
// registers for them (and Claude Code's own 60 s default), past which a
// hook fails open. The locks the hook waits for inside it give up sooner
// (hookLockTimeout), so a jammed workspace is normally reported with its
// cause before the budget runs out.
const defaultEventBudget = 8 * time.Second

// hookLockTimeout is how long the hook waits for a workspace lock (the
// state lock of the Reset bookkeeping, the hook.log lock) before giving up
// with an error that names the holder.
const hookLockTimeout = 2 * time.Second

func (r runner) budget() time.Duration {
	if r.eventBudget > 0 {
		return r.eventBudget
	}
	return defaultEventBudget
}

// failure answers a call that could not be decided, as the generic rows of
// the failure table say for its event (failurePolicy,
// docs/hook-failure-policy.md): PreToolUse denies with the cause; Stop and
// SubagentStop allow with a systemMessage for the user; an unknown event
// with an unreadable payload blocks with the legacy top-level decision
// (which PreToolUse reads as deny); the events that cannot decide get a
// systemMessage naming the cause, the rest a valid no-op.
func (r runner) failure(c *call, rule string, cause error) Output {
	c.rec.Rule = rule
	c.rec.Errors = append(c.rec.Errors, cause.Error())
	// The record goes to the sprint's .harness/logs/hook.log or, outside a
	// sprint, to the user-level audit log; `harness logs` reads whichever
	// applies where the user stands, so the reason names the command, not a
	// path that is wrong in one of the two cases.
	fix := "retry the call; if this keeps happening the hook installation is broken: tell the user (the record: harness logs --rule " + rule + ")"
	switch failureAnswer(c.event) {
	case answerDeny:
		reason := fmt.Sprintf("harness-hook could not check this tool call, so it is refused (fail-closed) [%s]: %s. Way forward: %s.", rule, cause, fix)
		c.rec.Verdict, c.rec.Reason = "block", reason
		return Output{HookSpecificOutput: &HookSpecificOutput{
			HookEventName:            EventPreToolUse,
			PermissionDecision:       "deny",
			PermissionDecisionReason: reason,
		}}
	case answerAllowMessage:
		msg := fmt.Sprintf("harness-hook could not check the %s [%s]: %s. The session was allowed to stop without the record check.", c.event, rule, cause)
		c.rec.Verdict, c.rec.Reason = "allow", msg
		return Output{SystemMessage: msg}
	case answerLegacyBlock:
		reason := fmt.Sprintf("harness-hook could not read this hook call and refuses it [%s]: %s. Way forward: register harness-hook with --event <EventName> and its other flags as harness install and harness init-feature do, and check the payload.", ruleInputInvalid, cause)
		c.rec.Verdict, c.rec.Reason, c.rec.Rule = "block", reason, ruleInputInvalid
		return Output{Decision: "block", Reason: reason}
	case answerSystemMessage:
		msg := fmt.Sprintf("harness-hook %s failed [%s]: %s", c.event, rule, cause)
		c.rec.Verdict = "allow"
		return Output{SystemMessage: msg}
	default:
		c.rec.Verdict = "allow"
		return Output{}
	}
}
