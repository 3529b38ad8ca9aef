package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/lazy"
	"github.com/superagent-harness/harness/internal/userlog"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Verdict words of hook.log records besides verdict.Action's "allow", "warn"
// and "block".
const (
	// verdictForced is the Stop record written when the loop bound gives up
	// (testdata/sprints/README.md §7 "Loop bound").
	verdictForced = "stop_forced_incomplete"
)

// Record is one line of <root>/.harness/logs/hook.log (JSON Lines, one
// object per hook call, appended with fsutil.AppendLine). Readers skip lines
// that are not JSON objects (legacy text lines, testdata/sprints/README.md D34).
type Record struct {
	// Time is the UTC-Z time the call started (whole seconds).
	Time string `json:"time"`
	// Event is the hook event the call was answered as.
	Event string `json:"event"`
	// Session is the payload's session_id.
	Session string `json:"session,omitempty"`
	// Feature is the running feature, when known.
	Feature string `json:"feature,omitempty"`
	// Tool is the payload's tool_name (tool events).
	Tool string `json:"tool,omitempty"`
	// Verdict is "allow", "warn", "block" or "stop_forced_incomplete".
	Verdict string `json:"verdict"`
	// Rule is the deciding rule id (e.g. "fs.rm-recursive-force",
	// "stop.genlog-section", "hook.payload-invalid").
	Rule string `json:"rule,omitempty"`
	// Reason is the text returned to Claude (truncated to maxLogReason runes).
	Reason string `json:"reason,omitempty"`
	// Command is the Bash command (truncated to maxLogCommand runes).
	Command string `json:"command,omitempty"`
	// Path is the Edit/Write/MultiEdit/NotebookEdit target.
	Path string `json:"path,omitempty"`
	// Failing lists the failing Stop check ids (block and forced allow).
	Failing []string `json:"failing,omitempty"`
	// AllowOnce is the reason of the allow-once authorisation that turned a block into allow.
	AllowOnce string `json:"allow_once,omitempty"`
	// Sandbox is, on a SessionStart record, the launcher's statement about
	// the session's OS sandbox: HARNESS_SANDBOX as `harness launch` sets it
	// ("on", or "off: <reason>" for --no-sandbox); "" when not launched by it.
	Sandbox string `json:"sandbox,omitempty"`
	// Monitor is the Generator session's measurement (context tokens,
	// window, retries, age, the trigger on record); nil outside one.
	Monitor *MonitorRecord `json:"monitor,omitempty"`
	// DurationUS is the time the hook took, in microseconds.
	DurationUS int64 `json:"duration_us"`
	// Errors are problems met on the way (invalid rules.yaml, event mismatch,
	// unreadable payload, recovered panic, …).
	Errors []string `json:"errors,omitempty"`
	// Project is the working directory of a call outside a sprint workspace
	// (user-level log only).
	Project string `json:"project,omitempty"`
	// Preset is the --preset of a call outside a sprint workspace.
	Preset string `json:"preset,omitempty"`
	// Probe marks a call made by `harness doctor` (session id
	// ProbeSession…), not by Claude Code: status and logs hide it.
	Probe bool `json:"probe,omitempty"`
}

// ProbeSession is the session id prefix of harness doctor's probe payloads.
const ProbeSession = "harness-doctor"

// MonitorRecord is the measurement part of a hook.log record (the same
// figures as claude_code_context_state.json, docs/protocol.md §8.1).
type MonitorRecord struct {
	// Tokens is the context in use (input + cache read + cache creation +
	// output tokens of the latest assistant message).
	Tokens int64 `json:"context_tokens"`
	// Window is the model's context window in tokens.
	Window int64 `json:"context_window"`
	// Ratio is Tokens/Window with 4 decimals ("0.7412").
	Ratio string `json:"token_usage_ratio"`
	// Retries is the feature's retry count.
	Retries int64 `json:"retries"`
	// AgeS is the session's age in seconds.
	AgeS int64 `json:"session_age_s"`
	// Trigger is the kind of the Reset trigger on record ("" when none).
	Trigger string `json:"reset_trigger,omitempty"`
	// Limit is "soft" or "hard" when a trigger is on record.
	Limit string `json:"limit,omitempty"`
	// Told is "reset-instruction" when this call handed the model the Reset
	// instruction.
	Told string `json:"told,omitempty"`
}

// Truncation limits for hook.log fields, in Unicode code points.
const (
	maxLogCommand = 1000
	maxLogReason  = 2000
	maxLogError   = 1000
)

// truncateRunes cuts s to at most n code points, marking the cut.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s[:i] + fmt.Sprintf("…[+%d bytes]", len(s)-i)
}

// secretPatterns find credentials in a command line; the value part is
// replaced by "***" before the line reaches hook.log, which every feature's
// session and Hermes read (docs/protocol.md §11.1 #16: the original hooks logged
// full commands, secrets included).
// They are compiled on first use (most calls never need them).
var secretPatterns = lazy.Value[[]*regexp.Regexp]{New: func() []*regexp.Regexp {
	return []*regexp.Regexp{
		// NAME=value, NAME: value, --name value for names that hold credentials.
		regexp.MustCompile(`(?i)((?:[A-Za-z0-9_-]*(?:token|secret|passw(?:or)?d|api[_-]?key|access[_-]?key|private[_-]?key|credential)[A-Za-z0-9_-]*)["']?\s*[=:]\s*["']?)([^\s"'&;|]+)`),
		regexp.MustCompile(`(?i)(--?(?:token|password|passwd|secret|api-key)[= ]\s*["']?)([^\s"'&;|]+)`),
		// Authorization headers and URL credentials.
		regexp.MustCompile(`(?i)(\b(?:bearer|basic|token)\s+)([A-Za-z0-9._~+/=-]{8,})`),
		regexp.MustCompile(`(://[^/\s:@]+:)([^@\s/]+)(@)`),
	}
}}

// secretHints are lower-case substrings without which no pattern of
// secretPatterns can match (a cheap pre-filter for the common case).
var secretHints = []string{"token", "secret", "passw", "key", "credential", "bearer", "basic", "@"}

// redactSecrets masks credential values in s.
func redactSecrets(s string) string {
	lower := strings.ToLower(s)
	hinted := false
	for _, h := range secretHints {
		if strings.Contains(lower, h) {
			hinted = true
			break
		}
	}
	if !hinted {
		return s
	}
	for _, re := range secretPatterns.Get() {
		if re.NumSubexp() == 3 {
			s = re.ReplaceAllString(s, "${1}***${3}")
		} else {
			s = re.ReplaceAllString(s, "${1}***")
		}
	}
	return s
}

// hookLogPath is <root>/.harness/logs/hook.log.
func hookLogPath(root string) string {
	return (&workspace.Workspace{Root: root}).HookLog()
}

// appendRecord writes rec to the workspace's hook.log. Outside a workspace a
// record that is not a plain allow goes to stderr instead (Claude Code shows
// hook stderr only in its debug log), as does a record that cannot be
// written. A logging failure never changes a verdict.
func appendRecord(s scope, rec Record, env map[string]string, stderr io.Writer) {
	line := recordLine(&rec)
	if !s.HasState {
		// outside a sprint: the user-level audit log (internal/userlog)
		if p := userlog.Path(env, runtime.GOOS); p != "" {
			if err := userlog.Append(p, line, userlog.MaxBytes); err == nil {
				return
			} else if rec.Verdict != "allow" || len(rec.Errors) > 0 {
				fmt.Fprintf(stderr, "harness-hook: cannot write %s: %v; record: %s", p, err, line)
			}
			return
		}
		if rec.Verdict == "allow" && len(rec.Errors) == 0 {
			return
		}
		fmt.Fprintf(stderr, "harness-hook (no sprint workspace and no home directory, not logged): %s", line)
		return
	}
	path := hookLogPath(s.Root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		fmt.Fprintf(stderr, "harness-hook: cannot write %s: %v; record: %s", path, err, line)
		return
	}
	// appendRotating refuses a FIFO (or any non-regular file) without
	// waiting for a reader, and waits at most hookLockTimeout for the lock.
	if err := appendRotating(path, line); err != nil {
		fmt.Fprintf(stderr, "harness-hook: cannot write %s: %v; record: %s", path, err, line)
	}
}

// recordLine is rec as one log line: probe marked, texts truncated,
// credentials masked.
func recordLine(rec *Record) []byte {
	rec.Probe = strings.HasPrefix(rec.Session, ProbeSession)
	rec.Command = redactSecrets(truncateRunes(rec.Command, maxLogCommand))
	rec.Path = truncateRunes(rec.Path, maxLogCommand)
	rec.Reason = redactSecrets(truncateRunes(rec.Reason, maxLogReason))
	rec.AllowOnce = redactSecrets(truncateRunes(rec.AllowOnce, maxLogReason))
	for i, e := range rec.Errors {
		rec.Errors[i] = truncateRunes(e, maxLogError)
	}
	return rec.appendJSONLine(make([]byte, 0, 512))
}

// AppendUserRecord appends rec to the user-level audit log of env
// (internal/userlog), masked and truncated as the hook's own records are:
// `harness allow` records the authorisations it gives outside a sprint
// with it. The error is a log that cannot be written (or no home).
func AppendUserRecord(rec Record, env map[string]string) error {
	p := userlog.Path(env, runtime.GOOS)
	if p == "" {
		return errors.New("no home or state directory: there is no user-level audit log")
	}
	return userlog.Append(p, recordLine(&rec), userlog.MaxBytes)
}

// appendRotating appends line to the hook log at path under its lock, first
// renaming a log of workspace.HookLogRotateSize bytes or more to
// hook.log.<N+1> (docs/protocol.md §15), so hook.log stays small and no
// record is ever dropped. The append refuses a FIFO (or any non-regular
// file) without waiting for a reader.
func appendRotating(path string, line []byte) error {
	unlock, err := fsutil.LockWithin(path, hookLockTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() && st.Size() >= workspace.HookLogRotateSize {
		if err := os.Rename(path, workspace.NextRotatedHookLog(path)); err != nil {
			return fmt.Errorf("rotate: %w", err)
		}
	}
	return fsutil.AppendLineLocked(path, line)
}

// maxLoopScan bounds the fallback count of consecutiveStopBlocks: the end
// of hook.log it reads (a session that blocked 7 times in a row wrote its 7
// records there within the last few seconds).
const maxLoopScan = 4 << 20

// consecutiveStopBlocks counts the Stop blocks returned in a row for
// session, newest first: the JSON records of hook.log with event Stop and
// that session, back to the last such record whose verdict is not "block".
// It stops counting at limit, and reads at most the last maxLoopScan bytes
// backwards (fsutil.EachLineBackward), so a long log costs little. Non-JSON
// lines are skipped (testdata/sprints/README.md D34). It is the Stop loop
// bound's fallback when claude_code_context_state.json cannot keep the count.
func consecutiveStopBlocks(path, session string, limit int) (int, error) {
	f, st, err := openRegular(path)
	if err != nil {
		if os.IsNotExist(err) {
			return 0, nil
		}
		return 0, err
	}
	defer f.Close()
	// The session as it appears inside a record (JSON-escaped, HTML escaping
	// off, as appendRecord writes it), for a cheap pre-filter of lines.
	needle := bytes.Trim(appendJSONString(nil, session), `"`)
	count := 0
	_, err = fsutil.EachLineBackward(f, st.Size(), fsutil.BackwardOptions{MaxBytes: maxLoopScan, MaxLine: 1 << 20}, func(line []byte) bool {
		if len(bytes.TrimSpace(line)) == 0 || !bytes.Contains(line, needle) {
			return true
		}
		var r struct {
			Event   string `json:"event"`
			Session string `json:"session"`
			Verdict string `json:"verdict"`
		}
		t := bytes.TrimSpace(line)
		if t[0] != '{' || json.Unmarshal(t, &r) != nil {
			return true
		}
		if r.Event != EventStop || r.Session != session {
			return true
		}
		if r.Verdict != "block" {
			return false
		}
		count++
		return count < limit
	})
	return count, err
}
