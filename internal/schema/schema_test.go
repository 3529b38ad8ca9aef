package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	harness "github.com/superagent-harness/harness"
)

func TestEverySchemaCompiles(t *testing.T) {
	s := New(harness.Assets(), nil)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{RuntimeState, FeatureList, Checkpoint, SprintCheckpoint, SessionPool, SprintContract, EvalLog,
		HermesContextState, ClaudeCodeContextState, CurrentAgent, EnvironmentProbe, Task, Pipeline}
	got := strings.Join(s.Names(), ",")
	for _, n := range want {
		if !strings.Contains(","+got+",", ","+n+",") {
			t.Errorf("schema %s not compiled (have %s)", n, got)
		}
	}
}

// Every state file of the valid fixtures validates.
func TestFixtureStateFilesValidate(t *testing.T) {
	s := New(harness.Assets(), nil)
	files := map[string]string{
		"runtime_state.json":                               RuntimeState,
		"feature_list.json":                                FeatureList,
		"session_pool.json":                                SessionPool,
		"hermes_context_state.json":                        HermesContextState,
		"claude_code_context_state.json":                   ClaudeCodeContextState,
		".current_agent":                                   CurrentAgent,
		"sprint_contracts/sprint_20260421_1/contract.json": SprintContract,
	}
	n := 0
	for _, ws := range []string{"valid-complete", "valid-midway", "valid-midway-reset"} {
		h := filepath.Join("..", "..", "testdata", "sprints", ws, ".harness")
		for f, name := range files {
			data, err := os.ReadFile(filepath.Join(h, f))
			if os.IsNotExist(err) && strings.HasPrefix(f, "sprint_contracts") {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Decode(data)
			if err != nil {
				t.Fatalf("%s/%s: %v", ws, f, err)
			}
			vs, err := s.Validate(name, doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				t.Errorf("%s/%s: %s", ws, f, v)
			}
			n++
		}
		data, err := os.ReadFile(filepath.Join(h, "eval_log.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			doc, err := Decode([]byte(line))
			if err != nil {
				t.Fatalf("%s eval_log:%d: %v", ws, i+1, err)
			}
			vs, err := s.Validate(EvalLog, doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				t.Errorf("%s eval_log:%d: %s", ws, i+1, v)
			}
			n++
		}
	}
	if n < 40 {
		t.Fatalf("validated only %d documents", n)
	}
}

func TestViolationsNameFieldAndValue(t *testing.T) {
	s := New(harness.Assets(), nil)
	cases := []struct {
		schema, doc string
		want        []string
	}{
		{FeatureList, `{"version":"1.1","sprint":"sprint_20260421_1","tooling_locked":true,"features":[]}`, []string{"/version", `"1.1"`}},
		{FeatureList, `{"version":"1.2","sprint":"sprint_20260421_1","tooling_locked":true,"features":[{"id":"F003","name":"x","status":"executing","phase":5,"next_phases":[],"acceptance":["a"],"depends_on":[],"checkpoints":[{"id":"cp-f003-1","phase":1,"type":"gate","status":"pending","decision":"pass"}]}]}`,
			[]string{"/features/0/id", `"F003"`, "/features/0/status", `"executing"`, "/features/0/phase", "5", "decision", `"pass"`}},
		{RuntimeState, `{"mode":"active","current_sprint":null,"session_started_at":"2026-04-21T01:00:00Z"}`, []string{"last_heartbeat"}},
		{EvalLog, `{"timestamp":"2026-04-21T01:00:00+08:00","sprint_id":"s","event_type":"phase_evaluation","decision":"revoked"}`, []string{"timestamp", "+08:00"}},
	}
	for _, c := range cases {
		doc, err := Decode([]byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		vs, err := s.Validate(c.schema, doc)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, v := range vs {
			b.WriteString(v.Pointer + " " + v.String() + "\n")
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", c.schema, w, b.String())
			}
		}
	}
	// revoked is an accepted decision (D12), auto_approved_yolo_task too.
	for _, d := range []string{"revoked", "auto_approved_yolo_task"} {
		doc, _ := Decode([]byte(`{"timestamp":"2026-04-21T01:00:00Z","sprint_id":"s","event_type":"yolo_abort","decision":"` + d + `"}`))
		if vs, _ := s.Validate(EvalLog, doc); len(vs) != 0 {
			t.Errorf("decision %s rejected: %v", d, vs)
		}
	}
}

func TestSprintCopies(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "schemas"), 0o755)
	os.WriteFile(filepath.Join(root, "schemas", "feature_list.schema.json"), []byte(`{"$id":"https://example.com/feature_list.schema.json"}`), 0o644)
	os.WriteFile(filepath.Join(root, "schemas", "task.schema.json"), []byte(`{"$id":"`+IDPrefix+`task.schema.json","type":"object"}`), 0o644)
	os.WriteFile(filepath.Join(root, "schemas", "pipeline.schema.json"), []byte(`{"$id":"https://superagent-harness.dev/schemas/v2/pipeline.schema.json"}`), 0o644)
	os.WriteFile(filepath.Join(root, "schemas", "pipeline.schema.yaml"), []byte("id: x\n"), 0o644)
	own, foreign := SprintCopies(root)
	if _, ok := own["task.schema.json"]; !ok || len(own) != 1 {
		t.Errorf("own = %v", own)
	}
	if len(foreign) != 3 || foreign["schemas/feature_list.schema.json"] == "" || foreign["schemas/pipeline.schema.json"] == "" || foreign["schemas/pipeline.schema.yaml"] == "" {
		t.Errorf("foreign = %v", foreign)
	}
	s := New(harness.Assets(), own)
	doc, _ := Decode([]byte(`{}`))
	if vs, err := s.Validate(Task, doc); err != nil || len(vs) != 0 {
		t.Errorf("override not used: %v %v", vs, err)
	}
}

func TestPipelineYAML(t *testing.T) {
	s := New(harness.Assets(), nil)
	good := `id: code-feature
version: 1.3.0
name: Code feature
trigger_keywords: [go, cli]
feature_templates:
  - id: f001
    reusable: true
yolo:
  eligibility: {min_total_runs: 3, min_success_rate: 0.9}
  abort_policy: revoke_all
stats:
  total_runs: 4
  total_success_rate: 0.75
version_history:
  - version: 1.3.0
    created: "2026-04-21"
    change_type: minor
`
	doc, err := DecodeYAML([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if vs, err := s.Validate(Pipeline, doc); err != nil || len(vs) != 0 {
		t.Fatalf("valid pipeline rejected: %v %v", vs, err)
	}
	bad := strings.Replace(strings.Replace(good, "version: 1.3.0\nname", "version: \"1.3\"\nname", 1), "total_success_rate: 0.75", "total_success_rate: 1.5", 1)
	doc, _ = DecodeYAML([]byte(bad))
	vs, _ := s.Validate(Pipeline, doc)
	var out []string
	for _, v := range vs {
		out = append(out, v.Pointer+" "+v.String())
	}
	joined := strings.Join(out, "\n")
	if !strings.Contains(joined, "/version") || !strings.Contains(joined, "/stats/total_success_rate") {
		t.Errorf("violations = %s", joined)
	}
}
