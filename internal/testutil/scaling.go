package testutil

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Workspaces of the scaling benchmarks and tests (scripts/benchlatency
// -scaling, internal/reliability's scaling tests; docs/performance.md
// "Scaling with the sprint's history"): valid-midway with f002's phase-1
// records complete, an eval_log padded in the shapes of issue 13, a large
// hook.log.

// StopReadyWorkspace copies the sprint fixture src (valid-midway) to root,
// adds src/main.go, and completes f002's phase-1 records (generator_log
// section, next_phases done, the phase_evaluation pass as eval_log's last
// line), so Stop for f002 runs every check and allows.
func StopReadyWorkspace(src, root string) error {
	if err := CopyDir(src, root); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "src", "main.go"), []byte("package main\n\nfunc main() { a() }\n"), 0o644); err != nil {
		return err
	}
	h := filepath.Join(root, ".harness")
	genlog := filepath.Join(h, "features", "f002", "generator_log.md")
	old, err := os.ReadFile(genlog)
	if err != nil {
		return err
	}
	section := "\n---\n\n## phase=1 plan — 2026-04-21T03:00:00Z\n\n### 做了什么\n把 f002 拆成 3 个子任务:并发调度器、超时与 DNS 失败分类、429/503 的 Retry-After 重试。\n\n" +
		"### 关键决策\n- 使用 errgroup 限制并发数,默认 8,与 acceptance a1 一致。\n\n### 产出物\n- 子任务清单\n\n### 遇到的问题 / 偏差\n- 无\n"
	if err := os.WriteFile(genlog, append(old, section...), 0o644); err != nil {
		return err
	}
	fl, err := os.ReadFile(filepath.Join(h, "feature_list.json"))
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(fl, &doc); err != nil {
		return err
	}
	for _, f := range doc["features"].([]any) {
		if fm := f.(map[string]any); fm["id"] == "f002" {
			fm["next_phases"].([]any)[0].(map[string]any)["done"] = true
		}
	}
	if fl, err = json.MarshalIndent(doc, "", "  "); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(h, "feature_list.json"), fl, 0o644); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(h, "eval_log.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(`{"timestamp":"2026-04-21T03:05:00Z","sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f002","phase":1,"iteration":1,"event_type":"phase_evaluation","result":"pass","reason":"拆出 3 个子任务:并发调度、超时分类、Retry-After 重试,分别覆盖 acceptance a1、a2、a3"}` + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// EvalPaddingLine is line i of the padding shape: f001 retry lines that
// never name f002 (the shape of the first Stop benchmarks).
func EvalPaddingLine(i int) string {
	return fmt.Sprintf(`{"timestamp":"2026-04-21T02:%02d:%02dZ","sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f001","phase":2,"iteration":%d,"event_type":"retry","result":"retry","reason":"第 %d 次重试:解析器在引用式链接定义上漏报,补充表驱动用例后重跑 a2"}`, (i/60)%60, i%60, i+1, i+1)
}

// EvalMentionLine is line i of the shape where every line mentions the
// checked feature: f002 phase=2 passing verdicts.
func EvalMentionLine(i int) string {
	return fmt.Sprintf(`{"timestamp":"2026-04-21T02:%02d:%02dZ","sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f002","phase":2,"iteration":%d,"event_type":"phase_evaluation","result":"pass","reason":"第 %d 轮:f002 并发调度与超时分类的用例全部通过,覆盖 a1 a2"}`, (i/60)%60, i%60, i+1, i+1)
}

// PadEvalLog writes lines lines to the workspace's eval_log.jsonl: the
// fixture's, then line(i) padding, then f002's phase-1 pass last (so the
// records Stop checks stay complete).
func PadEvalLog(root string, lines int, line func(i int) string) error {
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
	w := bufio.NewWriterSize(f, 1<<20)
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

// EvalRealShapedLine is line i of a real-shaped eval_log: it alternates a phase verdict of f001 with acceptance_results
// (its three acceptance items verbatim) and a checkpoint entry with
// blockers_resolved.
func EvalRealShapedLine(i int) string {
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

// WriteHookLog writes size bytes of realistic hook.log records: the
// sprint's history (allows and a denial now and then, earlier days), then
// the two running sessions of the fixture's pool, each from its
// SessionStart record (f001 at 01:50, f002 at 02:42) at one tool call per
// 5 s up to 03:00.
func WriteHookLog(p string, size int64) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
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

// LedgerEvalLog records every line of the workspace's eval_log.jsonl in
// the provenance ledger (hermes_context_state.json eval_log_ledger, from
// offset 0, in the file format: {"since": 0, "format": 2} and one line per
// entry in .harness/logs/eval_ledger.jsonl): the shape of a sprint whose
// every line a Hermes-side command appended. Each entry is {at, sha256} as
// workspace.LineHash writes it (the first 8 bytes of the line's SHA-256,
// hex).
func LedgerEvalLog(root string) error { return ledgerEvalLog(root, false) }

// LedgerEvalLogInline is LedgerEvalLog in the inline format (the entries
// in eval_log_ledger.lines), as sprints written before the file format
// keep it.
func LedgerEvalLogInline(root string) error { return ledgerEvalLog(root, true) }

func ledgerEvalLog(root string, inline bool) error {
	h := filepath.Join(root, ".harness")
	data, err := os.ReadFile(filepath.Join(h, "eval_log.jsonl"))
	if err != nil {
		return err
	}
	var lines []any
	at := 0
	for at < len(data) {
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data) - at
		}
		sum := sha256.Sum256(data[at : at+end])
		lines = append(lines, map[string]any{"at": at, "sha256": hex.EncodeToString(sum[:8])})
		at += end + 1
	}
	p := filepath.Join(h, "hermes_context_state.json")
	hc := map[string]any{}
	if b, err := os.ReadFile(p); err == nil {
		if err := json.Unmarshal(b, &hc); err != nil {
			return err
		}
	}
	if inline {
		hc["eval_log_ledger"] = map[string]any{"since": 0, "lines": lines}
	} else {
		var file []byte
		for _, l := range lines {
			e := l.(map[string]any)
			file = fmt.Appendf(file, "{\"at\":%d,\"sha256\":%q}\n", e["at"], e["sha256"])
		}
		if err := os.MkdirAll(filepath.Join(h, "logs"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(h, "logs", "eval_ledger.jsonl"), file, 0o644); err != nil {
			return err
		}
		hc["eval_log_ledger"] = map[string]any{"since": 0, "format": 2, "lines": []any{}}
	}
	out, err := json.MarshalIndent(hc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(p, out, 0o644)
}
