package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/verdict"
	"github.com/superagent-harness/harness/internal/workspace"
)

// maxCommandBytes is the largest Bash command the guard analyses (1 MiB).
// A longer command is refused with the cause: it cannot be judged in the
// hook's time budget, and a legitimate large file is written with Write.
const maxCommandBytes = 1 << 20

// Rule ids of refusals the hook decides itself.
const (
	ruleCommandTooLarge = ruleid.HookCommandTooLarge
	ruleCommandNUL      = ruleid.HookCommandNUL
)

// preToolUse measures the session (observe), refuses every tool call but
// the Reset's own past a hard Reset limit (resetGate), then runs the guard
// (preToolUseGuard) and adds the Reset instruction when it is due.
func (r runner) preToolUse(c *call) Output {
	c.obs = r.observe(c, nil)
	if c.obs.hard {
		if out, refused := r.resetGate(c); refused {
			return out
		}
	}
	return withInstruction(r.preToolUseGuard(c), EventPreToolUse, c.obs.instruct)
}

// preToolUseGuard decides one tool call: Bash, and Monitor with a command
// (Claude Code 2.1.332's Monitor runs tool_input.command in a shell, as
// Bash does; it ran `rm -rf build` past the hook as "not guarded") → the
// command policy (bashguard.Decide, with the path guard inside a workspace
// and an allow-once authorisation as the only way past a block); Edit,
// Write, MultiEdit, NotebookEdit → the path guard (inside a workspace);
// EnterWorktree/ExitWorktree in a Generator session → refused (they run
// git outside the sandbox and create or remove <repo>/.claude/worktrees/,
// protected Claude Code configuration), and so is an Agent/Task call with
// isolation (isolatedAgent) and a durable CronCreate (it
// wrote <feature>/.claude/scheduled_tasks.json, outside the sandbox); every
// other tool → no decision.
func (r runner) preToolUseGuard(c *call) Output {
	tool := c.in.ToolName
	if tool == "Monitor" && hasMember(c.in.ToolInput, "command") {
		tool = "Bash"
	}
	if (tool == "EnterWorktree" || tool == "ExitWorktree") && c.scope.Feature != "" {
		return r.answer(c, verdict.Decision{Action: verdict.Block, Rule: ruleid.PathClaudeConfig, Family: "claude_config",
			Message: c.in.ToolName + " creates or removes a git worktree under the repository's .claude/worktrees/ and runs git outside the sandbox; a Generator works in the sprint root's own tree",
			Hint:    "work in the sprint root directly; commit with git in Bash", Subject: c.in.ToolName}, "this "+c.in.ToolName+" call")
	}
	if (tool == "Agent" || tool == "Task") && c.scope.Feature != "" && isolatedAgent(c.in.ToolInput) {
		return r.answer(c, verdict.Decision{Action: verdict.Block, Rule: ruleid.PathClaudeConfig, Family: "claude_config",
			Message: c.in.ToolName + " with isolation makes the client run git outside the sandbox and create a worktree and a branch under the repository's .claude/worktrees/ (\"worktree\"), or run the agent outside this machine (\"remote\"); a Generator's subagents work in the sprint root's own tree",
			Hint:    "start the subagent without isolation (it meets the same hook and sandbox)", Subject: c.in.ToolName + " isolation"}, "this "+c.in.ToolName+" call")
	}
	if c.scope.Feature != "" && c.scope.Root != "" && (tool == "WebFetch" || tool == "Monitor") {
		if d, ok := clientNetwork(c); ok {
			return r.answer(c, d, "this "+c.in.ToolName+" call")
		}
	}
	if tool == "CronCreate" && c.scope.Feature != "" && durableCron(c.in.ToolInput) {
		return r.answer(c, verdict.Decision{Action: verdict.Block, Rule: ruleid.PathClaudeConfig, Family: "claude_config",
			Message: "a durable CronCreate writes .claude/scheduled_tasks.json in the feature directory (protected Claude Code configuration) and replays its prompt in later sessions of the feature",
			Hint:    "schedule without durable (the job ends with this session)", Subject: "CronCreate durable"}, "this CronCreate call")
	}
	switch tool {
	case "Bash", "Edit", "Write", "MultiEdit", "NotebookEdit":
		if err := ambiguousKeys(c.in.ToolInput); err != nil {
			return r.failure(c, ruleInputInvalid, err)
		}
		if d, bad := rootMissing(c); bad {
			return r.answer(c, d, "this "+c.in.ToolName+" call")
		}
	}
	switch tool {
	case "Bash":
		return r.preBash(c)
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return r.preEdit(c)
	default:
		c.rec.Reason = "tool not guarded"
		return Output{}
	}
}

// hasMember reports whether the tool_input object raw has the member name
// (whatever its value).
func hasMember(raw json.RawMessage, name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m[name]
	return ok
}

// clientNetwork judges a WebFetch url or a Monitor ws.url of a session
// harness launch started: the client connects itself, outside the
// sandbox's network proxy, so the host must be one the session's sandbox
// allows (sandbox.network.allowedDomains of the Hermes-written
// .harness/sessions/<session_id>/settings.json; "*.example.com" also
// matches its subdomains). ok is false when there is nothing to judge: no
// such settings file (a session started by hand), or no URL.
func clientNetwork(c *call) (verdict.Decision, bool) {
	var in struct {
		URL string `json:"url"`
		WS  *struct {
			URL string `json:"url"`
		} `json:"ws"`
	}
	if json.Unmarshal(c.in.ToolInput, &in) != nil {
		return verdict.Decision{}, false
	}
	raw := in.URL
	if c.in.ToolName == "Monitor" {
		raw = ""
		if in.WS != nil {
			raw = in.WS.URL
		}
	}
	if raw == "" || c.in.SessionID == "" || strings.ContainsAny(c.in.SessionID, `/\`) || strings.HasPrefix(c.in.SessionID, ".") {
		return verdict.Decision{}, false
	}
	data, err := fsutil.ReadRegular((&workspace.Workspace{Root: c.scope.Root}).SessionSettings(c.in.SessionID), fsutil.CapConfig)
	if err != nil {
		return verdict.Decision{}, false
	}
	var st struct {
		Sandbox struct {
			Network struct {
				AllowedDomains []string `json:"allowedDomains"`
			} `json:"network"`
		} `json:"sandbox"`
	}
	_ = json.Unmarshal(data, &st)
	host := ""
	if u, err := url.Parse(raw); err == nil {
		host = strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	}
	for _, d := range st.Sandbox.Network.AllowedDomains {
		d = strings.ToLower(strings.TrimSpace(d))
		if host != "" && (host == d || strings.HasPrefix(d, "*.") && strings.HasSuffix(host, d[1:])) {
			return verdict.Decision{}, false
		}
	}
	return verdict.Decision{Action: verdict.Block, Rule: ruleid.HookClientNetwork, Family: "network",
		Message: fmt.Sprintf("%s connects to %q from the client itself, outside the sandbox's network proxy, and the session's sandbox does not allow that host", c.in.ToolName, host),
		Hint:    "ask Hermes to launch the session with --allow-domain for the host it needs", Subject: raw}, true
}

// durableCron reports whether a CronCreate tool_input asks for a job that
// persists (durable, anything but false/absent: cautious on a value of the
// wrong type).
func durableCron(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return true
	}
	for k, v := range m {
		if strings.EqualFold(k, "durable") {
			if t := string(bytes.TrimSpace(v)); t != "false" && t != "null" {
				return true
			}
		}
	}
	return false
}

// isolatedAgent reports whether an Agent (formerly Task) tool_input asks for
// isolation: any "isolation" member (keys compare case-insensitively, as
// durableCron's) whose value is not null, false or "". Claude Code 2.1.332's
// "worktree" ran `git worktree add` in the client, outside the sandbox, and
// created <root>/.claude/worktrees/agent-<id> with a new branch, the effect
// EnterWorktree is refused for (docs/sandbox.md §6); "remote" leaves the
// machine. An input that is not a JSON object counts as isolated.
func isolatedAgent(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return true
	}
	for k, v := range m {
		if strings.EqualFold(k, "isolation") {
			if t := string(bytes.TrimSpace(v)); t != "null" && t != "false" && t != `""` {
				return true
			}
		}
	}
	return false
}

// guardedFields are the tool_input members the guards read
// (docs/hooks.md §6).
var guardedFields = []string{"command", "file_path", "notebook_path", "old_string", "new_string", "replace_all", "edits", "content", "new_source", "edit_mode"}

// ambiguousKeys refuses a tool_input whose member names differ from a
// guarded field only in letter case ("Command", "FILE_PATH"): encoding/json
// matches names case-insensitively and the last one wins, while the tool
// reads the exact name, so the guard could judge a different value from the
// one that runs.
func ambiguousKeys(raw json.RawMessage) error {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return nil // decodeToolInput reports it
	}
	m, ok := rawMembers(t)
	if !ok {
		return nil
	}
	if err := caseVariant(m, "tool_input"); err != nil {
		return err
	}
	// MultiEdit's edits[] items carry old_string/new_string/replace_all too.
	var edits []map[string]json.RawMessage
	if raw, ok := m["edits"]; ok && json.Unmarshal(raw, &edits) == nil {
		for i, e := range edits {
			if err := caseVariant(e, fmt.Sprintf("tool_input.edits[%d]", i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// caseVariant reports a member of m whose name folds to a guarded field's
// name without being it.
func caseVariant(m map[string]json.RawMessage, where string) error {
	for k := range m {
		for _, f := range guardedFields {
			if k != f && strings.EqualFold(k, f) {
				return fmt.Errorf("%s member %q differs from %q only in letter case", where, k, f)
			}
		}
	}
	return nil
}

// cwdOf is the payload's cwd, else the process working directory.
func cwdOf(c *call) string {
	if c.in.Cwd != "" {
		return c.in.Cwd
	}
	wd, _ := os.Getwd()
	return wd
}

// preEdit runs the path guard on an Edit/Write/MultiEdit/NotebookEdit call.
func (r runner) preEdit(c *call) Output {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	if err := decodeToolInput(c.in.ToolInput, &in); err != nil {
		return r.failure(c, ruleInputInvalid, err)
	}
	path := in.FilePath
	if c.in.ToolName == "NotebookEdit" {
		path = in.NotebookPath
	}
	c.rec.Path = path
	// outside a sprint the guard judges only the hook wiring (pathguard.NewPlain)
	g, err := r.pathGuard(c)
	if err != nil {
		return r.failure(c, ruleInternalError, err)
	}
	d := g.CheckTool(c.in.ToolName, c.in.ToolInput, cwdOf(c))
	shown := path
	if c.scope.Root != "" {
		shown = (&workspace.Workspace{Root: c.scope.Root}).Rel(path)
	}
	what := fmt.Sprintf("this %s of %s", c.in.ToolName, shown)
	return r.answer(c, d, what)
}

// answer records d and encodes it as the PreToolUse output.
func (r runner) answer(c *call, d verdict.Decision, what string) Output {
	c.rec.Verdict, c.rec.Rule = d.Action.String(), d.Rule
	if d.Action == verdict.Allow {
		return Output{}
	}
	reason := explain(what, d)
	c.rec.Reason = reason
	return encodePreToolUse(d, reason)
}

// commandProblem returns a refusal for a command the guard must not try to
// judge (NUL bytes, oversize), or ok=false.
func commandProblem(cmd string) (verdict.Decision, bool) {
	if strings.ContainsRune(cmd, 0) {
		return verdict.Decision{Action: verdict.Block, Rule: ruleCommandNUL, Family: "bad_input",
			Message: "the command contains a NUL byte, which Bash cannot pass on, so the guard cannot tell what would run",
			Hint:    "send the command without NUL characters"}, true
	}
	if len(cmd) > maxCommandBytes {
		return verdict.Decision{Action: verdict.Block, Rule: ruleCommandTooLarge, Family: "bad_input",
			Message: fmt.Sprintf("the command is %d bytes, more than the %d bytes the guard analyses", len(cmd), maxCommandBytes),
			Hint:    "write large content with the Write tool and run a short command"}, true
	}
	return verdict.Decision{}, false
}
