package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/prestack"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/verdict"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Rule ids of PreToolUse refusals for calls the guards cannot judge.
const (
	// ruleBadInput: a Bash tool_input without a string "command" (missing
	// tool_input, missing or null command).
	ruleBadInput = ruleid.HookBadInput
	// ruleRootMissing: the sprint root named by --root or HARNESS_ROOT does
	// not exist or holds no .harness/.
	ruleRootMissing = ruleid.HookSprintRootMissing
	// ruleTimedOut: the decision did not finish within decideBudget.
	ruleTimedOut = ruleid.ShellTooComplex
)

// defaultDecideBudget is the wall-clock budget of one PreToolUse decision
// (3 s): well under Claude Code's 10 s handler timeout, past which a hook
// without "onFailure": "block" fails open.
const defaultDecideBudget = 3 * time.Second

// missingCommand reports a Bash tool_input that carries no command at all:
// tool_input missing or null, no "command" member, or "command": null.
// Claude Code would still run something (or fail in a way the guard did not
// judge); a wrong type is refused by decodeToolInput. "" and blank commands
// are allowed (testdata/corpus/README.md §2: nothing runs).
func missingCommand(raw json.RawMessage) (string, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return "tool_input is missing", true
	}
	if t[0] != '{' {
		return "", false // decodeToolInput reports the shape error
	}
	m, ok := rawMembers(t)
	if !ok {
		return "", false
	}
	c, ok := m["command"]
	if !ok {
		return "tool_input has no \"command\"", true
	}
	if bytes.Equal(bytes.TrimSpace(c), []byte("null")) {
		return "tool_input.command is null", true
	}
	return "", false
}

// badInput is the refusal of a Bash call without a command.
func badInputDecision(cause string) verdict.Decision {
	return verdict.Decision{Action: verdict.Block, Rule: ruleBadInput, Family: "bad_input",
		Message: "the Bash call cannot be judged: " + cause,
		Hint:    "send the Bash tool call with a string \"command\""}
}

// rootMissing returns the refusal of a guarded tool call when the sprint
// root given explicitly (--root, else HARNESS_ROOT) does not exist or holds
// no .harness/: the workspace rules (testdata/corpus/README.md §3) cannot be judged, and
// judging without them would silently turn the path guard off. A root found
// by discovery always holds .harness/; outside any workspace (no root) the
// call is not refused, nor is an empty or blank Bash command (nothing runs).
func rootMissing(c *call) (verdict.Decision, bool) {
	s := c.scope
	if s.Root == "" || s.HasState {
		return verdict.Decision{}, false
	}
	if c.in.ToolName == "Bash" {
		var in bashInput
		if decodeToolInput(c.in.ToolInput, &in) == nil && strings.TrimSpace(in.Command) == "" {
			if _, missing := missingCommand(c.in.ToolInput); !missing {
				return verdict.Decision{}, false
			}
		}
	}
	return verdict.Decision{Action: verdict.Block, Rule: ruleRootMissing, Family: "bad_input",
		Message: fmt.Sprintf("sprint root %s not found (no %s directory there), so the workspace rules cannot be judged", s.Root, filepath.Join(s.Root, workspace.HarnessDir)),
		Hint:    "re-run harness init-feature for this feature (it writes the hook's --root), or fix --root / HARNESS_ROOT"}, true
}

// timedPreToolUse runs decide under the wall-clock budget r.decideBudget
// (defaultDecideBudget when zero). Past it the call is denied with
// shell.too-complex ("decision timed out") at once; the unfinished decision
// works on its own copy of the call and is abandoned (the process exits
// after answering).
func (r runner) timedPreToolUse(c *call, decide func(*call) Output) Output {
	budget := r.decideBudget
	if budget <= 0 {
		budget = defaultDecideBudget
	}
	return r.timed(c, budget, decide, func(c *call) Output { return r.lateBudget(c, budget) })
}

// lateBudget is the answer of a PreToolUse decision that missed budget:
// denied with shell.too-complex ("decision timed out").
func (r runner) lateBudget(c *call, budget time.Duration) Output {
	d := verdict.Decision{Action: verdict.Block, Rule: ruleTimedOut, Family: "shell",
		Message: fmt.Sprintf("decision timed out: the guard could not judge the call within %s", budget),
		Hint:    "split the command into simpler steps or write a script file and run it"}
	return r.answer(c, d, "this "+c.in.ToolName+" call")
}

// timed runs decide on a copy of the call and waits at most budget: every
// hook answer has a deadline (docs/hook-failure-policy.md), well inside the
// handler timeout Claude Code enforces, past which a hook fails open. Past
// the budget, late(c) answers on the original call (whose record gains
// "decision timed out after …"); the unfinished decision is abandoned and
// ends with the process. A panic in decide is answered by the failure
// policy.
//
// In the process (r.exit set, c.reply set) decide runs on the calling
// goroutine and time.AfterFunc arms the budget: the timer, run only when
// the budget is missed, claims the reply, writes late's answer and the
// record and calls r.exit(0); a decision that finishes first claims the
// reply and stops the timer. Exactly one of the two answers. Otherwise
// (Run, in-process callers) decide runs on a goroutine of its own and timed
// returns late's answer at the budget.
func (r runner) timed(c *call, budget time.Duration, decide, late func(*call) Output) Output {
	cc := *c
	cc.rec.Errors = append([]string(nil), c.rec.Errors...)
	cc.rec.Failing = append([]string(nil), c.rec.Failing...)
	run := func() (out Output) {
		defer func() {
			if p := recover(); p != nil {
				out = r.failure(&cc, ruleInternalError, fmt.Errorf("internal error: panic: %v", p))
			}
		}()
		return decide(&cc)
	}
	if r.exit != nil && c.reply != nil {
		rp := c.reply
		timer := time.AfterFunc(budget, func() {
			if !rp.claim(replyTimer) {
				return // the decision answered first
			}
			c.rec.Errors = append(c.rec.Errors, "decision timed out after "+budget.String())
			var answered bool
			r.answer1(c, r.lateAnswer(c, late), rp.stdout, &answered)
			r.exit(0)
			close(rp.done)
		})
		out := run()
		if !rp.claim(replyCaller) {
			<-rp.done // the timer answered (tests only: the process has exited)
			return out
		}
		timer.Stop()
		*c = cc
		return out
	}
	done := make(chan Output, 1)
	go func() {
		// a fresh goroutine starts with 8 KB; parsing and walking the
		// command would copy its stack twice (internal/prestack)
		prestack.Grow()
		done <- run()
	}()
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case out := <-done:
		*c = cc
		return out
	case <-timer.C:
		c.rec.Errors = append(c.rec.Errors, "decision timed out after "+budget.String())
		return late(c)
	}
}

// lateAnswer is late(c), answered by the failure policy if it panics: on
// the timer's goroutine no other recovery would answer.
func (r runner) lateAnswer(c *call, late func(*call) Output) (out Output) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(r.stderr, "harness-hook: internal error: %v\n%s", p, debug.Stack())
			out = r.failure(c, ruleInternalError, fmt.Errorf("internal error: panic: %v", p))
		}
	}()
	return late(c)
}
