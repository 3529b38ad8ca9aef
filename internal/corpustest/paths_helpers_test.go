package corpustest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// pathCorpusRoot is the sprint root as the corpus writes it (testdata/corpus/README.md §3.0).
// pathCorpusHome is the home directory the red-team cases write
// ("/home/user/.claude/…"); the root lies below it as in the corpus text.
const (
	pathCorpusRoot = "/home/user/work/sprint_20260421_1"
	pathCorpusHome = "/home/user"
)

// Labelled path case files below testdata/ (testdata/corpus/README.md §4 schema).
const (
	sharedPathsFile  = "corpus/paths.jsonl"
	redteamPathsFile = "redteam/paths.jsonl"
)

// pathCase is one line of a paths.jsonl file (testdata/corpus/README.md §4; the red-team
// fields source, feature, env and reason_contains are described in
// testdata/redteam/README.md).
type pathCase struct {
	ID          string          `json:"id"`
	Tool        string          `json:"tool"`
	ToolInput   json.RawMessage `json:"tool_input"`
	Cwd         string          `json:"cwd"`
	Expect      string          `json:"expect"`
	Rule        string          `json:"rule"`
	Kind        string          `json:"kind"`
	Why         string          `json:"why"`
	Source      string          `json:"source"`
	Setup       string          `json:"setup"`
	FileContent *string         `json:"file_content"`
	HarnessRoot string          `json:"harness_root"`
	// Env holds extra session variables (CLAUDE_CONFIG_DIR), prefix substituted.
	Env map[string]string `json:"env"`
	// ReasonContains must occur in the reason of a block.
	ReasonContains string `json:"reason_contains"`
	// noFeature is true when the line has "feature": null: the case runs
	// outside a Generator session (no FEATURE_ID).
	noFeature bool
}

// loadPathCases reads one JSON-lines path case file below testdata/.
func loadPathCases(t testing.TB, file string) []pathCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", filepath.FromSlash(file)))
	if err != nil {
		t.Fatalf("open corpus: %v", err)
	}
	defer f.Close()
	var cases []pathCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c pathCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("corpus line %q: %v", line[:min(len(line), 40)], err)
		}
		var raw map[string]json.RawMessage
		_ = json.Unmarshal([]byte(line), &raw)
		if v, ok := raw["feature"]; ok && string(v) == "null" {
			c.noFeature = true
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

const pathSkeletonTooling = "# Sprint Tooling Decisions\n\n## 5. 全局约束\n\n- 备注:TBD\n\n## 6. 运行时新增(feature 执行中引入的工具)\n\n- TBD\n"

// makePathSkeleton creates the testdata/corpus/README.md §5 step 1 skeleton and returns the
// fresh temporary directory tmp, the home directory tmp/home/user and the
// root tmp/home/user/work/sprint_20260421_1 (a fresh parent, as §5 asks,
// below the home that the corpus prefix names).
func makePathSkeleton(t testing.TB) (tmp, home, root string) {
	t.Helper()
	tmp = t.TempDir()
	home = filepath.Join(tmp, "home", "user")
	root = filepath.Join(home, "work", "sprint_20260421_1")
	dirs := []string{"schemas", "templates", "spec/guides", "protocols", "sub-skills", "src", "research", "docs", "build",
		".claude", ".harness/logs", ".harness/checkpoints", ".harness/sprint_contracts/sprint_20260421_1",
		".harness/sprint_contracts/sprint_20260301_2", ".harness/features/f001", ".harness/features/f002",
		".harness/features/f002/.claude", ".harness/features/f003"}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{"SKILL.md", "README.md", "schemas/feature_list.schema.json", "spec/index.md", "protocols/yolo.md",
		".harness/runtime_state.json", ".harness/hermes_handoff.md", ".harness/hermes_context_state.json",
		".harness/session_pool.json", ".harness/.current_agent", ".harness/eval_log.jsonl", ".harness/feature_list.json",
		".harness/rules.yaml", ".harness/allow.jsonl", ".harness/logs/hook.log", ".claude/settings.json",
		".harness/features/f002/.claude/settings.json", ".harness/sprint_contracts/sprint_20260421_1/contract.json",
		".harness/features/f001/handoff.md", ".harness/features/f001/generator_log.md", ".harness/features/f002/handoff.md",
		".harness/features/f002/generator_log.md", "src/app.go", "research/notes.md"}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(f)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tooling := filepath.Join(root, ".harness", "sprint_contracts", "sprint_20260421_1", "tooling.md")
	if err := os.WriteFile(tooling, []byte(pathSkeletonTooling), 0o644); err != nil {
		t.Fatal(err)
	}
	return tmp, home, root
}

// pathSubstitute replaces the corpus prefix in s (testdata/corpus/README.md §5 step 2). The
// root sits at home+"/work/sprint_20260421_1", so replacing "/home/user" by
// home maps the root prefix exactly as §5 says and the red-team cases'
// "/home/user/.claude/…" to the hook's HOME. Every other path starting with
// "/home/" (an ancestor of the root above HOME, such as /home/.claude/, or
// another user's home) is mapped below H's parent T/home the same way, so
// the tree keeps the shape the corpus text describes; a "/home/" inside a
// longer name (/tmp/home/) is kept.
func pathSubstitute(s, home string) string {
	const homes = "/home/"
	if !strings.Contains(s, homes) {
		return s
	}
	parent := filepath.Dir(home) + "/"
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], pathCorpusHome):
			b.WriteString(home)
			i += len(pathCorpusHome)
		case strings.HasPrefix(s[i:], homes) && (i == 0 || !isNameByte(s[i-1])):
			b.WriteString(parent)
			i += len(homes)
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// isNameByte reports whether c can be part of a file name before a "/".
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// pathSubstituteJSON replaces the prefix in every string of a JSON value.
func pathSubstituteJSON(t testing.TB, raw json.RawMessage, root string) json.RawMessage {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any) any
	walk = func(x any) any {
		switch x := x.(type) {
		case string:
			return pathSubstitute(x, root)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return x
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// preparedPathCase is a case after testdata/corpus/README.md §5 steps 1–3.
type preparedPathCase struct {
	tmp, home, root, harnessRoot, cwd string
	toolInput                         json.RawMessage
	// env is the hook's whole environment for this case (step 4).
	env map[string]string
}

// preparePathCase builds the workspace for c and returns the substituted
// inputs and the hook's environment: HARNESS_ROOT (or harness_root),
// FEATURE_ID=f002 unless "feature": null, HOME, and the case's env.
func preparePathCase(t testing.TB, c pathCase) preparedPathCase {
	t.Helper()
	tmp, home, root := makePathSkeleton(t)
	p := preparedPathCase{tmp: tmp, home: home, root: root, harnessRoot: root, cwd: pathSubstitute(c.Cwd, home)}
	p.toolInput = pathSubstituteJSON(t, c.ToolInput, home)
	if c.HarnessRoot != "" {
		p.harnessRoot = pathSubstitute(c.HarnessRoot, home)
	}
	if c.Setup != "" {
		cmd := exec.Command("sh", "-c", pathSubstitute(c.Setup, home))
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: setup: %v\n%s", c.ID, err, out)
		}
	}
	if err := os.MkdirAll(p.cwd, 0o755); err != nil {
		t.Fatalf("%s: mkdir cwd: %v", c.ID, err)
	}
	if c.FileContent != nil {
		var in struct {
			FilePath string `json:"file_path"`
		}
		if err := json.Unmarshal(p.toolInput, &in); err != nil || in.FilePath == "" {
			t.Fatalf("%s: file_content without file_path", c.ID)
		}
		target := in.FilePath
		if !filepath.IsAbs(target) {
			target = filepath.Join(p.cwd, target)
		}
		if err := os.WriteFile(target, []byte(*c.FileContent), 0o644); err != nil {
			t.Fatalf("%s: write file_content: %v", c.ID, err)
		}
	}
	p.env = map[string]string{"HARNESS_ROOT": p.harnessRoot, "FEATURE_ID": "f002", "HOME": home}
	if c.noFeature {
		delete(p.env, "FEATURE_ID")
	}
	for k, v := range c.Env {
		p.env[k] = pathSubstitute(v, home)
	}
	return p
}

// pathTally counts outcomes per key for the accuracy table.
type pathTally struct {
	ok, total map[string]int
}

func newPathTally() *pathTally { return &pathTally{ok: map[string]int{}, total: map[string]int{}} }

func (t *pathTally) add(key string, ok bool) {
	t.total[key]++
	if ok {
		t.ok[key]++
	}
}

func (t *pathTally) table(title string) string {
	keys := make([]string, 0, len(t.total))
	for k := range t.total {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", title)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-44s %4d/%-4d\n", k, t.ok[k], t.total[k])
	}
	return b.String()
}

// runPathCase prepares the workspace for c, runs its tool call through
// harness-hook and checks that the hook wrote nothing but its own log
// (testdata/corpus/README.md §5 step 5).
func runPathCase(t *testing.T, c pathCase) hookAnswer {
	t.Helper()
	p := preparePathCase(t, c)
	return pathHook(t, c, p, c.Tool, p.toolInput)
}

// pathHook runs one tool call in the prepared workspace p through the hook
// and fails t if the workspace (anything below p.tmp except the hook's
// own log) changed.
func pathHook(t *testing.T, c pathCase, p preparedPathCase, tool string, toolInput json.RawMessage) hookAnswer {
	t.Helper()
	before := pathSnapshot(t, p.tmp, p.root)
	a := runHook(t, p.env, toolPayload(tool, toolInput, p.cwd))
	if after := pathSnapshot(t, p.tmp, p.root); after != before {
		t.Errorf("%s: the hook changed the workspace (testdata/corpus/README.md §5 step 5)", c.ID)
	}
	return a
}

// pathSnapshot lists every entry below dir with its type, size and
// modification time, so a test can assert that the guard wrote nothing.
// The hook's own files are left out: its log (root/.harness/logs/hook.log,
// its lock and rotations; testdata/corpus/README.md §5 lets the hook append to it) and the lock
// of .harness/allow.jsonl, which the hook takes to look for an allow-once
// authorisation after a block. Directories are listed without size and
// time: what appears in them is listed itself.
func pathSnapshot(t testing.TB, dir, root string) string {
	t.Helper()
	logs := filepath.Join(root, ".harness", "logs")
	allowLock := filepath.Join(root, ".harness", "allow.jsonl.lock")
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if filepath.Dir(p) == logs && strings.HasPrefix(d.Name(), "hook.log") || p == allowLock {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() { // entries are listed themselves; a lock file appearing changes the time
			fmt.Fprintf(&b, "%s %v\n", p, fi.Mode())
			return nil
		}
		fmt.Fprintf(&b, "%s %v %d %d\n", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", dir, err)
	}
	return b.String()
}
