package e2e

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// PinnedVersion is the Claude Code CLI version the e2e test is written
// against (scripts/install-claude-cli.sh installs it).
const PinnedVersion = "2.1.332"

// FindClaude locates the real CLI: $CLAUDE_BIN, else
// $CC_CACHE_DIR/node_modules/.bin/claude, else
// $HOME/.cache/harness/claude-code/node_modules/.bin/claude (the default
// folder of scripts/install-claude-cli.sh). env is the process environment as
// a map. It returns "" and the places it looked when none is executable.
func FindClaude(env map[string]string) (path string, looked []string) {
	var cands []string
	if p := env["CLAUDE_BIN"]; p != "" {
		cands = append(cands, p)
	}
	if d := env["CC_CACHE_DIR"]; d != "" {
		cands = append(cands, filepath.Join(d, "node_modules", ".bin", "claude"))
	}
	if h := env["HOME"]; h != "" {
		cands = append(cands, filepath.Join(h, ".cache", "harness", "claude-code", "node_modules", ".bin", "claude"))
	}
	for _, c := range cands {
		if isExecutable(c) {
			return c, cands
		}
	}
	return "", cands
}

// RunOptions describes one headless claude run.
type RunOptions struct {
	// Claude is the CLI binary.
	Claude string
	// Dir is the working directory: the project whose .claude/settings.json
	// the CLI reads (the feature directory for a Generator session).
	Dir string
	// Home is a scratch HOME (the CLI writes ~/.claude.json there).
	Home string
	// BaseURL is the mock API (also used as the black-hole proxy).
	BaseURL string
	// Prompt is the -p prompt.
	Prompt string
	// Path and Lang are passed through (the tools need PATH).
	Path, Lang string
	// Extra holds further environment variables (KEY=VALUE).
	Extra []string
	// Args are extra CLI arguments after the standard ones.
	Args []string
	// Timeout bounds the run (default 90 s).
	Timeout time.Duration
}

// RunResult is what one claude run produced.
type RunResult struct {
	ExitCode int
	TimedOut bool
	Duration time.Duration
	Stdout   []byte
	Stderr   []byte
	// Events are the stream-json lines of stdout that parsed as objects.
	Events []map[string]any
	// Env and Args are the exact environment and argv used (for reports).
	Env  []string
	Args []string
}

// Env returns a clean environment for the real CLI: only PATH
// and LANG inherited, scratch HOME, IS_SANDBOX=1 (bypassPermissions as root),
// the mock as API base URL and as HTTP(S) proxy with loopback exempt, and
// every non-essential traffic switch off.
func (o RunOptions) Env() []string {
	env := []string{
		"PATH=" + o.Path,
		"LANG=" + cmp.Or(o.Lang, "C.UTF-8"),
		"HOME=" + o.Home,
		"TERM=dumb",
		"IS_SANDBOX=1",
		"ANTHROPIC_BASE_URL=" + o.BaseURL,
		"ANTHROPIC_API_KEY=sk-ant-mock-0000",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"HTTPS_PROXY=" + o.BaseURL,
		"HTTP_PROXY=" + o.BaseURL,
		"NO_PROXY=127.0.0.1,localhost",
	}
	return append(env, o.Extra...)
}

// Run runs `claude -p PROMPT --output-format stream-json --verbose
// --include-hook-events --permission-mode bypassPermissions ARGS…` in o.Dir
// and waits for it, at most o.Timeout. A non-zero exit is not an error; a
// failure to start is.
func Run(ctx context.Context, o RunOptions) (RunResult, error) {
	if o.Timeout <= 0 {
		o.Timeout = 90 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	args := append([]string{"-p", o.Prompt, "--output-format", "stream-json", "--verbose",
		"--include-hook-events", "--permission-mode", "bypassPermissions"}, o.Args...)
	cmd := exec.CommandContext(ctx, o.Claude, args...)
	cmd.Dir = o.Dir
	cmd.Env = o.Env()
	cmd.WaitDelay = 5 * time.Second
	// the client's hooks, tools and sandbox helpers end with it: on the
	// deadline the whole group is killed, after the run what it left
	testutil.OwnGroup(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	testutil.KillGroup(cmd)
	res := RunResult{Duration: time.Since(start), Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Env: cmd.Env, Args: args}
	res.TimedOut = ctx.Err() != nil
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	case res.TimedOut:
		res.ExitCode = -1
	default:
		return res, err
	}
	sc := bufio.NewScanner(bytes.NewReader(res.Stdout))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			res.Events = append(res.Events, ev)
		}
	}
	return res, nil
}

// SessionID is the session_id of the stream's init event ("" if none).
func (r RunResult) SessionID() string {
	for _, ev := range r.Events {
		if ev["type"] == "system" && ev["subtype"] == "init" {
			s, _ := ev["session_id"].(string)
			return s
		}
	}
	return ""
}

// Result is the final "result" event of the stream, nil when missing.
func (r RunResult) Result() map[string]any {
	for i := len(r.Events) - 1; i >= 0; i-- {
		if r.Events[i]["type"] == "result" {
			return r.Events[i]
		}
	}
	return nil
}

// HookResponses returns the hook_response events (one per hook run) whose
// hook_event equals event, or all of them when event is "".
func (r RunResult) HookResponses(event string) []map[string]any {
	var out []map[string]any
	for _, ev := range r.Events {
		if ev["type"] == "system" && ev["subtype"] == "hook_response" && (event == "" || ev["hook_event"] == event) {
			out = append(out, ev)
		}
	}
	return out
}

// Version runs `claude --version` and returns its first line.
func Version(claude string) (string, error) {
	out, err := exec.Command(claude, "--version").Output()
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]), err
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode()&0o111 != 0
}
