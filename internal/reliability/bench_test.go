package reliability

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/hook"
	"github.com/superagent-harness/harness/internal/testutil"
)

// Benchmarks of one hook call in-process (hook.Run), for profiling
// (-cpuprofile, -memprofile). Process start-up is measured separately by
// scripts/benchlatency (docs/performance.md).

func benchWorkspace(b *testing.B, evalLines int) string {
	b.Helper()
	root := filepath.Join(b.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(b, testutil.Testdata(b, "sprints", "valid-midway"), root)
	h := filepath.Join(root, ".harness")
	f, err := os.OpenFile(filepath.Join(h, "eval_log.jsonl"), os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for i := 0; i < evalLines; i++ {
		fmt.Fprintf(&buf, `{"timestamp":"2026-04-21T02:%02d:%02dZ","sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f001","phase":2,"iteration":%d,"event_type":"retry","result":"retry","reason":"第 %d 次重试:解析器在引用式链接定义上漏报,补充表驱动用例后重跑 a2"}`+"\n", (i/60)%60, i%60, i+1, i+1)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return root
}

func benchHook(b *testing.B, root, event string, payload map[string]any) {
	payload["session_id"] = "sess-bench"
	payload["hook_event_name"] = event
	payload["cwd"] = filepath.Join(root, ".harness", "features", "f002")
	in, _ := json.Marshal(payload)
	args := []string{"--event", event, "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := hook.Run(args, bytes.NewReader(in), io.Discard, io.Discard, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

func BenchmarkHookPreToolUseBash(b *testing.B) {
	root := benchWorkspace(b, 0)
	benchHook(b, root, "PreToolUse", map[string]any{"tool_name": "Bash",
		"tool_input": map[string]any{"command": "go test ./... 2>&1 | tail -n 20"}})
}

func BenchmarkHookPreToolUseEdit(b *testing.B) {
	root := benchWorkspace(b, 0)
	benchHook(b, root, "PreToolUse", map[string]any{"tool_name": "Edit",
		"tool_input": map[string]any{"file_path": filepath.Join(root, "src", "main.go"), "old_string": "a", "new_string": "b"}})
}

func BenchmarkHookSessionStart(b *testing.B) {
	root := benchWorkspace(b, 0)
	benchHook(b, root, "SessionStart", map[string]any{"source": "startup"})
}

func BenchmarkHookStopEvalLog100k(b *testing.B) {
	root := benchWorkspace(b, 100000)
	benchHook(b, root, "Stop", map[string]any{"stop_hook_active": false})
}
