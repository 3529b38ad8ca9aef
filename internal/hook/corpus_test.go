package hook

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/pathguard"
	"github.com/superagent-harness/harness/internal/verdict"
)

// corpusOutcome classifies one hook answer as testdata/corpus/README.md §5 does:
// deny → block; additionalContext without permissionDecision → warn;
// anything else at exit 0 → allow. A permissionDecision other than deny,
// another exit code or unparseable stdout fails the test.
func corpusOutcome(t *testing.T, id string, res result) string {
	t.Helper()
	if res.code != 0 {
		t.Fatalf("%s: exit %d", id, res.code)
	}
	obj := checkContract(t, EventPreToolUse, res.stdout)
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	if hso == nil {
		return "allow"
	}
	if pd, ok := hso["permissionDecision"]; ok {
		if pd != "deny" {
			t.Fatalf("%s: permissionDecision %v", id, pd)
		}
		return "block"
	}
	if ctx, _ := hso["additionalContext"].(string); ctx != "" {
		return "warn"
	}
	return "allow"
}

func actionWord(a verdict.Action) string { return a.String() }

// tally counts correct answers per key.
type tally map[string][2]int

func (t tally) add(k string, ok bool) {
	v := t[k]
	v[1]++
	if ok {
		v[0]++
	}
	t[k] = v
}

func (t tally) String() string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %d/%d\n", k, t[k][0], t[k][1])
	}
	return b.String()
}

// readJSONL decodes every line of a corpus file into fn.
func readJSONL(t *testing.T, name string, fn func(line []byte)) {
	t.Helper()
	f, err := os.Open(testdata("corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) > 0 {
			fn(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestBashCorpusThroughHook feeds every bash.jsonl case to the hook exactly
// as testdata/corpus/README.md §5 says (cwd outside any workspace, no HARNESS_ROOT,
// FEATURE_ID=f002 unless "feature": null). The hook's outcome must equal
// bashguard.Decide's (the hook adds or loses nothing), every answer must be
// contract-valid, and the label accuracy is reported (and must stay ≥ 90%).
func TestBashCorpusThroughHook(t *testing.T) {
	cwd := t.TempDir()
	perFamily, perExpect := tally{}, tally{}
	correct, total := 0, 0
	var wrong []string
	readJSONL(t, "bash.jsonl", func(line []byte) {
		var c struct {
			ID, Cmd, Expect, Family, Kind string
			Feature                       *string `json:"feature"`
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(line, &c); err != nil || json.Unmarshal(line, &raw) != nil {
			t.Fatalf("bad corpus line: %s", line)
		}
		env := map[string]string{"FEATURE_ID": "f002"}
		if _, ok := raw["feature"]; ok && c.Feature == nil {
			env = map[string]string{}
		}
		payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": c.Cmd}, "cwd": cwd})
		got := corpusOutcome(t, c.ID, runIn(runner{}, nil, env, strings.NewReader(string(payload))))
		want := "allow"
		if strings.TrimSpace(c.Cmd) != "" {
			if d, bad := commandProblem(c.Cmd); bad {
				want = actionWord(d.Action)
			} else {
				want = actionWord(bashguard.Decide(c.Cmd, bashguard.Context{Feature: env["FEATURE_ID"], Cwd: cwd, Vars: knownVars(env)}).Decision.Action)
			}
		}
		if got != want {
			t.Errorf("%s: hook answered %s but bashguard decides %s: %q", c.ID, got, want, c.Cmd)
		}
		total++
		ok := got == c.Expect
		if ok {
			correct++
		} else {
			wrong = append(wrong, c.ID+" "+c.Expect+"→"+got)
		}
		perFamily.add(c.Family, ok)
		perExpect.add(c.Expect, ok)
	})
	t.Logf("bash.jsonl through harness-hook: %d/%d match the labels\nper expect:\n%sper family:\n%smismatches: %v",
		correct, total, perExpect, perFamily, wrong)
	if total < 900 || float64(correct) < 0.9*float64(total) {
		t.Fatalf("label accuracy %d/%d is below 90%%", correct, total)
	}
}

// skeleton is the path-corpus workspace of testdata/corpus/README.md §5 step 1.
var skeletonDirs = []string{"schemas", "templates", "spec/guides", "protocols", "sub-skills", "src", "research", "docs", "build", ".claude",
	".harness/logs", ".harness/checkpoints", ".harness/sprint_contracts/sprint_20260421_1", ".harness/sprint_contracts/sprint_20260301_2",
	".harness/features/f001", ".harness/features/f002", ".harness/features/f002/.claude", ".harness/features/f003"}

var skeletonFiles = []string{"SKILL.md", "README.md", "schemas/feature_list.schema.json", "spec/index.md", "protocols/yolo.md",
	".harness/runtime_state.json", ".harness/hermes_handoff.md", ".harness/hermes_context_state.json", ".harness/session_pool.json",
	".harness/.current_agent", ".harness/eval_log.jsonl", ".harness/feature_list.json", ".harness/rules.yaml", ".harness/allow.jsonl",
	".harness/logs/hook.log", ".claude/settings.json", ".harness/features/f002/.claude/settings.json",
	".harness/sprint_contracts/sprint_20260421_1/contract.json", ".harness/features/f001/handoff.md",
	".harness/features/f001/generator_log.md", ".harness/features/f002/handoff.md", ".harness/features/f002/generator_log.md",
	"src/app.go", "research/notes.md"}

const skeletonTooling = "# Sprint Tooling Decisions\n\n## 5. 全局约束\n\n- 备注:TBD\n\n## 6. 运行时新增(feature 执行中引入的工具)\n\n- TBD\n"

// pathsCase is one line of testdata/corpus/paths.jsonl (testdata/corpus/README.md §5).
type pathsCase struct {
	ID, Tool, Cwd, Expect, Rule, Kind, Setup string
	ToolInput                                json.RawMessage `json:"tool_input"`
	FileContent                              *string         `json:"file_content"`
	HarnessRoot                              string          `json:"harness_root"`
}

// preparePathsCase builds the workspace of c at root as testdata/corpus/README.md §5
// says (skeleton, prefix replaced by root, setup run in root, file_content
// written) and returns c's tool_input with the prefix replaced, the cwd and
// the HARNESS_ROOT to run it with.
func preparePathsCase(t *testing.T, c pathsCase, prefix, root string) (input map[string]any, cwd, hroot string) {
	t.Helper()
	for _, d := range skeletonDirs {
		mustMkdir(t, filepath.Join(root, d))
	}
	for _, f := range skeletonFiles {
		writeFile(t, filepath.Join(root, f), "")
	}
	writeFile(t, filepath.Join(root, ".harness/sprint_contracts/sprint_20260421_1/tooling.md"), skeletonTooling)
	sub := func(s string) string { return strings.ReplaceAll(s, prefix, root) }
	if err := json.Unmarshal(c.ToolInput, &input); err != nil {
		t.Fatalf("%s: tool_input: %v", c.ID, err)
	}
	for k, v := range input {
		if s, ok := v.(string); ok {
			input[k] = sub(s)
		}
	}
	cwd = sub(c.Cwd)
	if c.Setup != "" {
		cmd := exec.Command("sh", "-c", sub(c.Setup))
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: setup: %v\n%s", c.ID, err, out)
		}
	}
	mustMkdir(t, cwd)
	if c.FileContent != nil {
		target, _ := input["file_path"].(string)
		if !filepath.IsAbs(target) {
			target = filepath.Join(cwd, target)
		}
		writeFile(t, target, *c.FileContent)
	}
	hroot = root
	if c.HarnessRoot != "" {
		hroot = sub(c.HarnessRoot)
	}
	return input, cwd, hroot
}

// TestPathsCorpusThroughHook runs every paths.jsonl case through the hook
// as testdata/corpus/README.md §5 says (fresh root named sprint_20260421_1, skeleton,
// prefix substitution, setup, file_content, HARNESS_ROOT and FEATURE_ID=f002).
// The hook's outcome must equal the direct guard decision, answers must be
// contract-valid, and the label accuracy is reported (≥ 90%).
func TestPathsCorpusThroughHook(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("setup snippets are POSIX sh")
	}
	const prefix = "/home/user/work/sprint_20260421_1"
	perRule := tally{}
	correct, total := 0, 0
	var wrong []string
	readJSONL(t, "paths.jsonl", func(line []byte) {
		var c pathsCase
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("bad corpus line: %s", line)
		}
		root := filepath.Join(t.TempDir(), "sprint_20260421_1")
		input, cwd, hroot := preparePathsCase(t, c, prefix, root)
		env := map[string]string{"HARNESS_ROOT": hroot, "FEATURE_ID": "f002"}
		rawInput, _ := json.Marshal(input)
		payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.Tool,
			"tool_input": json.RawMessage(rawInput), "cwd": cwd})
		got := corpusOutcome(t, c.ID, runIn(runner{}, nil, env, strings.NewReader(string(payload))))

		g, err := pathguard.New(hroot, "f002")
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if c.Tool == "Bash" {
			cmd, _ := input["command"].(string)
			want = "allow"
			if strings.TrimSpace(cmd) != "" {
				want = actionWord(bashguard.Decide(cmd, bashguard.Context{Feature: "f002", Paths: g, Cwd: cwd, Vars: knownVars(env)}).Decision.Action)
			}
		} else {
			want = actionWord(g.CheckTool(c.Tool, rawInput, cwd).Action)
		}
		if got != want {
			t.Errorf("%s: hook answered %s but the guards decide %s", c.ID, got, want)
		}
		total++
		ok := got == c.Expect
		if ok {
			correct++
		} else {
			wrong = append(wrong, c.ID+" "+c.Expect+"→"+got)
		}
		perRule.add(c.Rule+"/"+c.Expect, ok)
	})
	t.Logf("paths.jsonl through harness-hook: %d/%d match the labels\nper rule:\n%smismatches: %v", correct, total, perRule, wrong)
	if total < 360 || float64(correct) < 0.9*float64(total) {
		t.Fatalf("label accuracy %d/%d is below 90%%", correct, total)
	}
}
