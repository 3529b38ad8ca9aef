package render

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/messages/*.golden from the templates")

// messageCases are the messages of docs/protocol.md §5, §6.1 and §9.2, one
// per form, rendered from realistic data. Each has a golden file
// testdata/messages/<name>.golden holding the title, the reply format and
// the text; `go test ./internal/render -update` rewrites them after a
// deliberate template change (review the diff).
func messageCases(t *testing.T) map[string]Message {
	t.Helper()
	tooling := []Blocker{
		{ID: "b1", Question: "hello.sh 用哪种 shell?", Options: []string{"POSIX sh", "bash"}},
		{ID: "b2", Question: "Generator 可以 push 吗?", Options: []string{"a. 不可以", "b. 只推自己的分支"}},
		{ID: CatchAllID, Question: "还有其他你觉得不对的地方吗?", Options: []string{"a. 没有", "b. 有(请详述)"}},
	}
	verify := []Blocker{
		{ID: CatchAllID, Question: "还有其他你觉得不对的地方吗?", Options: []string{"a. 没有", "b. 有(请详述)"}},
		{ID: "b1", Question: "报告按文件还是按状态分组?", Options: []string{"按文件", "按状态"}},
		{ID: "b2", Question: "死链是否让命令以 1 退出?", Options: []string{"是", "否", "只在 --strict 时"}},
	}
	gate := Checkpoint{CheckpointID: "cp-f003-1", FeatureID: "f003", Name: "linkcheck-cli", Done: "f003 的 phase 3 (verify)",
		Prompt: "端到端检查全部通过,交付前请确认报告格式。", Blockers: verify}
	sprintGate := Checkpoint{CheckpointID: "cp-sprint-tooling", FeatureID: "sprint_20260421_1", Name: "工具选型 (phase 0)",
		Done: "sprint_20260421_1 的工具选型草案 (tooling.md)", Blockers: tooling}
	review := Checkpoint{CheckpointID: "cp-f001-1", FeatureID: "f001", Name: "调研", Done: "f001 的 phase 1 (plan)",
		Prompt: "调研报告覆盖了 12 个来源。", Blockers: []Blocker{{ID: "b1", Question: "来源够全吗?", Options: []string{"OK", "需要调整"}}}}
	reviewBare := Checkpoint{CheckpointID: "cp-f001-2", FeatureID: "f001", Name: "调研", Done: "f001 的 phase 2 (implement)",
		Prompt: "转写稿已整理完毕。"}
	notify := Checkpoint{CheckpointID: "cp-f002-1", FeatureID: "f002", Name: "prober", Done: "f002 的 phase 4 (deliver)",
		Prompt: "探测模块已交付,提交 1a2b3c4。"}
	second := Checkpoint{CheckpointID: "cp-f004-2", FeatureID: "f004", Name: "exporter", Done: "f004 的 phase 2 (implement)",
		Blockers: []Blocker{{ID: "b1", Question: "导出 CSV 还是 JSON?", Options: []string{"CSV", "JSON"}},
			{ID: CatchAllID, Question: "还有其他你觉得不对的地方吗?", Options: []string{"a. 没有", "b. 有(请详述)"}}}}
	must := func(m Message, err error) Message {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	return map[string]Message{
		"gate":                  must(CheckpointMessage("gate", gate)),
		"gate_sprint_tooling":   must(CheckpointMessage("gate", sprintGate)),
		"review":                must(CheckpointMessage("review", review)),
		"review_no_points":      must(CheckpointMessage("review", reviewBare)),
		"notify":                must(CheckpointMessage("notify", notify)),
		"reminder_24h":          must(ReminderMessage(Reminder{Checkpoint: gate, WaitedHours: 25, Parallel: []string{"f004 exporter", "f005 docs"}})),
		"reminder_24h_alone":    must(ReminderMessage(Reminder{Checkpoint: gate, WaitedHours: 24})),
		"reminder_72h":          must(ReminderMessage(Reminder{Checkpoint: gate, Urgent: true, WaitedHours: 73})),
		"reminder_72h_parallel": must(ReminderMessage(Reminder{Checkpoint: gate, Urgent: true, WaitedHours: 80, Parallel: []string{"f005 docs"}})),
		"yolo_abort":            must(YoloAbortMessage(YoloAbort{Sprint: "sprint_20260421_4", Cause: "retry_count_in_sprint = 2 ≥ 2", Checkpoints: []Checkpoint{gate, second}})),
		"finalizing":            must(FinalizingMessage(Finalizing{Sprint: "sprint_20260421_1", Checks: 9, Passed: 9})),
		"finalizing_bump":       must(FinalizingMessage(Finalizing{Sprint: "sprint_20260421_3", Checks: 9, Passed: 8, Failed: 1, Errors: 2, Infos: 1, Problems: []string{"2. 选型理由:tooling.md 第 3 节有 1 个选择没有理由"}, Pipeline: "hello-pipeline", Version: "1.1.0"})),
		"finalizing_forced":     must(FinalizingMessage(Finalizing{Sprint: "sprint_20260421_2", Checks: 9, Passed: 5, Failed: 4, Errors: 14, ForcedClose: true})),
		"done_sunk":             must(SprintDoneMessage(SprintDone{Sprint: "sprint_20260421_3", Outcome: "sunk", Pipeline: "hello-pipeline", Version: "1.2.0", Archive: "/home/u/.hermes/pipelines/hello-pipeline/runs/sprint_20260421_3"})),
		"done_closed":           must(SprintDoneMessage(SprintDone{Sprint: "sprint_20260421_2", Outcome: "closed", Archive: "/home/u/sprints/sprint_20260421_2/.harness"})),
	}
}

func goldenText(m Message) string {
	return "title: " + m.Title + "\nreply_format: " + strings.ReplaceAll(m.ReplyFormat, "\n", `\n`) + "\n---\n" + m.Text
}

func TestMessagesMatchGoldenFiles(t *testing.T) {
	cases := messageCases(t)
	dir := filepath.Join("testdata", "messages")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, m := range cases {
		path := filepath.Join(dir, name+".golden")
		if *update {
			if err := os.WriteFile(path, []byte(goldenText(m)), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run go test ./internal/render -update)", name, err)
			continue
		}
		if got := goldenText(m); got != string(want) {
			t.Errorf("%s: message differs from %s\n--- got\n%s\n--- want\n%s", name, path, got, want)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if _, ok := cases[strings.TrimSuffix(e.Name(), ".golden")]; !ok {
			t.Errorf("%s: golden file without a case", e.Name())
		}
	}
}

// TestMessageFormats checks the protocol facts of each message
// (docs/protocol.md §5 message table) independently of the golden files, so
// an -update cannot silently accept a drifted format.
func TestMessageFormats(t *testing.T) {
	c := messageCases(t)
	lines := func(m Message) []string { return strings.Split(m.Text, "\n") }
	has := func(name string, re string) {
		t.Helper()
		rx := regexp.MustCompile(re)
		for _, l := range lines(c[name]) {
			if rx.MatchString(l) {
				return
			}
		}
		t.Errorf("%s: no line matches %s:\n%s", name, re, c[name].Text)
	}
	for name, m := range c {
		if first := lines(m)[0]; first != m.Title {
			t.Errorf("%s: title %q is not the first line %q", name, m.Title, first)
		}
		if !strings.HasPrefix(m.Title, "【") {
			t.Errorf("%s: title %q has no 【marker】", name, m.Title)
		}
		if strings.Contains(m.Text, "http") {
			t.Errorf("%s: a message carries no links", name)
		}
		// No English tails: the fixed wording is Chinese (the data may not be).
		for _, eng := range []string{"Reply", "reply like", "No reply", "Without a reply", "Cause:", "Answer each", "Artifacts are not", "has waited", "To pause"} {
			if strings.Contains(m.Text, eng) {
				t.Errorf("%s: English wording %q", name, eng)
			}
		}
	}
	// gate: title, intro with N = number of questions, numbered blockers with
	// indented a./b. options, catch_all last, the 1a 2a 3a hint.
	has("gate", `^【Checkpoint】f003 linkcheck-cli$`)
	has("gate", `^我做完了 f003 的 phase 3 \(verify\),有 3 个地方要你确认:$`)
	has("gate", `^3\. 还有其他你觉得不对的地方吗\?$`)
	has("gate", "^   c\\. 只在 --strict 时$")
	has("gate", "`1a 2a 3a`")
	has("gate_sprint_tooling", `^我做完了 .+,有 3 个地方要你确认:$`)
	if c["gate"].ReplyFormat != "1a 2a 3a" {
		t.Errorf("gate reply_format %q", c["gate"].ReplyFormat)
	}
	// review: 48 h default approval in the title, no answer = approval.
	has("review", `^【Review】f001 调研\(48h 默认通过\)$`)
	has("review", `^   b\. 需要调整$`)
	has("review", `48 小时内没有回复,即视为通过`)
	has("review_no_points", `48 小时内没有回复,即视为通过`)
	if c["review_no_points"].ReplyFormat != "" {
		t.Errorf("a review without points asks for no particular answer")
	}
	// notify: done, no reply, where the record is.
	has("notify", `^【Notify】f002 已完成$`)
	has("notify", `无需回复.*eval_log`)
	if c["notify"].ReplyFormat != "" {
		t.Error("notify asks for no reply")
	}
	// reminders: cp id + hours waited; the 24 h one lists parallel features.
	has("reminder_24h", `^【催办】Checkpoint cp-f003-1\(已等待 25 小时\)$`)
	has("reminder_24h", `waiting_human.*f004 exporter、f005 docs`)
	has("reminder_24h_alone", `waiting_human`)
	has("reminder_72h", `^【催办-紧急】Checkpoint cp-f003-1\(已等待 73 小时\)$`)
	has("reminder_72h", `所有不依赖它的 feature 都已完成,sprint 真的卡住了`)
	has("reminder_72h", "`suspend`")
	has("reminder_72h_parallel", `f005 docs`)
	// YOLO abort: cause, count, ========== n. cp - name ========== blocks
	// with the original blockers, cp<n>: reply lines.
	has("yolo_abort", `^【YOLO 已退出,请回来审】$`)
	has("yolo_abort", `^原因:retry_count_in_sprint = 2 ≥ 2$`)
	has("yolo_abort", ` 2 个 checkpoint 已全部撤销`)
	has("yolo_abort", `^========== 1\. cp-f003-1 - linkcheck-cli ==========$`)
	has("yolo_abort", `^========== 2\. cp-f004-2 - exporter ==========$`)
	has("yolo_abort", `^cp1: 1a 2a 3a$`)
	has("yolo_abort", `^cp2: 1a 2a$`)
	if c["yolo_abort"].ReplyFormat != "cp1: 1a 2a 3a\ncp2: 1a 2a" {
		t.Errorf("abort reply_format %q", c["yolo_abort"].ReplyFormat)
	}
	delims := regexp.MustCompile(`(?m)^========== \d+\. `).FindAllString(c["yolo_abort"].Text, -1)
	if len(delims) != 2 {
		t.Errorf("abort message has %d delimiter lines, want 2", len(delims))
	}
	// finalizing: totals, a/b/c, 72 h = b.
	has("finalizing", `^【Sprint finalizing】sprint_20260421_1$`)
	has("finalizing", `9 项,通过 9 项,未通过 0 项`)
	has("finalizing", `^   a\. 沉淀为 pipeline:新建 pipeline v1\.0$`)
	has("finalizing_bump", `^   a\. 沉淀为 pipeline:hello-pipeline 升级版本`)
	has("finalizing", `^   b\. 只归档\(closed\)$`)
	has("finalizing", `^   c\. 先看 pipeline 抽象草稿`)
	has("finalizing", `72 小时内没有回复,按 b`)
	has("finalizing_forced", `不能沉淀`)
	if c["finalizing"].ReplyFormat != "a | b | c" {
		t.Errorf("finalizing reply_format %q", c["finalizing"].ReplyFormat)
	}
	// done: outcome and where the archive is.
	has("done_sunk", `^【Sprint 完成】sprint_20260421_3$`)
	has("done_sunk", `hello-pipeline v1\.2\.0`)
	has("done_closed", `已归档\(closed\)`)
	has("done_closed", `^归档位置:/home/u/sprints/sprint_20260421_2/\.harness$`)
	if _, err := SprintDoneMessage(SprintDone{Sprint: "s", Outcome: "maybe"}); err == nil {
		t.Error("unknown outcome accepted")
	}
}
