package pathguard_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/pathguard"
	"github.com/superagent-harness/harness/internal/verdict"
)

// skeletonTooling is tooling.md of testdata/corpus/README.md §5 skeleton.
const skeletonTooling = "# Sprint Tooling Decisions\n\n## 5. 全局约束\n\n- 备注:TBD\n\n## 6. 运行时新增(feature 执行中引入的工具)\n\n- TBD\n"

// corpusSkeleton creates testdata/corpus/README.md §5 step 1 skeleton in a fresh
// root named sprint_20260421_1 and returns the root.
func corpusSkeleton(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	for _, d := range []string{"schemas", "templates", "spec/guides", "protocols", "sub-skills", "src", "research", "docs", "build",
		".claude", ".harness/logs", ".harness/checkpoints", ".harness/sprint_contracts/sprint_20260421_1",
		".harness/sprint_contracts/sprint_20260301_2", ".harness/features/f001", ".harness/features/f002",
		".harness/features/f002/.claude", ".harness/features/f003"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"SKILL.md", "README.md", "schemas/feature_list.schema.json", "spec/index.md", "protocols/yolo.md",
		".harness/runtime_state.json", ".harness/hermes_handoff.md", ".harness/hermes_context_state.json",
		".harness/session_pool.json", ".harness/.current_agent", ".harness/eval_log.jsonl", ".harness/feature_list.json",
		".harness/rules.yaml", ".harness/allow.jsonl", ".harness/logs/hook.log", ".claude/settings.json",
		".harness/features/f002/.claude/settings.json", ".harness/sprint_contracts/sprint_20260421_1/contract.json",
		".harness/features/f001/handoff.md", ".harness/features/f001/generator_log.md", ".harness/features/f002/handoff.md",
		".harness/features/f002/generator_log.md", "src/app.go", "research/notes.md"} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(f)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tooling := filepath.Join(root, ".harness", "sprint_contracts", "sprint_20260421_1", "tooling.md")
	if err := os.WriteFile(tooling, []byte(skeletonTooling), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// toolInput builds the Claude Code tool_input of a file-tool example: the
// path made absolute (against the root, or HOME for "~/"), as Claude Code
// sends it.
func toolInput(t *testing.T, ex pathguard.PathRuleExample, root, home string) json.RawMessage {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(ex.Path))
	if rest, ok := strings.CutPrefix(ex.Path, "~/"); ok {
		p = filepath.Join(home, filepath.FromSlash(rest))
	}
	old := ex.OldString
	if old == "" {
		old = "x"
	}
	var in any
	switch ex.Tool {
	case "Edit":
		in = map[string]any{"file_path": p, "old_string": old, "new_string": "y"}
	case "MultiEdit":
		in = map[string]any{"file_path": p, "edits": []any{map[string]any{"old_string": old, "new_string": "y"}}}
	case "Write":
		in = map[string]any{"file_path": p, "content": "x\n"}
	case "NotebookEdit":
		in = map[string]any{"notebook_path": p, "new_source": "x"}
	default:
		t.Fatalf("unknown tool %q", ex.Tool)
	}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestPathRuleExamples runs every example of rules/paths.yaml against the
// testdata/corpus/README.md §5 skeleton in a Generator session of feature f002, or
// with no feature for `session: hermes` (cwd = the root, HOME = a temp dir
// with .claude/settings*.json): file tools
// through Guard.CheckTool, Bash through bashguard.Decide with the guard.
// A block example must be blocked by its own rule id, an allow example must
// be allowed (neither blocked nor warned).
func TestPathRuleExamples(t *testing.T) {
	root := corpusSkeleton(t)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"settings.json", "settings.local.json"} {
		if err := os.WriteFile(filepath.Join(home, ".claude", f), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	guards := map[string]*pathguard.Guard{}
	for session, feature := range map[string]string{"": "f002", "generator": "f002", "hermes": ""} {
		g, err := pathguard.New(root, feature)
		if err != nil {
			t.Fatal(err)
		}
		guards[session] = g.WithHome(home)
	}
	n := 0
	for _, r := range pathguard.LoadPathRules(t).Rules {
		check := func(ex pathguard.PathRuleExample, block bool) {
			n++
			what := ex.Tool + " " + ex.Path + ex.Command
			var rules []string
			var got verdict.Action
			g := guards[ex.Session]
			if ex.Tool == "Bash" {
				res := bashguard.Decide(ex.Command, bashguard.Context{Feature: g.Feature(), Paths: g, Cwd: root, Vars: map[string]string{"HOME": home}})
				got = res.Decision.Action
				for _, m := range res.Matches {
					rules = append(rules, m.Rule)
				}
			} else {
				d := g.CheckTool(ex.Tool, toolInput(t, ex, root, home), root)
				got, rules = d.Action, []string{d.Rule}
			}
			if !block {
				if got != verdict.Allow {
					t.Errorf("%s allow example %q (%s): got %s by %v", r.ID, what, ex.Note, got, rules)
				}
				return
			}
			if got != verdict.Block {
				t.Errorf("%s block example %q (%s): got %s by %v", r.ID, what, ex.Note, got, rules)
				return
			}
			for _, id := range rules {
				if id == r.ID {
					return
				}
			}
			t.Errorf("%s block example %q (%s): blocked by %v, not by %s", r.ID, what, ex.Note, rules, r.ID)
		}
		if len(r.Examples.Block) == 0 || len(r.Examples.Allow) == 0 {
			t.Errorf("%s: needs block and allow examples", r.ID)
		}
		for _, ex := range r.Examples.Block {
			check(ex, true)
		}
		for _, ex := range r.Examples.Allow {
			check(ex, false)
		}
	}
	if n == 0 {
		t.Fatal("no examples ran")
	}
}
