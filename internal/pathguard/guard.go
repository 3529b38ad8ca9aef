// Package pathguard is the protected-path policy of the sprint workspace
// (testdata/corpus/README.md §3): it resolves a target path lexically and physically
// (§3.1), matches it against the rules table (§3.2) and decides whether an
// Edit/Write/MultiEdit/NotebookEdit call or the write targets of one Bash
// invocation (§3.3) may go through.
//
// The guard reads no state file (§3.4): only a target tooling.md (for the
// section-6 rule, as it is before the call) and a diff file named on a
// patch/git apply command line. It looks at the file system only to resolve
// symlinks (Lstat/Readlink, below the root when the target is inside it) and
// to tell whether a path is a directory.
package pathguard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// Guard judges writes in one sprint workspace for one running feature. It
// holds no mutable state and is safe for concurrent use.
type Guard struct {
	rootLex  string // cleaned absolute root as given
	rootPhys string // root with symlinks resolved (realpath), once
	feature  string // running feature id; "" = no Generator feature
	homeDir  string // expansion of a leading "~" in Bash targets; "" = unknown
	rules    [numRules]Rule
	// links are the symbolic links the judged Bash command creates (set
	// only on the copy ForCommand returns, never changed afterwards).
	links map[string]overlayEntry
	// wiring are the hook wiring files outside the root (WithHome,
	// WithClaudeConfigDir, WithHookExecutable); hookExe is the executable.
	wiring  []wiringFile
	hookExe string
	// settingsDirs are the Claude Code settings directories outside the
	// root whose settings*.json wire the hooks (~/.claude,
	// $CLAUDE_CONFIG_DIR, $CLAUDE_PROJECT_DIR/.claude).
	settingsDirs []wiringFile
	// configDir ($CLAUDE_CONFIG_DIR) and projectDir ($CLAUDE_PROJECT_DIR)
	// are the session's Claude Code directories ("" = not set), read by
	// the claude_config rule (claudeconfig.go).
	configDir, projectDir string
	// sessionCwd is the payload's cwd of the Bash command being judged
	// (set by ForCommand in a Generator session; "" otherwise).
	sessionCwd string
	// lazyExe is the executable of WithHookExecutableFunc, looked up on
	// first need; nil when not set.
	lazyExe func() lazyExecutable
	// plain marks the guard of a session outside any sprint workspace
	// (NewPlain): only the hook wiring is judged.
	plain bool
}

// WithHome returns a copy of g that expands a leading "~" in Bash targets
// to dir (the hook passes HOME from its environment; testdata/corpus/
// README.md §9.4). Without it "~/x" is judged as written, which never lies
// inside an absolute root. An absolute dir also protects the user-level
// Claude Code settings dir/.claude/settings*.json (rule path.hook-wiring:
// a disableAllHooks there turns every hook off for later sessions) and, in
// a Generator session, the execution channels below dir/.claude and
// dir/.claude.json (rule path.claude-config).
func (g *Guard) WithHome(dir string) *Guard {
	if dir == "" {
		n := *g
		return &n
	}
	n := g.withSettingsDir(filepath.Join(dir, ".claude"))
	n.homeDir = filepath.Clean(dir)
	return n
}

// New returns the guard for the sprint root and the running feature id
// (FEATURE_ID / --feature; "" when no feature runs, so every
// `.harness/features/<dir>/` is another feature's, testdata/corpus/README.md §3.0).
// The root is made absolute and cleaned (its lexical form) and resolved
// with filepath.EvalSymlinks once (its physical form; a root that does not
// exist yet is resolved as far as it exists). It fails only on an empty root
// or one that cannot be made absolute.
func New(root, feature string) (*Guard, error) {
	if strings.TrimSpace(root) == "" {
		return nil, errors.New("pathguard: empty sprint root")
	}
	lex, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("pathguard: sprint root %q: %w", root, err)
	}
	phys, err := filepath.EvalSymlinks(lex)
	if err != nil {
		phys, _ = physicalFrom(filepath.VolumeName(lex)+string(filepath.Separator), lex[len(filepath.VolumeName(lex)):])
	}
	return &Guard{rootLex: lex, rootPhys: filepath.Clean(phys), feature: feature, rules: Rules()}, nil
}

// Root returns the lexical form of the sprint root.
func (g *Guard) Root() string { return g.rootLex }

// RootPhysical returns the symlink-resolved form of the sprint root.
func (g *Guard) RootPhysical() string { return g.rootPhys }

// Feature returns the running feature id ("" when none).
func (g *Guard) Feature() string { return g.feature }

// op is what a tool call or command does to a target.
type op int

const (
	opEdit     op = iota // Edit / MultiEdit: string replacement in an existing file
	opNotebook           // NotebookEdit
	opWrite              // Write tool; Bash overwrite, create, modify in place, truncate
	opAppend             // `>>`, tee -a, append-mode opens
	opDelete             // rm, unlink, rmdir, mv source (a single entry)
	opTree               // rm -r, mv of a directory, find -delete, formatters on a dir, xargs/find -exec over a listing
	opSpecial            // create a FIFO, socket, device node or link (mkfifo, mknod, ln, socat UNIX-LISTEN)
	opMkdir              // create a directory (mkdir, install -d)
	opLock               // take a lock on a file (flock FILE)
)

func (o op) verb() string {
	switch o {
	case opEdit:
		return "edit"
	case opNotebook:
		return "notebook edit"
	case opAppend:
		return "append to"
	case opDelete:
		return "delete or move"
	case opTree:
		return "delete, move or rewrite everything under"
	case opSpecial:
		return "create a FIFO, socket, device node or link at"
	case opMkdir:
		return "create the directory"
	case opLock:
		return "take a lock on"
	default:
		return "write"
	}
}

// Section6Heading is the start of the tooling.md line after which the
// Generator may add lines (testdata/corpus/README.md §3.2 tooling row).
const Section6Heading = "## 6. 运行时新增"

// maxToolingSize bounds how much of tooling.md is read.
const maxToolingSize = 4 << 20

// CheckTool decides an Edit, Write, MultiEdit or NotebookEdit call
// (Claude Code PreToolUse tool_name and tool_input; Edit {file_path,
// old_string, new_string[, replace_all]}, Write {file_path, content},
// MultiEdit {file_path, edits[{old_string, new_string[, replace_all]}]},
// NotebookEdit {notebook_path, …}). A relative path is joined to cwd (the
// payload's cwd; the root when cwd is empty). Returns Block with a path.* rule when the target is
// protected (testdata/corpus/README.md §3.2); Block with rule "path.bad-input" when the
// tool is not one of the four or tool_input lacks its path (a guard that
// cannot decide never allows silently); Allow otherwise.
func (g *Guard) CheckTool(tool string, toolInput json.RawMessage, cwd string) verdict.Decision {
	var in struct {
		FilePath     *string `json:"file_path"`
		NotebookPath *string `json:"notebook_path"`
		OldString    *string `json:"old_string"`
		ReplaceAll   bool    `json:"replace_all"`
		Edits        []struct {
			OldString  *string `json:"old_string"`
			ReplaceAll bool    `json:"replace_all"`
		} `json:"edits"`
	}
	if err := json.Unmarshal(toolInput, &in); err != nil {
		return badInput(tool, "tool_input is not a JSON object: "+err.Error())
	}
	if err := checkKeys(toolInput); err != nil {
		return badInput(tool, "ambiguous tool_input: "+err.Error())
	}
	var path *string
	var o op
	switch tool {
	case "Edit", "MultiEdit":
		path, o = in.FilePath, opEdit
	case "Write":
		path, o = in.FilePath, opWrite
	case "NotebookEdit":
		path, o = in.NotebookPath, opNotebook
	default:
		return badInput(tool, "the path guard judges only Edit, Write, MultiEdit and NotebookEdit")
	}
	field := "file_path"
	if tool == "NotebookEdit" {
		field = "notebook_path"
	}
	if path == nil || *path == "" {
		return badInput(tool, "tool_input has no "+field)
	}
	var edits []edit
	switch tool {
	case "Edit":
		if in.OldString == nil {
			return badInput(tool, "tool_input has no old_string")
		}
		edits = []edit{{old: *in.OldString, all: in.ReplaceAll}}
	case "MultiEdit":
		if len(in.Edits) == 0 {
			return badInput(tool, "tool_input has no edits")
		}
		for i, e := range in.Edits {
			if e.OldString == nil {
				return badInput(tool, fmt.Sprintf("edits[%d] has no old_string", i))
			}
			edits = append(edits, edit{old: *e.OldString, all: e.ReplaceAll})
		}
	}
	if cwd == "" {
		cwd = g.rootLex // a payload without cwd: relative paths are judged from the root
	}
	p := g.home(*path)
	if pc, ok := procCwd(shell.Word{Value: p, Known: true}, cwd); ok {
		// /proc/self/cwd/… names the working directory of the process that
		// writes: Claude Code's, the session's cwd (another pid's is not
		// known better: judged the same way, as for Bash)
		p = pc
	}
	t := g.resolve(cwd, p)
	t.given = *path
	d := g.judge(t, o, tool, edits)
	if alt, ok := backslashSeparated(p); ok && d.Action != verdict.Block {
		at := g.resolve(cwd, alt)
		at.given = *path
		if ad := g.judge(at, o, tool, edits); ad.Action == verdict.Block {
			return backslashReading(ad)
		}
	}
	return d
}

// edit is one old_string of an Edit/MultiEdit call.
type edit struct {
	old string
	all bool
}

func badInput(tool, cause string) verdict.Decision {
	return verdict.Decision{
		Action:  verdict.Block,
		Rule:    ruleid.PathBadInput,
		Family:  "bad_input",
		Message: fmt.Sprintf("path guard cannot judge this %s call: %s", tool, cause),
		Hint:    "send the tool call with the fields Claude Code defines for it",
		Subject: tool,
	}
}

// judge decides one target for one operation. tool names the operation in
// messages; edits are the Edit/MultiEdit old_strings (tooling section-6 rule).
func (g *Guard) judge(t target, o op, tool string, edits []edit) verdict.Decision {
	if len(g.wiring) > 0 || len(g.settingsDirs) > 0 || g.lazyExe != nil {
		if d, ok := g.judgeWiring(t, o, tool); ok {
			return d
		}
	}
	if g.plain {
		return verdict.Decision{} // no sprint: nothing else is protected
	}
	if !t.linked {
		if d, ok := g.judgeHardLink(t, o, tool, edits); ok {
			return d
		}
	}
	ms, inside := g.classify(t)
	if t.loop && inside {
		return g.block(unresolvableRule(), t, o, tool, "", "")
	}
	for _, m := range ms {
		if m.idx == idxNone {
			continue
		}
		r := g.rules[m.idx]
		switch m.idx {
		case idxEvalLog:
			// In a Generator session only `harness eval append` writes the
			// log, appends included (testdata/corpus/README.md §9.4).
			if o == opAppend && g.feature == "" {
				continue
			}
			if o == opAppend {
				return g.block(r, t, o, tool, m.rel, "a Generator records verdicts only with `harness eval append`, never by appending itself")
			}
		case idxGeneratorLog:
			if o == opAppend || o == opEdit {
				continue
			}
		case idxTooling:
			switch o {
			case opAppend:
				ok, why := hasSection6(t.phys)
				if ok {
					continue
				}
				return g.block(r, t, o, tool, m.rel, why)
			case opEdit:
				ok, why := editsAfterSection6(t.phys, edits)
				if ok {
					continue
				}
				return g.block(r, t, o, tool, m.rel, why)
			}
		}
		return g.block(r, t, o, tool, m.rel, "")
	}
	if o == opTree {
		for _, m := range ms {
			if m.rel != "" && m.idx == idxNone && g.isAncestor(m.rel, m.abs) {
				return g.block(AncestorRule(), t, o, tool, m.rel, "")
			}
		}
		if g.aboveRoot(t.lex) || g.aboveRoot(t.phys) {
			return g.block(AncestorRule(), t, o, tool, ".", "the sprint root lies below it")
		}
	}
	if d, ok := g.judgePlanting(ms, t, o, tool); ok {
		return d
	}
	if d, ok := g.judgeClaudeConfig(t, o, tool); ok {
		return d
	}
	if d, ok := g.judgeGitConfig(t, o, tool); ok {
		return d
	}
	return verdict.Decision{}
}

// block builds the Block decision for rule r on target t.
func (g *Guard) block(r Rule, t target, o op, tool, rel, why string) verdict.Decision {
	subject := rel
	if subject == "" || subject == "." {
		subject = t.given
	}
	var b strings.Builder
	fmt.Fprintf(&b, "path guard: %s may not %s %s", tool, o.verb(), subject)
	if t.given != "" && t.given != subject {
		fmt.Fprintf(&b, " (named %q)", t.given)
	}
	b.WriteString(": ")
	b.WriteString(r.Message)
	if why != "" {
		b.WriteString(" (")
		b.WriteString(why)
		b.WriteString(")")
	}
	hint := r.Hint
	if r.ID == ruleid.PathOtherFeature && g.feature != "" {
		hint = "write under your own feature directory .harness/features/" + g.feature + "/ (exact id)"
	}
	if r.ID == ruleid.PathStateViaCli && g.feature != "" {
		hint = "end the phase with `harness phase complete " + g.feature + "`"
	}
	// An unknown name (a variable the guard cannot expand) shows as "*".
	msg := strings.ReplaceAll(b.String(), "\x01unknown", "*")
	subject = strings.ReplaceAll(subject, "\x01unknown", "*")
	return verdict.Decision{
		Action:  verdict.Block,
		Rule:    r.ID,
		Family:  r.Family,
		Message: msg,
		Hint:    hint,
		Subject: subject,
	}
}

// readTooling reads the tooling.md at p as it is now (at most 4 MiB).
func readTooling(p string) ([]byte, error) {
	f, _, err := fsutil.OpenRegular(p) // a FIFO would hang PreToolUse (fail-open)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxToolingSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxToolingSize {
		return nil, errors.New("tooling.md is larger than 4 MiB")
	}
	return b, nil
}

// section6End returns the offset just past the section-6 heading line of
// content, or -1 when no line begins with Section6Heading.
func section6End(content []byte) int {
	h := []byte(Section6Heading)
	for off := 0; off <= len(content); {
		line := content[off:]
		nl := bytes.IndexByte(line, '\n')
		if nl >= 0 {
			line = line[:nl]
		}
		if bytes.HasPrefix(line, h) {
			if nl < 0 {
				return len(content)
			}
			return off + nl + 1
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	return -1
}

// hasSection6 reports whether the tooling.md at p has the section-6 heading
// (a missing file has none).
func hasSection6(p string) (bool, string) {
	content, err := readTooling(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false, "tooling.md does not exist, so it has no `" + Section6Heading + "` heading to append below"
		}
		return false, "tooling.md cannot be read: " + err.Error()
	}
	if section6End(content) < 0 {
		return false, "tooling.md has no line beginning `" + Section6Heading + "`"
	}
	return true, ""
}

// editsAfterSection6 checks every old_string against the file as it is now
// (MultiEdit: each against the original file): it must occur, and its first
// occurrence (every occurrence with replace_all) must start after the
// section-6 heading line.
func editsAfterSection6(p string, edits []edit) (bool, string) {
	content, err := readTooling(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false, "tooling.md does not exist"
		}
		return false, "tooling.md cannot be read: " + err.Error()
	}
	end := section6End(content)
	if end < 0 {
		return false, "tooling.md has no line beginning `" + Section6Heading + "`"
	}
	for i, e := range edits {
		if e.old == "" {
			return false, fmt.Sprintf("edit %d has an empty old_string", i+1)
		}
		old := []byte(e.old)
		at := bytes.Index(content, old)
		if at < 0 {
			return false, fmt.Sprintf("old_string %q does not occur in tooling.md as it is now", clip(e.old))
		}
		for at >= 0 {
			if at < end {
				return false, fmt.Sprintf("old_string %q occurs before or in the `%s` heading line", clip(e.old), Section6Heading)
			}
			if !e.all {
				break
			}
			next := bytes.Index(content[at+len(old):], old)
			if next < 0 {
				break
			}
			at += len(old) + next
		}
	}
	return true, ""
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
