package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/cli/scaffold"
	"github.com/superagent-harness/harness/internal/launch"
	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/workspace"
)

// LaunchCmd is `harness launch FID`: start the feature's Generator session
// (docs/sandbox.md; logic in internal/launch).
type LaunchCmd struct {
	Feature        string        `arg:"" name:"FID" help:"Feature id."`
	Dir            string        `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
	Mode           string        `name:"mode" default:"print" enum:"print,interactive,mcp" help:"print: claude -p, output to the feature's generator_log.md.cc_output; interactive: attached to this terminal (or --tmux); mcp: interactive with the feature's .mcp.json."`
	Tmux           bool          `name:"tmux" help:"Run an interactive or mcp session in a detached tmux session."`
	Prompt         string        `name:"prompt" placeholder:"TEXT" xor:"prompt" help:"First prompt (default: read AGENTS.md and context_snapshot.md, then do the current phase)."`
	PromptFile     string        `name:"prompt-file" placeholder:"FILE" xor:"prompt" help:"Read the first prompt from FILE (- = stdin)."`
	NoSandbox      bool          `name:"no-sandbox" help:"Start without Claude Code's sandbox (hosts without bubblewrap or Seatbelt); needs --reason. Recorded and warned about on every status and doctor run."`
	Reason         string        `name:"reason" placeholder:"TEXT" help:"Why the session runs without the sandbox."`
	DryRun         bool          `name:"dry-run" help:"Print the exact command line, environment and settings; start nothing, write nothing."`
	Wait           bool          `name:"wait" help:"Stay until the session ends and exit with the client's status (print mode)."`
	PermissionMode string        `name:"permission-mode" placeholder:"MODE" default:"acceptEdits" help:"claude --permission-mode."`
	OutputFormat   string        `name:"output-format" placeholder:"FORMAT" help:"claude --output-format in print mode (text, json, stream-json)."`
	AllowDomain    []string      `name:"allow-domain" placeholder:"DOMAIN" help:"Network domain sandboxed commands may reach (repeatable; default none)."`
	HookBin        string        `name:"hook-bin" placeholder:"PATH" help:"harness-hook binary to wire (default: beside this harness binary, else on PATH)."`
	HookTimeout    time.Duration `name:"hook-timeout" default:"60s" help:"How long to wait for the session's SessionStart hook record before stopping the client."`
}

// Help is shown under the usage line.
func (c *LaunchCmd) Help() string {
	return `Hermes only (refused in a Generator session). Checks the start conditions (harness next, preflight
--stage launch), writes the session's settings — harness-hook for every event, Claude Code's sandbox
and Edit deny rules, in one --settings file under .harness/sessions/<session>/, which the Generator
cannot write — and starts the claude binary ($CLAUDE_BIN, else claude on PATH) in the feature
directory with --settings, a new --session-id and HARNESS_ROOT, FEATURE_ID, SPRINT_ID. It then waits
until .harness/logs/hook.log holds the session's SessionStart record (the proof that its hooks run;
otherwise claude is stopped and nothing is recorded), and does what 'session start' and 'preflight
--stage started' do. See docs/sandbox.md for the sandbox policy.

Examples:
  harness launch f001
  harness launch f001 --mode interactive --tmux
  harness launch f001 --dry-run --json
  harness launch f001 --no-sandbox --reason 'Windows host: no bubblewrap'

The client must be able to talk to the model: logged in (claude /login) or ANTHROPIC_API_KEY set; a client
that exits at once (not logged in) shows as exited in harness status. A dry run needs no client.

Exit 0 started (with --wait: the client's status), 1 refused (start conditions, preflight, sandbox
prerequisites, no Claude Code CLI, hooks not live), 2 usage or internal error.`
}

// Run performs the command.
func (c *LaunchCmd) Run(e *Env) error {
	if !workspace.FeatureIDPattern.MatchString(c.Feature) {
		return usage("%q is not a feature id (f<number>, e.g. f001)", c.Feature)
	}
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	prompt := c.Prompt
	if c.PromptFile != "" {
		b, err := e.readArg("--prompt-file", c.PromptFile)
		if err != nil {
			return err
		}
		prompt = strings.TrimSpace(string(b))
	}
	o := &launch.Options{
		Ops: env, Feature: c.Feature, Mode: c.Mode, Tmux: c.Tmux, Prompt: prompt,
		NoSandbox: c.NoSandbox, Reason: c.Reason, PermissionMode: c.PermissionMode, OutputFormat: c.OutputFormat,
		AllowDomains: c.AllowDomain, Env: e.Vars, ProofTimeout: c.HookTimeout, Wait: c.Wait,
		Claude: launch.FindClaude(e.Vars), Stdin: e.Stdin, Stdout: e.Stdout, Stderr: e.Stderr,
	}
	noClaude := o.Claude == ""
	if noClaude && c.DryRun {
		o.Claude = "claude" // a dry run shows the plan all the same, and says what is missing
	}
	if !env.Generator {
		if o.HarnessBin, err = selfBinary(); err != nil {
			return err
		}
		if o.HookBin, err = scaffold.FindHookBin(c.HookBin, e.Vars, e.Cwd); err != nil {
			return usage("%v", err)
		}
	}
	plan, err := launch.Prepare(o)
	if err != nil {
		return launchError(err)
	}
	if c.DryRun {
		data := map[string]any{"dry_run": true, "plan": plan}
		if noClaude {
			data["warnings"] = []string{noClaudeWarning}
		}
		e.reply(data, func(w io.Writer) {
			printPlan(w, plan)
			if noClaude {
				fmt.Fprintf(w, "warning: %s\n", noClaudeWarning)
			}
		})
		return nil
	}
	res, err := launch.Start(o, plan)
	if err != nil {
		return launchError(err)
	}
	text := func(w io.Writer) {
		sb := "on"
		if !res.Sandbox {
			sb = "OFF (" + res.NoSandboxReason + ")"
		}
		fmt.Fprintf(w, "launched %s: session %s, pid %d, sandbox %s\n", res.Feature, res.SessionID, res.PID, sb)
		fmt.Fprintf(w, "  settings: %s\n", res.SettingsFile)
		if res.Output != "" {
			fmt.Fprintf(w, "  output:   %s\n", res.Output)
		}
		if res.Tmux != "" {
			fmt.Fprintf(w, "  tmux:     tmux attach -t %s\n", res.Tmux)
		}
		fmt.Fprintf(w, "  hooks:    live (SessionStart record at %s)\n", res.HookRecord)
		for _, a := range res.Actions {
			fmt.Fprintf(w, "  %s\n", a)
		}
		if res.ExitCode != nil {
			fmt.Fprintf(w, "  exited:   %d\n", *res.ExitCode)
		}
	}
	if res.Mode != launch.ModePrint && res.Tmux == "" {
		text(e.Stderr) // the terminal was the session's; the summary follows it
		e.reply(res, nil)
	} else {
		e.reply(res, text)
	}
	if res.ExitCode != nil && *res.ExitCode != 0 {
		return silent(*res.ExitCode, "claude exited with status %d", *res.ExitCode)
	}
	return nil
}

// noClaudeWarning is what a dry run says when no client was found.
const noClaudeWarning = "no Claude Code CLI found (neither $CLAUDE_BIN nor claude on PATH names one): harness launch would refuse to start; set CLAUDE_BIN to the claude binary or put claude on PATH"

// launchError maps launch's errors to exit codes.
func launchError(err error) error {
	var re *launch.RefusedError
	var ue *launch.UsageError
	switch {
	case errors.As(err, &re):
		return refused("%s", re.Error())
	case errors.As(err, &ue):
		return usage("%s", ue.Msg)
	}
	if r, ok := ops.IsRefusal(err); ok {
		return refused("%s", r.Error())
	}
	return err
}

// selfBinary is the running harness executable, symbolic links resolved.
func selfBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return exe, nil
}

// printPlan prints a dry run: the command line (shell-quoted), the
// variables launch sets, and the settings file with its content.
func printPlan(w io.Writer, p *launch.Plan) {
	fmt.Fprintf(w, "dry run: nothing started, nothing written\n")
	fmt.Fprintf(w, "feature %s, session %s, mode %s, sandbox %v\n", p.Feature, p.SessionID, p.Mode, p.Sandbox)
	fmt.Fprintf(w, "cwd: %s\n", p.Dir)
	fmt.Fprintf(w, "env:\n")
	for _, kv := range p.Env {
		fmt.Fprintf(w, "  %s\n", kv)
	}
	q := make([]string, len(p.Argv))
	for i, a := range p.Argv {
		q[i] = shellQuote(a)
	}
	fmt.Fprintf(w, "command: %s\n", strings.Join(q, " "))
	if p.Output != "" {
		fmt.Fprintf(w, "output: %s\n", p.Output)
	}
	fmt.Fprintf(w, "settings %s:\n%s", p.SettingsFile, p.Settings)
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '-' || r == '_' || r == '.' || r == '=' || r == ':' || r == ',' || r == '@' || r == '+' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
