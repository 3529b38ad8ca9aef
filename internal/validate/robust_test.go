package validate

import (
	"os"
	"path/filepath"
	"testing"
)

// Garbage of the right JSON shape in any state file yields findings, never a
// panic or an internal error.
func TestGarbageStateFiles(t *testing.T) {
	garbage := map[string][]string{
		"feature_list.json": {`{"features":[null,5,{"id":5},{"id":"f001","phase":null,"next_phases":[null,{"phase":"x"}],"checkpoints":[null,{"type":"gate","blockers":[null]}],"depends_on":[5,"f001"]}],"sprint":7}`,
			`{"features":{},"tooling_locked":"yes","sprint_checkpoints":{}}`, `[]`, `null`, `{"features":[{"id":"f001","status":"completed","phase":4,"next_phases":[]}]}`},
		"session_pool.json":         {`{"active":{"f001":null,"x":5},"max_concurrent":"2"}`, `{"active":[]}`},
		"runtime_state.json":        {`{"current_sprint":5,"pending_user_replies":"cp-f001-1","last_heartbeat":["2026"]}`},
		"hermes_context_state.json": {`{"pending_eval":[1],"pending_checkpoints":{"a":1}}`},
		".current_agent":            {`"planner"`, `{"role":null}`},
		"eval_log.jsonl": {"{\"acceptance_results\":[null,5,{\"evidence\":7}],\"feature_id\":\"f001\",\"event_type\":\"phase_evaluation\",\"result\":\"pass\",\"phase\":3}\n" +
			"{\"supersedes_line\":\"1\",\"reason\":5}\n{\"supersedes_line\":1,\"reason\":\"补录: x\",\"timestamp\":[\"2026\"]}\n{\"event_type\":\"checkpoint\",\"checkpoint_id\":\"cp-sprint-dag\",\"decision\":7}\n"},
	}
	for file, docs := range garbage {
		for i, doc := range docs {
			t.Run(file+"#"+string(rune('0'+i)), func(t *testing.T) {
				for _, base := range []string{"valid-complete", "valid-midway"} {
					root := copyTree(t, filepath.Join(sprints, base))
					if err := os.WriteFile(filepath.Join(root, ".harness", file), []byte(doc), 0o644); err != nil {
						t.Fatal(err)
					}
					for _, run := range []func(string) (*Report, error){Validate, FinalizeCheck} {
						rep, err := run(root)
						if err != nil {
							t.Fatal(err)
						}
						if rep.Valid() {
							t.Errorf("%s: garbage %s accepted", base, doc)
						}
					}
				}
			})
		}
	}
}
