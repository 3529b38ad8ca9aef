package hook

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a stdout both the decision's goroutine and the budget's
// timer may write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// processCall runs timed as run does in the process (Main: r.exit set):
// the decision on this goroutine, then the answer unless the timer owns it.
// exited receives the status the timer exits with.
func processCall(r runner, c *call, budget time.Duration, decide, late func(*call) Output, stdout *lockedBuffer) {
	c.reply = &reply{stdout: stdout, done: make(chan struct{})}
	out := r.timed(c, budget, decide, late)
	if !c.reply.claim(replyCaller) {
		<-c.reply.done
		return
	}
	var answered bool
	r.answer1(c, out, stdout, &answered)
}

// TestProcessDeadlineAnswersFromTimer: in the process the decision runs on
// the answering goroutine and a missed budget is answered by the timer:
// exactly one contract-valid answer (the event's deadline answer) on
// stdout, its hook.log record, and exit status 0, while the decision still
// hangs; a decision that finishes later writes nothing. Per event:
// PreToolUse denies with shell.too-complex, Stop blocks with hook.deadline,
// SessionStart answers by the failure policy (docs/hook-failure-policy.md).
func TestProcessDeadlineAnswersFromTimer(t *testing.T) {
	for _, tc := range []struct {
		event string
		late  func(r runner) func(*call) Output
		check func(out map[string]any) bool
		rule  string
	}{
		{EventPreToolUse, func(r runner) func(*call) Output {
			return func(c *call) Output { return r.lateBudget(c, 50*time.Millisecond) }
		}, func(out map[string]any) bool {
			h, _ := out["hookSpecificOutput"].(map[string]any)
			why, _ := h["permissionDecisionReason"].(string)
			return h["permissionDecision"] == "deny" && strings.Contains(why, "timed out")
		}, ruleTimedOut},
		{EventStop, func(r runner) func(*call) Output { return r.stopLate }, func(out map[string]any) bool {
			why, _ := out["reason"].(string)
			return out["decision"] == "block" && strings.Contains(why, "hook.deadline")
		}, ruleDeadline},
	} {
		t.Run(tc.event, func(t *testing.T) {
			root := gapsRoot(t)
			exited := make(chan int, 2)
			r := runner{now: time.Now, stderr: os.Stderr, eventBudget: 50 * time.Millisecond, exit: func(code int) { exited <- code }}
			c := &call{start: time.Now(), event: tc.event, env: map[string]string{}, scope: scope{Root: root, HasState: true, Feature: "f001"}}
			c.in.ToolName = "Bash"
			c.rec = Record{Event: tc.event, Verdict: "allow"}
			release := make(chan struct{})
			var stdout lockedBuffer
			finished := make(chan struct{})
			go func() {
				defer close(finished)
				processCall(r, c, 50*time.Millisecond, func(cc *call) Output {
					<-release
					cc.rec.Reason = "late decision"
					return Output{}
				}, tc.late(r), &stdout)
			}()
			select {
			case code := <-exited:
				if code != 0 {
					t.Fatalf("exit status %d, want 0", code)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("no exit 30 s after the 50 ms budget")
			}
			out := checkContract(t, tc.event, stdout.String())
			if !tc.check(out) {
				t.Fatalf("deadline answer: %s", stdout.String())
			}
			recs := hookLogRecords(t, root)
			if len(recs) != 1 || recs[0].Rule != tc.rule || !strings.Contains(strings.Join(recs[0].Errors, "; "), "decision timed out after 50ms") {
				t.Fatalf("hook.log: %+v", recs)
			}
			// the abandoned decision finishing later answers nothing
			close(release)
			<-finished
			if got := stdout.String(); strings.Count(got, "\n") != 1 {
				t.Fatalf("more than one answer: %q", got)
			}
			if recs := hookLogRecords(t, root); len(recs) != 1 {
				t.Fatalf("more than one record: %+v", recs)
			}
		})
	}
}

// TestProcessDecisionWithinBudget: in the process a decision that finishes
// within the budget is the answer, with its record, and the timer never
// answers or exits afterwards; a panicking decision is denied (fail-closed).
func TestProcessDecisionWithinBudget(t *testing.T) {
	root := gapsRoot(t)
	exited := make(chan int, 1)
	r := runner{now: time.Now, stderr: os.Stderr, decideBudget: 20 * time.Millisecond, exit: func(code int) { exited <- code }}
	for _, decide := range []func(*call) Output{
		func(cc *call) Output { cc.rec.Reason = "fast"; return Output{} },
		func(*call) Output { panic("boom") },
	} {
		c := &call{start: time.Now(), event: EventPreToolUse, env: map[string]string{}, scope: scope{Root: root, HasState: true}}
		c.in.ToolName = "Bash"
		var stdout lockedBuffer
		c.reply = &reply{stdout: &stdout, done: make(chan struct{})}
		out := r.timedPreToolUse(c, decide)
		if !c.reply.claim(replyCaller) {
			t.Fatal("the timer owns the answer of a decision within the budget")
		}
		var answered bool
		r.answer1(c, out, &stdout, &answered)
		time.Sleep(100 * time.Millisecond) // past the budget: a live timer would answer now
		select {
		case <-exited:
			t.Fatal("the timer exited after the decision answered")
		default:
		}
		got := checkContract(t, EventPreToolUse, stdout.String())
		if c.rec.Reason == "fast" {
			if got["hookSpecificOutput"] != nil {
				t.Fatalf("fast decision: %s", stdout.String())
			}
		} else if h, _ := got["hookSpecificOutput"].(map[string]any); h["permissionDecision"] != "deny" || c.rec.Rule != ruleInternalError {
			t.Fatalf("panicking decision: %s (rule %s)", stdout.String(), c.rec.Rule)
		}
	}
}

// TestProcessAnswerRace: with the budget and the decision about as long,
// either the decision or the timer answers, never both and never neither.
func TestProcessAnswerRace(t *testing.T) {
	root := gapsRoot(t)
	for i := 0; i < 200; i++ {
		exited := make(chan int, 1)
		r := runner{now: time.Now, stderr: &bytes.Buffer{}, exit: func(code int) { exited <- code }}
		c := &call{start: time.Now(), event: EventPreToolUse, env: map[string]string{}, scope: scope{Root: root, HasState: true}}
		c.in.ToolName = "Bash"
		var stdout lockedBuffer
		d := time.Duration(i%5) * 100 * time.Microsecond
		processCall(r, c, 200*time.Microsecond, func(*call) Output { time.Sleep(d); return Output{} },
			func(c *call) Output { return r.lateBudget(c, 200*time.Microsecond) }, &stdout)
		got := stdout.String()
		if strings.Count(got, "\n") != 1 {
			t.Fatalf("round %d: %d answers: %q", i, strings.Count(got, "\n"), got)
		}
		checkContract(t, EventPreToolUse, got)
		timedOut := strings.Contains(got, "timed out")
		select {
		case <-exited:
			if !timedOut {
				t.Fatalf("round %d: exited after the decision's answer", i)
			}
		default:
			if timedOut {
				t.Fatalf("round %d: the timer answered but did not exit", i)
			}
		}
	}
}
