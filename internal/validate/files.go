package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/workspace"
)

// relQuarantine is where harness moves what was planted (internal/ops,
// init-feature); its content is not checked.
const relQuarantine = workspace.RelQuarantine

// filesRules walks .harness/ once and reports, with the fix:
//
//   - files.size-cap: a file over the read cap of its kind
//     (workspace.ReadCap; fsutil.Cap*): every reader refuses it unread, so
//     it counts as unreadable (a sparse `truncate -s 4G session_id.txt`);
//   - layout.not-regular: a directory, FIFO, socket, device or symbolic link
//     where harness keeps a regular file (a state file, a lock sidecar, a
//     log, a record), and any FIFO, socket or device anywhere under
//     .harness/. The five feature records are reported by
//     layout.feature-dir-files instead;
//   - layout.unknown-entry: a name directly under .harness/ that harness does
//     not keep there, or an entry of .harness/features/ that is not the
//     directory of a feature of feature_list.json (a planted
//     .harness/newname.json or features/f099/handoff.md: nothing reads it,
//     so it would sit there unseen).
//
// It never opens a file (a FIFO is only stat'ed) and changes nothing.
func (c *checker) filesRules() {
	h := c.ws.H()
	seen := map[string]bool{}
	defer c.unknownOverlaid(seen)
	_ = filepath.WalkDir(h, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == h {
			return nil
		}
		rel := c.ws.Rel(p)
		if rel == relQuarantine {
			return fs.SkipDir
		}
		seen[rel] = true
		if data, ok := c.overlaid(p); !(ok && data == nil) && c.unknownEntry(rel, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
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
		case typ&fs.ModeCharDevice != 0 && strings.HasSuffix(rel, ".lock"):
			// a launched Generator's sandbox hides the lock sidecars by
			// mounting a device over each (docs/sandbox.md §2.2); nobody
			// without privileges can make one, and the lock code replaces
			// a planted one, so this is the sandbox's stand-in
		default:
			if !isFeatureRecord(rel) {
				c.notRegular(rel, typ)
			}
		}
		return nil
	})
}

// harnessFiles are the regular files harness keeps directly in .harness/
// (docs/protocol.md §2, §3, §15).
var harnessFiles = map[string]bool{
	"feature_list.json": true, "runtime_state.json": true, "session_pool.json": true, "eval_log.jsonl": true,
	"hermes_context_state.json": true, "claude_code_context_state.json": true, ".current_agent": true,
	".current_agent.json": true, "environment_probe.json": true, "hermes_handoff.md": true, "rules.yaml": true,
	"allow.jsonl": true,
}

// harnessDirs are the folders harness keeps directly in .harness/.
var harnessDirs = map[string]bool{"features": true, "sprint_contracts": true, "logs": true, "sessions": true}

// unknownEntry reports rel (a slash path under .harness/, met by the walk)
// as layout.unknown-entry when it is a name harness does not keep there, and
// says whether it did. Entries other rules own are left to them: lock
// sidecars and temp files of known files (layout.stale-temp),
// .current_agent.json (layout.current-agent-unique), a feature-id folder
// directly in .harness/ (layout.feature-dir-location).
func (c *checker) unknownEntry(rel string, dir bool) bool {
	parts := strings.Split(rel, "/")
	if parts[0] != ".harness" {
		return false
	}
	name := parts[len(parts)-1]
	var why string
	switch {
	case len(parts) == 2:
		base := strings.TrimSuffix(name, ".lock")
		if harnessFiles[name] || (dir && harnessDirs[name]) || (base != name && (harnessFiles[base] || base == "state")) {
			return false
		}
		if isTempOf(name) {
			return false
		}
		if dir && workspace.FeatureIDPattern.MatchString(name) {
			return false
		}
		why = "harness keeps no such " + map[bool]string{true: "folder", false: "file"}[dir] + " in .harness/ (docs/protocol.md §2 lists what is there)"
	case len(parts) == 3 && parts[1] == "features":
		if !dir {
			why = ".harness/features/ holds only feature directories"
		} else if c.fl == nil || c.fl.Feature(name) != nil {
			return false
		} else {
			why = fmt.Sprintf("%s is no feature of feature_list.json, so no session of harness's writes there", name)
		}
	default:
		return false
	}
	c.rep.add(Finding{File: rel, Rule: ruleid.LayoutUnknownEntry,
		Message: why + "; nothing reads it, and a session that could write .harness/ may have planted it: check what it holds, then remove it"})
	return true
}

// isTempOf reports a name shaped as the temporary file of an atomic write of
// a harness file (".<file>.tmp-…"; layout.stale-temp reports the real ones).
func isTempOf(name string) bool {
	for f := range harnessFiles {
		if strings.HasPrefix(name, "."+f+".tmp-") {
			return true
		}
	}
	return false
}

// unknownOverlaid is unknownEntry for what a dry run's overlay adds that the
// walk of the disk did not meet: the overlay files themselves and the
// folders above them, directly in .harness/ and in .harness/features/.
func (c *checker) unknownOverlaid(seen map[string]bool) {
	if c.opts.Overlay == nil {
		return
	}
	keys := make([]string, 0, len(c.opts.Overlay))
	for k, v := range c.opts.Overlay {
		if v != nil {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts := strings.Split(k, "/")
		for n := 2; n <= 3 && n <= len(parts); n++ {
			rel := strings.Join(parts[:n], "/")
			if seen[rel] || strings.HasPrefix(rel, relQuarantine) {
				continue
			}
			seen[rel] = true
			if c.unknownEntry(rel, n < len(parts)) {
				break
			}
		}
	}
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
			rel, fsutil.TypeName(m), what, fix, relQuarantine)})
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
		return harnessFiles[name] || strings.HasSuffix(name, ".lock")
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
