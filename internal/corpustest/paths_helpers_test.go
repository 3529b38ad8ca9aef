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

	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/pathguard"
	"github.com/superagent-harness/harness/internal/verdict"
)

// pathCorpusRoot is the sprint root as the corpus writes it (testdata/corpus/README.md §3.0).
const pathCorpusRoot = "/home/user/work/sprint_20260421_1"

// pathCase is one line of testdata/corpus/paths.jsonl (testdata/corpus/README.md §4).
type pathCase struct {
	ID          string          `json:"id"`
	Tool        string          `json:"tool"`
	ToolInput   json.RawMessage `json:"tool_input"`
	Cwd         string          `json:"cwd"`
	Expect      string          `json:"expect"`
	Rule        string          `json:"rule"`
	Kind        string          `json:"kind"`
	Why         string          `json:"why"`
	Setup       string          `json:"setup"`
	FileContent *string         `json:"file_content"`
	HarnessRoot string          `json:"harness_root"`
}

func loadPathCases(t testing.TB) []pathCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "corpus", "paths.jsonl"))
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
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

const pathSkeletonTooling = "# Sprint Tooling Decisions\n\n## 5. 全局约束\n\n- 备注:TBD\n\n## 6. 运行时新增(feature 执行中引入的工具)\n\n- TBD\n"

// makePathSkeleton creates the testdata/corpus/README.md §5 step 1 skeleton in a fresh root named
// sprint_20260421_1 inside a fresh parent and returns the root.
func makePathSkeleton(t testing.TB) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
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
	return root
}

// substitute replaces the corpus root prefix by root in s (testdata/corpus/README.md §5 step 2).
func pathSubstitute(s, root string) string { return strings.ReplaceAll(s, pathCorpusRoot, root) }

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
	root, harnessRoot, cwd string
	toolInput              json.RawMessage
}

// prepare builds the workspace for c and returns the substituted inputs.
func preparePathCase(t testing.TB, c pathCase) preparedPathCase {
	t.Helper()
	root := makePathSkeleton(t)
	p := preparedPathCase{root: root, harnessRoot: root, cwd: pathSubstitute(c.Cwd, root)}
	p.toolInput = pathSubstituteJSON(t, c.ToolInput, root)
	if c.HarnessRoot != "" {
		p.harnessRoot = pathSubstitute(c.HarnessRoot, root)
	}
	if c.Setup != "" {
		cmd := exec.Command("sh", "-c", pathSubstitute(c.Setup, root))
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

// runPathBashCase decides the command the way the hook does: bashguard.Decide
// with the feature f002 (a Generator session), this guard as the path
// checker, the case's cwd, and HARNESS_ROOT known (testdata/corpus/README.md §5 step 4). The
// corpus says every Bash path case is allowed by the command policy, so the
// combined decision must equal expect.
func runPathBashCase(t *testing.T, g *pathguard.Guard, c pathCase, p preparedPathCase) (verdict.Decision, string) {
	t.Helper()
	var in struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(p.toolInput, &in); err != nil {
		t.Fatalf("%s: tool_input: %v", c.ID, err)
	}
	res := bashguard.Decide(in.Command, bashguard.Context{
		Feature: "f002",
		Paths:   g,
		Cwd:     p.cwd,
		Vars:    map[string]string{"HARNESS_ROOT": p.harnessRoot},
	})
	return res.Decision, ""
}

// snapshot lists every entry below dir with its type, size and modification
// time, so a test can assert that the guard wrote nothing.
func pathSnapshot(t testing.TB, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %d\n", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", dir, err)
	}
	return b.String()
}
