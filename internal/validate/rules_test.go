package validate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mutation edits a copy of a valid fixture and names the rule ids that must
// then be reported as errors (none: the workspace must stay valid).
type mutation struct {
	name     string
	base     string
	finalize bool
	edit     func(t *testing.T, root string)
	rules    []string // error rules that must appear
	mention  []string
	info     []string // rules that must appear as info
}

func h(root string, p ...string) string {
	return filepath.Join(append([]string{root, ".harness"}, p...)...)
}

func editJSON(t *testing.T, path string, fn func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func feature(m map[string]any, i int) map[string]any {
	return m["features"].([]any)[i].(map[string]any)
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
}

func evalLines(t *testing.T, root string) int {
	b, _ := os.ReadFile(h(root, "eval_log.jsonl"))
	return strings.Count(string(b), "\n")
}

const sp = `"sprint_id":"sprint_20260421_1"`

func TestRuleMutations(t *testing.T) {
	ms := []mutation{
		{name: "missing-pool", base: "valid-complete", edit: func(t *testing.T, r string) { os.Remove(h(r, "session_pool.json")) },
			rules: []string{"files.required"}, mention: []string{"session_pool.json"}},
		{name: "missing-tooling", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.Remove(h(r, "sprint_contracts", "sprint_20260421_1", "tooling.md"))
		}, rules: []string{"files.required"}, mention: []string{"tooling.md"}},
		{name: "current-agent-not-json", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.WriteFile(h(r, ".current_agent"), []byte("role=planner\n"), 0o644)
		}, rules: []string{"json.parse"}, mention: []string{".current_agent"}},
		{name: "current-agent-role", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, ".current_agent"), func(m map[string]any) { m["role"] = "hermes" })
		}, rules: []string{"schema.current_agent"}, mention: []string{"role", `"hermes"`}},
		{name: "pending-eval-string", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "hermes_context_state.json"), func(m map[string]any) { m["pending_eval"] = "f001 retry" })
		}, rules: []string{"schema.current_agent"}, mention: []string{"pending_eval"}},
		{name: "heartbeat-local-time", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "runtime_state.json"), func(m map[string]any) { m["last_heartbeat"] = "2026-04-21 02:50:00" })
		}, rules: []string{"time.utc-z"}, mention: []string{"last_heartbeat", "2026-04-21 02:50:00"}},
		{name: "reminded-at-lowercase-z", base: "valid-complete", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) {
				feature(m, 0)["checkpoints"].([]any)[0].(map[string]any)["reminded_at"] = []any{"2026-04-21T02:30:00z"}
			})
		}, rules: []string{"time.utc-z"}, mention: []string{"reminded_at", "2026-04-21T02:30:00z"}},
		{name: "contract-history-offset", base: "valid-complete", edit: func(t *testing.T, r string) {
			replaceIn(t, h(r, "sprint_contracts", "sprint_20260421_1", "contract.json"), `"timestamp": "2026-04-21T03:40:00Z"`, `"timestamp": "2026-04-21T11:40:00+08:00"`)
		}, rules: []string{"time.utc-z"}, mention: []string{"contract.json", "+08:00"}},
		{name: "eval-sprint-mismatch", base: "valid-midway", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T02:50:00Z","sprint_id":"sprint_20260421_2","event_type":"reset","agent":"hermes","reason":"token > 0.70"}`)
		}, rules: []string{"ids.sprint-consistent"}, mention: []string{"sprint_20260421_2"}},
		{name: "duplicate-feature", base: "valid-complete", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) { feature(m, 2)["id"] = "f002" })
		}, rules: []string{"features.unique-ids"}, mention: []string{"f002"}},
		{name: "self-dependency", base: "valid-complete", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) { feature(m, 1)["depends_on"] = []any{"f002"} })
		}, rules: []string{"features.dag-acyclic"}, mention: []string{"f002 → f002"}},
		{name: "started-before-deps", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) { feature(m, 1)["depends_on"] = []any{"f001"} })
		}, rules: []string{"features.deps-completed-before-start"}, mention: []string{"f002", "f001"}},
		{name: "future-phase-done", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) {
				feature(m, 0)["next_phases"].([]any)[2].(map[string]any)["done"] = true
			})
		}, rules: []string{"features.next-phases-consistent"}, mention: []string{"f001", "phase=3"}},
		{name: "two-current", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) {
				nps := feature(m, 0)["next_phases"].([]any)
				nps[0].(map[string]any)["current"] = true
				nps[1].(map[string]any)["current"] = true
			})
		}, rules: []string{"features.next-phases-consistent"}, mention: []string{"current"}},
		{name: "next-phases-reordered", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) {
				nps := feature(m, 2)["next_phases"].([]any)
				nps[0], nps[1] = nps[1], nps[0]
			})
		}, rules: []string{"features.next-phases-consistent"}, mention: []string{"f003"}},
		{name: "pool-key-only-starts", base: "valid-midway", edit: func(t *testing.T, r string) {
			// f003 is pending with phase 1, but a pool entry makes it started:
			// its dependencies are not completed and it has no directory.
			editJSON(t, h(r, "session_pool.json"), func(m map[string]any) {
				m["max_concurrent"] = 3
				m["active"].(map[string]any)["f003"] = map[string]any{"session_id": "s3", "status": "running", "started_at": "2026-04-21T02:50:00Z"}
			})
		}, rules: []string{"features.deps-completed-before-start", "layout.feature-dir-files"}, mention: []string{"f003"}},
		{name: "gate-rejected-last", base: "valid-midway", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T02:50:00Z",`+sp+`,"event_type":"checkpoint","checkpoint_id":"cp-sprint-tooling","checkpoint_type":"gate","decision":"rejected","reason":"用户撤回工具选型,要求改用 cobra"}`)
		}, rules: []string{"gates.sprint-gates-approved"}, mention: []string{"cp-sprint-tooling", "rejected"}},
		{name: "sprint-gate-object-no-catch-all", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) {
				m["sprint_checkpoints"] = []any{map[string]any{"id": "cp-sprint-dag", "type": "gate", "status": "passed", "decision": "approved",
					"blockers": []any{map[string]any{"id": "b1", "question": "q", "options": []any{"a", "b"}}}}}
			})
		}, rules: []string{"checkpoints.gate-catch-all"}, mention: []string{"cp-sprint-dag", "catch_all"}},
		{name: "sprint-gate-object-ok", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) {
				m["sprint_checkpoints"] = []any{map[string]any{"id": "cp-sprint-dag", "type": "gate", "status": "passed", "decision": "auto_approved_yolo_task",
					"blockers": []any{map[string]any{"id": "catch_all", "question": "q", "options": []any{"a", "b"}}}}}
			})
		}},
		{name: "flattened-schema", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.WriteFile(filepath.Join(r, "feature_list.schema.json"), []byte("{}"), 0o644)
		}, rules: []string{"layout.no-flattened-readonly"}, mention: []string{"feature_list.schema.json"}},
		{name: "features-dir-at-root", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.MkdirAll(filepath.Join(r, "features", "f001"), 0o755)
		}, rules: []string{"layout.feature-dir-location"}, mention: []string{"features"}},
		{name: "feature-dir-in-H", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.MkdirAll(h(r, "f002"), 0o755)
		}, rules: []string{"layout.feature-dir-location"}, mention: []string{".harness/f002"}},
		{name: "empty-session-id", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.WriteFile(h(r, "features", "f002", "session_id.txt"), []byte(" \n"), 0o644)
		}, rules: []string{"layout.feature-dir-files"}, mention: []string{"session_id.txt", "f002"}},
		{name: "second-pool", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.WriteFile(h(r, "features", "f001", "session_pool.json"), []byte("{}"), 0o644)
		}, rules: []string{"layout.session-pool-unique"}, mention: []string{".harness/features/f001/session_pool.json"}},
		{name: "current-agent-json", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.WriteFile(h(r, ".current_agent.json"), []byte("{}"), 0o644)
		}, rules: []string{"layout.current-agent-unique"}, mention: []string{".current_agent.json"}},
		{name: "pool-completed-feature", base: "valid-complete", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "session_pool.json"), func(m map[string]any) {
				m["active"] = map[string]any{"f001": map[string]any{"session_id": "s", "status": "completed", "started_at": "2026-04-21T01:50:00Z"}}
			})
		}, rules: []string{"pool.active-consistent"}, mention: []string{"f001", "completed"}},
		{name: "in-progress-without-session", base: "valid-midway", edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "session_pool.json"), func(m map[string]any) { delete(m["active"].(map[string]any), "f002") })
		}, rules: []string{"pool.active-consistent"}, mention: []string{"f002", "in_progress"}},
		{name: "eval-unknown-feature", base: "valid-midway", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T02:50:00Z",`+sp+`,"feature_id":"f007","phase":1,"event_type":"retry","reason":"需要新增 goquery 依赖"}`)
		}, rules: []string{"eval.feature-exists"}, mention: []string{"f007"}},
		{name: "phase-eval-without-result", base: "valid-midway", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T02:50:00Z",`+sp+`,"feature_id":"f002","phase":1,"event_type":"phase_evaluation","reason":"拆分为 4 个子任务,覆盖全部 acceptance"}`)
		}, rules: []string{"eval.phase-fields"}, mention: []string{"result"}},
		{name: "phase-eval-19-bytes", base: "valid-midway", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T02:50:00Z",`+sp+`,"feature_id":"f002","phase":1,"event_type":"phase_evaluation","result":"pass","reason":"  实现 extractor 包\t"}`)
			replaceIn(t, h(r, "eval_log.jsonl"), "实现 extractor 包", "实现 extracto 包")
		}, rules: []string{"eval.reason-min-length"}, mention: []string{"19"}},
		{name: "reset-reason-short-ok", base: "valid-midway", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T02:50:00Z",`+sp+`,"event_type":"reset","agent":"hermes","reason":"token > 0.70"}`)
		}},
		{name: "lazy-reason-any-event", base: "valid-midway", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T02:50:00Z",`+sp+`,"event_type":"yolo_enter","reason":" No issue "}`)
		}, rules: []string{"eval.reason-not-lazy"}, mention: []string{"No issue"}},
		{name: "criteria-not-verbatim", base: "valid-complete", edit: func(t *testing.T, r string) {
			replaceIn(t, h(r, "eval_log.jsonl"), `"criteria":"单个请求默认超时 5s`, `"criteria":" 单个请求默认超时 5s`)
		}, rules: []string{"eval.acceptance-results-match"}, mention: []string{"criteria"}},
		{name: "pass-with-failed-item", base: "valid-complete", edit: func(t *testing.T, r string) {
			b, _ := os.ReadFile(h(r, "eval_log.jsonl"))
			lines := strings.Split(string(b), "\n")
			lines[11] = strings.Replace(lines[11], `"status":"pass"`, `"status":"fail"`, 1) // line 12: f002 phase=3 pass
			os.WriteFile(h(r, "eval_log.jsonl"), []byte(strings.Join(lines, "\n")), 0o644)
		}, rules: []string{"eval.acceptance-results-match"}, mention: []string{"eval_log.jsonl:12", "fail"}},
		{name: "missing-evidence", base: "valid-complete", edit: func(t *testing.T, r string) {
			b, _ := os.ReadFile(h(r, "eval_log.jsonl"))
			lines := strings.Split(string(b), "\n")
			var m map[string]any
			json.Unmarshal([]byte(lines[9]), &m) // line 10: f001 phase=3 pass
			delete(m["acceptance_results"].([]any)[0].(map[string]any), "evidence")
			nb, _ := json.Marshal(m)
			lines[9] = string(nb)
			os.WriteFile(h(r, "eval_log.jsonl"), []byte(strings.Join(lines, "\n")), 0o644)
		}, rules: []string{"eval.evidence-not-lazy", "schema.eval_log"}, mention: []string{"eval_log.jsonl:10", "evidence"}},
		// corrections (eval.superseded)
		{name: "correction-supersedes-lazy", base: "valid-complete", edit: func(t *testing.T, r string) {
			replaceIn(t, h(r, "eval_log.jsonl"), `"decision":"approved","reason":"用户回复 1b 2a 3a`, `"decision":"approved","reason":"通过","x":"`)
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T08:20:00Z",`+sp+`,"feature_id":"f001","phase":1,"event_type":"checkpoint","checkpoint_id":"cp-f001-1","supersedes_line":5,"reason":"补录: 用户回复 1b 2a 3a,不提取 HTML 链接"}`)
		}, info: []string{"eval.superseded"}, mention: []string{"eval_log.jsonl:5", "eval_log.jsonl:22", "通过"}},
		{name: "correction-supersedes-unparsable", base: "valid-complete", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{timestamp: "$NOW", event_type: "reset"}`)
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T08:20:00Z",`+sp+`,"event_type":"reset","supersedes_line":22,"reason":"补录：Hermes reset,token > 0.70"}`)
		}, info: []string{"eval.superseded"}, mention: []string{"eval_log.jsonl:22", "eval_log.jsonl:23"}},
		{name: "correction-without-prefix", base: "valid-complete", edit: func(t *testing.T, r string) {
			replaceIn(t, h(r, "eval_log.jsonl"), `"decision":"approved","reason":"用户回复 1b 2a 3a`, `"decision":"approved","reason":"通过","x":"`)
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T08:20:00Z",`+sp+`,"event_type":"checkpoint","supersedes_line":5,"reason":"用户回复 1b 2a 3a,不提取 HTML 链接"}`)
		}, rules: []string{"eval.superseded", "eval.reason-not-lazy"}, mention: []string{"eval_log.jsonl:22"}},
		{name: "correction-forward-reference", base: "valid-complete", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T08:20:00Z",`+sp+`,"event_type":"reset","supersedes_line":22,"reason":"补录: 自指"}`)
		}, rules: []string{"eval.superseded"}, mention: []string{"eval_log.jsonl:22"}},
		{name: "correction-bad-time", base: "valid-complete", edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T08:20:00+00:00",`+sp+`,"event_type":"reset","supersedes_line":13,"reason":"补录: x"}`)
		}, rules: []string{"time.utc-z"}, mention: []string{"eval_log.jsonl:22"}},
		{name: "foreign-schema-copy", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.MkdirAll(filepath.Join(r, "schemas"), 0o755)
			os.WriteFile(filepath.Join(r, "schemas", "feature_list.schema.json"), []byte(`{"$id":"https://example.com/superagent/feature_list.schema.json","type":"string"}`), 0o644)
		}, info: []string{"schema.foreign-copy"}, mention: []string{"schemas/feature_list.schema.json"}},
		{name: "own-schema-copy-used", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.MkdirAll(filepath.Join(r, "schemas"), 0o755)
			os.WriteFile(filepath.Join(r, "schemas", "runtime_state.schema.json"), []byte(`{"$id":"https://superagent-harness.dev/schemas/v1/runtime_state.schema.json","type":"object","required":["zz_sprint_owner"]}`), 0o644)
		}, rules: []string{"schema.runtime_state"}, mention: []string{"zz_sprint_owner"}},
		{name: "own-schema-copy-broken", base: "valid-midway", edit: func(t *testing.T, r string) {
			os.MkdirAll(filepath.Join(r, "schemas"), 0o755)
			os.WriteFile(filepath.Join(r, "schemas", "runtime_state.schema.json"), []byte(`{"$id":"https://superagent-harness.dev/schemas/v1/runtime_state.schema.json","type":5}`), 0o644)
		}, info: []string{"schema.foreign-copy"}},
		// finalize
		{name: "fin-retry-unredone", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			// drop f002's redone phase=2 section: the only one left predates the phase=3 retry
			p := h(r, "features", "f002", "generator_log.md")
			b, _ := os.ReadFile(p)
			s := string(b)
			i := strings.Index(s, "## phase=2 implement — 2026-04-21T03:58:30Z")
			j := strings.Index(s[i:], "## phase=3")
			os.WriteFile(p, []byte(s[:i]+s[i+j:]), 0o644)
		}, rules: []string{"finalize.generator-log-sections"}, mention: []string{"phase=2", "eval_log.jsonl:8", "f002"}},
		{name: "fin-commit-mismatch", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) { feature(m, 0)["commit"] = "abcdef0" })
		}, rules: []string{"finalize.commit-hash"}, mention: []string{"f001", "abcdef0"}},
		{name: "fin-no-phase-eval", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			replaceIn(t, h(r, "eval_log.jsonl"), `"feature_id":"f003","phase":1,"iteration":1,"event_type":"phase_evaluation","result":"pass"`, `"feature_id":"f003","phase":1,"iteration":1,"event_type":"phase_evaluation","result":"retry"`)
		}, rules: []string{"finalize.phase-evals-present"}, mention: []string{"f003", "phase=1"}},
		{name: "fin-checkpoint-no-decision", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T08:20:00Z",`+sp+`,"feature_id":"f003","phase":4,"event_type":"checkpoint","checkpoint_id":"cp-f003-2","checkpoint_type":"review","reason":"review 已发出,等待回复"}`)
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T08:21:00Z",`+sp+`,"feature_id":"f003","phase":4,"event_type":"checkpoint","checkpoint_id":"cp-f003-3","checkpoint_type":"notify","reason":"已通知用户 f003 交付"}`)
		}, rules: []string{"finalize.checkpoint-decision-present"}, mention: []string{"eval_log.jsonl:22", "cp-f003-2"}},
		{name: "fin-pending-checkpoint", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			editJSON(t, h(r, "feature_list.json"), func(m map[string]any) {
				feature(m, 0)["checkpoints"].([]any)[0].(map[string]any)["status"] = "revoked"
			})
			editJSON(t, h(r, "runtime_state.json"), func(m map[string]any) { m["pending_user_replies"] = []any{"cp-f003-2"} })
		}, rules: []string{"finalize.no-pending-checkpoints"}, mention: []string{"cp-f001-1", "revoked", "pending_user_replies"}},
		{name: "fin-missing-reason-corrected", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			replaceIn(t, h(r, "eval_log.jsonl"), `"reason":"duration > 3h",`, ``)
			appendLine(t, h(r, "eval_log.jsonl"), `{"timestamp":"2026-04-21T08:20:00Z",`+sp+`,"event_type":"reset","supersedes_line":13,"reason":"补录: duration > 3h"}`)
		}, info: []string{"eval.superseded"}, mention: []string{"finalize.eval-reason-present"}},
		{name: "fin-key-decisions-fenced", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			replaceIn(t, h(r, "features", "f001", "generator_log.md"), "### 关键决策\n- 使用 `ast.Walk`", "```\n### 关键决策\n```\n- 使用 `ast.Walk`")
		}, rules: []string{"finalize.generator-log-key-decisions"}, mention: []string{"f001", "phase=1"}},
		{name: "fin-tooling-continuation-reason", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			p := h(r, "sprint_contracts", "sprint_20260421_1", "tooling.md")
			b, _ := os.ReadFile(p)
			s := strings.Replace(string(b), "## 4. 禁止清单", "- **YAML**:选用 goccy/go-yaml\n  Because it keeps comments.\n\n## 4. 禁止清单", 1)
			os.WriteFile(p, []byte(s), 0o644)
		}},
		{name: "fin-tooling-section6-wrong-title", base: "valid-complete", finalize: true, edit: func(t *testing.T, r string) {
			replaceIn(t, h(r, "sprint_contracts", "sprint_20260421_1", "tooling.md"), "## 6. 运行时新增", "## 6. 运行时添加")
		}, rules: []string{"finalize.tooling-sections"}, mention: []string{"运行时新增"}},
	}
	for _, m := range ms {
		m := m
		t.Run(m.name, func(t *testing.T) {
			root := copyTree(t, filepath.Join(sprints, m.base))
			m.edit(t, root)
			run := Validate
			if m.finalize {
				run = FinalizeCheck
			}
			rep, err := run(root)
			if err != nil {
				t.Fatal(err)
			}
			out := rep.String()
			errs := map[string]bool{}
			infos := map[string]bool{}
			for _, f := range rep.Findings {
				if f.Severity == SeverityInfo {
					infos[f.Rule] = true
				} else {
					errs[f.Rule] = true
				}
			}
			if len(m.rules) == 0 && !rep.Valid() {
				t.Fatalf("expected valid, got:\n%s", out)
			}
			for _, r := range m.rules {
				if !errs[r] {
					t.Errorf("rule %s not reported as error:\n%s", r, out)
				}
			}
			for _, r := range m.info {
				if !infos[r] {
					t.Errorf("rule %s not reported as info:\n%s", r, out)
				}
			}
			for _, s := range m.mention {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
		})
	}
}

func TestFindingString(t *testing.T) {
	f := Finding{File: ".harness/eval_log.jsonl", Line: 3, Pointer: "/timestamp", Rule: "schema.eval_log", Severity: SeverityError, Message: "m"}
	if got := f.String(); got != ".harness/eval_log.jsonl:3#/timestamp: m [schema.eval_log]" {
		t.Errorf("String() = %q", got)
	}
	f = Finding{File: "schemas/x.json", Rule: "schema.foreign-copy", Severity: SeverityInfo, Message: "m"}
	if got := f.String(); got != "info: schemas/x.json: m [schema.foreign-copy]" {
		t.Errorf("String() = %q", got)
	}
	r := Report{Findings: []Finding{f}}
	if !r.Valid() {
		t.Error("info findings keep a report valid")
	}
}

func TestRulesOverrides(t *testing.T) {
	root := copyTree(t, filepath.Join(sprints, "valid-midway"))
	os.WriteFile(h(root, "rules.yaml"), []byte("disable: [\n  - bad"), 0o644)
	rep, err := Validate(root)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Valid() || !strings.Contains(rep.String(), "[rules.overrides]") || !strings.Contains(rep.String(), ".harness/rules.yaml") {
		t.Errorf("invalid rules.yaml not reported:\n%s", rep)
	}
	os.WriteFile(h(root, "rules.yaml"), []byte("disable: []\n"), 0o644)
	if rep, _ := Validate(root); !rep.Valid() {
		t.Errorf("valid rules.yaml reported:\n%s", rep)
	}
}
