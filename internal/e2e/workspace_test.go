package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/testutil"
)

const (
	sprintID = "sprint_20260421_1"
	feature  = "f002"
)

// workspace is one sprint root made from the valid-midway fixture, with the
// hook wired for one feature.
type workspace struct {
	Root     string // sprint root (absolute)
	FDir     string // .harness/features/<feature>
	Settings string // FDir/.claude/settings.json
	Wiring   string // "init-feature" or "written by the test"
}

// newWorkspace copies testdata/sprints/valid-midway (f002 in phase 1, nothing
// logged) into a temp sprint root, adds a schemas/ file and a build/ dir to
// attack, optionally completes f002's phase-1 records (so Stop allows), and
// wires harness-hook for f002.
func newWorkspace(t *testing.T, bins testutil.Binaries, completeRecords bool) workspace {
	t.Helper()
	root := filepath.Join(t.TempDir(), sprintID)
	testutil.CopyTree(t, testutil.Testdata(t, "sprints", "valid-midway"), root)
	mustWrite(t, filepath.Join(root, "schemas", "x.json"), "{\"a\": \"a\"}\n")
	mustWrite(t, filepath.Join(root, "build", "keep.txt"), "build output\n")
	mustWrite(t, filepath.Join(root, "src", ".keep"), "")
	ws := workspace{Root: root, FDir: filepath.Join(root, ".harness", "features", feature)}
	ws.Settings = filepath.Join(ws.FDir, ".claude", "settings.json")
	// A fresh session: init-feature leaves session_id.txt empty and the
	// SessionStart hook fills it (docs/protocol.md §3.11); the fixture has an old id.
	mustWrite(t, filepath.Join(ws.FDir, "session_id.txt"), "")
	if completeRecords {
		completePhase1(t, root, feature)
	}
	wireHooks(t, bins, &ws)
	return ws
}

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fsutil.WriteFileAtomic(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// completePhase1 writes what a Generator leaves at the end of phase 1 (testdata/sprints/README.md
// §7 checks 3–10): a phase=1 generator_log section with 关键决策 and a
// body ≥ 100 bytes, a phase_evaluation entry with a concrete reason, and
// next_phases[phase=1].done = true.
func completePhase1(t *testing.T, root, fid string) {
	t.Helper()
	genlog := filepath.Join(root, ".harness", "features", fid, "generator_log.md")
	section := "\n---\n\n## phase=1 plan — 2026-04-21T03:00:00Z\n\n### 做了什么\n" +
		"把 " + fid + " 拆成 3 个子任务:并发调度器、超时与 DNS 失败分类、429/503 的 Retry-After 重试,每个子任务对应一条 acceptance。\n\n" +
		"### 关键决策\n- 使用 errgroup 限制并发数,默认 8,与 acceptance a1 一致。\n- 超时统一由 context 控制。\n\n" +
		"### 产出物\n- 子任务清单(本段)\n\n### 遇到的问题 / 偏差\n- 无\n"
	old, err := os.ReadFile(genlog)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, genlog, string(old)+section)
	entry := map[string]any{
		"timestamp": "2026-04-21T03:05:00Z", "sprint_id": sprintID, "generator": "claude-code",
		"feature_id": fid, "phase": 1, "iteration": 1, "event_type": "phase_evaluation", "result": "pass",
		"reason": "拆出 3 个子任务:并发调度、超时分类、Retry-After 重试,分别覆盖 acceptance a1、a2、a3",
	}
	line, _ := json.Marshal(entry)
	if err := fsutil.AppendLine(filepath.Join(root, ".harness", "eval_log.jsonl"), line); err != nil {
		t.Fatal(err)
	}
	err = fsutil.UpdateFile(filepath.Join(root, ".harness", "feature_list.json"), 0o644, func(old []byte) ([]byte, error) {
		var fl map[string]any
		if err := json.Unmarshal(old, &fl); err != nil {
			return nil, err
		}
		for _, f := range fl["features"].([]any) {
			fm := f.(map[string]any)
			if fm["id"] != fid {
				continue
			}
			for _, np := range fm["next_phases"].([]any) {
				npm := np.(map[string]any)
				if npm["phase"] == float64(1) {
					npm["done"] = true
				}
			}
		}
		return json.MarshalIndent(fl, "", "  ")
	})
	if err != nil {
		t.Fatal(err)
	}
}

// wireHooks runs `harness init-feature` when the CLI has the command;
// otherwise it writes the settings.json that init-feature is specified to
// write (docs/protocol.md §4.6, docs/hooks.md §7): exec form, command = the
// absolute hook path, args --event E --root R --feature F --sprint S.
func wireHooks(t *testing.T, bins testutil.Binaries, ws *workspace) {
	t.Helper()
	if bins.Harness != "" && exec.Command(bins.Harness, "init-feature", "--help").Run() == nil {
		out, err := exec.Command(bins.Harness, "init-feature", feature, "--root", ws.Root, "--hook-bin", bins.Hook).CombinedOutput()
		if err == nil {
			if data, rerr := os.ReadFile(ws.Settings); rerr == nil && bytes.Contains(data, []byte(bins.Hook)) {
				ws.Wiring = "init-feature"
				return
			}
			t.Logf("init-feature succeeded but %s does not name the built hook %s; writing it", ws.Settings, bins.Hook)
		} else {
			t.Logf("harness init-feature %s failed (%v): %s; writing settings.json in its shape", feature, err, out)
		}
	}
	handler := func(event string) []any {
		return []any{map[string]any{
			"type": "command", "command": bins.Hook, "timeout": 10,
			"args": []string{"--event", event, "--root", ws.Root, "--feature", feature, "--sprint", sprintID},
		}}
	}
	settings := map[string]any{"hooks": map[string]any{
		"SessionStart": []any{map[string]any{"hooks": handler("SessionStart")}},
		"PreToolUse": []any{
			map[string]any{"matcher": "Bash", "hooks": handler("PreToolUse")},
			map[string]any{"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": handler("PreToolUse")},
		},
		"Stop":         []any{map[string]any{"hooks": handler("Stop")}},
		"SubagentStop": []any{map[string]any{"hooks": handler("SubagentStop")}},
	}}
	data, _ := json.MarshalIndent(settings, "", "  ")
	mustWrite(t, ws.Settings, string(data)+"\n")
	ws.Wiring = "written by the test"
}

// hookLog returns the JSON object lines of <root>/.harness/logs/hook.log
// (legacy text lines are skipped).
func hookLog(t *testing.T, root string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".harness", "logs", "hook.log"))
	if err != nil {
		t.Fatalf("read hook.log: %v", err)
	}
	var out []map[string]any
	for _, l := range strings.Split(string(data), "\n") {
		var m map[string]any
		if strings.HasPrefix(strings.TrimSpace(l), "{") && json.Unmarshal([]byte(l), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}
