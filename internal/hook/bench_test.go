package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

func bashPayload(b *testing.B, cmd, cwd string) []byte {
	b.Helper()
	p, err := json.Marshal(map[string]any{"session_id": "bench", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": cmd}, "cwd": cwd, "tool_use_id": "toolu_1"})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPreToolUseBash measures one PreToolUse Bash call in-process
// inside a sprint workspace: decode, command policy, path guard, hook.log
// append, encode.
func BenchmarkPreToolUseBash(b *testing.B) {
	root := filepath.Join(b.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(b, testdata("sprints", "valid-midway"), root)
	args := []string{"--event", "PreToolUse", "--root", root, "--feature", "f001"}
	for _, bc := range []struct{ name, cmd string }{
		{"allow", "go test ./... 2>&1 | tail -n 40"},
		{"block", "cd build && rm -rf ../.harness/features/f002"},
	} {
		payload := bashPayload(b, bc.cmd, root)
		b.Run(bc.name, func(b *testing.B) {
			r := runner{now: time.Now, stderr: io.Discard}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r.run(args, bytes.NewReader(payload), io.Discard, nil)
			}
		})
	}
}

// BenchmarkPreToolUseBashNoWorkspace is the command policy alone (no root,
// nothing logged): the corpus setting of bash.jsonl.
func BenchmarkPreToolUseBashNoWorkspace(b *testing.B) {
	payload := bashPayload(b, `bash -c "git push --force origin main"`, b.TempDir())
	r := runner{now: time.Now, stderr: io.Discard}
	env := map[string]string{"FEATURE_ID": "f002"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.run([]string{"--event", "PreToolUse"}, bytes.NewReader(payload), io.Discard, env)
	}
}

// BenchmarkProcessPreToolUseBash execs the built binary (what Claude Code
// pays per tool call: process start, decode, decide, log) at least 30 times
// and reports the median wall time in ms (metric "median-ms"). Run with
// scripts/bench-hook.sh or
// `go test -run '^$' -bench Process -benchtime 30x ./internal/hook`.
func BenchmarkProcessPreToolUseBash(b *testing.B) {
	root := filepath.Join(b.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(b, testdata("sprints", "valid-midway"), root)
	payload := bashPayload(b, "go test ./... 2>&1 | tail -n 40", root)
	n := b.N
	if n < 30 {
		n = 30
	}
	times := make([]time.Duration, 0, n)
	b.ResetTimer()
	for i := 0; i < n; i++ {
		cmd := exec.Command(hookBin, "--event", "PreToolUse", "--root", root, "--feature", "f001")
		cmd.Stdin = bytes.NewReader(payload)
		start := time.Now()
		out, err := cmd.Output()
		times = append(times, time.Since(start))
		if err != nil || !bytes.HasPrefix(out, []byte("{")) {
			b.Fatalf("run %d: %v %q", i, err, out)
		}
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "p90-ms")
}
