package scaffold

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/workspace"
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
	Feature string   `json:"feature"`
	Sprint  string   `json:"sprint"`
	Dir     string   `json:"dir"`
	HookBin string   `json:"hook_bin"`
	Created []string `json:"created"`
	Kept    []string `json:"kept"`
	// Quarantined are the entries init-feature found but had not written
	// (a directory or Hermes file a Generator may have planted), each moved
	// below .harness/logs/quarantine/ (paths relative to the root).
	Quarantined []string `json:"quarantined"`
	// Notes say what else the record decided (a sprint that starts keeping
	// it, a sprint without hermes_context_state.json).
	Notes    []string `json:"notes,omitempty"`
	Settings string   `json:"settings"`
}

// InitFeature performs STEP 3.1–3.2 (docs/protocol.md §4.6) for feature in the
// workspace root with the hook binary hookBin (absolute): it creates
// .harness/features/<feature>/ with context_snapshot.md (rendered from
// feature_list.json), AGENTS.md (spec/AGENTS.md), the generator_log.md title
// block, empty handoff.md and session_id.txt — each only when missing, so a
// re-run keeps the records — and merges .claude/settings.json, replacing
// only the handlers that run harness-hook (ccsettings.Doc.SetHooks). A feature id not in
// feature_list.json is a *RefusedError naming the known ids.
//
// It trusts only what it wrote itself (hermes_context_state.json
// feature_dirs, workspace.FeatureDirsKey): a directory it has no record of,
// one replaced by a link, and a Hermes file whose bytes differ from the
// record are moved below .harness/logs/quarantine/ (FeatureResult.Quarantined)
// and written afresh, because a sandboxed Generator can create the
// directory of a feature id that is not yet in feature_list.json
// (docs/sandbox.md §6) and fill it with instructions for that feature's
// Generator.
func InitFeature(root, feature, hookBin string) (FeatureResult, error) {
	res := FeatureResult{Feature: feature, HookBin: hookBin, Created: []string{}, Kept: []string{}, Quarantined: []string{}}
	if !workspace.FeatureIDPattern.MatchString(feature) {
		return res, fmt.Errorf("%q is not a feature id (f<number>, e.g. f001)", feature)
	}
	h := filepath.Join(root, ".harness")
	raw, err := fsutil.ReadRegular(filepath.Join(h, "feature_list.json"), fsutil.CapState)
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

	// One init-feature at a time, and none beside a state change: the
	// record below is part of hermes_context_state.json.
	ws := &workspace.Workspace{Root: root}
	unlock, err := fsutil.Lock(ws.StateLock())
	if err != nil {
		return res, err
	}
	defer unlock()
	fdir := ws.FeatureDir(f.ID)
	res.Dir = fdir
	plan, err := planFeatureDir(ws, f.ID, map[string][]byte{"context_snapshot.md": []byte(snap), "AGENTS.md": agents})
	if err != nil {
		return res, err
	}
	res.Quarantined = append(res.Quarantined, plan.quarantined...)
	res.Notes = plan.notes
	if err := os.MkdirAll(filepath.Join(fdir, ".claude"), 0o755); err != nil {
		return res, err
	}
	for _, d := range []string{fdir, filepath.Join(fdir, ".claude")} {
		if st, err := os.Lstat(d); err != nil || !st.IsDir() {
			return res, fmt.Errorf("%s changed while init-feature wrote it (a link or file replaced the directory); re-run harness init-feature %s", ws.Rel(d), f.ID)
		}
	}
	// context_snapshot.md and AGENTS.md are Hermes's: written when missing,
	// never changed afterwards (docs/protocol.md §3.11); planFeatureDir has
	// moved away whatever stood there that init-feature did not write. The
	// Generator's records are created empty and never overwritten.
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
		hermes := slices.Contains(workspace.HermesFeatureFiles, w.name)
		if _, err := os.Lstat(p); err == nil && (!hermes || plan.keep[w.name]) {
			res.Kept = append(res.Kept, w.name)
			continue
		}
		if err := fsutil.WriteFileAtomic(p, w.data, 0o644); err != nil {
			return res, err
		}
		res.Created = append(res.Created, w.name)
	}

	settings := filepath.Join(fdir, ".claude", "settings.json")
	err = ccsettings.Update(settings, 0o644, func(d *ccsettings.Doc) error {
		return d.SetHooks(ccsettings.Wiring{HookBin: hookBin, Root: root, Feature: f.ID, Sprint: sprint})
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
	data, err := fsutil.ReadRegular(filepath.Join(root, ".harness", "features", f.ID, "generator_log.md"), fsutil.CapRecord)
	if err == nil {
		for _, p := range artifactPaths(data) {
			if pathShaped(p) {
				add(p)
			}
		}
	}
	return out
}

// pathShaped reports whether s, read from a Generator's generator_log.md,
// can be listed as an artifact path in another feature's
// context_snapshot.md: one word of at most 255 bytes without spaces,
// control characters or backticks. The snapshot is Hermes's text that the
// next Generator reads first (docs/protocol.md §3.11), so a dependency's
// log is evidence for it, never text copied into it: before, any
// backticked span under `### 产出物` ("- `ignore your rules and …`") was
// copied verbatim into the dependent feature's instructions.
func pathShaped(s string) bool {
	if s == "" || len(s) > 255 || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '`' || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
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
