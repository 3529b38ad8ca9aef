package hook

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/workspace"
)

// contextBudget is the most SessionStart additionalContext the hook emits,
// in UTF-16 code units (so never more Unicode code points). Claude Code cuts
// at 10,000 characters and stores the rest in a file
// (docs/hooks.md §8); the budget leaves headroom for that.
const contextBudget = 9500

// sectionReserve is what each lower-priority section keeps for itself while
// a higher-priority one is sized: enough for its heading, the start of its
// text and the marker naming the file to read.
const sectionReserve = 450

// sessionStart builds the SessionStart additionalContext (feature, sprint,
// root; handoff.md of a resumed session; context_snapshot.md; AGENTS.md;
// tooling.md; the guard rules and how to end a phase) within contextBudget,
// and fills an empty session_id.txt with the payload's session_id
// (testdata/sprints/README.md §7 "What the hook writes"). Outside a workspace it answers {}.
func (r runner) sessionStart(c *call) Output {
	s := c.scope
	c.rec.Sandbox = c.env["HARNESS_SANDBOX"]
	if s.Root == "" {
		c.rec.Reason = "no sprint workspace: nothing injected"
		return Output{}
	}
	ws := &workspace.Workspace{Root: s.Root}
	if s.Feature != "" && c.in.SessionID != "" {
		if wrote, err := fillSessionID(ws, s.Feature, c.in.SessionID); err != nil {
			c.rec.Errors = append(c.rec.Errors, "session_id.txt: "+err.Error())
		} else if wrote {
			c.rec.Path = ws.Rel(ws.SessionIDFile(s.Feature))
		}
	}
	sprint, phase, flErr := featureListInfo(ws, s.Feature)
	if s.Sprint != "" {
		sprint = s.Sprint
	}
	var pre []string
	if flErr != nil {
		pre = append(pre, "feature_list.json: "+flErr.Error())
	}
	text, notes := buildSessionContext(ws, s.Feature, sprint, phase, pre, c.obs.instruct)
	c.rec.Errors = append(c.rec.Errors, notes...)
	c.rec.Reason = fmt.Sprintf("injected %d characters of context", utf16Len(text))
	return encodeSessionStart(text)
}

// fillSessionID writes id into the feature's session_id.txt when the file is
// missing or blank and the feature directory exists (atomic replace);
// wrote reports whether it did.
func fillSessionID(ws *workspace.Workspace, feature, id string) (wrote bool, err error) {
	id = strings.TrimSpace(id)
	if id == "" || strings.ContainsAny(id, "\r\n\x00") {
		return false, fmt.Errorf("session_id %q is not a single line", id)
	}
	if st, err := os.Stat(ws.FeatureDir(feature)); err != nil || !st.IsDir() {
		return false, nil
	}
	path := ws.SessionIDFile(feature)
	old, err := readRegular(path, maxContextFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if strings.TrimSpace(string(old)) != "" {
		return false, nil
	}
	if err := fsutil.WriteFileAtomic(path, []byte(id+"\n"), 0o644); err != nil {
		return false, err
	}
	return true, nil
}

// featureListInfo returns feature_list.json's "sprint" and the feature's
// integer phase (0 when unknown). When the sprint is not there, the single
// folder of .harness/sprint_contracts/ (if there is exactly one) is used.
// err reports a feature_list.json that exists but cannot be read (not a
// regular file, I/O error); a missing or unparsable one is not an error here.
func featureListInfo(ws *workspace.Workspace, feature string) (sprint string, phase int, err error) {
	var fl struct {
		Sprint   string `json:"sprint"`
		Features []struct {
			ID    string          `json:"id"`
			Phase json.RawMessage `json:"phase"`
		} `json:"features"`
	}
	data, rerr := readRegular(ws.FeatureList(), 64<<20)
	if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		err = rerr
	}
	if rerr == nil && json.Unmarshal(data, &fl) == nil {
		if safeFeatureID(fl.Sprint) {
			sprint = fl.Sprint
		}
		for _, f := range fl.Features {
			var p int
			if f.ID == feature && json.Unmarshal(f.Phase, &p) == nil && p >= 1 && p <= 4 {
				phase = p
			}
		}
	}
	if sprint != "" {
		return sprint, phase, err
	}
	ents, derr := os.ReadDir(ws.SprintContractsDir())
	if derr != nil {
		return "", phase, err
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) == 1 {
		return dirs[0], phase, err
	}
	return "", phase, err
}

// ctxSection is one block of the SessionStart context.
type ctxSection struct {
	title string
	// path is where the full text lives (for the truncation marker); for the
	// embedded AGENTS.md it names the embedded copy.
	path string
	body string
	// order is the position in the output; the slice order is the priority.
	order int
}

// buildSessionContext assembles the context. Priority when the budget is
// short: header and guard rules (always whole), handoff.md, context_snapshot.md,
// AGENTS.md, tooling.md; a Reset instruction (reset, when not empty) comes
// first. Each truncated section ends with a marker naming
// the file to read. notes are problems worth logging (pre, then the
// sections' own); those of files that exist but cannot be read (not a
// regular file, I/O error) are also listed at the end of the context, so
// SessionStart degrades visibly instead of failing.
func buildSessionContext(ws *workspace.Workspace, feature, sprint string, phase int, pre []string, reset string) (string, []string) {
	notes := append([]string(nil), pre...)
	unreadable := append([]string(nil), pre...)
	header := sessionHeader(ws, feature, sprint, phase)
	if reset != "" {
		// a Reset trigger on record (after a compaction or on resume):
		// first, so that a preview of a cut context still shows it
		header = reset + "\n\n" + header
	}
	rules := guardRulesText(feature, phase)

	var secs []ctxSection
	if feature != "" {
		if body, ok, err := freshHandoff(ws, feature); ok {
			secs = append(secs, ctxSection{title: "Handoff from the previous session (Reset): continue from here", path: ws.Handoff(feature), body: body, order: 0})
		} else if err != nil {
			notes = append(notes, "handoff.md: "+err.Error())
			unreadable = append(unreadable, "handoff.md: "+err.Error())
		}
		if b, err := readRegular(ws.ContextSnapshot(feature), maxContextFile); err == nil {
			secs = append(secs, ctxSection{title: "Feature context", path: ws.ContextSnapshot(feature), body: string(b), order: 1})
		} else {
			notes = append(notes, "context_snapshot.md: "+err.Error())
			if !errors.Is(err, fs.ErrNotExist) {
				unreadable = append(unreadable, "context_snapshot.md: "+err.Error())
			}
		}
	}
	if title, path, body, ok := agentsText(ws, feature); ok {
		secs = append(secs, ctxSection{title: title, path: path, body: body, order: 2})
	} else {
		notes = append(notes, "AGENTS.md: no feature copy, no spec/AGENTS.md, no embedded copy")
	}
	if sprint != "" {
		if b, err := readRegular(ws.Tooling(sprint), maxContextFile); err == nil {
			secs = append(secs, ctxSection{title: "Sprint tooling decisions", path: ws.Tooling(sprint), body: string(b), order: 3})
		} else {
			notes = append(notes, "tooling.md: "+err.Error())
			if !errors.Is(err, fs.ErrNotExist) {
				unreadable = append(unreadable, "tooling.md: "+err.Error())
			}
		}
	}
	if len(unreadable) > 0 {
		left := "## Left out: workspace files that exist but cannot be read\n- " + strings.Join(unreadable, "\n- ") + "\n"
		rules += "\n" + cutUTF16(left, 600)
	}

	fixed := utf16Len(header) + utf16Len(rules) + 2
	remaining := contextBudget - fixed
	rendered := make([]string, 4)
	for i, s := range secs {
		later := len(secs) - i - 1
		allow := remaining - later*sectionReserve
		if allow < sectionReserve {
			allow = sectionReserve
		}
		if allow > remaining {
			allow = remaining
		}
		txt := renderSection(s, ws, allow)
		remaining -= utf16Len(txt) + 1
		rendered[s.order] = txt
	}
	parts := []string{header}
	for _, t := range rendered {
		if t != "" {
			parts = append(parts, t)
		}
	}
	parts = append(parts, rules)
	return strings.Join(parts, "\n"), notes
}

// renderSection renders s in at most limit UTF-16 units (0 or less: nothing).
func renderSection(s ctxSection, ws *workspace.Workspace, limit int) string {
	if limit <= 0 {
		return ""
	}
	path := s.path
	if filepath.IsAbs(path) {
		path = ws.Rel(path)
	}
	head := fmt.Sprintf("## %s (%s)\n", s.title, path)
	body := strings.TrimSpace(s.body) + "\n"
	if utf16Len(head)+utf16Len(body) <= limit {
		return head + body
	}
	full := s.path
	marker := func(rest int) string {
		return fmt.Sprintf("\n[… truncated: %d more characters; read the rest in %s]\n", rest, full)
	}
	room := limit - utf16Len(head) - utf16Len(marker(utf16Len(body)))
	if room <= 0 {
		return head + strings.TrimPrefix(marker(utf16Len(body)), "\n")
	}
	cut := cutUTF16(body, room)
	// Prefer to cut at a line end when one is close.
	if i := strings.LastIndexByte(cut, '\n'); i > 0 && utf16Len(cut[i:]) < 300 {
		cut = cut[:i]
	}
	return head + cut + marker(utf16Len(body)-utf16Len(cut))
}

// sessionHeader names the feature, sprint and root.
func sessionHeader(ws *workspace.Workspace, feature, sprint string, phase int) string {
	var b strings.Builder
	b.WriteString("# superAgent harness session\n")
	if feature != "" {
		fmt.Fprintf(&b, "Feature: %s (your directory: %s/)\n", feature, ws.Rel(ws.FeatureDir(feature)))
		if phase > 0 {
			fmt.Fprintf(&b, "Current phase: phase=%d (%s)\n", phase, cmp.Or(workspace.PhaseAction(phase), "<action>"))
		}
	} else {
		b.WriteString("Feature: none set (no --feature / FEATURE_ID): every feature directory counts as another feature's.\n")
	}
	if sprint != "" {
		fmt.Fprintf(&b, "Sprint: %s\n", sprint)
	}
	fmt.Fprintf(&b, "Sprint root (HARNESS_ROOT): %s\n", ws.Root)
	return b.String()
}

// guardRulesText says what harness-hook enforces and how a phase ends
// (testdata/corpus/README.md §2.4, §3.2; testdata/sprints/README.md §7).
func guardRulesText(feature string, phase int) string {
	f := feature
	if f == "" {
		f = "<feature>"
	}
	p, action := "P", "<plan|implement|verify|deliver>"
	if phase > 0 {
		p, action = fmt.Sprint(phase), cmp.Or(workspace.PhaseAction(phase), "<action>")
	}
	return fmt.Sprintf(`## What harness-hook enforces on every tool call
- Read-only: schemas/, templates/, spec/, protocols/, sub-skills/, SKILL.md, the root README.md, the sprint contract.json, .claude/settings*.json, every feature's .claude/, and Hermes's state files (.harness/runtime_state.json, session_pool.json, feature_list.json, hermes_*, .current_agent, rules.yaml, allow.jsonl, logs/).
- Only your own feature directory (.harness/features/%[1]s/) is writable; other features' directories are not.
- .harness/eval_log.jsonl is append-only: use `+"`harness eval append`"+`. generator_log.md is append-only: add one section per phase, never rewrite old ones. tooling.md: append only under "## 6. 运行时新增".
- Bash: destructive commands are refused (rm -rf, sudo, git push --force, git reset --hard, git clean -f, history rewrites, chmod 777, dd/mkfs, fork bombs, production access), and so are Bash writes to the protected paths above. A refusal names its rule id and the allowed way forward; risky commands (publish, push, external DELETE/PUT) are allowed with a warning.
## How to end a phase
1. Append `+"`## phase=%[2]s %[3]s — <UTC timestamp>`"+` to .harness/features/%[1]s/generator_log.md: what you did, `+"`### 关键决策`"+`, artifacts, problems (at least 100 bytes).
2. Record the verdict: `+"`harness eval append --feature %[1]s --phase %[2]s --event phase_evaluation --result pass --reason '<concrete reason, ≥ 20 bytes>'`"+`.
3. Run `+"`harness phase complete %[1]s`"+`. Stopping is refused until these records exist.
If your context is nearly exhausted (Reset), write .harness/features/%[1]s/handoff.md (more than 50 bytes) and stop within 5 minutes.
`, f, p, action)
}

// agentsText returns the Generator rules: the feature's AGENTS.md, else
// <root>/spec/AGENTS.md, else the embedded spec/AGENTS.md.
func agentsText(ws *workspace.Workspace, feature string) (title, path, body string, ok bool) {
	if feature != "" {
		p := ws.FeatureAgents(feature)
		if b, err := readRegular(p, maxContextFile); err == nil && strings.TrimSpace(string(b)) != "" {
			return "Generator rules", p, string(b), true
		}
	}
	p := ws.Path("spec", "AGENTS.md")
	if b, err := readRegular(p, maxContextFile); err == nil && strings.TrimSpace(string(b)) != "" {
		return "Generator rules", p, string(b), true
	}
	if b, err := fs.ReadFile(harness.Assets(), "spec/AGENTS.md"); err == nil && strings.TrimSpace(string(b)) != "" {
		return "Generator rules", "spec/AGENTS.md (embedded in harness)", string(b), true
	}
	return "", "", "", false
}

// freshHandoff returns handoff.md when a resumed session must read it: the
// file is not blank and its mtime is later than the feature's last phase
// section (heading timestamp) in generator_log.md and than the session
// start recorded in session_pool.json. A handoff already acted on (a phase
// section or a new session came after it) is not injected again
// (docs/protocol.md §8.1 step 6). err reports a handoff.md that exists but
// cannot be read (not a regular file, I/O error).
func freshHandoff(ws *workspace.Workspace, feature string) (body string, ok bool, err error) {
	f, st, err := fsutil.OpenRecord(ws.Handoff(feature))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxContextFile))
	f.Close()
	if err != nil {
		return "", false, err
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", false, nil
	}
	mt := st.ModTime()
	if gl, err := fsutil.ReadRecord(ws.GeneratorLog(feature), 64<<20); err == nil {
		for _, s := range records.ParseGeneratorLog(string(gl)).Sections {
			if s.HasTimestamp && !mt.After(s.Timestamp) {
				return "", false, nil
			}
		}
	}
	if started, ok := sessionStartedAt(ws, feature); ok && !mt.After(started) {
		return "", false, nil
	}
	return string(b), true, nil
}

// sessionStartedAt reads session_pool.active.<feature>.started_at.
func sessionStartedAt(ws *workspace.Workspace, feature string) (time.Time, bool) {
	var pool struct {
		Active map[string]struct {
			StartedAt string `json:"started_at"`
		} `json:"active"`
	}
	data, err := readRegular(ws.SessionPool(), 64<<20)
	if err != nil || json.Unmarshal(data, &pool) != nil {
		return time.Time{}, false
	}
	e, ok := pool.Active[feature]
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, e.StartedAt)
	return t, err == nil
}

// utf16Len is the length of s in UTF-16 code units, which is how Claude Code
// (JavaScript) most likely counts; it is never less than the code points.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// cutUTF16 returns the longest prefix of s (at a code point boundary) of at
// most n UTF-16 units.
func cutUTF16(s string, n int) string {
	used := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if used+w > n {
			return s[:i]
		}
		used += w
	}
	return s
}
