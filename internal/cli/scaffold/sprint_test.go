package scaffold

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"
)

func TestNewSprintDirNumbersPerUTCDay(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"sprint_20260421_1", "sprint_20260421_7", "sprint_20260421_x", "sprint_20260420_9", "other"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A file with a sprint name still uses its number.
	if err := os.WriteFile(filepath.Join(dir, "sprint_20260421_12"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// 23:30 at UTC-5 is already the 21st in UTC.
	now := time.Date(2026, 4, 20, 23, 30, 0, 0, time.FixedZone("x", -5*3600))
	got, id, err := NewSprintDir(dir, now.UTC())
	if err != nil {
		t.Fatal(err)
	}
	if id != "sprint_20260421_13" || got != filepath.Join(dir, id) {
		t.Fatalf("NewSprintDir = %s, %s", got, id)
	}
	_, id2, err := NewSprintDir(dir, now.UTC())
	if err != nil || id2 != "sprint_20260421_14" {
		t.Fatalf("second NewSprintDir = %s, %v", id2, err)
	}
	_, id3, err := NewSprintDir(filepath.Join(dir, "new", "sprints"), now.UTC())
	if err != nil || id3 != "sprint_20260421_1" {
		t.Fatalf("NewSprintDir in a new folder = %s, %v", id3, err)
	}
}

func TestEnsureEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := EnsureEmptyDir(filepath.Join(dir, "a", "b")); err != nil {
		t.Fatalf("missing dir: %v", err)
	}
	if err := EnsureEmptyDir(filepath.Join(dir, "a", "b")); err != nil {
		t.Fatalf("empty dir: %v", err)
	}
	var re *RefusedError
	if err := EnsureEmptyDir(filepath.Join(dir, "a")); !errors.As(err, &re) {
		t.Fatalf("non-empty dir: %v", err)
	}
	f := filepath.Join(dir, "file")
	os.WriteFile(f, nil, 0o644)
	if err := EnsureEmptyDir(f); !errors.As(err, &re) {
		t.Fatalf("file: %v", err)
	}
}

// TestInitSprintInitialValues checks every state file against docs/protocol.md
// §3.12, key by key.
func TestInitSprintInitialValues(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 4, 21, 0, 30, 0, 0, time.UTC)
	ts := "2026-04-21T00:30:00Z"
	files, err := InitSprint(root, "sprint_20260421_1", now)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{
		"runtime_state.json": {"mode": "planning", "current_sprint": "sprint_20260421_1", "current_project_path": root,
			"pending_user_replies": []any{}, "session_started_at": ts, "last_heartbeat": ts, "last_reset_at": nil},
		"feature_list.json": {"version": "1.2", "sprint": "sprint_20260421_1", "pipeline_id": nil, "pipeline_version": nil,
			"tooling_locked": false, "updated_at": ts, "updated_by": "hermes", "features": []any{}, "blocked": []any{}},
		"session_pool.json": {"max_concurrent": float64(2), "policy": "start_when_dependency_ready", "active": map[string]any{}},
		"hermes_context_state.json": {"agent": "hermes", "updated_at": ts, "token_usage_ratio": float64(0),
			"consecutive_sprints_with_retries": float64(0), "current_sprint": "sprint_20260421_1", "session_start": ts,
			"pending_eval": nil, "pending_checkpoints": []any{}, "eval_log_ledger": map[string]any{"since": float64(0), "format": float64(2), "lines": []any{}}, "feature_dirs": map[string]any{}},
		"claude_code_context_state.json": {},
		".current_agent": {"role": "planner", "platform": "hermes", "developer": "hermes", "session_id": nil,
			"started_at": ts, "current_feature": nil, "current_phase": nil, "last_activity": ts},
	}
	for name, w := range want {
		b, err := os.ReadFile(filepath.Join(root, ".harness", name))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %v\nwant %v", name, got, w)
		}
	}
	if st, err := os.Stat(filepath.Join(root, ".harness", "eval_log.jsonl")); err != nil || st.Size() != 0 {
		t.Errorf("eval_log.jsonl: %v", err)
	}
	for _, d := range []string{"features", "sprint_contracts", "logs"} {
		if st, err := os.Stat(filepath.Join(root, ".harness", d)); err != nil || !st.IsDir() {
			t.Errorf(".harness/%s: %v", d, err)
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	for _, f := range []string{"spec/AGENTS.md", "spec/project.md", "protocols/process-protocol.md",
		"templates/tooling.template.md", ".harness/.current_agent", ".harness/eval_log.jsonl"} {
		if !seen[f] {
			t.Errorf("files lacks %s", f)
		}
	}
	if runtime.GOOS != "windows" {
		st, err := os.Stat(filepath.Join(root, "spec", "AGENTS.md"))
		if err != nil || st.Mode().Perm() != 0o444 {
			t.Errorf("spec/AGENTS.md mode = %v, %v; want read-only 0444", st.Mode(), err)
		}
	}
}

// A new sprint carries Hermes' Reset counters from the previous sprint of the
// same folder (docs/protocol.md §13 #26): consecutive_sprints_with_retries
// grows by one after a sprint with a retry and drops to 0 after one without;
// Hermes' session start carries over while the previous sprint's heartbeat is
// recent, else it is now.
func TestInitSprintCarriesHermesTriggers(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 4, 22, 9, 0, 0, 0, time.UTC)
	prev := filepath.Join(dir, "sprint_20260421_3")
	if err := os.MkdirAll(prev, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := InitSprint(prev, "sprint_20260421_3", now.Add(-5*time.Hour)); err != nil {
		t.Fatal(err)
	}
	h := filepath.Join(prev, ".harness")
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(h, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hermes_context_state.json", `{"agent":"hermes","consecutive_sprints_with_retries":2,"session_start":"2026-04-22T04:00:00Z"}`)
	write("runtime_state.json", `{"mode":"active","current_sprint":"sprint_20260421_3","session_started_at":"2026-04-22T04:00:00Z","last_heartbeat":"2026-04-22T08:40:00Z","last_reset_at":"2026-04-22T06:30:00Z"}`)
	write("eval_log.jsonl", `{"timestamp":"2026-04-22T05:00:00Z","sprint_id":"sprint_20260421_3","feature_id":"f001","phase":2,"event_type":"phase_evaluation","result":"retry","reason":"a3 的用例缺少超时分类,补充后重跑"}`+"\n")
	// an older and a later sibling are not "previous"
	for _, other := range []string{"sprint_20260420_9", "sprint_20260423_1"} {
		if err := os.MkdirAll(filepath.Join(dir, other, ".harness"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	read := func(root, name string) map[string]any {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, ".harness", name))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	next := filepath.Join(dir, "sprint_20260422_1")
	os.MkdirAll(next, 0o755)
	if _, err := InitSprint(next, "sprint_20260422_1", now); err != nil {
		t.Fatal(err)
	}
	hc, rt := read(next, "hermes_context_state.json"), read(next, "runtime_state.json")
	if hc["consecutive_sprints_with_retries"] != float64(3) || hc["session_start"] != "2026-04-22T06:30:00Z" || rt["session_started_at"] != "2026-04-22T06:30:00Z" {
		t.Errorf("carried: consecutive %v, session_start %v, session_started_at %v", hc["consecutive_sprints_with_retries"], hc["session_start"], rt["session_started_at"])
	}
	// the next sprint after one without retries, with an old heartbeat
	later := filepath.Join(dir, "sprint_20260422_2")
	os.MkdirAll(later, 0o755)
	if _, err := InitSprint(later, "sprint_20260422_2", now.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	hc, rt = read(later, "hermes_context_state.json"), read(later, "runtime_state.json")
	if hc["consecutive_sprints_with_retries"] != float64(0) || rt["session_started_at"] != "2026-04-22T12:00:00Z" {
		t.Errorf("reset: consecutive %v, session_started_at %v", hc["consecutive_sprints_with_retries"], rt["session_started_at"])
	}
}
