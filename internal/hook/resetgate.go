package hook

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/monitor"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Rule ids of the Reset enforcement (docs/protocol.md §8.1).
const (
	// ruleResetHardLimit refuses a tool call past a hard Reset limit.
	ruleResetHardLimit = ruleid.ResetHardLimit
	// ruleResetCompaction blocks an automatic compaction in a Generator
	// session.
	ruleResetCompaction = ruleid.ResetCompactionBlocked
)

// resetPrograms are the programs a Bash call may run past a hard limit: the
// ones that write handoff.md and append to generator_log.md, and harness.
func resetPrograms(s string) bool {
	switch s {
	case "harness", "echo", "printf", "cat", "tee", "date", "true", ":":
		return true
	}
	return false
}

// resetGate refuses, past a hard Reset limit, every tool call that is not
// a step of the Reset: writing the feature's handoff.md, appending to its
// generator_log.md (Write/Edit/MultiEdit of those two files, or Bash that
// only echoes/cats into them and runs harness commands), reading the
// feature directory's files. refused is false for a Reset step: the normal
// guard then judges it.
func (r runner) resetGate(c *call) (out Output, refused bool) {
	s := c.scope
	ws := &workspace.Workspace{Root: s.Root}
	handoff, genlog := ws.Handoff(s.Feature), ws.GeneratorLog(s.Feature)
	cwd := cwdOf(c)
	abs := func(p string) string {
		if p == "" {
			return ""
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return filepath.Clean(p)
	}
	switch c.in.ToolName {
	case "Write", "Edit", "MultiEdit":
		var in struct {
			FilePath string `json:"file_path"`
		}
		if decodeToolInput(c.in.ToolInput, &in) == nil {
			if p := abs(in.FilePath); p == handoff || p == genlog {
				return Output{}, false
			}
		}
	case "Read":
		var in struct {
			FilePath string `json:"file_path"`
		}
		if decodeToolInput(c.in.ToolInput, &in) == nil {
			if p := abs(in.FilePath); p != "" && strings.HasPrefix(p, ws.FeatureDir(s.Feature)+string(filepath.Separator)) {
				return Output{}, false
			}
		}
	case "Bash":
		var in bashInput
		if decodeToolInput(c.in.ToolInput, &in) == nil && resetBash(in.Command, cwd, c.env, handoff, genlog) {
			return Output{}, false
		}
	}
	reason := fmt.Sprintf("harness-hook refused this %s call [%s]: %s. %s", c.in.ToolName, ruleResetHardLimit, c.obs.hardDetail,
		monitor.Instruction(s.Feature, c.obs.hardDetail, ws.Rel(handoff), ws.Rel(genlog), true))
	c.rec.Verdict, c.rec.Rule, c.rec.Reason = "block", ruleResetHardLimit, reason
	return Output{HookSpecificOutput: &HookSpecificOutput{
		HookEventName: EventPreToolUse, PermissionDecision: "deny", PermissionDecisionReason: reason,
	}}, true
}

// resetBash reports whether cmd only does Reset steps: every command is one
// of resetPrograms at top level, and everything it writes (output redirects,
// tee's files) is handoff or genlog (or /dev/null), in a known directory.
func resetBash(cmd, cwd string, env map[string]string, handoff, genlog string) bool {
	if strings.TrimSpace(cmd) == "" {
		return false
	}
	res := shell.Parse(cmd, shell.Options{Cwd: cwd, Vars: knownVars(env)})
	if res.Overflow != "" || res.ParseError != nil || len(res.Invocations) == 0 {
		return false
	}
	ok := func(inv shell.Invocation, w shell.Word) bool {
		if !w.Known {
			return false
		}
		p := w.Value
		if p == "/dev/null" {
			return true
		}
		if inv.Dir == shell.DirUnknown || len(inv.AltDirs) > 0 {
			return false
		}
		if strings.HasPrefix(p, "~") || strings.HasPrefix(inv.Dir, "~") {
			return false
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, inv.Dir, p)
		}
		p = filepath.Clean(p)
		return p == handoff || p == genlog
	}
	for _, inv := range res.Invocations {
		if inv.Listing != nil {
			return false
		}
		for _, v := range inv.Via {
			if v != "$( )" { // `echo "## Reset at $(date -u …)"` substitutes date; nothing else nests
				return false
			}
		}
		if inv.Program != "" && !resetPrograms(inv.Program) {
			return false
		}
		for _, rd := range inv.Redirects {
			switch rd.Op {
			case "<", "<<", "<<-", "<<<":
				continue
			case ">&", "<&":
				if rd.Target.Known && (rd.Target.Value == "1" || rd.Target.Value == "2" || rd.Target.Value == "-") {
					continue
				}
			}
			if rd.Listing != nil || !ok(inv, rd.Target) {
				return false
			}
		}
		if inv.Program == "tee" {
			for _, a := range inv.Args {
				if strings.HasPrefix(a.Value, "-") {
					continue
				}
				if !ok(inv, a) {
					return false
				}
			}
		}
	}
	return true
}

// withInstruction adds the Reset instruction to a PreToolUse answer: to the
// deny reason of a refusal, else as additionalContext (after a warning's).
func withInstruction(out Output, event, text string) Output {
	if text == "" {
		return out
	}
	h := out.HookSpecificOutput
	if h == nil {
		return Output{Decision: out.Decision, Reason: out.Reason, SystemMessage: out.SystemMessage,
			HookSpecificOutput: &HookSpecificOutput{HookEventName: event, AdditionalContext: text}}
	}
	if h.PermissionDecision == "deny" {
		if !strings.Contains(h.PermissionDecisionReason, text) {
			h.PermissionDecisionReason += "\n\n" + text
		}
		return out
	}
	if h.AdditionalContext != "" {
		h.AdditionalContext += "\n\n" + text
	} else {
		h.AdditionalContext = text
	}
	return out
}

// tellOnly answers PostToolUse, PostToolUseFailure and UserPromptSubmit:
// no decision; the Reset instruction as additionalContext when it is due.
func (r runner) tellOnly(c *call) Output {
	if c.obs.instruct == "" {
		return Output{}
	}
	c.rec.Reason = "told the Generator how to Reset: " + c.obs.cs.ResetTrigger.Detail
	return Output{HookSpecificOutput: &HookSpecificOutput{HookEventName: c.event, AdditionalContext: c.obs.instruct}}
}

// preCompact decides a compaction (docs/protocol.md §8.1; the policy and
// why are in docs/hooks.md §5 PreCompact and docs/performance.md): in a
// Generator session an automatic compaction is blocked, because it would
// replace the working memory the Reset keeps in handoff.md, unless
//   - the policy of .harness/rules.yaml is `precompact: allow`;
//   - the Reset is done (handoff.md is fresh): the session is ending anyway;
//   - it is Claude Code's recovery from a context-limit error
//     (monitor.Recovering: a request without an answer in the transcript,
//     or a context below the client's own compaction threshold, once the
//     transcript has caught up: settledRecovery): blocking it makes that
//     request fail and the session end without a Stop.
//
// A manual /compact is the user's and always allowed. Either way an
// automatic compaction means the context is full, so observe recorded a
// context trigger and the Generator is told to Reset.
func (r runner) preCompact(c *call) Output {
	if !c.obs.on {
		c.rec.Reason = "not a Generator session: compaction allowed"
		return Output{}
	}
	if c.in.Trigger != "auto" {
		c.rec.Reason = "manual compaction (" + c.in.Trigger + ") allowed"
		return Output{}
	}
	if c.obs.th.PreCompact == monitor.PreCompactAllow {
		c.rec.Reason = "automatic compaction allowed by the sprint's policy (rules.yaml reset.precompact: allow)"
		return Output{}
	}
	ws := &workspace.Workspace{Root: c.scope.Root}
	if applies, _, _, err := records.ResetException(ws, c.scope.Feature, r.now()); err == nil && applies {
		c.rec.Reason = "automatic compaction allowed: the Reset is done (handoff.md is fresh)"
		return Output{}
	}
	if ok, tokens := r.settledRecovery(c); ok {
		c.rec.Reason = fmt.Sprintf("automatic compaction allowed: it recovers a request that failed on the context limit (%d tokens on record, below the client's threshold of about %d, or a request without an answer, after waiting up to %s for the client's transcript writes; blocking it would fail the request)",
			tokens, monitor.CompactionThreshold(c.obs.cs.ContextWindow, c.env), settlePoll*settlePolls)
		return Output{}
	}
	detail := "automatic compaction requested"
	if tr := c.obs.cs.ResetTrigger; tr != nil {
		detail = tr.Detail
	}
	reason := fmt.Sprintf("harness-hook blocked the automatic compaction [%s]: in a Generator session the protocol's Reset (handoff.md, then a new session) replaces compaction. %s",
		ruleResetCompaction, monitor.Instruction(c.scope.Feature, detail, ws.Rel(ws.Handoff(c.scope.Feature)), ws.Rel(ws.GeneratorLog(c.scope.Feature)), c.obs.hard))
	c.rec.Verdict, c.rec.Rule, c.rec.Reason = "block", ruleResetCompaction, reason
	return Output{Decision: "block", Reason: reason}
}

// The client writes the transcript asynchronously (docs/hooks.md §3,
// transcript_path): at a threshold compaction the answer that crossed the
// threshold can still be missing from the file when PreCompact reads it, and
// the end of the file then looks exactly like a recovery (the request
// recorded without its answer, the context on record below the threshold) —
// an automatic compaction the policy blocks would be let through on a
// loaded machine. So before a compaction is allowed as a recovery, the
// transcript is read again every settlePoll, settlePolls times at most (2 s
// in all, far inside the 30 s handler timeout `harness init-feature`
// registers): an answer that arrives and puts the context at the threshold
// makes it a threshold compaction (blocked); the failed request of a real
// recovery never gets an answer, so a recovery is allowed after the wait.
const (
	settlePoll  = 50 * time.Millisecond
	settlePolls = 40
)

// settledRecovery reports whether the compaction c is Claude Code's recovery
// from a context-limit error (monitor.Recovering), once the transcript has
// had settlePoll*settlePolls to catch up, and the context tokens it judged
// by (the record's, or a newer answer's).
func (r runner) settledRecovery(c *call) (bool, int64) {
	cs, rd := c.obs.cs, c.obs.rd
	tokens, at := cs.ContextTokens, cs.MeasuredAt
	pause := r.pause
	if pause == nil {
		pause = time.Sleep
	}
	for i := 0; ; i++ {
		if !monitor.Recovering(rd, tokens, cs.ContextWindow, c.env) {
			return false, tokens
		}
		if i == settlePolls || c.in.TranscriptPath == "" {
			return true, tokens
		}
		pause(settlePoll)
		next, err := monitor.ReadTranscript(c.in.TranscriptPath)
		if err != nil {
			return true, tokens
		}
		if next.Found && (next.At == "" || at == "" || next.At >= at) {
			tokens, at = next.Usage.Total(), next.At
		}
		rd = next
	}
}

// compactionTrigger records, on an automatic compaction, a context trigger
// when none is on record: the client compacts only when the context is
// (nearly) full.
func compactionTrigger(c *call, now string) func(cs *workspace.ContextState) bool {
	return func(cs *workspace.ContextState) bool {
		if c.in.Trigger != "auto" || cs.ResetTrigger != nil {
			return false
		}
		cs.ResetTrigger = &workspace.ResetTrigger{Kind: workspace.TriggerContext,
			Detail: fmt.Sprintf("automatic compaction at token_usage_ratio %.2f", cs.TokenUsageRatio), At: now, SessionID: cs.SessionID}
		cs.ResetInstructedAt = ""
		return true
	}
}
