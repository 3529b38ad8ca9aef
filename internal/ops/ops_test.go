package ops

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// fixture copies testdata/sprints/<name> to a temporary root.
func fixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "sprints", name)
	dst := filepath.Join(t.TempDir(), name)
	testutil.CopyTree(t, src, dst)
	return dst
}

func testEnv(root string, now time.Time) *Env {
	return &Env{Root: root, Now: func() time.Time { return now }, Validate: EngineValidate}
}

func readJSON(t *testing.T, p string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTxRefusesAddedFindingsOnly: a change that adds a validate finding is
// refused and nothing is written; pre-existing findings are warnings only.
func TestTxRefusesAddedFindingsOnly(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
	before := mustRead(t, filepath.Join(root, ".harness", "feature_list.json"))

	// Session start for f003 is refused by the start conditions of next
	// (its dependencies are not completed), before anything is staged.
	if err := os.MkdirAll(env.H("features", "f003"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"context_snapshot.md", "AGENTS.md", "generator_log.md", "handoff.md"} {
		os.WriteFile(env.H("features", "f003", n), []byte("x\n"), 0o644)
	}
	pool := mustRead(t, env.H("session_pool.json"))
	pool = strings.Replace(pool, `"max_concurrent": 2`, `"max_concurrent": 3`, 1)
	os.WriteFile(env.H("session_pool.json"), []byte(pool), 0o644)
	_, err := SessionStart(env, SessionStartInput{Feature: "f003", SessionID: "sess_f003", Type: "cc-print"})
	if r, ok := IsRefusal(err); !ok || !strings.Contains(r.Reason, "depends on f001") {
		t.Fatalf("want the start conditions to refuse f003 (dependencies), got %v", err)
	}
	// A staged change that would start f003 anyway (status in_progress with
	// its dependencies open, features.deps-completed-before-start) is refused
	// by the transaction's validate comparison and writes nothing.
	err = env.update(&Report{Command: "test"}, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		fl.feature("f003").With("status", "in_progress")
		return tx.WriteJSON(relFeatureList, fl.Obj)
	})
	r, ok := IsRefusal(err)
	if !ok || len(r.Findings) == 0 {
		t.Fatalf("want a refusal listing added findings, got %v", err)
	}
	found := false
	for _, f := range r.Findings {
		if f.Rule == "features.deps-completed-before-start" {
			found = true
		}
	}
	if !found {
		t.Errorf("refusal does not name features.deps-completed-before-start: %v", r.Findings)
	}
	if got := mustRead(t, env.H("session_pool.json")); got != pool {
		t.Errorf("session_pool.json changed by a refused command")
	}
	if _, err := os.Stat(env.H("features", "f003", "session_id.txt")); err == nil {
		t.Errorf("session_id.txt written by a refused command")
	}
	if got := mustRead(t, env.H("feature_list.json")); got != before {
		t.Errorf("feature_list.json changed by a refused command")
	}

	// A pre-existing finding (a lazy reason on an old line) does not block an
	// unrelated, valid change; it is reported as a warning.
	bad := `{"timestamp":"2026-04-21T02:50:00Z","sprint_id":"sprint_20260421_1","event_type":"retry","feature_id":"f002","reason":"ok"}` + "\n"
	f, _ := os.OpenFile(env.H("eval_log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(bad)
	f.Close()
	rep, err := EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要登记 golang.org/x/time/rate 到 tooling 第 6 节"})
	if err != nil {
		t.Fatalf("unrelated append refused: %v", err)
	}
	if len(rep.Warnings) == 0 {
		t.Errorf("the pre-existing lazy reason was not reported as a warning")
	}
	// And the correction of that line goes through, turning it into info.
	if _, err := EvalAmend(env, 5, "补录: f002 需要 golang.org/x/time/rate,已登记 tooling 第 6 节", ""); err != nil {
		t.Fatalf("amend refused: %v", err)
	}
	fs, err := EngineValidate(root)
	if err != nil {
		t.Fatal(err)
	}
	if errs := errorsOnly(fs); len(errs) != 0 {
		t.Errorf("validate still fails after the correction: %v", errs)
	}
}

// TestResetHermesCrashLosesNothing: a crash between any two of the three
// writes of a Hermes Reset (Z9) leaves earlier steps done and later files
// untouched, and resume still recovers the pending eval.
func TestResetHermesCrashLosesNothing(t *testing.T) {
	pe := `{"feature_id":"f002","reason":"f002 phase=1 子任务拆分完整,与 3 条 acceptance 对应","eval_decision":"pass","fix_direction":""}`
	handoff := "# Hermes Handoff\n\n**Trigger reason**: token > 0.70\n\n## Hermes 当前工作快照\n评审 f002 phase=1\n"
	for crash := 0; crash <= 3; crash++ {
		t.Run(fmt.Sprintf("crash-after-%d", crash), func(t *testing.T) {
			root := fixture(t, "valid-midway")
			env := &Env{Root: root, Now: time.Now, Validate: EngineValidate, crashAfter: crash}
			ctxBefore := mustRead(t, env.H("hermes_context_state.json"))
			rtBefore := mustRead(t, env.H("runtime_state.json"))
			_, err := ResetHermes(env, HermesResetInput{Handoff: []byte(handoff), PendingEval: []byte(pe)})
			if crash >= 1 && crash <= 2 {
				if !errors.Is(err, errCrash) {
					t.Fatalf("want the simulated crash, got %v", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			done := crash
			if crash == 0 || crash == 3 {
				done = 3
			}
			if _, err := os.Stat(env.H("hermes_handoff.md")); err != nil {
				t.Fatalf("step 1 (hermes_handoff.md) missing: %v", err)
			}
			if !strings.Contains(mustRead(t, env.H("hermes_handoff.md")), `"feature_id": "f002"`) {
				t.Fatalf("the handoff does not carry the pending eval first")
			}
			ctxChanged := mustRead(t, env.H("hermes_context_state.json")) != ctxBefore
			rtChanged := mustRead(t, env.H("runtime_state.json")) != rtBefore
			if ctxChanged != (done >= 2) || rtChanged != (done >= 3) {
				t.Fatalf("after %d steps: context state changed %v, runtime state changed %v", done, ctxChanged, rtChanged)
			}
			// Hermes restarts: resume applies the pending eval exactly once.
			env.crashAfter = 0
			res, _, err := ResetResume(env)
			if err != nil {
				t.Fatal(err)
			}
			if !res.PendingEvalRecovered {
				t.Fatalf("pending eval lost after a crash after step %d", done)
			}
			log := mustRead(t, env.H("eval_log.jsonl"))
			if n := strings.Count(log, "reset resume 恢复"); n != 1 {
				t.Fatalf("recovered verdict written %d times", n)
			}
			if !strings.Contains(log, `"event_type":"reset","agent":"hermes","reason":"token > 0.70","pending_eval_recovered":true`) {
				t.Fatalf("no Hermes reset entry:\n%s", log)
			}
			if _, _, err := ResetResume(env); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(mustRead(t, env.H("eval_log.jsonl")), "reset resume 恢复"); n != 1 {
				t.Fatalf("a second resume re-applied the pending eval (%d)", n)
			}
			if hc := readJSON(t, env.H("hermes_context_state.json")); hc["pending_eval"] != nil {
				t.Fatalf("pending_eval not cleared: %v", hc["pending_eval"])
			}
			if fs, _ := EngineValidate(root); len(errorsOnly(fs)) > 0 {
				t.Fatalf("workspace invalid: %v", errorsOnly(fs))
			}
		})
	}
}

func TestResetHermesRefusedWhenSuspended(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Now())
	rt := strings.Replace(mustRead(t, env.H("runtime_state.json")), `"mode": "active"`, `"mode": "suspended"`, 1)
	os.WriteFile(env.H("runtime_state.json"), []byte(rt), 0o644)
	_, err := ResetHermes(env, HermesResetInput{Handoff: []byte("# h\n")})
	if _, ok := IsRefusal(err); !ok {
		t.Fatalf("want refusal in suspended mode, got %v", err)
	}
	if _, err := os.Stat(env.H("hermes_handoff.md")); err == nil {
		t.Fatalf("handoff written although refused")
	}
}

func TestTaskQueue(t *testing.T) {
	q := &Queue{Root: t.TempDir(), Env: &Env{Now: func() time.Time { return time.Date(2026, 4, 21, 8, 0, 0, 0, time.UTC) }}}
	os.MkdirAll(filepath.Join(q.Root, "PROMPTS"), 0o755)
	os.WriteFile(filepath.Join(q.Root, "PROMPTS", "a.md"), []byte("x"), 0o644)
	// An old id of the same day in failed/ and a finished one in sprints/ count.
	os.MkdirAll(q.dir("failed"), 0o755)
	os.WriteFile(q.dir("failed", "task_20260421_004.json"), []byte(`{"id":"task_20260421_004","status":"failed"}`), 0o644)
	os.MkdirAll(filepath.Join(q.Root, "sprints", "sprint_20260421_1"), 0o755)
	os.WriteFile(filepath.Join(q.Root, "sprints", "sprint_20260421_1", "TASK.json"), []byte(`{"id":"task_20260421_007","status":"done"}`), 0o644)

	if _, err := q.TaskAdd(TaskAddInput{Title: "abs", PromptFile: "/etc/passwd"}); err == nil {
		t.Fatal("absolute prompt_file accepted (Z20)")
	}
	var wg sync.WaitGroup
	ids := make(chan string, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			prio := 3
			if i == 5 {
				prio = 1
			}
			rep, err := q.TaskAdd(TaskAddInput{Title: fmt.Sprint("t", i), PromptFile: "PROMPTS/a.md", Priority: prio})
			if err != nil {
				t.Error(err)
				return
			}
			ids <- rep.Data.(map[string]any)["id"].(string)
		}(i)
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Fatalf("duplicate task id %s", id)
		}
		if id <= "task_20260421_007" {
			t.Fatalf("id %s reuses a number already taken", id)
		}
		seen[id] = true
	}
	if len(seen) != 8 {
		t.Fatalf("%d ids", len(seen))
	}
	rep, err := q.TaskNext()
	if err != nil {
		t.Fatal(err)
	}
	first := rep.Data.(map[string]any)["id"].(string)
	if b := mustRead(t, q.dir("running", first+".json")); !strings.Contains(b, `"title": "t5"`) || !strings.Contains(b, `"status": "running"`) {
		t.Fatalf("priority 1 task not picked first or not marked running:\n%s", b)
	}
	if _, err := q.TaskNext(); err == nil {
		t.Fatal("a second task started while one is running")
	}
	if _, err := q.TaskDone(first, ""); err == nil {
		t.Fatal("task done without sprint_id accepted")
	}
	if _, err := q.TaskDone(first, "sprint_20260421_2"); err == nil {
		t.Fatal("task done into a missing sprint folder accepted")
	}
	os.MkdirAll(filepath.Join(q.Root, "sprints", "sprint_20260421_2"), 0o755)
	if _, err := q.TaskDone(first, "sprint_20260421_2"); err != nil {
		t.Fatal(err)
	}
	if b := mustRead(t, filepath.Join(q.Root, "sprints", "sprint_20260421_2", "TASK.json")); !strings.Contains(b, `"status": "done"`) {
		t.Fatalf("TASK.json: %s", b)
	}
	if _, err := os.Stat(q.dir("running", first+".json")); err == nil {
		t.Fatal("finished task left in running/")
	}
	rep, err = q.TaskNext()
	if err != nil {
		t.Fatal(err)
	}
	second := rep.Data.(map[string]any)["id"].(string)
	if _, err := q.TaskFail(second, "probe failed"); err != nil {
		t.Fatal(err)
	}
	if b := mustRead(t, q.dir("failed", second+".json")); !strings.Contains(b, `"status": "failed"`) {
		t.Fatalf("failed task: %s", b)
	}
}

func TestNextReasonsAndCycles(t *testing.T) {
	root := fixture(t, "valid-complete")
	env := testEnv(root, time.Now())
	fl := mustRead(t, env.H("feature_list.json"))
	// Reopen: f003 pending, plus a cycle f004 <-> f005 and a pending f006 on f003.
	var m map[string]any
	json.Unmarshal([]byte(fl), &m)
	feats := m["features"].([]any)
	f3 := feats[2].(map[string]any)
	f3["status"] = "pending"
	mk := func(id string, deps ...string) map[string]any {
		return map[string]any{"id": id, "name": id, "status": "pending", "phase": 1, "depends_on": deps, "acceptance": []any{"x"}, "checkpoints": []any{}}
	}
	m["features"] = append(feats, mk("f004", "f005"), mk("f005", "f004"), mk("f006", "f003"), mk("f007"), mk("f008"), mk("f009"))
	b, _ := json.Marshal(m)
	os.WriteFile(env.H("feature_list.json"), b, 0o644)
	res, err := Next(env)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cycles) != 1 || strings.Join(res.Cycles[0], ",") != "f004,f005" {
		t.Fatalf("cycles %v", res.Cycles)
	}
	if strings.Join(res.Startable, ",") != "f007,f008" {
		t.Fatalf("startable %v (entry features first, two free slots)", res.Startable)
	}
	reasons := map[string]string{}
	for _, b := range res.Blocked {
		reasons[b.Feature] = strings.Join(b.Reasons, "; ")
	}
	for fid, want := range map[string]string{
		"f003": "",
		"f004": "on a dependency cycle f004 → f005 → f004",
		"f006": "depends on f003 (status pending, phase 4), not completed",
		"f009": "no free session slot",
	} {
		if want == "" {
			continue
		}
		if !strings.Contains(reasons[fid], want) {
			t.Errorf("%s: reasons %q, want %q", fid, reasons[fid], want)
		}
	}
}

func TestPreflightWiring(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Now())
	res, _, err := Preflight(env, "launch", []string{"f001"})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK {
		t.Fatal("launch passed without hook wiring")
	}
	hook := filepath.Join(t.TempDir(), "harness-hook")
	if runtime.GOOS == "windows" {
		hook += ".exe"
	}
	os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o644) // not executable yet
	settings := func(editMatcher string) {
		h := func(ev string) []any {
			return []any{map[string]any{"type": "command", "command": hook, "args": []string{"--event", ev}}}
		}
		s := map[string]any{"hooks": map[string]any{
			"SessionStart": []any{map[string]any{"matcher": "", "hooks": h("SessionStart")}},
			"PreToolUse": []any{
				map[string]any{"matcher": "Bash", "hooks": h("PreToolUse")},
				map[string]any{"matcher": editMatcher, "hooks": h("PreToolUse")},
			},
			"Stop": []any{map[string]any{"matcher": "", "hooks": h("Stop")}},
		}}
		b, _ := json.Marshal(s)
		os.MkdirAll(env.H("features", "f001", ".claude"), 0o755)
		os.WriteFile(env.H("features", "f001", ".claude", "settings.json"), b, 0o644)
	}
	check := func(want bool, detail string) {
		t.Helper()
		res, _, err := Preflight(env, "launch", []string{"f001"})
		if err != nil {
			t.Fatal(err)
		}
		var wiring CheckItem
		for _, it := range res.Items {
			if it.Check == "hook wiring" {
				wiring = it
			}
		}
		if wiring.OK != want || !strings.Contains(wiring.Detail, detail) {
			t.Fatalf("wiring ok=%v %q, want ok=%v containing %q", wiring.OK, wiring.Detail, want, detail)
		}
	}
	settings("Edit|Write|MultiEdit|NotebookEdit")
	if runtime.GOOS != "windows" {
		check(false, "not executable")
	}
	os.Chmod(hook, 0o755)
	check(true, "harness-hook registered")
	settings("Edit|Write|NotebookEdit") // the original template's matcher: no MultiEdit
	check(false, "PreToolUse MultiEdit: not registered")

	// started: f001's pool entry and session id exist, but .current_agent names f002.
	res, _, err = Preflight(env, "started", []string{"f001"})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range res.Items {
		if it.Check == ".current_agent" && it.OK {
			t.Fatal(".current_agent check passed although it names f002")
		}
		if it.Check == "session_pool entry" && !it.OK {
			t.Fatal("pool entry check failed")
		}
	}
}

func TestSessionLifecycle(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
	// Same id again: a no-op.
	rep, err := SessionStart(env, SessionStartInput{Feature: "f001", Type: "cc-print"})
	if err != nil || !strings.Contains(strings.Join(rep.Actions, "\n"), "nothing to do") {
		t.Fatalf("restart with the recorded id: %v %v", rep, err)
	}
	// Both id sources empty: refused.
	os.WriteFile(env.H("features", "f002", "session_id.txt"), nil, 0o644)
	if _, err := SessionEnd(env, "f002"); err != nil {
		t.Fatal(err)
	}
	if _, err := SessionStart(env, SessionStartInput{Feature: "f002", Type: "cc-print"}); err == nil {
		t.Fatal("session start without any id accepted")
	}
	// mcp_direct proxy session: developer hermes-as-proxy; a stray
	// .current_agent.json is deleted (Z18).
	os.WriteFile(env.H(".current_agent.json"), []byte(`{"role":"generator"}`), 0o644)
	if _, err := SessionStart(env, SessionStartInput{Feature: "f002", SessionID: "hermes-proxy-f002", Type: "mcp_direct"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(env.H(".current_agent.json")); err == nil {
		t.Fatal("stray .current_agent.json not deleted")
	}
	ca := readJSON(t, env.H(".current_agent"))
	if ca["developer"] != "hermes-as-proxy" || ca["current_feature"] != "f002" || ca["role"] != "generator" {
		t.Fatalf(".current_agent %v", ca)
	}
	if got := strings.TrimSpace(mustRead(t, env.H("features", "f002", "session_id.txt"))); got != "hermes-proxy-f002" {
		t.Fatalf("session_id.txt = %q", got)
	}
	// Reset: once, with the handoff's trigger line.
	os.WriteFile(env.H("features", "f001", "handoff.md"), []byte("**Trigger reason**: retry >= 2\n\n## 当前状态\nphase=2 进行中,extract.go 写了一半\n"), 0o644)
	env.Now = time.Now
	for i := 0; i < 2; i++ {
		if _, err := SessionReset(env, "f001", ""); err != nil {
			t.Fatal(err)
		}
	}
	log := mustRead(t, env.H("eval_log.jsonl"))
	if n := strings.Count(log, `"event_type":"reset","agent":"claude-code","reason":"retry >= 2"`); n != 1 {
		t.Fatalf("%d reset entries:\n%s", n, log)
	}
	pool := readJSON(t, env.H("session_pool.json"))
	if st := pool["active"].(map[string]any)["f001"].(map[string]any)["status"]; st != "resetting" {
		t.Fatalf("pool status %v", st)
	}
}

// TestJournalCompletesAnInterruptedChange: a crash in the middle of a
// multi-file change (checkpoint reply writes feature_list, eval_log,
// runtime_state, hermes_context_state) is completed by the next command, with
// the eval line written exactly once.
func TestJournalCompletesAnInterruptedChange(t *testing.T) {
	for crash := 1; crash <= 4; crash++ {
		t.Run(fmt.Sprintf("crash-after-%d", crash), func(t *testing.T) {
			root := fixture(t, "valid-midway")
			env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
			blockers := []byte(`[{"id":"b1","question":"q1","options":["a. x","b. y"]},{"id":"b2","question":"q2","options":["a. x","b. y"]}]`)
			if _, err := CheckpointOpen(env, CheckpointOpenInput{ID: "cp-f001-4", Phase: 2, Blockers: blockers}); err != nil {
				t.Fatal(err)
			}
			env.crashAfter = crash
			if _, err := CheckpointReply(env, "cp-f001-4", "1a 2b 3a"); !errors.Is(err, errCrash) {
				t.Fatalf("want the simulated crash, got %v", err)
			}
			if _, err := os.Stat(filepath.Join(root, ".harness", "logs", "ops.journal")); err != nil {
				t.Fatalf("no journal after the crash: %v", err)
			}
			env.crashAfter = 0
			rep, err := CheckpointDue(env)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(rep.Notes, "\n"), "completed an interrupted `harness checkpoint reply`") {
				t.Fatalf("recovery not reported: %v", rep.Notes)
			}
			log := mustRead(t, env.H("eval_log.jsonl"))
			if n := strings.Count(log, `"checkpoint_id":"cp-f001-4","checkpoint_type":"gate","decision":"approved"`); n != 1 {
				t.Fatalf("checkpoint entry written %d times", n)
			}
			if rt := readJSON(t, env.H("runtime_state.json")); len(rt["pending_user_replies"].([]any)) != 0 {
				t.Fatalf("pending_user_replies not cleared: %v", rt["pending_user_replies"])
			}
			if !strings.Contains(mustRead(t, env.H("feature_list.json")), `"decision": "approved"`) {
				t.Fatal("feature_list not updated")
			}
			if _, err := os.Stat(filepath.Join(root, ".harness", "logs", "ops.journal")); err == nil {
				t.Fatal("journal left behind")
			}
			if fs, _ := EngineValidate(root); len(errorsOnly(fs)) > 0 {
				t.Fatalf("invalid after recovery: %v", errorsOnly(fs))
			}
		})
	}
}

// TestJournalRejectsForeignPaths: a planted journal cannot make harness write
// outside the state files it owns.
func TestJournalRejectsForeignPaths(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Now())
	planted := `{"command":"x","steps":[{"rel":".harness/sprint_contracts/sprint_20260421_1/tooling.md","data":"pwned"},{"rel":"spec/AGENTS.md","data":"x"},{"rel":"../../outside","data":"x"}]}`
	os.WriteFile(filepath.Join(root, ".harness", "logs", "ops.journal"), []byte(planted), 0o644)
	before := mustRead(t, env.H("sprint_contracts", "sprint_20260421_1", "tooling.md"))
	if _, err := EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要 x/time/rate"}); err == nil {
		t.Fatal("a journal naming tooling.md was replayed")
	}
	if mustRead(t, env.H("sprint_contracts", "sprint_20260421_1", "tooling.md")) != before {
		t.Fatal("tooling.md overwritten from a planted journal")
	}
}

// BenchmarkEvalAppend measures one `harness eval append` end to end on a
// mid-sprint workspace: lock, scratch copy, validate before and after, append.
func BenchmarkEvalAppend(b *testing.B) {
	src := filepath.Join("..", "..", "testdata", "sprints", "valid-midway")
	root := filepath.Join(b.TempDir(), "ws")
	testutil.CopyTree(b, src, root)
	env := &Env{Root: root, Now: time.Now, Validate: EngineValidate}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := EvalAppend(env, EvalAppendInput{Feature: "f002", Phase: 1, Event: "retry", Reason: "需要登记 golang.org/x/time/rate"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConcurrentAppendsLoseNothing: Generators of two features and Hermes
// append at once; every line lands whole.
func TestConcurrentAppendsLoseNothing(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
	before := strings.Count(mustRead(t, env.H("eval_log.jsonl")), "\n")
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			fid := []string{"f001", "f002"}[i%2]
			e := *env
			e.Feature = fid
			_, err := EvalAppend(&e, EvalAppendInput{Feature: fid, Phase: map[string]int{"f001": 2, "f002": 1}[fid], Event: "retry", Reason: fmt.Sprintf("需要新工具 #%d", i)})
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	log := mustRead(t, env.H("eval_log.jsonl"))
	if n := strings.Count(log, "\n") - before; n != 12 {
		t.Fatalf("%d lines appended, want 12", n)
	}
	for i := 0; i < 12; i++ {
		if !strings.Contains(log, fmt.Sprintf("需要新工具 #%d\"", i)) {
			t.Fatalf("line %d lost", i)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("torn line %q", l)
		}
	}
}
