package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/workspace"
)

// relQuarantine is where internal/ops moves what was planted at a path it
// writes; its content is not checked.
const relQuarantine = ".harness/logs/quarantine"

// filesRules walks .harness/ once and reports, with the fix:
//
//   - files.size-cap: a file over the read cap of its kind
//     (workspace.ReadCap; fsutil.Cap*): every reader refuses it unread, so
//     it counts as unreadable (a sparse `truncate -s 4G session_id.txt`);
//   - layout.not-regular: a directory, FIFO, socket, device or symbolic link
//     where harness keeps a regular file (a state file, a lock sidecar, a
//     log, a record), and any FIFO, socket or device anywhere under
//     .harness/. The five feature records are reported by
//     layout.feature-dir-files instead.
//
// It never opens a file (a FIFO is only stat'ed) and changes nothing.
func (c *checker) filesRules() {
	h := c.ws.H()
	_ = filepath.WalkDir(h, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == h {
			return nil
		}
		rel := c.ws.Rel(p)
		if rel == relQuarantine {
			return fs.SkipDir
		}
		if data, ok := c.overlaid(p); ok {
			if capped := workspace.ReadCap(p); data != nil && int64(len(data)) > capped {
				c.sizeCap(rel, int64(len(data)), capped)
			}
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		typ := d.Type()
		switch {
		case d.IsDir():
			if expectsFile(rel) {
				c.notRegular(rel, fs.ModeDir)
				return fs.SkipDir
			}
		case typ.IsRegular():
			if info, err := d.Info(); err == nil {
				if capped := workspace.ReadCap(p); info.Size() > capped {
					c.sizeCap(rel, info.Size(), capped)
				}
			}
		case typ&fs.ModeSymlink != 0:
			if expectsFile(rel) {
				c.notRegular(rel, typ)
			}
		default:
			if !isFeatureRecord(rel) {
				c.notRegular(rel, typ)
			}
		}
		return nil
	})
}

func (c *checker) sizeCap(rel string, size, capped int64) {
	c.rep.add(Finding{File: rel, Rule: ruleid.FilesSizeCap,
		Message: fmt.Sprintf("%s is %s, over the %s read cap for %s, so every harness reader refuses it unread; truncate it to its real content or remove it (`harness init-feature` recreates a missing feature record)",
			rel, fsutil.Bytes(size), fsutil.Bytes(capped), capKind(capped, rel))})
}

func (c *checker) notRegular(rel string, m fs.FileMode) {
	what := "a regular file is expected there"
	fix := "remove it"
	switch {
	case m.IsDir():
		fix = "remove the directory (rm -r)"
	case m&fs.ModeSymlink != 0:
		fix = "check where it points, put the content back as a regular file and remove the link"
	}
	if !expectsFile(rel) {
		what = "nothing in .harness/ may be one"
	}
	c.rep.add(Finding{File: rel, Rule: ruleid.LayoutNotRegular,
		Message: fmt.Sprintf("%s is a %s; %s, and a reader or lock waiting on it would hang or fail: %s (state-changing harness commands move such an entry to %s/ themselves)",
			rel, typeWord(m), what, fix, relQuarantine)})
}

// capKind names the kind of file a cap belongs to, for messages.
func capKind(capped int64, rel string) string {
	switch {
	case capped == fsutil.CapSmall:
		return "ids and one-line files"
	case strings.HasSuffix(rel, ".md"):
		return "Markdown records"
	case capped == fsutil.CapLog:
		return "a JSON Lines log"
	case capped == fsutil.CapConfig:
		return "configuration files"
	}
	return "JSON state files"
}

func typeWord(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "special file"
}

// expectsFile reports whether harness keeps a regular file at rel (a slash
// path under .harness/): the state files, logs and lock sidecars, the
// feature records and the sprint contract files.
func expectsFile(rel string) bool {
	parts := strings.Split(rel, "/")
	if len(parts) < 2 || parts[0] != ".harness" {
		return false
	}
	name := parts[len(parts)-1]
	switch len(parts) {
	case 2:
		switch name {
		case "feature_list.json", "runtime_state.json", "session_pool.json", "eval_log.jsonl", "hermes_context_state.json",
			"claude_code_context_state.json", ".current_agent", ".current_agent.json", "environment_probe.json", "hermes_handoff.md",
			"rules.yaml", "allow.jsonl":
			return true
		}
		return strings.HasSuffix(name, ".lock")
	case 3:
		return parts[1] == "logs" && (name == "hook.log" || name == "ops.journal" || strings.HasSuffix(name, ".lock"))
	case 4:
		switch parts[1] {
		case "features":
			return isFeatureRecord(rel)
		case "sprint_contracts":
			return name == "contract.json" || name == "tooling.md" || strings.HasSuffix(name, ".lock")
		}
	}
	return false
}

// isFeatureRecord reports .harness/features/<fid>/<record>, the files
// layout.feature-dir-files checks.
func isFeatureRecord(rel string) bool {
	parts := strings.Split(rel, "/")
	if len(parts) != 4 || parts[0] != ".harness" || parts[1] != "features" {
		return false
	}
	switch parts[3] {
	case "context_snapshot.md", "AGENTS.md", "generator_log.md", "handoff.md", "session_id.txt":
		return true
	}
	return false
}

// tooLargeErr reports an error of a read refused by its cap (reported once,
// by filesRules).
func tooLargeErr(err error) bool { return errors.Is(err, fsutil.ErrTooLarge) }
