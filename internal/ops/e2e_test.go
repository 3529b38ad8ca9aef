package ops_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/cli"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/hook"
)

// sprintRun drives `harness` in-process against one workspace with a fake
// clock that advances one minute per command.
type sprintRun struct {
	t       *testing.T
	root    string
	home    string
	tmp     string
	hookBin string
	now     time.Time
	step    int
}

// run executes one harness command and returns its exit code and output.
func (s *sprintRun) run(stdin string, args ...string) (int, string) {
	s.t.Helper()
	s.now = s.now.Add(time.Minute)
	env := map[string]string{
		"HARNESS_NOW": s.now.Format("2006-01-02T15:04:05Z"),
		"HERMES_HOME": s.home,
		"PATH":        os.Getenv("PATH"),
	}
	var out, errb bytes.Buffer
	code := cli.Run(args, strings.NewReader(stdin), &out, &errb, env, "test")
	return code, out.String() + errb.String()
}

// ok runs a command that must succeed and then checks `harness validate`.
func (s *sprintRun) ok(args ...string) string {
	s.t.Helper()
	return s.okIn("", args...)
}

func (s *sprintRun) okIn(stdin string, args ...string) string {
	s.t.Helper()
	code, out := s.run(stdin, args...)
	if code != 0 {
		s.t.Fatalf("harness %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	s.validate(args)
	return out
}

// refused runs a command that must exit 1 and leave the workspace valid.
func (s *sprintRun) refused(args ...string) string {
	s.t.Helper()
	code, out := s.run("", args...)
	if code != 1 {
		s.t.Fatalf("harness %s: exit %d, want 1 (refused)\n%s", strings.Join(args, " "), code, out)
	}
	s.validate(args)
	return out
}

func (s *sprintRun) validate(after []string) {
	s.t.Helper()
	s.step++
	code, out := s.run("", "validate", "--root", s.root)
	if code != 0 {
		s.t.Fatalf("step %d: validate fails after `harness %s`:\n%s", s.step, strings.Join(after, " "), out)
	}
}

func (s *sprintRun) stamp() string { return s.now.Format("2006-01-02T15:04:05Z") }

func (s *sprintRun) write(rel, content string) string {
	s.t.Helper()
	p := filepath.Join(s.tmp, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// stop runs the real Stop hook for fid and reports whether it blocks.
func (s *sprintRun) stop(fid string) bool {
	s.t.Helper()
	payload := fmt.Sprintf(`{"hook_event_name":"Stop","stop_hook_active":false,"session_id":"e2e-%s","cwd":%q,"transcript_path":%q}`+"\n",
		fid, s.root, filepath.Join(s.tmp, "t.jsonl"))
	var out, errb bytes.Buffer
	code := hook.Run([]string{"--event", "Stop", "--root", s.root, "--feature", fid}, strings.NewReader(payload), &out, &errb,
		map[string]string{"PATH": os.Getenv("PATH")})
	if code == 2 {
		return true
	}
	if code != 0 {
		s.t.Fatalf("stop hook exit %d: %s %s", code, out.String(), errb.String())
	}
	var res map[string]any
	if strings.TrimSpace(out.String()) != "" {
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			s.t.Fatalf("stop hook output %q: %v", out.String(), err)
		}
	}
	return res["decision"] == "block"
}

// sessionStartHook appends the hook.log record the SessionStart hook writes
// when session sid of fid starts (internal/hook Record), dated with the
// test's clock: preflight --stage started takes it as the proof that the
// session's hooks are live. (The hook dates its records with the real
// clock; the chain hook → record → preflight is run by internal/e2e and the
// walkthrough script.)
func (s *sprintRun) sessionStartHook(fid, sid string) {
	s.t.Helper()
	rec := fmt.Sprintf(`{"time":%q,"event":"SessionStart","session":%q,"feature":%q,"verdict":"allow","duration_us":900}`, s.stamp(), sid, fid)
	if err := fsutil.AppendLine(filepath.Join(s.root, ".harness", "logs", "hook.log"), []byte(rec)); err != nil {
		s.t.Fatal(err)
	}
}

// section appends a phase section to the feature's generator_log.md as the
// Generator does (its heading timestamp is the current fake time).
func (s *sprintRun) section(fid string, phase int, action string) {
	s.t.Helper()
	s.now = s.now.Add(time.Minute)
	p := filepath.Join(s.root, ".harness", "features", fid, "generator_log.md")
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "\n## phase=%d %s — %s\n\n### 做了什么\n%s 的 phase=%d:按 context_snapshot 的 acceptance 逐项推进,产出物路径写在下面,命令输出已核对。\n\n### 关键决策\n按常规实现,无特殊决策\n\n### 产出物\n- linkcheck/%s/phase%d.go\n",
		phase, action, s.stamp(), fid, phase, fid, phase)
}

func (s *sprintRun) readJSON(rel string) map[string]any {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join(s.root, rel))
	if err != nil {
		s.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		s.t.Fatalf("%s: %v", rel, err)
	}
	return m
}

func (s *sprintRun) feature(fid string) map[string]any {
	fl := s.readJSON(".harness/feature_list.json")
	for _, f := range fl["features"].([]any) {
		m := f.(map[string]any)
		if m["id"] == fid {
			return m
		}
	}
	s.t.Fatalf("feature %s missing", fid)
	return nil
}

func (s *sprintRun) evalLines() []map[string]any {
	b, err := os.ReadFile(filepath.Join(s.root, ".harness", "eval_log.jsonl"))
	if err != nil {
		s.t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			s.t.Fatalf("eval_log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

const toolingMD = `# Tooling: sprint_20260502_1

**Sprint**: sprint_20260502_1
**Generated by**: Hermes
**Generated at**: 2026-05-02T09:00:00Z

## 1. 任务能力清单
- Markdown 解析
- HTTP 探测

## 2. 能力 → 工具映射
| 能力 | 工具 | 来源 | 调用 | 备注 |
|---|---|---|---|---|
| Markdown 解析 | goldmark | 新增 | go get | |
| HTTP 探测 | net/http | 已有 | 标准库 | |

## 3. 选型决策记录
- Markdown 解析:选 goldmark,弃 blackfriday,理由:goldmark 提供源码偏移,可换算行列号
- HTTP 探测:选 net/http,弃 resty,因为标准库足够且无新依赖

## 4. 禁止清单
- 不推送 main 分支

## 5. 全局约束
- 仅 Linux 与 macOS

## 6. 运行时新增(feature 执行中引入的工具)

## 用户签字

- Checkpoint id: cp-sprint-tooling
- Approved at: (pending)
- Feedback: (pending)
`

func writePlan(t *testing.T, s *sprintRun) {
	fl := s.readJSON(".harness/feature_list.json")
	np := func() []any {
		return []any{
			map[string]any{"phase": 1, "action": "plan", "done": false, "current": true},
			map[string]any{"phase": 2, "action": "implement", "done": false, "current": false},
			map[string]any{"phase": 3, "action": "verify", "done": false, "current": false},
			map[string]any{"phase": 4, "action": "deliver", "done": false, "current": false},
		}
	}
	feat := func(id, name string, deps []string, acc []string, cps []any) map[string]any {
		return map[string]any{
			"id": id, "name": name, "status": "pending", "assignee": "claude-code", "priority": "P1", "phase": 1,
			"next_phases": np(), "execution_path": "generator_cc", "acceptance": acc, "verification_mode": "automated",
			"depends_on": deps, "parent_id": nil, "commit": nil, "created_at": "2026-05-02T09:00:00Z", "completed_at": nil,
			"sprint_id": "sprint_20260502_1", "checkpoints": cps,
		}
	}
	var planned []any
	if err := json.Unmarshal([]byte(gateBlockers), &planned); err != nil {
		t.Fatal(err)
	}
	planned = append(planned, map[string]any{"id": "catch_all", "question": "还有其他你觉得不对的地方吗?", "options": []string{"a. 没有", "b. 有(请详述)"}})
	fl["pipeline_id"] = "linkcheck-demo"
	fl["pipeline_version"] = "1.0.0"
	fl["features"] = []any{
		feat("f001", "extractor", []string{}, []string{"Extract 返回每个链接的行号", "go test ./internal/extract 通过"}, []any{
			map[string]any{"id": "cp-f001-1", "phase": 1, "type": "gate", "status": "pending", "blockers": planned},
			map[string]any{"id": "cp-f001-2", "phase": 4, "type": "gate", "status": "pending", "blockers": planned, "external_irreversible": true},
		}),
		feat("f002", "prober", []string{"f001"}, []string{"HEAD 请求超时 5s 可配置"}, []any{
			map[string]any{"id": "cp-f002-1", "phase": 1, "type": "gate", "status": "pending", "blockers": planned},
		}),
	}
	b, _ := json.MarshalIndent(fl, "", "  ")
	mustWrite(t, filepath.Join(s.root, ".harness", "feature_list.json"), b)
	contract := map[string]any{
		"sprint_id": "sprint_20260502_1", "created_at": "2026-05-02T09:00:00Z", "created_by": "hermes",
		"generator_contract": "完成 f001、f002 的 4 个 phase,phase=3 逐条给出 acceptance_results",
		"features":           []string{"f001", "f002"},
		"evaluator_criteria": map[string]any{"pass": "完成标志全部满足", "retry": "可修复的失败", "fail": "方向错误"},
		"status":             "planning",
	}
	b, _ = json.MarshalIndent(contract, "", "  ")
	dir := filepath.Join(s.root, ".harness", "sprint_contracts", "sprint_20260502_1")
	mustWrite(t, filepath.Join(dir, "contract.json"), b)
	mustWrite(t, filepath.Join(dir, "tooling.md"), []byte(toolingMD))
}

func mustWrite(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

const gateBlockers = `[
 {"id":"b1","question":"范围是否合适?","options":["a. 合适","b. 缩小"]},
 {"id":"b2","question":"依赖是否正确?","options":["a. 正确","b. 调整"]}
]`

const sprintGateBlockers = `[
 {"id":"b1","question":"工具选型?","options":["a. 同意","b. 调整"]},
 {"id":"b2","question":"禁止清单?","options":["a. 同意","b. 补充"]},
 {"id":"b3","question":"全局约束?","options":["a. 同意","b. 补充"]}
]`

// phase runs one Generator phase (section, eval entry, phase complete).
func (s *sprintRun) phase(fid string, p int, action string, extra ...string) {
	s.t.Helper()
	s.section(fid, p, action)
	args := []string{"eval", "append", "--root", s.root, "--feature", fid, "--phase", fmt.Sprint(p), "--event", "phase_evaluation",
		"--result", "pass", "--reason", fmt.Sprintf("%s phase=%d %s 完成:产出物与自检结果见 generator_log", fid, p, action)}
	s.ok(append(args, extra...)...)
	if fid == "f001" && !s.stop(fid) {
		s.t.Fatalf("Stop allowed %s phase=%d before phase complete", fid, p)
	}
	s.ok("phase", "complete", "--root", s.root, fid)
	if fid == "f001" && s.stop(fid) {
		s.t.Fatalf("Stop blocks %s phase=%d after phase complete", fid, p)
	}
}

func TestEndToEndSprint(t *testing.T) {
	tmp := t.TempDir()
	s := &sprintRun{t: t, tmp: tmp, home: filepath.Join(tmp, "hermes"), now: time.Date(2026, 5, 2, 9, 0, 0, 0, time.UTC).Add(24 * time.Hour * 365 * 3)}
	// The fake clock runs ahead of the wall clock, so file mtimes (handoffs)
	// are always older than what the commands record.
	s.root = filepath.Join(tmp, "sprint_20260502_1")
	hook := "harness-hook"
	if runtime.GOOS == "windows" {
		hook += ".exe"
	}
	s.hookBin = filepath.Join(tmp, "bin", hook)
	mustWrite(t, s.hookBin, []byte("#!/bin/sh\nexit 0\n"))
	os.Chmod(s.hookBin, 0o755)

	// STEP 1: init; STEP 2: the Planner writes the plan.
	if code, out := s.run("", "init", "--root", s.root, "--sprint", "sprint_20260502_1"); code != 0 {
		t.Fatalf("init: %d\n%s", code, out)
	}
	writePlan(t, s)
	s.validate([]string{"(plan written)"})

	// A pipeline with a qualifying record: YOLO on.
	mustWrite(t, filepath.Join(s.home, "pipelines", "linkcheck-demo", "pipeline.yaml"), []byte(
		"id: linkcheck-demo\nversion: 1.0.0\nname: linkcheck demo\nstats:\n  total_runs: 4\n  total_success_rate: 1.0\nversion_history:\n  - version: 1.0.0\n    created: 2026-04-01T00:00:00Z\n"))
	out := s.ok("yolo", "check", "--root", s.root)
	if !strings.Contains(out, "eligible true") {
		t.Fatalf("yolo check: %s", out)
	}

	// Sprint gates. An incomplete reply is refused with a question.
	sgb := s.write("sprint-gate.json", sprintGateBlockers)
	s.ok("checkpoint", "open", "--root", s.root, "cp-sprint-tooling", "--blockers", sgb, "--prompt", "tooling.md 已起草")
	if out := s.refused("checkpoint", "reply", "--root", s.root, "cp-sprint-tooling", "1a 2a"); !strings.Contains(out, "请补充第 3、4 题") {
		t.Fatalf("want a follow-up question, got %s", out)
	}
	s.ok("checkpoint", "reply", "--root", s.root, "cp-sprint-tooling", "1a 2a 3a 4a")
	if fl := s.readJSON(".harness/feature_list.json"); fl["tooling_locked"] != true {
		t.Fatalf("tooling not locked after approval")
	}
	if tm, _ := os.ReadFile(filepath.Join(s.root, ".harness", "sprint_contracts", "sprint_20260502_1", "tooling.md")); !strings.Contains(string(tm), "- Approved at: 20") || !strings.Contains(string(tm), "- Feedback: 无") {
		t.Fatalf("tooling.md sign-off not filled:\n%s", tm)
	}
	s.refused("session", "start", "--root", s.root, "f001", "--session-id", "sess_x", "--type", "cc-print") // DAG gate not approved (Z11)
	s.ok("checkpoint", "open", "--root", s.root, "cp-sprint-dag", "--blockers", sgb)
	s.ok("checkpoint", "reply", "--root", s.root, "cp-sprint-dag", "1 选 a, 2: a 3a 4a")
	if rt := s.readJSON(".harness/runtime_state.json"); rt["mode"] != "active" {
		t.Fatalf("mode after DAG approval = %v", rt["mode"])
	}
	if c := s.readJSON(".harness/sprint_contracts/sprint_20260502_1/contract.json"); c["status"] != "active" {
		t.Fatalf("contract status after DAG approval = %v", c["status"])
	}

	// f001: start.
	if out := s.ok("next", "--root", s.root); !strings.Contains(out, "start now: f001") || !strings.Contains(out, "wait f002: depends on f001") {
		t.Fatalf("next: %s", out)
	}
	s.ok("init-feature", "--root", s.root, "f001", "--hook-bin", s.hookBin)
	s.ok("preflight", "--root", s.root, "--stage", "launch", "f001")
	s.refused("preflight", "--root", s.root, "--stage", "started", "f001")
	s.ok("session", "start", "--root", s.root, "f001", "--session-id", "sess_f001", "--type", "cc-print")
	s.refused("preflight", "--root", s.root, "--stage", "started", "f001") // no SessionStart hook record: hooks not proven live
	s.sessionStartHook("f001", "sess_f001")
	s.ok("preflight", "--root", s.root, "--stage", "started", "f001")
	if f := s.feature("f001"); f["status"] != "in_progress" {
		t.Fatalf("f001 status %v after preflight started", f["status"])
	}

	// f001 phase 1; its gate passes under YOLO.
	s.phase("f001", 1, "plan")
	s.refused("phase", "advance", "--root", s.root, "f001") // gate cp-f001-1 not answered (Z5)
	gb := s.write("gate.json", gateBlockers)
	if out := s.ok("checkpoint", "open", "--root", s.root, "cp-f001-1", "--blockers", gb); !strings.Contains(out, "auto_approved_yolo") {
		t.Fatalf("checkpoint open under YOLO: %s", out)
	}
	s.ok("phase", "advance", "--root", s.root, "f001")
	if !s.stop("f001") {
		t.Fatal("Stop allows f001 right after the advance to phase 2 (no records yet)")
	}
	line := 0
	for i, e := range s.evalLines() {
		if e["feature_id"] == "f001" && e["event_type"] == "phase_evaluation" && e["phase"] == float64(1) {
			line = i + 1
		}
	}
	s.ok("eval", "amend", "--root", s.root, "--line", fmt.Sprint(line), "--reason", "补录: 与 phase=1 verdict 对应的用户选择,详见 cp-f001-1")

	// Phase 2, then a phase-3 retry back to 2.
	s.phase("f001", 2, "implement")
	s.ok("phase", "advance", "--root", s.root, "f001")
	s.section("f001", 3, "verify")
	s.ok("eval", "append", "--root", s.root, "--feature", "f001", "--phase", "3", "--event", "phase_evaluation", "--result", "retry",
		"--reason", "a2 未通过:go test 有 1 个失败用例,修正方向:行号从 1 开始计", "--acceptance-results", "-")
	s.ok("phase", "retry", "--root", s.root, "f001", "--to", "2")
	if !s.stop("f001") {
		t.Fatal("Stop allows f001 after the retry to phase 2 although only stale records exist")
	}
	retries := 0
	for _, e := range s.evalLines() {
		if e["result"] == "retry" {
			retries++
		}
	}
	if retries != 1 {
		t.Fatalf("retry verdict recorded %d times, want once", retries)
	}
	if f := s.feature("f001"); f["phase"] != float64(2) || f["retry_hint"] == nil {
		t.Fatalf("f001 after retry: phase %v retry_hint %v", f["phase"], f["retry_hint"])
	}
	s.phase("f001", 2, "implement")
	s.ok("phase", "advance", "--root", s.root, "f001")
	ar := `[{"id":"a1","status":"pass","evidence":"TestLines 12 个用例全绿"},{"id":"a2","status":"pass","evidence":"go test ./internal/extract exit 0"}]`
	s.section("f001", 3, "verify")
	s.refused("eval", "append", "--root", s.root, "--feature", "f001", "--phase", "3", "--event", "phase_evaluation", "--result", "pass",
		"--reason", "2 条 acceptance 逐条通过,证据见 acceptance_results") // no acceptance_results
	s.okIn(ar, "eval", "append", "--root", s.root, "--feature", "f001", "--phase", "3", "--event", "phase_evaluation", "--result", "pass",
		"--reason", "2 条 acceptance 逐条通过,证据见 acceptance_results", "--acceptance-results", "-")
	s.ok("phase", "complete", "--root", s.root, "f001")
	s.ok("phase", "advance", "--root", s.root, "f001")

	// YOLO abort: the auto-approved gate is revoked and answered again.
	out = s.ok("yolo", "abort", "--root", s.root, "--reason", "f001 phase=3 retry,用户要求人工复核")
	if !strings.Contains(out, "【YOLO 已退出,请回来审】") || !strings.Contains(out, "cp-f001-1") {
		t.Fatalf("yolo abort message: %s", out)
	}
	if out := s.ok("next", "--root", s.root); !strings.Contains(out, "YOLO abort unsettled") {
		t.Fatalf("next after abort: %s", out)
	}
	s.ok("checkpoint", "reply", "--root", s.root, "cp-f001-1", "1a 2a 3a")

	// Phase 4 with the external-irreversible gate (always sent).
	s.phase("f001", 4, "deliver", "--commit", "3f9c2ab")
	if out := s.ok("checkpoint", "open", "--root", s.root, "cp-f001-2", "--blockers", gb); !strings.Contains(out, "【Checkpoint】f001") {
		t.Fatalf("external irreversible gate not sent: %s", out)
	}
	s.ok("checkpoint", "reply", "--root", s.root, "cp-f001-2", "1b 2a 3a")
	out = s.ok("phase", "advance", "--root", s.root, "f001")
	if !strings.Contains(out, "unblocked (dependencies now completed): f002") {
		t.Fatalf("advance to completion: %s", out)
	}
	if f := s.feature("f001"); f["status"] != "completed" || f["commit"] != "3f9c2ab" {
		t.Fatalf("f001 not completed: %v %v", f["status"], f["commit"])
	}

	// f002: start; its plan is rejected, retried, then approved with changes.
	if out := s.ok("next", "--root", s.root); !strings.Contains(out, "start now: f002") {
		t.Fatalf("next: %s", out)
	}
	s.ok("init-feature", "--root", s.root, "f002", "--hook-bin", s.hookBin)
	s.ok("preflight", "--root", s.root, "--stage", "launch", "f002")
	s.ok("session", "start", "--root", s.root, "f002", "--session-id", "sess_f002", "--type", "cc-print")
	s.sessionStartHook("f002", "sess_f002")
	s.ok("preflight", "--root", s.root, "--stage", "started", "f002")
	s.phase("f002", 1, "plan")
	s.ok("checkpoint", "open", "--root", s.root, "cp-f002-1", "--blockers", gb)
	s.ok("checkpoint", "reply", "--root", s.root, "cp-f002-1", "不对,拆分太粗,超时和重试要分开")
	s.refused("phase", "advance", "--root", s.root, "f002")
	s.ok("phase", "retry", "--root", s.root, "f002", "--to", "1")
	if f := s.feature("f002"); f["phase"] != float64(1) {
		t.Fatalf("f002 phase after retry %v", f["phase"])
	}
	s.refused("phase", "complete", "--root", s.root, "f002") // the old section and entry no longer count
	s.phase("f002", 1, "plan")
	s.ok("checkpoint", "open", "--root", s.root, "cp-f002-1", "--blockers", gb)
	s.ok("checkpoint", "reply", "--root", s.root, "cp-f002-1", "1a 2a 3a 超时默认 5s")
	if f := s.feature("f002"); f["retry_hint"] != "超时默认 5s" {
		t.Fatalf("retry_hint %v", f["retry_hint"])
	}
	s.ok("phase", "advance", "--root", s.root, "f002")

	// A feature Reset in phase 2, recorded once, then a new session.
	mustWrite(t, filepath.Join(s.root, ".harness", "features", "f002", "handoff.md"),
		[]byte("**Generated at**: now\n**Feature**: f002\n**Trigger reason**: token_usage_ratio 0.74 > 0.70\n\n## 当前状态\nphase=2 进行中\n"))
	s.ok("session", "reset", "--root", s.root, "f002")
	s.ok("session", "reset", "--root", s.root, "f002")
	resets := 0
	for _, e := range s.evalLines() {
		if e["event_type"] == "reset" && e["feature_id"] == "f002" {
			resets++
			if e["reason"] != "token_usage_ratio 0.74 > 0.70" {
				t.Fatalf("reset reason %v", e["reason"])
			}
		}
	}
	if resets != 1 {
		t.Fatalf("%d reset entries, want 1", resets)
	}
	s.ok("session", "start", "--root", s.root, "f002", "--session-id", "sess_f002b", "--type", "cc-print")

	// Phase 2: the Generator's entry is written, Hermes resets before its
	// verdict; resume records the pending verdict.
	s.section("f002", 2, "implement")
	s.ok("eval", "append", "--root", s.root, "--feature", "f002", "--phase", "2", "--event", "phase_evaluation", "--result", "pass",
		"--reason", "实现 internal/probe 的 HEAD 探测与 5s 超时,go build 通过")
	s.ok("phase", "complete", "--root", s.root, "f002")
	hh := s.write("hermes_handoff.md", "# Hermes Handoff\n\n**Trigger reason**: token > 0.70\n\n## Hermes 当前工作快照\n评审 f002 phase=2\n")
	s.ok("reset", "hermes", "--root", s.root, "--handoff", hh, "--pending-eval", `{"feature_id":"f002","reason":"f002 phase=2 产出物齐全,HEAD 探测实现与计划一致","eval_decision":"pass","fix_direction":""}`)
	out = s.ok("reset", "resume", "--root", s.root)
	if !strings.Contains(out, "recovered verdict: f002 result=pass") {
		t.Fatalf("reset resume: %s", out)
	}
	if out := s.ok("reset", "resume", "--root", s.root); !strings.Contains(out, "already resumed") {
		t.Fatalf("second resume must be a no-op: %s", out)
	}
	s.ok("phase", "advance", "--root", s.root, "f002")
	s.phase("f002", 3, "verify", "--acceptance-results", s.write("ar2.json", `[{"id":"a1","status":"pass","evidence":"TestTimeout: 5s 超时触发"}]`))
	s.ok("phase", "advance", "--root", s.root, "f002")
	s.phase("f002", 4, "deliver", "--commit", "b7e41d0aa")
	s.ok("phase", "advance", "--root", s.root, "f002")

	// STEP 5.
	if code, out := s.run("", "finalize", "--check", "--root", s.root); code != 0 {
		t.Fatalf("finalize --check: exit %d\n%s", code, out)
	}
	if out := s.ok("status", "--root", s.root); !strings.Contains(out, "f002     completed") {
		t.Fatalf("status: %s", out)
	}
	s.ok("pipeline", "sink", "--root", s.root, "--id", "linkcheck-demo", "--change", "minor")
	py, err := os.ReadFile(filepath.Join(s.home, "pipelines", "linkcheck-demo", "pipeline.yaml"))
	if err != nil || !strings.Contains(string(py), "version: 1.1.0") || !strings.Contains(string(py), "total_runs: 5") {
		t.Fatalf("pipeline.yaml after sink: %v\n%s", err, py)
	}
	if c := s.readJSON(".harness/sprint_contracts/sprint_20260502_1/contract.json"); c["status"] != "sunk" {
		t.Fatalf("contract status %v after sink", c["status"])
	}
	if code, out := s.run("", "finalize", "--check", "--root", s.root); code != 0 {
		t.Fatalf("finalize --check after sink: exit %d\n%s", code, out)
	}
}
