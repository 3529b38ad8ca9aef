package ccsettings

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// Settings is the typed read view of a settings file: the parts the harness
// checks. Unknown keys are ignored here (Doc keeps them).
type Settings struct {
	// DisableAllHooks true turns off every hook of every settings level.
	DisableAllHooks *bool `json:"disableAllHooks,omitempty"`
	// Hooks maps a hook event name (docs/hooks.md §5) to its matcher groups.
	Hooks map[string][]Group `json:"hooks,omitempty"`
	// Sandbox is Claude Code's Bash sandbox block.
	Sandbox *Sandbox `json:"sandbox,omitempty"`
	// Permissions holds the permission rules and mode.
	Permissions *Permissions `json:"permissions,omitempty"`
}

// Group is one matcher group of a hook event: the handlers run when the
// matcher selects the tool (PreToolUse) or always (events without tools).
type Group struct {
	// Matcher is nil when absent (matches everything); see MatcherMatches.
	Matcher *string   `json:"matcher,omitempty"`
	Hooks   []Handler `json:"hooks"`
}

// Handler is one hook handler. The exec form has Command (a program path)
// and Args; without Args, Command is a shell command line run by sh -c.
type Handler struct {
	Type    string   `json:"type"`
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// Timeout is in seconds; nil means Claude Code's default (600 s).
	Timeout *float64 `json:"timeout,omitempty"`
	// OnFailure "block" makes a PreToolUse hook that cannot start, is
	// killed or times out deny the tool call.
	OnFailure string `json:"onFailure,omitempty"`
	Shell     string `json:"shell,omitempty"`
	Async     bool   `json:"async,omitempty"`
}

// Sandbox is the "sandbox" block (Claude Code's Bash sandbox: bubblewrap on
// Linux, Seatbelt on macOS). Every field is optional; a nil pointer or an
// empty list is left out. The semantics below were checked with the real CLI
// 2.1.332 (internal/e2e, docs/sandbox.md).
type Sandbox struct {
	// Enabled runs every Bash call in the sandbox.
	Enabled *bool `json:"enabled,omitempty"`
	// FailIfUnavailable makes a missing sandbox (no bwrap, no namespaces) a
	// hard failure instead of running commands unsandboxed.
	FailIfUnavailable *bool `json:"failIfUnavailable,omitempty"`
	// AllowUnsandboxedCommands false makes the Bash tool's
	// dangerouslyDisableSandbox parameter ignored.
	AllowUnsandboxedCommands *bool `json:"allowUnsandboxedCommands,omitempty"`
	// AutoAllowBashIfSandboxed approves sandboxed Bash calls without a
	// permission prompt.
	AutoAllowBashIfSandboxed *bool `json:"autoAllowBashIfSandboxed,omitempty"`
	// ExcludedCommands are Bash permission-rule patterns of commands that run
	// outside the sandbox. They match the command text (every part of a
	// chain must match); with AllowUnsandboxedCommands false only entries of
	// managed, user or --settings settings count.
	ExcludedCommands []string `json:"excludedCommands,omitempty"`
	// Filesystem lists the write (and read) exceptions.
	Filesystem *Filesystem `json:"filesystem,omitempty"`
	// Network restricts the sandbox's network proxy.
	Network *Network `json:"network,omitempty"`
}

// Filesystem is sandbox.filesystem. Paths are absolute when written with a
// leading "//" (SandboxPath). denyWrite wins over allowWrite, also for a
// path below a denied directory; the working directory and the sandbox's
// temporary directory are writable unless denied.
type Filesystem struct {
	AllowWrite []string `json:"allowWrite,omitempty"`
	DenyWrite  []string `json:"denyWrite,omitempty"`
	DenyRead   []string `json:"denyRead,omitempty"`
	AllowRead  []string `json:"allowRead,omitempty"`
}

// Network is sandbox.network.
type Network struct {
	AllowedDomains    []string `json:"allowedDomains,omitempty"`
	AllowLocalBinding *bool    `json:"allowLocalBinding,omitempty"`
}

// Permissions is the "permissions" block. Rules use Claude Code's syntax:
// Bash(prefix *), Edit(//absolute/path/**) (an Edit rule covers Edit,
// MultiEdit, Write and NotebookEdit; an Edit deny rule is also a sandbox
// denyWrite path).
type Permissions struct {
	Allow       []string `json:"allow,omitempty"`
	Deny        []string `json:"deny,omitempty"`
	Ask         []string `json:"ask,omitempty"`
	DefaultMode string   `json:"defaultMode,omitempty"`
}

// Bool returns a pointer to b, for the optional fields.
func Bool(b bool) *bool { return &b }

// IsTrue reports whether an optional boolean is set and true.
func IsTrue(b *bool) bool { return b != nil && *b }

// IsFalse reports whether an optional boolean is set and false.
func IsFalse(b *bool) bool { return b != nil && !*b }

// Decode reads the typed view of settings data. Claude Code ignores a
// settings file that fails its validation (silently in -p mode), so a
// value of the wrong type is an error here.
func Decode(data []byte) (Settings, error) {
	var s Settings
	if len(bytes.TrimSpace(data)) == 0 {
		return s, nil
	}
	err := json.Unmarshal(data, &s)
	return s, err
}

// SandboxPath renders an absolute path the way sandbox.filesystem and
// permission rules name it unambiguously: a leading "//" (a single "/" is
// relative to the settings file in Claude Code's rule syntax).
func SandboxPath(abs string) string {
	p := strings.ReplaceAll(abs, `\`, "/")
	return "//" + strings.TrimLeft(p, "/")
}

// EditRule returns the permission rule Edit(//path) for a file, or
// Edit(//path/**) for a directory and everything below it.
func EditRule(abs string, dir bool) string {
	p := SandboxPath(abs)
	if dir {
		p = strings.TrimRight(p, "/") + "/**"
	}
	return "Edit(" + p + ")"
}

var exactMatcher = regexp.MustCompile(`^[A-Za-z0-9_ ,|-]*$`)

// MatcherMatches applies Claude Code's matcher syntax (docs/hooks.md §7):
// "" and "*" match everything; a matcher of only letters, digits, "_", "-",
// space, "," and "|" is a list of exact tool names separated by | or ,;
// anything else is an unanchored JavaScript regular expression (Go's RE2 is
// used as an approximation). The error is a matcher that does not compile.
func MatcherMatches(m, tool string) (bool, error) {
	if m == "" || m == "*" {
		return true, nil
	}
	if exactMatcher.MatchString(m) {
		for _, part := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if strings.TrimSpace(part) == tool {
				return true, nil
			}
		}
		return false, nil
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return false, err
	}
	return re.MatchString(tool), nil
}
