package scaffold

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Hook registration timeouts in seconds (docs/hooks.md §7, §8).
const (
	preToolUseTimeout = 10
	otherHookTimeout  = 30
)

// featureDoc is the part of feature_list.json init-feature reads. Unknown
// keys are ignored; a field with an unexpected type fails the decode.
type featureDoc struct {
	Sprint   string        `json:"sprint"`
	Features []featureInfo `json:"features"`
}

type featureInfo struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	Title            string   `json:"title"`
	Description      string   `json:"description"`
	Status           string   `json:"status"`
	Phase            int      `json:"phase"`
	ExecutionPath    string   `json:"execution_path"`
	VerificationMode string   `json:"verification_mode"`
	Acceptance       []string `json:"acceptance"`
	DependsOn        []string `json:"depends_on"`
	RetryHint        string   `json:"retry_hint"`
	NextPhases       []struct {
		Phase  int    `json:"phase"`
		Action string `json:"action"`
		Done   bool   `json:"done"`
	} `json:"next_phases"`
	Checkpoints []struct {
		Artifacts []string `json:"artifacts"`
	} `json:"checkpoints"`
}

// FeatureResult says what InitFeature did.
type FeatureResult struct {
	Feature  string   `json:"feature"`
	Sprint   string   `json:"sprint"`
	Dir      string   `json:"dir"`
	HookBin  string   `json:"hook_bin"`
	Created  []string `json:"created"`
	Kept     []string `json:"kept"`
	Settings string   `json:"settings"`
}

// InitFeature performs STEP 3.1–3.2 (docs/protocol.md §4.6) for feature in the
// workspace root with the hook binary hookBin (absolute): it creates
// .harness/features/<feature>/ with context_snapshot.md (rendered from
// feature_list.json), AGENTS.md (spec/AGENTS.md), the generator_log.md title
// block, empty handoff.md and session_id.txt — each only when missing, so a
// re-run keeps the records — and merges .claude/settings.json, replacing
// only the handlers that run harness-hook. A feature id not in
// feature_list.json is a *RefusedError naming the known ids.
func InitFeature(root, feature, hookBin string) (FeatureResult, error) {
	res := FeatureResult{Feature: feature, HookBin: hookBin, Created: []string{}, Kept: []string{}}
	if !workspace.FeatureIDPattern.MatchString(feature) {
		return res, fmt.Errorf("%q is not a feature id (f<number>, e.g. f001)", feature)
	}
	h := filepath.Join(root, ".harness")
	raw, err := fsutil.ReadRegular(filepath.Join(h, "feature_list.json"), 0)
	if err != nil {
		return res, fmt.Errorf("read feature list: %w", err)
	}
	var doc featureDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		return res, fmt.Errorf(".harness/feature_list.json: %w (run harness validate)", err)
	}
	byID := map[string]*featureInfo{}
	var ids []string
	for i := range doc.Features {
		f := &doc.Features[i]
		byID[f.ID] = f
		ids = append(ids, f.ID)
	}
	f, ok := byID[feature]
	if !ok {
		known := "none (feature_list.json has no features yet)"
		if len(ids) > 0 {
			known = strings.Join(ids, ", ")
		}
		return res, &RefusedError{fmt.Sprintf("feature %s is not in .harness/feature_list.json; known ids: %s", feature, known)}
	}
	sprint := doc.Sprint
	if sprint == "" {
		return res, &RefusedError{".harness/feature_list.json has no sprint id"}
	}
	res.Sprint = sprint

	snap, err := contextSnapshot(root, sprint, f, byID)
	if err != nil {
		return res, err
	}
	title, err := render.GeneratorLogTitle(render.GeneratorLog{FeatureID: f.ID, Name: f.Name, Sprint: sprint})
	if err != nil {
		return res, err
	}
	agents, err := fs.ReadFile(harness.Assets(), "spec/AGENTS.md")
	if err != nil {
		return res, fmt.Errorf("embedded spec/AGENTS.md: %w", err)
	}

	fdir := filepath.Join(h, "features", f.ID)
	res.Dir = fdir
	if err := os.MkdirAll(filepath.Join(fdir, ".claude"), 0o755); err != nil {
		return res, err
	}
	// context_snapshot.md and AGENTS.md are Hermes's: written when missing,
	// never changed afterwards (docs/protocol.md §3.11). The Generator's records
	// are created empty and never overwritten.
	for _, w := range []struct {
		name string
		data []byte
	}{
		{"context_snapshot.md", []byte(snap)},
		{"AGENTS.md", agents},
		{"generator_log.md", []byte(title)},
		{"handoff.md", nil},
		{"session_id.txt", nil},
	} {
		p := filepath.Join(fdir, w.name)
		if _, err := os.Lstat(p); err == nil {
			res.Kept = append(res.Kept, w.name)
			continue
		}
		if err := fsutil.WriteFileAtomic(p, w.data, 0o644); err != nil {
			return res, err
		}
		res.Created = append(res.Created, w.name)
	}

	settings := filepath.Join(fdir, ".claude", "settings.json")
	err = fsutil.UpdateFile(settings, 0o644, func(old []byte) ([]byte, error) {
		return MergeSettings(old, hookBin, root, f.ID, sprint)
	})
	if err != nil {
		return res, fmt.Errorf("%s: %w", settings, err)
	}
	res.Settings = settings
	return res, nil
}

// HookBinName is the file name of the hook binary on this OS.
func HookBinName() string {
	if runtime.GOOS == "windows" {
		return "harness-hook.exe"
	}
	return "harness-hook"
}

// ErrNoHookBin is returned by FindHookBin when no harness-hook is found.
var ErrNoHookBin = errors.New("no " + HookBinName() + " found: pass --hook-bin PATH, install it beside harness, or put it on PATH")

// FindHookBin returns the absolute path of harness-hook: explicit (relative
// to cwd), else the file beside the running executable, else the first one on
// env["PATH"].
func FindHookBin(explicit string, env map[string]string, cwd string) (string, error) {
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(cwd, p)
	}
	if explicit != "" {
		p := abs(explicit)
		if err := isExecutable(p); err != nil {
			return "", fmt.Errorf("--hook-bin %s: %w", p, err)
		}
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), HookBinName())
		if isExecutable(p) == nil {
			return p, nil
		}
	}
	for _, dir := range filepath.SplitList(env["PATH"]) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, HookBinName())
		if isExecutable(p) == nil {
			return abs(p), nil
		}
	}
	return "", ErrNoHookBin
}

// isExecutable reports why p cannot be run as the hook (nil when it can).
func isExecutable(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return errors.New("is a directory")
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0 {
		return errors.New("is not executable")
	}
	return nil
}

// HookHandler is THE generator of one harness-hook handler entry
// (docs/hooks.md §7): exec form, command = absolute hook path, args
// naming the event, root, feature and sprint, timeout in seconds. PreToolUse
// handlers also carry "onFailure": "block" (docs/hooks.md §2/§7): a
// hook that cannot start (binary missing, 127), is killed or times out then
// denies the tool call instead of letting it run, which the real CLI 2.1.332
// honours (internal/e2e TestRealClaudeHookFailurePolicy). Other events get
// none: Stop and SubagentStop ignore it, and a failing SessionStart must not
// keep the session from starting. If the real client turns out not to
// honour `args`, only this function changes (to a quoted command line).
func HookHandler(hookBin, event, root, feature, sprint string, timeout int) map[string]any {
	h := map[string]any{
		"type":    "command",
		"command": hookBin,
		"args":    []any{"--event", event, "--root", root, "--feature", feature, "--sprint", sprint},
		"timeout": timeout,
	}
	if event == "PreToolUse" {
		h["onFailure"] = "block"
	}
	return h
}

// hookGroups returns the matcher groups init-feature owns, per event.
func hookGroups(hookBin, root, feature, sprint string) []struct {
	event string
	group map[string]any
} {
	h := func(ev string, t int) []any { return []any{HookHandler(hookBin, ev, root, feature, sprint, t)} }
	return []struct {
		event string
		group map[string]any
	}{
		{"SessionStart", map[string]any{"hooks": h("SessionStart", otherHookTimeout)}},
		{"PreToolUse", map[string]any{"matcher": "Bash", "hooks": h("PreToolUse", preToolUseTimeout)}},
		{"PreToolUse", map[string]any{"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": h("PreToolUse", preToolUseTimeout)}},
		{"Stop", map[string]any{"hooks": h("Stop", otherHookTimeout)}},
		{"SubagentStop", map[string]any{"hooks": h("SubagentStop", otherHookTimeout)}},
	}
}

// IsOurHandler reports whether a settings handler was written by init-feature:
// it runs the same hook binary, or any harness-hook binary with an --event arg.
func IsOurHandler(h any, hookBin string) bool {
	m, ok := h.(map[string]any)
	if !ok {
		return false
	}
	cmd, _ := m["command"].(string)
	if strings.TrimSpace(cmd) == "" {
		return false
	}
	if cmd == hookBin {
		return true
	}
	// Shell form: the program is the first (possibly quoted) word.
	prog := strings.TrimSpace(cmd)
	if q := prog[0]; q == '"' || q == '\'' {
		if i := strings.IndexByte(prog[1:], q); i >= 0 {
			prog = prog[1 : i+1]
		}
	} else if i := strings.IndexAny(prog, " \t"); i >= 0 {
		prog = prog[:i]
	}
	base := strings.ToLower(filepath.Base(filepath.ToSlash(prog)))
	if base != "harness-hook" && base != "harness-hook.exe" {
		return false
	}
	args, _ := m["args"].([]any)
	for _, a := range args {
		if s, _ := a.(string); s == "--event" {
			return true
		}
	}
	return strings.Contains(cmd, "--event")
}

// MergeSettings returns old settings.json content with every handler we own
// replaced by the current wiring. Other top-level keys, other events, other
// matcher groups and other handlers are kept as they were.
func MergeSettings(old []byte, hookBin, root, feature, sprint string) ([]byte, error) {
	doc := map[string]any{}
	if len(bytes.TrimSpace(old)) > 0 {
		if err := json.Unmarshal(old, &doc); err != nil {
			return nil, fmt.Errorf("existing settings are not a JSON object: %w", err)
		}
		if doc == nil {
			return nil, errors.New("existing settings are null, not a JSON object")
		}
	}
	hooks, _ := doc["hooks"].(map[string]any)
	if hooks == nil {
		if v, exists := doc["hooks"]; exists && v != nil {
			return nil, errors.New(`existing "hooks" is not an object`)
		}
		hooks = map[string]any{}
	}
	// Remove our handlers everywhere; drop groups left empty by that.
	for ev, v := range hooks {
		groups, ok := v.([]any)
		if !ok {
			continue
		}
		var kept []any
		for _, g := range groups {
			gm, ok := g.(map[string]any)
			if !ok {
				kept = append(kept, g)
				continue
			}
			hs, ok := gm["hooks"].([]any)
			if !ok {
				kept = append(kept, g)
				continue
			}
			var keepH []any
			for _, h := range hs {
				if !IsOurHandler(h, hookBin) {
					keepH = append(keepH, h)
				}
			}
			if len(keepH) == 0 && len(hs) > 0 {
				continue
			}
			gm["hooks"] = keepH
			kept = append(kept, gm)
		}
		if len(kept) == 0 {
			delete(hooks, ev)
		} else {
			hooks[ev] = kept
		}
	}
	for _, g := range hookGroups(hookBin, root, feature, sprint) {
		groups, _ := hooks[g.event].([]any)
		hooks[g.event] = append(groups, g.group)
	}
	doc["hooks"] = hooks
	return marshalIndent(doc)
}

// contextSnapshot renders context_snapshot.md for f.
func contextSnapshot(root, sprint string, f *featureInfo, byID map[string]*featureInfo) (string, error) {
	phase := f.Phase
	if phase < 1 || phase > 4 {
		phase = 1
	}
	var done []string
	for _, np := range f.NextPhases {
		if np.Done {
			done = append(done, fmt.Sprintf("%d (%s)", np.Phase, workspace.PhaseAction(np.Phase)))
		}
	}
	doneS := "none"
	if len(done) > 0 {
		doneS = strings.Join(done, ", ")
	}
	next := "none (last phase)"
	if phase < 4 {
		next = fmt.Sprintf("%d (%s)", phase+1, workspace.PhaseAction(phase+1))
	}
	vm := f.VerificationMode
	if vm == "" {
		vm = "hybrid"
	}
	ep := f.ExecutionPath
	if ep == "" {
		ep = "generator_cc"
	}
	deps := []render.Dependency{}
	for _, id := range f.DependsOn {
		d := render.Dependency{ID: id, Name: "not in feature_list.json", Status: "unknown"}
		if df, ok := byID[id]; ok {
			d.Name, d.Status = df.Name, df.Status
			d.Artifacts = dependencyArtifacts(root, df)
		}
		deps = append(deps, d)
	}
	return render.ContextSnapshotText(render.ContextSnapshot{
		FeatureID:        f.ID,
		Name:             f.Name,
		Title:            f.Title,
		Description:      f.Description,
		Sprint:           sprint,
		Phase:            phase,
		PhaseAction:      workspace.PhaseAction(phase),
		DonePhases:       doneS,
		NextPhase:        next,
		Acceptance:       f.Acceptance,
		VerificationMode: vm,
		ExecutionPath:    ep,
		ToolingPath:      ".harness/sprint_contracts/" + sprint + "/tooling.md",
		RetryHint:        f.RetryHint,
		Dependencies:     deps,
	})
}

// dependencyArtifacts is the union (in order of first appearance) of a
// feature's checkpoints[].artifacts and the paths listed under `### 产出物`
// in its generator_log.md (docs/protocol.md §3.11).
func dependencyArtifacts(root string, f *featureInfo) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		p = strings.TrimSpace(p)
		if p == "" || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	for _, cp := range f.Checkpoints {
		for _, a := range cp.Artifacts {
			add(a)
		}
	}
	data, err := fsutil.ReadRegular(filepath.Join(root, ".harness", "features", f.ID, "generator_log.md"), 0)
	if err == nil {
		for _, p := range artifactPaths(data) {
			add(p)
		}
	}
	return out
}

var backtickRe = regexp.MustCompile("`([^`\n]+)`")

// artifactPaths extracts the paths listed under every `### 产出物` heading of
// a generator_log: the backticked spans of its list items, or, for an item
// without backticks, its first word when that word looks like a path.
// Fenced code is skipped (records.SplitMarkdown, testdata/sprints/README.md §4).
func artifactPaths(data []byte) []string {
	var out []string
	in := false
	for _, ml := range records.SplitMarkdown(string(data)) {
		if ml.Fenced {
			continue
		}
		line := ml.Text
		if strings.HasPrefix(line, "#") {
			h := strings.TrimSpace(strings.TrimLeft(line, "#"))
			in = strings.HasPrefix(line, "### ") && strings.HasPrefix(h, "产出物")
			continue
		}
		if !in {
			continue
		}
		item := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(item, "- "), strings.HasPrefix(item, "* "):
			item = strings.TrimSpace(item[2:])
		default:
			if k := strings.Index(item, ". "); k > 0 && isDigits(item[:k]) {
				item = strings.TrimSpace(item[k+2:])
			} else {
				continue
			}
		}
		if ms := backtickRe.FindAllStringSubmatch(item, -1); len(ms) > 0 {
			for _, m := range ms {
				out = append(out, m[1])
			}
			continue
		}
		word := item
		if k := strings.IndexAny(word, " \t(（,，"); k >= 0 {
			word = word[:k]
		}
		if strings.ContainsAny(word, "/.") && !strings.HasSuffix(word, "。") {
			out = append(out, word)
		}
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.Atoi(s)
	return err == nil
}
