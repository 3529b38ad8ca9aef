package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// runScaling measures the costs that must not grow with a sprint's history
// (docs/performance.md "Scaling with the sprint's history"), as same-run
// ratios of interleaved rows:
//
//   - Stop with eval_log at small vs large lines, in two shapes: padding
//     lines of another feature (f001), and lines that all mention the
//     checked feature (f002 phase=2 verdicts; its phase-1 records stay
//     complete, so Stop runs every check and allows);
//   - `harness eval append` with eval_log at small vs appendLarge lines;
//   - `harness status` with a hook.log of hookLogMB MB;
//   - `harness validate` on validateLines real-shaped lines (phase
//     verdicts with acceptance_results, checkpoint entries with
//     blockers_resolved): µs per line and peak RSS;
//   - PreToolUse Bash with the session's transcript (the real client's)
//     against the minimal program.
func runScaling(tmp, repo, hook, harness, minimal string, runs, small, large, appendLarge, hookLogMB, validateLines int, stdout, stderr io.Writer) int {
	src := filepath.Join(repo, "testdata", "sprints", "valid-midway")
	mk := func(name string, lines int, line func(i int) string) (string, error) {
		root := filepath.Join(tmp, name, "sprint_20260421_1")
		if err := makeWorkspace(src, root, 2); err != nil {
			return "", err
		}
		return root, padEval(root, lines, line)
	}
	padding := func(i int) string {
		return fmt.Sprintf(`{"timestamp":"2026-04-21T02:%02d:%02dZ","sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f001","phase":2,"iteration":%d,"event_type":"retry","result":"retry","reason":"第 %d 次重试:解析器在引用式链接定义上漏报,补充表驱动用例后重跑 a2"}`, (i/60)%60, i%60, i+1, i+1)
	}
	mention := func(i int) string {
		return fmt.Sprintf(`{"timestamp":"2026-04-21T02:%02d:%02dZ","sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f002","phase":2,"iteration":%d,"event_type":"phase_evaluation","result":"pass","reason":"第 %d 轮:f002 并发调度与超时分类的用例全部通过,覆盖 a1 a2"}`, (i/60)%60, i%60, i+1, i+1)
	}
	type ws struct{ name, root string }
	var wss []ws
	for _, w := range []struct {
		name  string
		lines int
		line  func(int) string
	}{{"stop-pad-small", small, padding}, {"stop-pad-large", large, padding}, {"stop-mention-small", small, mention}, {"stop-mention-large", large, mention},
		{"append-small", small, padding}, {"append-large", appendLarge, padding}} {
		fmt.Fprintf(stderr, "making %s (%d lines) …\n", w.name, w.lines)
		root, err := mk(w.name, w.lines, w.line)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		wss = append(wss, ws{w.name, root})
	}
	transcript := filepath.Join(repo, "internal", "monitor", "testdata", "growing-usage.jsonl")
	stop := func(root string) []byte {
		return []byte(fmt.Sprintf(`{"hook_event_name":"Stop","session_id":"sess-bench","transcript_path":%q,"cwd":%q,"stop_hook_active":false}`+"\n",
			transcript, filepath.Join(root, ".harness", "features", "f002")))
	}
	args := func(root, event string) []string {
		return []string{"--event", event, "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}
	}
	appendArgs := func(root string) []string {
		return []string{"--root", root, "eval", "append", "--feature", "f002", "--phase", "1", "--event", "retry", "--result", "retry",
			"--reason", "需要登记 golang.org/x/time/rate,用于 429 的限速重试"}
	}
	bashPayload := func(root string, tp string) []byte {
		return []byte(fmt.Sprintf(`{"hook_event_name":"PreToolUse","session_id":"sess-bench","transcript_path":%q,"cwd":%q,"tool_name":"Bash","tool_use_id":"toolu_b","tool_input":{"command":"go test ./... 2>&1 | tail -n 20","description":"run tests"}}`+"\n",
			tp, filepath.Join(root, ".harness", "features", "f002")))
	}
	r := wss[0].root
	scs := []scenario{
		{"minimal Go program", minimal, nil, bashPayload(r, transcript)},
		{"PreToolUse Bash, transcript of the real client (measurements on)", hook, args(r, "PreToolUse"), bashPayload(r, transcript)},
		{"PreToolUse Bash, no transcript", hook, args(r, "PreToolUse"), bashPayload(r, filepath.Join(tmp, "none.jsonl"))},
		{fmt.Sprintf("Stop, %d lines, padding", small), hook, args(wss[0].root, "Stop"), stop(wss[0].root)},
		{fmt.Sprintf("Stop, %d lines, padding", large), hook, args(wss[1].root, "Stop"), stop(wss[1].root)},
		{fmt.Sprintf("Stop, %d lines, all mention f002", small), hook, args(wss[2].root, "Stop"), stop(wss[2].root)},
		{fmt.Sprintf("Stop, %d lines, all mention f002", large), hook, args(wss[3].root, "Stop"), stop(wss[3].root)},
		{fmt.Sprintf("harness eval append, %d lines", small), harness, appendArgs(wss[4].root), nil},
		{fmt.Sprintf("harness eval append, %d lines", appendLarge), harness, appendArgs(wss[5].root), nil},
	}
	// status with a large hook.log (in its own workspace)
	statusRoot := filepath.Join(tmp, "status", "sprint_20260421_1")
	if err := makeWorkspace(src, statusRoot, 2); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stderr, "making a %d MB hook.log …\n", hookLogMB)
	if err := bigHookLog(filepath.Join(statusRoot, ".harness", "logs", "hook.log"), int64(hookLogMB)<<20); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	scs = append(scs, scenario{fmt.Sprintf("harness status, hook.log %d MB", hookLogMB), harness, []string{"--root", statusRoot, "status"}, nil})

	fmt.Fprintf(stderr, "measuring %d rows, interleaved, %d rounds …\n", len(scs), runs)
	ms, ds := measureInterleaved(scs, runs)
	fmt.Fprintf(stdout, "Go %s, %d rounds (interleaved), %s\n\n", strings.TrimPrefix(goVersion(), "go"), runs, time.Now().UTC().Format(time.RFC3339))
	printTable(stdout, ms)
	pr := func(a, b int) float64 { return pairedRatio(ds[a], ds[b]) }
	fmt.Fprintf(stdout, "\npaired ratios (median of per-round ratios):\n")
	fmt.Fprintf(stdout, "  PreToolUse Bash with the transcript / minimal: %.2f (without a transcript: %.2f)\n", pr(1, 0), pr(2, 0))
	fmt.Fprintf(stdout, "  Stop %d / %d lines, padding: %.2f\n", large, small, pr(4, 3))
	fmt.Fprintf(stdout, "  Stop %d / %d lines, all mention f002: %.2f\n", large, small, pr(6, 5))
	fmt.Fprintf(stdout, "  eval append %d / %d lines: %.2f\n", appendLarge, small, pr(8, 7))

	// validate on real-shaped lines
	vroot := filepath.Join(tmp, "validate", "sprint_20260421_1")
	fmt.Fprintf(stderr, "making %d real-shaped lines …\n", validateLines)
	if err := makeWorkspace(src, vroot, 2); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := padEval(vroot, validateLines, realShaped); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	vm, _ := measureInterleaved([]scenario{{fmt.Sprintf("harness validate, %d real-shaped lines", validateLines), harness, []string{"validate", "--root", vroot}, nil}}, 1)
	printTable(stdout, vm)
	if vm[0].failed == nil {
		fmt.Fprintf(stdout, "\nvalidate: %.2f µs per line (wall), %.2f µs per line (CPU), peak RSS %.1f MB\n",
			float64(vm[0].median.Nanoseconds())/1000/float64(validateLines), float64(vm[0].cpu.Nanoseconds())/1000/float64(validateLines), float64(vm[0].rss)/1e6)
	}
	return 0
}

func printTable(w io.Writer, ms []measurement) {
	fmt.Fprintln(w, "| scenario | median | p99 | max | peak RSS | page faults | CPU | exit codes |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|")
	for _, m := range ms {
		if m.failed != nil {
			fmt.Fprintf(w, "| %s | – | – | – | – | – | – | error: %v |\n", m.name, m.failed)
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.1f MB | %.0f | %s | %v |\n", m.name, ms2(m.median), ms2(m.p99), ms2(m.max), float64(m.rss)/1e6, m.faults, ms2(m.cpu), m.exitCodes)
	}
}

// padEval writes lines lines to the workspace's eval_log.jsonl: the
// fixture's, then line(i) padding, then f002's phase-1 pass last (so the
// records Stop checks stay complete).
func padEval(root string, lines int, line func(i int) string) error {
	p := filepath.Join(root, ".harness", "eval_log.jsonl")
	old, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	last := old
	if i := bytes.LastIndexByte(bytes.TrimRight(old, "\n"), '\n'); i >= 0 {
		last = old[i+1:]
		old = old[:i+1]
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufioWriter(f)
	w.Write(old)
	n := bytes.Count(old, []byte("\n"))
	for i := n; i < lines-1; i++ {
		w.WriteString(line(i))
		w.WriteByte('\n')
	}
	w.Write(last)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// realShaped alternates a phase verdict of f001 with acceptance_results
// (its three acceptance items verbatim) and a checkpoint entry with
// blockers_resolved.
func realShaped(i int) string {
	ts := fmt.Sprintf("2026-04-21T02:%02d:%02dZ", (i/60)%60, i%60)
	if i%2 == 0 {
		res := "pass"
		if i%4 == 2 {
			res = "retry"
		}
		return fmt.Sprintf(`{"timestamp":%q,"sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f001","phase":2,"iteration":%d,"event_type":"phase_evaluation","result":%q,"reason":"第 %d 轮:解析器覆盖引用式链接,表驱动用例 24 个全部通过,a1 a2 核对完毕","acceptance_results":[`+
			`{"id":"a1","criteria":"`+"`internal/extract` 包导出 `Extract(path string) ([]Link, error)`,每个 Link 含 URL、行号、列号"+`","status":"pass","evidence":"go test ./internal/extract -run TestExtract 通过(3 个子用例)"},`+
			`{"id":"a2","criteria":"`+"支持行内链接、引用式链接、自动链接三种语法,`go test ./internal/extract/...` 全部通过"+`","status":"pass","evidence":"go test ./internal/extract/... 通过(24 个用例)"},`+
			`{"id":"a3","criteria":"`+"`internal/extract` 单元测试覆盖率 ≥ 85%%(以 `go test -cover` 输出为准)"+`","status":"pass","evidence":"go test -cover 输出 coverage: 91.2%% of statements"}]}`, ts, i+1, res, i)
	}
	return fmt.Sprintf(`{"timestamp":%q,"sprint_id":"sprint_20260421_1","feature_id":"f001","phase":2,"event_type":"checkpoint","checkpoint_id":"cp-f001-1","checkpoint_type":"review","decision":"approved","user_reply_raw":"1a 2b","reason":"用户确认:引用式链接的处理方式 a,超时策略 b","blockers_resolved":[{"id":"q1","answer":"a","feedback":null},{"id":"catch_all","answer":"a","feedback":"没有其他问题"}]}`, ts)
}

// bigHookLog writes size bytes of realistic hook.log records: the
// sprint's history (allows and a denial now and then, earlier days), then
// the two running sessions of the fixture's pool, each from its
// SessionStart record (f001 at 01:50, f002 at 02:42) at one tool call per
// 5 s up to 03:00.
func bigHookLog(p string, size int64) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufioWriter(f)
	rec := func(t time.Time, i int) string {
		ts := t.UTC().Format("2006-01-02T15:04:05Z")
		if i%50 == 0 {
			return fmt.Sprintf(`{"time":%q,"event":"PreToolUse","session":"sess_old_%d","feature":"f001","tool":"Bash","verdict":"block","rule":"fs.rm-recursive-force","reason":"harness-hook blocked this Bash command [fs.rm-recursive-force]","command":"rm -rf build/%d","duration_us":900}`+"\n", ts, i/5000, i)
		}
		return fmt.Sprintf(`{"time":%q,"event":"PreToolUse","session":"sess_old_%d","feature":"f001","tool":"Bash","verdict":"allow","command":"go test ./internal/extract/... -run TestRefLinks -count=1 2>&1 | tail -n 20 # %d","monitor":{"context_tokens":41230,"context_window":200000,"token_usage_ratio":"0.2062","retries":0,"session_age_s":1800},"duration_us":1200}`+"\n", ts, i/5000, i)
	}
	start := time.Date(2026, 4, 21, 1, 0, 0, 0, time.UTC)
	sessions := start.Add(50 * time.Minute)
	var tail []string
	for t := sessions; t.Before(start.Add(2 * time.Hour)); t = t.Add(5 * time.Second) {
		if t.Equal(sessions) {
			tail = append(tail, `{"time":"2026-04-21T01:50:00Z","event":"SessionStart","session":"sess_7f3a9c21","feature":"f001","verdict":"allow","duration_us":3000}`+"\n")
		}
		if t.Equal(time.Date(2026, 4, 21, 2, 42, 0, 0, time.UTC)) {
			tail = append(tail, `{"time":"2026-04-21T02:42:00Z","event":"SessionStart","session":"sess_b41d0e88","feature":"f002","verdict":"allow","duration_us":3000}`+"\n")
		}
		tail = append(tail, strings.Replace(rec(t, 1+len(tail)), `"sess_old_0"`, `"sess_7f3a9c21"`, 1))
	}
	var tailSize int64
	for _, l := range tail {
		tailSize += int64(len(l))
	}
	// history: one record a second, ending before the sessions
	var hist []byte
	var n int64
	for i := 0; n < size-tailSize; i++ {
		l := rec(start.Add(-time.Duration(i)*time.Second), i)
		hist = append(hist, l...)
		n += int64(len(l))
	}
	// written oldest first
	lines := bytes.SplitAfter(hist, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		w.Write(lines[i])
	}
	for _, l := range tail {
		w.WriteString(l)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func goVersion() string { return runtimeVersion() }
