// Package allowonce records and consumes exact-match, single-use
// authorisations of a Bash command that the guard would block, in
// <root>/.harness/allow.jsonl (docs/protocol.md §1.1: written only through
// `harness allow`, read-only for a Generator).
//
// The file is JSON Lines, appended with fsutil under its sidecar lock:
//
//	{"type":"allow","id":"…","feature":"f001","command":"git push --force origin f001","reason":"…","created_at":"2026-04-21T03:00:00Z"}
//	{"type":"consume","id":"…","feature":"f001","at":"2026-04-21T03:05:10Z"}
//
// An allow entry is available until a consume line with its id exists.
// Consume checks and appends under one lock, so each authorisation lets
// exactly one tool call through, however many hooks run at once.
//
// Outside a sprint workspace (a project guarded with `harness install`) the
// same log, with no feature, lives beside the override files: the
// project's <dir>/.claude/harness-allow.jsonl (ProjectPath) and the user's
// ~/.claude/harness-allow.jsonl (UserPath), both protected from the agent
// by the hook-wiring rule (rules/paths.yaml path.hook-wiring). AddFile,
// ListFile and ConsumeFile work on any such file.
package allowonce

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// File is the path of the allow-once log relative to the sprint root.
const File = ".harness/allow.jsonl"

// Entry is one authorisation as listed by List.
type Entry struct {
	ID        string `json:"id"`
	Feature   string `json:"feature"`
	Command   string `json:"command"`
	Reason    string `json:"reason"`
	CreatedAt string `json:"created_at"`
	// Consumed is true once a tool call used the authorisation; ConsumedAt is
	// then the UTC-Z time it happened.
	Consumed   bool   `json:"consumed"`
	ConsumedAt string `json:"consumed_at,omitempty"`
}

// record is one line of allow.jsonl.
type record struct {
	Type      string `json:"type"` // "allow" or "consume"
	ID        string `json:"id"`
	Feature   string `json:"feature"`
	Command   string `json:"command,omitempty"`
	Reason    string `json:"reason,omitempty"`
	CreatedAt string `json:"created_at,omitempty"`
	At        string `json:"at,omitempty"`
}

// Path returns the absolute allow.jsonl path of the sprint root.
func Path(root string) string { return filepath.Join(root, filepath.FromSlash(File)) }

// FileName is the allow-once log outside a sprint, in a Claude Code
// settings directory (the project's .claude/, the user's ~/.claude/).
const FileName = "harness-allow.jsonl"

// ProjectPath is the allow-once log of the project in dir (outside a
// sprint): dir/.claude/harness-allow.jsonl.
func ProjectPath(dir string) string { return filepath.Join(dir, ".claude", FileName) }

// UserPath is the user-level allow-once log: home/.claude/harness-allow.jsonl.
func UserPath(home string) string { return filepath.Join(home, ".claude", FileName) }

// Blanks are the characters Normalise removes around a command: the ones
// bash skips before the first word and after the last (space, tab, newline)
// plus the carriage return of a CRLF line. Other Unicode spaces (U+00A0, …)
// are part of a word for bash, so they stay and a command that has them is a
// different command.
const Blanks = " \t\n\r"

// Normalise is the one comparison form of a command, used by `harness allow`
// when it stores an authorisation and by the hook when it consumes one:
// leading and trailing Blanks removed, nothing else changed (inner spacing,
// quoting and case must match exactly). ' rm -rf build', 'rm -rf build ' and
// "rm -rf build\n" all match an authorisation of 'rm -rf build'.
func Normalise(cmd string) string { return strings.Trim(cmd, Blanks) }

func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05Z") }

// Add records a single-use authorisation of Normalise(cmd) for feature with
// reason and returns it. feature, the normalised cmd and reason must be
// non-empty; the normalised cmd must be one line.
func Add(root, feature, cmd, reason string) (Entry, error) {
	if strings.TrimSpace(feature) == "" {
		return Entry{}, errors.New("allowonce: feature is required")
	}
	return AddFile(Path(root), feature, cmd, reason)
}

// AddFile is Add on the allow-once log at path; feature may be "" (outside
// a sprint: the authorisation is for any session of the project or user).
func AddFile(path, feature, cmd, reason string) (Entry, error) {
	cmd = Normalise(cmd)
	switch {
	case cmd == "":
		return Entry{}, errors.New("allowonce: command is empty")
	case strings.ContainsAny(cmd, "\n\r"):
		return Entry{}, errors.New("allowonce: command must be a single line")
	case strings.TrimSpace(reason) == "":
		return Entry{}, errors.New("allowonce: reason is required")
	}
	// The id only names the entry (list, revoke); math/rand/v2 is seeded
	// from the OS at process start and keeps crypto/rand's package
	// initialisation off the hook binary, which links this package.
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], rand.Uint64())
	r := record{Type: "allow", ID: "ao-" + hex.EncodeToString(b[:]), Feature: feature, Command: cmd,
		Reason: reason, CreatedAt: now()}
	line, err := json.Marshal(r)
	if err != nil {
		return Entry{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Entry{}, err
	}
	if err := fsutil.AppendLine(path, line); err != nil {
		return Entry{}, err
	}
	return Entry{ID: r.ID, Feature: feature, Command: cmd, Reason: reason, CreatedAt: r.CreatedAt}, nil
}

// List returns every authorisation in file order with its consumed state.
// A missing file is an empty list. Lines that are not valid records are skipped.
func List(root string) ([]Entry, error) { return ListFile(Path(root)) }

// ListFile is List of the allow-once log at path.
func ListFile(path string) ([]Entry, error) {
	data, err := fsutil.ReadRegular(path, fsutil.CapState)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return entries(data), nil
}

func entries(data []byte) []Entry {
	var out []Entry
	idx := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var r record
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.ID == "" {
			continue
		}
		switch r.Type {
		case "allow":
			if _, dup := idx[r.ID]; dup || r.Command == "" {
				continue
			}
			idx[r.ID] = len(out)
			out = append(out, Entry{ID: r.ID, Feature: r.Feature, Command: r.Command, Reason: r.Reason, CreatedAt: r.CreatedAt})
		case "consume":
			if i, ok := idx[r.ID]; ok && !out[i].Consumed {
				out[i].Consumed, out[i].ConsumedAt = true, r.At
			}
		}
	}
	return out
}

// Consume uses the oldest unconsumed authorisation for feature whose
// command equals cmd after Normalise on both sides, if there is one: it appends the consume line and returns ok=true
// with the authorisation's reason. The check and the append happen under the
// file's lock, so one authorisation is consumed exactly once. No file, no
// feature, or no match → ok=false, err=nil (nothing is written).
func Consume(root, feature, cmd string) (ok bool, reason string, err error) {
	if feature == "" {
		return false, "", nil
	}
	return ConsumeFile(Path(root), feature, cmd)
}

// ConsumeFile is Consume on the allow-once log at p: it uses the oldest
// open authorisation whose feature equals feature ("" outside a sprint)
// and whose command matches.
func ConsumeFile(p, feature, cmd string) (ok bool, reason string, err error) {
	cmd = Normalise(cmd)
	if cmd == "" {
		return false, "", nil
	}
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return false, "", nil
	}
	unlock, err := fsutil.Lock(p)
	if err != nil {
		return false, "", err
	}
	defer unlock()
	data, err := fsutil.ReadRegular(p, fsutil.CapState) // a FIFO would hang the hook (fail-open)
	if err != nil {
		return false, "", err
	}
	for _, e := range entries(data) {
		if e.Consumed || e.Feature != feature || Normalise(e.Command) != cmd {
			continue
		}
		line, err := json.Marshal(record{Type: "consume", ID: e.ID, Feature: feature, At: now()})
		if err != nil {
			return false, "", err
		}
		if err := fsutil.AppendLineLocked(p, line); err != nil {
			return false, "", fmt.Errorf("allowonce: record consumption: %w", err)
		}
		return true, e.Reason, nil
	}
	return false, "", nil
}
