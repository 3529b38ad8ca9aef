// Package launch starts a Generator session the one right way (docs/sandbox.md):
// `harness launch FID` checks the start conditions (ops.Next, preflight
// --stage launch), writes the session's Claude Code settings — hooks,
// sandbox and permissions in one trusted tier — to a file the Generator
// cannot write, starts the claude binary with --settings, --session-id, the
// feature directory as working directory and HARNESS_ROOT, FEATURE_ID and
// SPRINT_ID in its environment, waits until hook.log proves that the
// session's hooks run (a SessionStart record for its id), and then does what
// `harness session start` and `preflight --stage started` do.
package launch

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Modes of a session (docs/protocol.md §4.6 STEP 3.3).
const (
	ModePrint       = "print"       // claude -p PROMPT, output to the feature's workspace.GeneratorOutputName (generator_cc)
	ModeInteractive = "interactive" // attached to this terminal, or in tmux
	ModeMCP         = "mcp"         // interactive with the feature's .mcp.json (generator_cc_mcp)
)

// DefaultPrompt is the first prompt when neither --prompt nor --prompt-file
// is given; the SessionStart hook injects the feature's context.
const DefaultPrompt = "Read AGENTS.md and context_snapshot.md, then do your current phase."

// DefaultPermissionMode lets the Generator edit files without prompts; with
// the sandbox, sandboxed Bash calls are approved by the sandbox setting
// autoAllowBashIfSandboxed, and the Generator's own harness commands by
// allow rules.
const DefaultPermissionMode = "acceptEdits"

// DefaultProofTimeout is how long launch waits for the session's
// SessionStart hook record before it stops the client.
const DefaultProofTimeout = 60 * time.Second

// Options configure one launch.
type Options struct {
	// Ops is the workspace environment (root, clock, validation, Generator
	// session marker) the ops functions run with.
	Ops *ops.Env
	// Feature is the feature id.
	Feature string
	// Mode is ModePrint (default), ModeInteractive or ModeMCP; Tmux runs an
	// interactive or mcp session in a detached tmux session.
	Mode string
	Tmux bool
	// Prompt is the first prompt (DefaultPrompt when empty).
	Prompt string
	// NoSandbox starts the session without Claude Code's sandbox; Reason
	// (required then) is recorded in the pool entry and in hook.log.
	NoSandbox bool
	Reason    string
	// PermissionMode is claude's --permission-mode (DefaultPermissionMode).
	PermissionMode string
	// OutputFormat is claude's --output-format in print mode ("" = text).
	OutputFormat string
	// AllowDomains are network domains sandboxed commands may reach.
	AllowDomains []string
	// Claude, HarnessBin and HookBin are absolute paths of the binaries.
	Claude, HarnessBin, HookBin string
	// Env is the launching process's environment; the session inherits it
	// with the variables of Plan.Env set.
	Env map[string]string
	// ProofTimeout bounds the wait for the hook record (DefaultProofTimeout).
	ProofTimeout time.Duration
	// Wait keeps launch until the client exits (always for an attached
	// interactive session).
	Wait bool
	// Stdin, Stdout and Stderr are the terminal of an attached session.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Plan is what a launch starts, computed by Prepare without writing
// anything; --dry-run prints it.
type Plan struct {
	Feature     string `json:"feature"`
	Sprint      string `json:"sprint"`
	SessionID   string `json:"session_id"`
	Mode        string `json:"mode"`
	SessionType string `json:"session_type"`
	// Dir is the client's working directory (the feature directory).
	Dir string `json:"dir"`
	// SettingsFile is the session's --settings file; Settings its content.
	SettingsFile string          `json:"settings_file"`
	Settings     json.RawMessage `json:"settings"`
	// Argv is the exact command line (tmux's when Tmux is set).
	Argv []string `json:"argv"`
	// Env lists the variables launch sets for the session (KEY=VALUE,
	// sorted); everything else is inherited.
	Env             []string `json:"env"`
	Sandbox         bool     `json:"sandbox"`
	NoSandboxReason string   `json:"no_sandbox_reason,omitempty"`
	// TempDir is the sandbox's temporary directory (CLAUDE_CODE_TMPDIR)
	// with the build caches below it.
	TempDir string `json:"temp_dir,omitempty"`
	// Output is the file a print session writes to.
	Output string `json:"output,omitempty"`
	// Tmux is the tmux session name.
	Tmux string `json:"tmux,omitempty"`

	claudeArgv []string
	env        []string // the whole environment of the client
	cacheDirs  []string
	// lockFiles are the lock sidecars the sandbox hides (Policy.DenyRead),
	// created before the session so that there is a file to hide.
	lockFiles []string
}

// Result is what Start did.
type Result struct {
	Plan
	// PID is the client's process id (tmux: the pane's process).
	PID int `json:"pid"`
	// HookRecord is the time of the SessionStart record that proved the
	// hooks live.
	HookRecord string `json:"hook_record"`
	// Actions are what session start and preflight recorded.
	Actions []string `json:"actions"`
	// ExitCode is the client's exit status (with Wait).
	ExitCode *int `json:"exit_code,omitempty"`
	// Elapsed is the time from start to the recorded session, in ms.
	ElapsedMS int64 `json:"elapsed_ms"`
}

// RefusedError is a launch that may not happen (exit 1): the start
// conditions, preflight, missing sandbox prerequisites, hooks that never
// proved live.
type RefusedError struct {
	Reason string
	Items  []ops.CheckItem
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	b.WriteString(e.Reason)
	for _, it := range e.Items {
		if !it.OK {
			fmt.Fprintf(&b, "\n  FAIL %s %s: %s", it.Scope, it.Check, it.Detail)
		}
	}
	return b.String()
}

func refuse(format string, a ...any) error { return &RefusedError{Reason: fmt.Sprintf(format, a...)} }

// UsageError is a malformed request (exit 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Prepare checks that the feature may start now and computes the plan.
func Prepare(o *Options) (*Plan, error) {
	if o.Mode == "" {
		o.Mode = ModePrint
	}
	if o.PermissionMode == "" {
		o.PermissionMode = DefaultPermissionMode
	}
	if o.Prompt == "" {
		o.Prompt = DefaultPrompt
	}
	if o.ProofTimeout <= 0 {
		o.ProofTimeout = DefaultProofTimeout
	}
	switch {
	case o.Ops.Generator:
		return nil, refuse("harness launch is Hermes's: refused in a Generator session (FEATURE_ID or CLAUDECODE=1 is set)")
	case !slices.Contains([]string{ModePrint, ModeInteractive, ModeMCP}, o.Mode):
		return nil, &UsageError{fmt.Sprintf("--mode %q: print, interactive or mcp", o.Mode)}
	case o.NoSandbox && strings.TrimSpace(o.Reason) == "":
		return nil, &UsageError{"--no-sandbox needs --reason TEXT (recorded in the pool entry and hook.log, and warned about by status and doctor)"}
	case !o.NoSandbox && o.Reason != "":
		return nil, &UsageError{"--reason is only for --no-sandbox"}
	case !slices.Contains([]string{"", "text", "json", "stream-json"}, o.OutputFormat):
		return nil, &UsageError{fmt.Sprintf("--output-format %q: text, json or stream-json", o.OutputFormat)}
	case o.OutputFormat != "" && o.Mode != ModePrint:
		return nil, &UsageError{"--output-format is for --mode print"}
	case o.Tmux && o.Mode == ModePrint:
		return nil, &UsageError{"--tmux is for --mode interactive or mcp"}
	}
	root := o.Ops.Root
	ws := &workspace.Workspace{Root: root}
	fl, err := readFeatureList(ws)
	if err != nil {
		return nil, err
	}
	f := fl.Feature(o.Feature)
	if f == nil {
		return nil, refuse("feature %s is not in .harness/feature_list.json", o.Feature)
	}
	if err := startConditions(o); err != nil {
		return nil, err
	}
	if busy := writersOf(ws, o.Feature); len(busy) > 0 {
		return nil, refuse("%s may not start while another session can write its directory .harness/features/%s: %s. Their sandbox was built before %s was in feature_list.json, so a program they run can rewrite its AGENTS.md and context_snapshot.md while %s's Generator reads them; wait for them to end (or end or reset them), then launch",
			o.Feature, o.Feature, strings.Join(busy, "; "), o.Feature, o.Feature)
	}
	pre, _, err := ops.Preflight(o.Ops, "launch", []string{o.Feature})
	if err != nil {
		return nil, err
	}
	if !pre.OK {
		return nil, &RefusedError{Reason: "preflight --stage launch " + o.Feature + " fails", Items: pre.Items}
	}
	switch {
	case o.Claude == "":
		// a missing prerequisite, like the sandbox's: refused (exit 1)
		return nil, refuse("no Claude Code CLI to start: set CLAUDE_BIN to the claude binary or put claude on PATH (it must be logged in, or have ANTHROPIC_API_KEY)")
	case o.HarnessBin == "" || o.HookBin == "":
		return nil, &UsageError{"the harness and harness-hook binaries are not known"}
	}
	if !o.NoSandbox {
		if bad := Missing(CheckSandbox(o.Env)); len(bad) > 0 {
			e := &RefusedError{Reason: "Claude Code's sandbox cannot run on this host; fix it, or start the session with --no-sandbox --reason TEXT (the hook is then the only guard)"}
			for _, c := range bad {
				e.Items = append(e.Items, ops.CheckItem{Scope: "host", Check: c.Name, Detail: c.Detail + "; " + c.Fix})
			}
			return nil, e
		}
	}
	fdir := ws.FeatureDir(o.Feature)
	if o.Mode == ModeMCP {
		if err := checkMCPConfig(filepath.Join(fdir, ".mcp.json")); err != nil {
			return nil, refuse("--mode mcp needs the feature's .mcp.json (the MCP servers tooling.md lists, as {\"mcpServers\": {…}}): %v", err)
		}
	}
	sid, err := newSessionID()
	if err != nil {
		return nil, err
	}
	p := &Plan{
		Feature: o.Feature, Sprint: fl.Sprint, SessionID: sid, Mode: o.Mode, Dir: fdir,
		SettingsFile:    ws.SessionSettings(sid),
		Sandbox:         !o.NoSandbox,
		NoSandboxReason: strings.TrimSpace(o.Reason),
		SessionType:     "cc-print",
	}
	if o.Mode != ModePrint {
		p.SessionType = "cc-interactive-mcp"
	}
	var ids []string
	for _, ff := range fl.Features {
		ids = append(ids, ff.ID)
	}
	in := PolicyFor(root, o.Feature, ids, o.HarnessBin, o.HookBin, o.Env)
	in.AllowDomains = o.AllowDomains
	pathDirs := in.PathDirs
	if p.Sandbox {
		p.TempDir = in.TempDir
		p.cacheDirs = []string{in.CacheDir}
	} else {
		in.TempDir, in.CacheDir = "", ""
	}
	pol := BuildPolicy(in)
	if p.Settings, err = SessionSettings(ccsettings.Wiring{HookBin: o.HookBin, Root: root, Feature: o.Feature, Sprint: fl.Sprint},
		pol, o.NoSandbox); err != nil {
		return nil, err
	}
	if p.Sandbox {
		p.lockFiles = pol.DenyRead
	}

	// The session's environment.
	set := map[string]string{
		"HARNESS_ROOT": root, "FEATURE_ID": o.Feature, "SPRINT_ID": fl.Sprint,
		"PATH": strings.Join(pathDirs, string(os.PathListSeparator)), "HARNESS_SANDBOX": "on",
	}
	if !p.Sandbox {
		set["HARNESS_SANDBOX"] = "off: " + oneLine(p.NoSandboxReason)
	} else {
		c := filepath.Join(p.TempDir, "cache")
		set["CLAUDE_CODE_TMPDIR"] = p.TempDir
		set["GOCACHE"] = filepath.Join(c, "go-build")
		set["GOMODCACHE"] = filepath.Join(c, "go-mod")
		set["npm_config_cache"] = filepath.Join(c, "npm")
		p.cacheDirs = append(p.cacheDirs, set["GOCACHE"], set["GOMODCACHE"], set["npm_config_cache"])
	}
	for k, v := range set {
		p.Env = append(p.Env, k+"="+v)
	}
	sort.Strings(p.Env)
	full := map[string]string{}
	for k, v := range o.Env {
		full[k] = v
	}
	delete(full, "CLAUDECODE")
	for k, v := range set {
		full[k] = v
	}
	for k, v := range full {
		p.env = append(p.env, k+"="+v)
	}
	sort.Strings(p.env)

	// The command line. --setting-sources user: the feature directory's
	// project and local sources (settings*.json hooks, which run outside
	// the sandbox, CLAUDE.md, agents, skills, commands) are never read, so
	// nothing planted there reaches the session. --add-dir ROOT: the
	// working directory is the feature's, and without it the Write/Edit
	// tools needed a prompt for the product tree, which nobody answers in
	// print mode (docs/sandbox.md §1).
	argv := []string{o.Claude, "--settings", p.SettingsFile, "--setting-sources", "user", "--add-dir", root,
		"--session-id", sid, "--permission-mode", o.PermissionMode}
	switch o.Mode {
	case ModePrint:
		p.Output = filepath.Join(fdir, workspace.GeneratorOutputName)
		if o.OutputFormat != "" {
			argv = append(argv, "--output-format", o.OutputFormat)
			if o.OutputFormat == "stream-json" {
				argv = append(argv, "--verbose")
			}
		}
		argv = append(argv, "-p", o.Prompt)
	case ModeInteractive:
		argv = append(argv, o.Prompt)
	case ModeMCP:
		argv = append(argv, "--mcp-config", filepath.Join(fdir, ".mcp.json"), "--strict-mcp-config", o.Prompt)
	}
	p.claudeArgv = argv
	p.Argv = argv
	if o.Tmux {
		p.Tmux = "harness-" + o.Feature + "-" + sid[:8]
		t := []string{"tmux", "new-session", "-d", "-s", p.Tmux, "-c", fdir}
		for _, kv := range p.Env {
			t = append(t, "-e", kv)
		}
		p.Argv = append(append(t, "--"), argv...)
	}
	return p, nil
}

// SessionSettings is the content of a session's --settings file: the hook
// wiring w, the sandbox block of pol (disabled with off) and its
// permissions, in that order.
func SessionSettings(w ccsettings.Wiring, pol Policy, off bool) ([]byte, error) {
	doc := ccsettings.New()
	if err := doc.SetHooks(w); err != nil {
		return nil, err
	}
	if err := doc.SetSandbox(pol.Sandbox(off)); err != nil {
		return nil, err
	}
	if err := doc.SetPermissions(pol.Permissions(off)); err != nil {
		return nil, err
	}
	return doc.Bytes()
}

// startConditions applies every start condition of `harness next` to the
// feature (ops.StartBlockers, the check `harness session start` makes too):
// it must be startable now, or be getting the new session of a feature
// Reset (pool status resetting).
func startConditions(o *Options) error {
	reasons, err := ops.StartBlockers(o.Ops, o.Feature, false)
	if err != nil {
		return err
	}
	if len(reasons) == 0 {
		return nil
	}
	return refuse("%s may not start now (harness next): %s", o.Feature, strings.Join(reasons, "; "))
}

func readFeatureList(ws *workspace.Workspace) (*workspace.FeatureList, error) {
	data, err := fsutil.ReadRegular(ws.FeatureList(), 0)
	if err != nil {
		return nil, fmt.Errorf("read feature list: %w", err)
	}
	var fl workspace.FeatureList
	if err := json.Unmarshal(data, &fl); err != nil {
		return nil, fmt.Errorf(".harness/feature_list.json: %w (run harness validate)", err)
	}
	if !workspace.SprintIDPattern.MatchString(fl.Sprint) {
		return nil, refuse(".harness/feature_list.json has no valid sprint id (%q)", fl.Sprint)
	}
	return &fl, nil
}

func checkMCPConfig(path string) error {
	data, err := fsutil.ReadRegular(path, 1<<20)
	if err != nil {
		return err
	}
	var cfg struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return err
	}
	if len(cfg.MCPServers) == 0 {
		return errors.New("no mcpServers")
	}
	return nil
}

// newSessionID returns a random version-4 UUID (claude --session-id
// requires one).
func newSessionID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}

// TempDir is the sandbox's temporary directory of a sprint (the client's
// CLAUDE_CODE_TMPDIR): ops.SandboxTempDir, which also says why it is short
// and when it is removed.
func TempDir(root string) string { return ops.SandboxTempDir(root) }

// sessionPath is the session's PATH: the directories of harness and
// harness-hook first (read-only in the sandbox, so the name harness in an
// excluded command is the real binary), then the launcher's PATH without
// relative entries and without the root or a directory above it (which
// cannot be made read-only without the whole work area).
func sessionPath(env map[string]string, root string, bins ...string) []string {
	var out []string
	add := func(d string) {
		if d == "" || !filepath.IsAbs(d) {
			return
		}
		d = filepath.Clean(d)
		if within(root, d) || slices.Contains(out, d) {
			return
		}
		out = append(out, d)
	}
	for _, b := range bins {
		add(filepath.Dir(b))
	}
	path := env["PATH"]
	if path == "" && runtime.GOOS == "windows" {
		path = env["Path"]
	}
	for _, d := range filepath.SplitList(path) {
		add(d)
	}
	return out
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// FindClaude returns the claude binary a session runs: $CLAUDE_BIN (a bare
// name is looked up on env's PATH), else claude on env's PATH ("" when
// neither is there).
func FindClaude(env map[string]string) string {
	name := "claude"
	if p := env["CLAUDE_BIN"]; p != "" {
		if strings.ContainsAny(p, `/\`) {
			return p
		}
		name = p
	}
	p, err := lookPath(name, env)
	if err != nil {
		return ""
	}
	return p
}

// writersOf names the running sessions of other features whose sandbox
// lets their programs write the directory of feature fid: launched before
// fid was in feature_list.json, their denyWrite list does not cover it
// (docs/sandbox.md §2.1 denies only the feature ids known at launch, §6).
// Sessions whose client has exited, sessions without a sandbox (the hook is
// their only guard, and status warns about them) and sessions whose
// settings cannot be read (doctor reports those) are not named.
func writersOf(ws *workspace.Workspace, fid string) []string {
	data, err := fsutil.ReadRegular(ws.SessionPool(), fsutil.CapState)
	if err != nil {
		return nil
	}
	pool, err := workspace.ParseObject(data)
	if err != nil {
		return nil
	}
	fdir := ws.FeatureDir(fid)
	active := pool.ObjAt("active")
	var out []string
	for _, k := range active.Keys() {
		e := active.ObjAt(k)
		if k == fid || e == nil || e.Str("status") != "running" && e.Str("status") != "waiting_human" {
			continue
		}
		if _, gone := ops.ClientGone(e); gone {
			continue
		}
		l := e.ObjAt("launch")
		if l == nil || !l.Bool("sandbox") {
			continue
		}
		rel := l.Str("settings")
		if rel == "" || filepath.IsAbs(rel) || strings.Contains(rel, "..") {
			continue
		}
		raw, err := fsutil.ReadRegular(filepath.Join(ws.Root, filepath.FromSlash(rel)), fsutil.CapConfig)
		if err != nil {
			continue
		}
		s, err := ccsettings.Decode(raw)
		if err != nil || s.Sandbox == nil || s.Sandbox.Filesystem == nil {
			continue
		}
		if !Covered(s.Sandbox.Filesystem.DenyWrite, fdir) {
			out = append(out, fmt.Sprintf("session %s of %s (started %s)", e.Str("session_id"), k, e.Str("started_at")))
		}
	}
	return out
}
