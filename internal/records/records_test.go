package records

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

const body100 = "### 关键决策\n- 按常规实现,无特殊决策。这里写下足够多的文字,使得本段正文超过一百字节的阈值。abcdefghij"

func TestParseGeneratorLog(t *testing.T) {
	text := strings.Join([]string{
		"# Generator Log: f001",
		"## phase=1 plan — 2026-04-21T02:00:00Z",
		"### 关键决策",
		"- a",
		"```bash",
		"# a shell comment, not a heading",
		"## phase=2 inside a fence",
		"```",
		"### not counted after fence",
		"## phase=2 implement — {timestamp}",
		"stub body",
		"##phase=3 no space is not a heading",
		"## phase 3 verify 2026-04-21T03:00:00.5Z",
		"~~~",
		"### 关键决策 (inside tilde fence)",
		"~~~",
		"### Key Decisions",
		"## phase=12 not phase 1",
		"## phase=4",
		"    ```",
		"## still fenced (4 spaces do not open a fence, so this IS a heading)",
		"## phase=4 deliver — 2026-04-21T05:00:00Z",
		"   ```",
		"unclosed fence runs to the end",
		"# level one",
	}, "\n")
	g := ParseGeneratorLog(text)
	type want struct {
		phase   int
		ts      bool
		kd      bool
		contain string
	}
	ws := []want{
		{1, true, true, "## phase=2 inside a fence"},
		{3, true, true, "### 关键决策 (inside tilde fence)"},
		{4, false, false, "    ```"},
		{4, true, false, "unclosed fence runs to the end\n# level one"},
	}
	if len(g.Sections) != len(ws) {
		for _, s := range g.Sections {
			t.Logf("section phase=%d line %d: %q", s.Phase, s.Line, s.Body)
		}
		t.Fatalf("got %d sections, want %d", len(g.Sections), len(ws))
	}
	for i, w := range ws {
		s := g.Sections[i]
		if s.Phase != w.phase || s.HasTimestamp != w.ts || s.KeyDecisions != w.kd || !strings.Contains(s.Body, w.contain) {
			t.Errorf("section %d = phase %d ts %v kd %v body %q; want %+v", i, s.Phase, s.HasTimestamp, s.KeyDecisions, s.Body, w)
		}
	}
	// the fenced "# a shell comment" did not end section 1, the stub did
	if strings.Contains(g.Sections[0].Body, "stub body") {
		t.Error("template stub heading did not end the previous section")
	}
	if !g.Sections[1].Timestamp.Equal(time.Date(2026, 4, 21, 3, 0, 0, 5e8, time.UTC)) {
		t.Errorf("fractional heading timestamp = %v", g.Sections[1].Timestamp)
	}
	if len(g.ForPhase(2)) != 0 {
		t.Error("a stub or fenced heading opened a phase=2 section")
	}
	// "## phase=4" with the following "## still fenced…" heading: the 4-space
	// fence does not open a fence, so "## still…" ends the section.
	if strings.Contains(g.Sections[2].Body, "still fenced") {
		t.Error("a line indented 4 spaces opened a fence")
	}
}

func TestLengthAndLazy(t *testing.T) {
	if Length("  实现 extractor 包 \n") != 20 {
		t.Errorf("Length = %d, want 20 UTF-8 bytes", Length("  实现 extractor 包 \n"))
	}
	for _, s := range []string{"ok", " OK ", "Done", "pass", "No Issue", "完成", "通过", "没问题", "看起来不错,没啥问题", "\t通过\n"} {
		if !IsLazy(s) {
			t.Errorf("IsLazy(%q) = false", s)
		}
	}
	for _, s := range []string{"ok, 3 acceptance items pass", "passed all 3 tests", "完成了 a1 a2", "", "不错看起来"} {
		if IsLazy(s) {
			t.Errorf("IsLazy(%q) = true", s)
		}
	}
}

func entries(t *testing.T, lines ...string) []*workspace.EvalEntry {
	t.Helper()
	return workspace.Entries(workspace.ParseEvalLog([]byte(strings.Join(lines, "\n") + "\n")))
}

func TestRollbackMarkAndCounting(t *testing.T) {
	es := entries(t,
		`{"timestamp":"2026-04-21T02:00:00Z","feature_id":"f001","phase":2,"event_type":"phase_evaluation","result":"pass","reason":"x"}`,
		`{"timestamp":"2026-04-21T03:00:00Z","feature_id":"f001","phase":3,"event_type":"phase_evaluation","result":"retry","reason":"x"}`,
		`{"timestamp":"2026-04-21T03:10:00Z","feature_id":"f002","phase":3,"event_type":"phase_evaluation","result":"fail","reason":"other feature"}`,
		`{"timestamp":"2026-04-21T03:20:00Z","feature_id":"f001","phase":1,"event_type":"checkpoint","decision":"rejected","reason":"phase 1 < 2"}`,
		`{"timestamp":"2026-04-21T03:30:00Z","feature_id":"f001","phase":3,"event_type":"fail","supersedes_line":2,"reason":"补录: a correction is never a mark"}`,
		`{"timestamp":"2026-04-21T03:40:00Z","feature_id":"f001","phase":2,"event_type":"phase_evaluation","result":"pass","reason":"y"}`,
	)
	m := RollbackMark(es, "f001", 2, 0)
	if m == nil || m.Entry.Line != 2 || !m.TimeOK {
		t.Fatalf("mark = %+v, want line 2", m)
	}
	if RollbackMark(es, "f001", 4, 0) != nil {
		t.Error("a phase-3 retry is not a mark for phase 4")
	}
	if m := RollbackMark(es, "f001", 1, 0); m == nil || m.Entry.Line != 4 {
		t.Errorf("phase-1 mark = %+v, want the rejected checkpoint at line 4", m)
	}
	if RollbackMark(es, "f001", 2, 2) != nil {
		t.Error("finalize form: no mark before line 2")
	}
	if EntryCounts(es[0], m) || !EntryCounts(es[5], m) {
		t.Error("entries before the mark must not count, after it must")
	}
	before := Section{Phase: 2, HasTimestamp: true, Timestamp: time.Date(2026, 4, 21, 2, 59, 0, 0, time.UTC)}
	same := Section{Phase: 2, HasTimestamp: true, Timestamp: time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC)}
	after := Section{Phase: 2, HasTimestamp: true, Timestamp: time.Date(2026, 4, 21, 3, 0, 1, 0, time.UTC)}
	if SectionCounts(before, m) || SectionCounts(same, m) || !SectionCounts(after, m) {
		t.Error("sections count only when strictly later than the mark")
	}
	if SectionCounts(Section{Phase: 2}, m) || !SectionCounts(Section{Phase: 2}, nil) {
		t.Error("a heading without timestamp counts only without a mark")
	}
	if c := LastCorrection(es, 2); c == nil || c.Line != 5 {
		t.Errorf("LastCorrection(2) = %v", c)
	}
}

// workspace helpers for the CheckPhase / CompletePhase tests.

func newWS(t *testing.T) *workspace.Workspace {
	t.Helper()
	root := copyTree(t, filepath.Join(sprints, "valid-midway"))
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func checks(r Report) string {
	var s []string
	for _, f := range r.Failures {
		s = append(s, f.Check)
	}
	return strings.Join(s, ",")
}

func TestCheckPhaseEachCheck(t *testing.T) {
	ws := newWS(t)
	r, err := CheckPhase(ws, "f001")
	if err != nil {
		t.Fatal(err)
	}
	if got := checks(r); got != "4,6,10" {
		t.Fatalf("midway f001 failing checks = %s, want 4,6,10", got)
	}
	// a short section without 关键决策
	appendFile(t, ws.GeneratorLog("f001"), "\n## phase=2 implement — 2026-04-21T02:58:00Z\n\nshort\n")
	appendFile(t, ws.EvalLog(), `{"timestamp":"2026-04-21T02:58:30Z","sprint_id":"sprint_20260421_1","feature_id":"f001","phase":2,"event_type":"phase_evaluation","result":"pass","reason":"OK"}`+"\n")
	r, _ = CheckPhase(ws, "f001")
	if got := checks(r); got != "4b,5,8,10" {
		t.Fatalf("failing checks = %s, want 4b,5,8,10\n%s", got, r.Reason())
	}
	// a correction fixes the lazy reason (checks 7-9 read it)
	lines, _ := workspace.ReadEvalLog(ws.EvalLog())
	lazy := len(lines)
	appendFile(t, ws.EvalLog(), fmt.Sprintf(`{"timestamp":"2026-04-21T02:59:00Z","sprint_id":"sprint_20260421_1","feature_id":"f001","phase":2,"event_type":"phase_evaluation","supersedes_line":%d,"reason":"补录: short"}`+"\n", lazy))
	r, _ = CheckPhase(ws, "f001")
	if got := checks(r); got != "4b,5,9,10" {
		t.Fatalf("after correction: failing checks = %s, want 4b,5,9,10\n%s", got, r.Reason())
	}
	// missing generator_log: check 3 replaces 4/4b/5
	os.Remove(ws.GeneratorLog("f001"))
	r, _ = CheckPhase(ws, "f001")
	if got := checks(r); got != "3,9,10" {
		t.Fatalf("failing checks = %s, want 3,9,10", got)
	}
	if !strings.Contains(r.Reason(), "harness phase complete f001") || !strings.Contains(r.Reason(), ".harness/features/f001/handoff.md") {
		t.Errorf("reason lacks the fix or the Reset hint:\n%s", r.Reason())
	}
}

func TestCheckPhaseSkipsAndParseError(t *testing.T) {
	ws := newWS(t)
	if r, _ := CheckPhase(ws, "f009"); !r.Skipped || !r.OK() {
		t.Error("unknown feature must be skipped (allow)")
	}
	fl, _ := os.ReadFile(ws.FeatureList())
	os.WriteFile(ws.FeatureList(), []byte(strings.Replace(string(fl), `"phase": 2,`, `"phase": "2",`, 1)), 0o644)
	if r, _ := CheckPhase(ws, "f001"); !r.Skipped {
		t.Errorf("non-integer phase must be skipped: %+v", r)
	}
	os.WriteFile(ws.FeatureList(), []byte(`{"version": "1.2", `), 0o644)
	r, _ := CheckPhase(ws, "f001")
	if r.Skipped || checks(r) != "2b" {
		t.Errorf("broken feature_list must block with 2b: %+v", r)
	}
	// The block message must not present a default 0 as the phase.
	if msg := r.Reason(); strings.Contains(msg, "phase=") || !strings.Contains(msg, "phase unknown (.harness/feature_list.json does not parse)") {
		t.Errorf("parse-error reason must say the phase is unknown because feature_list.json does not parse:\n%s", msg)
	}
	os.WriteFile(ws.FeatureList(), []byte(`[{"id":"f001","phase":2}]`), 0o644)
	if r, _ := CheckPhase(ws, "f001"); r.Skipped || checks(r) != "2b" {
		t.Errorf("a feature_list that is not an object must block with 2b: %+v", r)
	}
	os.WriteFile(ws.FeatureList(), []byte(`{"features":{"f001":{"phase":2}}}`), 0o644)
	if r, _ := CheckPhase(ws, "f001"); !r.Skipped {
		t.Errorf("features not an array: feature not found, skip: %+v", r)
	}
	os.WriteFile(ws.FeatureList(), []byte(`{"features":[7,{"ID":"f001","phase":2},{"id":"f001","phase":2,"next_phases":[{"phase":2,"done":true}]}]}`), 0o644)
	if r, _ := CheckPhase(ws, "f001"); r.Skipped || r.Phase != 2 || strings.Contains(checks(r), "10") {
		t.Errorf("exact-key lookup past ill-typed members: %+v", r)
	}
	os.Remove(ws.FeatureList())
	if r, _ := CheckPhase(ws, "f001"); !r.Skipped {
		t.Error("missing feature_list must be skipped")
	}
}

func TestCompletePhase(t *testing.T) {
	ws := newWS(t)
	orig, _ := os.ReadFile(ws.FeatureList())
	r, err := CompletePhase(ws, "f001")
	if err != ErrIncomplete || r.OK() {
		t.Fatalf("CompletePhase on missing records: err=%v report=%+v", err, r)
	}
	if now, _ := os.ReadFile(ws.FeatureList()); string(now) != string(orig) {
		t.Fatal("refused CompletePhase modified feature_list.json")
	}
	appendFile(t, ws.GeneratorLog("f001"), "\n## phase=2 implement — 2026-04-21T02:58:00Z\n\n"+body100+"\n")
	appendFile(t, ws.EvalLog(), `{"timestamp":"2026-04-21T02:58:30Z","sprint_id":"sprint_20260421_1","feature_id":"f001","phase":2,"event_type":"phase_evaluation","result":"pass","reason":"实现 extractor 包,3 条 acceptance 覆盖"}`+"\n")
	if r, err := CompletePhase(ws, "f001"); err != nil || !r.OK() {
		t.Fatalf("CompletePhase: %v %s", err, r.Reason())
	}
	after, _ := os.ReadFile(ws.FeatureList())
	var before, now map[string]any
	json.Unmarshal(orig, &before)
	json.Unmarshal(after, &now)
	f := now["features"].([]any)[0].(map[string]any)
	nps := f["next_phases"].([]any)
	if nps[1].(map[string]any)["done"] != true {
		t.Error("next_phases[phase==2].done not set")
	}
	// only that one value changed
	bf := before["features"].([]any)[0].(map[string]any)
	bf["next_phases"].([]any)[1].(map[string]any)["done"] = true
	bb, _ := json.Marshal(before)
	nb, _ := json.Marshal(now)
	if string(bb) != string(nb) {
		t.Errorf("CompletePhase changed more than done:\n%s\n%s", bb, nb)
	}
	if f["phase"].(float64) != 2 || nps[1].(map[string]any)["current"] != true {
		t.Error("CompletePhase changed phase or current")
	}
	// key order and formatting kept: the file differs in exactly one line
	ol, nl := strings.Split(string(orig), "\n"), strings.Split(string(after), "\n")
	diff := 0
	for i := range ol {
		if i < len(nl) && ol[i] != nl[i] {
			diff++
		}
	}
	if len(ol) != len(nl) || diff != 1 {
		t.Errorf("expected a one-line change, got %d lines differing (%d vs %d lines)", diff, len(ol), len(nl))
	}
	// Stop now passes for f001.
	if r, _ := CheckPhase(ws, "f001"); !r.OK() {
		t.Errorf("Stop after phase complete still blocks:\n%s", r.Reason())
	}
	if _, err := CompletePhase(ws, "f009"); err == nil {
		t.Error("CompletePhase of an unknown feature must fail")
	}
}

func TestResetExceptionAndRecordReset(t *testing.T) {
	ws := newWS(t)
	now := time.Now()
	h := ws.Handoff("f001")
	if ok, _, _, _ := ResetException(ws, "f001", now); ok {
		t.Fatal("empty handoff must not apply")
	}
	text50 := "# handoff\n**Trigger reason**: 看起来不错\n" + strings.Repeat("x", 50-len("# handoff\n**Trigger reason**: 看起来不错\n"))
	os.WriteFile(h, []byte(text50), 0o644)
	if ok, _, _, _ := ResetException(ws, "f001", now); ok {
		t.Fatal("50 raw bytes must not apply")
	}
	os.WriteFile(h, []byte(text50+"y"), 0o644)
	ok, trig, _, err := ResetException(ws, "f001", now)
	if err != nil || !ok || trig != DefaultResetTrigger {
		t.Fatalf("51 bytes fresh: ok=%v trigger=%q err=%v", ok, trig, err)
	}
	old := now.Add(-300 * time.Second)
	os.Chtimes(h, old, old)
	if ok, _, _, _ := ResetException(ws, "f001", now); ok {
		t.Fatal("a handoff 300 s old must not apply")
	}
	// A Generator that dates its handoff a year ahead must not hold the
	// exception open (and re-record a reset on every Stop) for a year.
	future := now.Add(365 * 24 * time.Hour)
	os.Chtimes(h, future, future)
	if ok, _, _, _ := ResetException(ws, "f001", now); ok {
		t.Fatal("a handoff dated in the future must not apply")
	}
	skew := now.Add(HandoffClockSkew / 2)
	os.Chtimes(h, skew, skew)
	if ok, _, _, _ := ResetException(ws, "f001", now); !ok {
		t.Fatal("a handoff within the clock-skew tolerance must apply")
	}
	os.WriteFile(h, []byte("# Handoff\n\n**Trigger reason**：token_usage_ratio 0.74 > 0.70\n\n## 当前状态\n进行中\n"), 0o644)
	_, trig, _, _ = ResetException(ws, "f001", now)
	if trig != "token_usage_ratio 0.74 > 0.70" {
		t.Fatalf("trigger = %q", trig)
	}
}

// fullHandoff is a handoff.md filling every section of the template.
func fullHandoff(feature, trigger, work string) string {
	return "# Handoff: " + feature + "\n\n**Generated at**: 2026-04-21T02:52:00Z\n**Feature**: " + feature + "\n**Sprint**: sprint_20260421_1\n**Trigger reason**: " + trigger +
		"\n\n## 当前状态\n\n### 已完成\n\n- phase=1 plan\n\n### 进行中\n\n- Phase: 2 (implement), about 60% done\n- Last work: " + work +
		"\n\n## 下一步计划\n\n1. 完成 position.go\n\n## 关键架构决策\n\n- 按常规实现,无特殊决策\n\n## 最近失败模式\n\n- (none)\n\n## 运行时依赖变更\n\n- (none)\n\n## 给新 session 的提醒\n\n- Continue phase 2.\n"
}

// setTrigger puts figures on record for feature f001 in session sess.
func setTrigger(t *testing.T, ws *workspace.Workspace, sess string, ratio float64) {
	t.Helper()
	if _, err := ws.UpdateContextState("f001", func(cs *workspace.ContextState) error {
		cs.SessionID, cs.TokenUsageRatio, cs.ResetTrigger = sess, ratio, nil
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestAcceptResetIsEarnedOnce: the Reset exception opens only for a
// handoff.md that fills the template with a real trigger, only when a
// trigger is on record (or Hermes ordered the Reset), at most once per
// session and never twice for the same handoff; `touch` and junk bytes
// never open it; it is recorded once (pool resetting, one reset eval entry,
// the resets record with the handoff's hash and the eval line's place).
func TestAcceptResetIsEarnedOnce(t *testing.T) {
	ws := newWS(t)
	now := time.Now()
	h := ws.Handoff("f001")
	in := ResetInput{Feature: "f001", SessionID: "sess_a", Now: now, LockTimeout: time.Second}
	refused := func(label, want string) {
		t.Helper()
		out, err := AcceptReset(ws, in)
		if err != nil || out.Accepted || !strings.Contains(out.Why, want) {
			t.Errorf("%s: %+v, %v; want refused with %q", label, out, err, want)
		}
	}
	os.WriteFile(h, nil, 0o644) // touch
	refused("touch", "handoff.md is 0 bytes")
	os.WriteFile(h, []byte(fmt.Sprintf("%060d", 0)), 0o644) // printf '%060d' 0 > handoff.md
	refused("junk", "does not fill the handoff template")
	os.WriteFile(h, []byte(fullHandoff("f001", "看起来不错", "extract.go")), 0o644)
	refused("lazy trigger", "names no trigger")
	os.WriteFile(h, []byte(fullHandoff("f002", "token_usage_ratio 0.74 > 0.70", "extract.go")), 0o644)
	refused("other feature", "**Feature** is")
	os.WriteFile(h, []byte(strings.Replace(fullHandoff("f001", "token_usage_ratio 0.74 > 0.70", "x"), "## 下一步计划\n\n1. 完成 position.go\n", "## 下一步计划\n\n", 1)), 0o644)
	refused("empty section", "`## 下一步计划` section is empty")
	os.WriteFile(h, []byte(fullHandoff("f001", "token_usage_ratio 0.74 > 0.70", "extract.go")), 0o644)
	setTrigger(t, ws, "sess_a", 0.31)
	refused("no trigger on record", "no Reset trigger is on record")
	setTrigger(t, ws, "sess_other", 0.74)
	refused("trigger of another session", "no Reset trigger is on record")

	setTrigger(t, ws, "sess_a", 0.74)
	evBefore, _ := os.ReadFile(ws.EvalLog())
	out, err := AcceptReset(ws, in)
	if err != nil || !out.Accepted || !out.Recorded || !strings.Contains(out.Why, "token_usage_ratio 0.74 > 0.70") {
		t.Fatalf("a complete handoff with a trigger on record: %+v, %v", out, err)
	}
	pool, _ := ws.LoadSessionPool()
	if pool.Active["f001"].Status != "resetting" || pool.Active["f002"].Status != "running" {
		t.Errorf("pool after the Reset: %+v", pool.Active)
	}
	evAfter, _ := os.ReadFile(ws.EvalLog())
	added := strings.TrimPrefix(string(evAfter), string(evBefore))
	var e map[string]any
	if err := json.Unmarshal([]byte(added), &e); err != nil || strings.Count(added, "\n") != 1 ||
		e["event_type"] != "reset" || e["reason"] != "token_usage_ratio 0.74 > 0.70" || e["agent"] != "claude-code" || e["phase"].(float64) != 2 {
		t.Fatalf("appended %q: %v", added, err)
	}
	cs, _ := ws.ContextState("f001")
	if len(cs.Resets) != 1 || cs.Resets[0].SessionID != "sess_a" || cs.Resets[0].EvalAt != int64(len(evBefore)) || len(cs.Resets[0].HandoffSHA256) != 64 {
		t.Fatalf("resets record = %+v", cs.Resets)
	}
	// once per session, even with a new snapshot
	os.WriteFile(h, []byte(fullHandoff("f001", "token_usage_ratio 0.81 > 0.70", "position.go")), 0o644)
	refused("same session again", "once per session")
	// the same snapshot in a later session (touch to refresh it)
	os.WriteFile(h, []byte(fullHandoff("f001", "token_usage_ratio 0.74 > 0.70", "extract.go")), 0o644)
	in.SessionID = "sess_b"
	setTrigger(t, ws, "sess_b", 0.9)
	refused("same handoff, later session", "same as the one of the Reset")
	// a new session with a new snapshot: the pool entry is still resetting
	// (Hermes has not started the new session): no second eval entry
	os.WriteFile(h, []byte(fullHandoff("f001", "token_usage_ratio 0.90 > 0.70", "position.go half done")), 0o644)
	out, err = AcceptReset(ws, in)
	if err != nil || !out.Accepted || out.Recorded {
		t.Fatalf("new session, new snapshot, pool resetting: %+v %v", out, err)
	}
	if ev, _ := os.ReadFile(ws.EvalLog()); string(ev) != string(evAfter) {
		t.Errorf("a second reset entry was appended")
	}
}

// The Stop line filter must not hide an entry that spells the feature id
// with JSON escapes: a hidden rollback mark would let stale records count.
func TestEscapedRollbackMarkIsSeen(t *testing.T) {
	ws := newWS(t)
	appendFile(t, ws.GeneratorLog("f001"), "\n## phase=2 implement — 2026-04-21T02:58:00Z\n\n"+body100+"\n")
	appendFile(t, ws.EvalLog(), `{"timestamp":"2026-04-21T02:58:30Z","sprint_id":"sprint_20260421_1","feature_id":"f001","phase":2,"event_type":"phase_evaluation","result":"pass","reason":"实现 extractor 包,3 条 acceptance 覆盖"}`+"\n")
	if r, err := CompletePhase(ws, "f001"); err != nil {
		t.Fatal(err, r.Reason())
	}
	if r, _ := CheckPhase(ws, "f001"); !r.OK() {
		t.Fatalf("complete phase=2 blocks:\n%s", r.Reason())
	}
	appendFile(t, ws.EvalLog(), `{"timestamp":"2026-04-21T03:40:00Z","sprint_id":"sprint_20260421_1","feature_id":"\u0066001","phase":2,"event_type":"phase_evaluation","result":"retry","reason":"a2 未通过,回到 phase=2 重做"}`+"\n")
	r, _ := CheckPhase(ws, "f001")
	if got := checks(r); got != "4,6" {
		t.Fatalf("after an escaped retry mark: failing checks %s, want 4,6\n%s", got, r.Reason())
	}
}

// Two Stop hooks ending at once record the Reset exactly once.
func TestRecordResetConcurrent(t *testing.T) {
	ws := newWS(t)
	os.WriteFile(ws.Handoff("f001"), []byte(fullHandoff("f001", "token_usage_ratio 0.74 > 0.70", "extract.go")), 0o644)
	setTrigger(t, ws, "sess_a", 0.74)
	now := time.Now()
	before, _ := os.ReadFile(ws.EvalLog())
	const n = 6
	results := make(chan bool, n)
	for i := 0; i < n; i++ {
		go func() {
			out, err := AcceptReset(ws, ResetInput{Feature: "f001", SessionID: "sess_a", Now: now})
			if err != nil {
				t.Error(err)
			}
			results <- out.Recorded
		}()
	}
	recorded := 0
	for i := 0; i < n; i++ {
		if <-results {
			recorded++
		}
	}
	after, _ := os.ReadFile(ws.EvalLog())
	added := strings.Count(string(after), "\n") - strings.Count(string(before), "\n")
	if recorded != 1 || added != 1 {
		t.Fatalf("recorded %d times, %d lines appended; want 1 and 1", recorded, added)
	}
}

// Garbage state never panics Stop; a non-object feature_list blocks (2b).
func TestCheckPhaseGarbage(t *testing.T) {
	for _, fl := range []string{`{"features":[null,{"id":"f001","phase":2,"next_phases":[null,5,{"phase":2,"done":"true"}]}]}`, `null`, `"x"`, `{"features":null}`, ``} {
		ws := newWS(t)
		os.WriteFile(ws.FeatureList(), []byte(fl), 0o644)
		os.WriteFile(ws.EvalLog(), []byte("null\n[]\n{\"feature_id\":\"f001\",\"phase\":2,\"event_type\":\"phase_evaluation\",\"reason\":7}\n{\"supersedes_line\":3,\"reason\":\"补录: 实现 extractor 包,3 条 acceptance\"}\n"), 0o644)
		r, err := CheckPhase(ws, "f001")
		if err != nil {
			t.Fatal(err)
		}
		if fl == `null` || fl == `"x"` || fl == `` {
			if checks(r) != "2b" {
				t.Errorf("%q: checks %s, want 2b", fl, checks(r))
			}
		}
		if strings.HasPrefix(fl, `{"features":[null`) {
			// f001 found: the correction's reason is read (check 9 passes), done "true" is not done: true
			if got := checks(r); got != "4,10" {
				t.Errorf("%q: checks %s, want 4,10\n%s", fl, got, r.Reason())
			}
		}
	}
}

func TestPhaseLabel(t *testing.T) {
	for _, c := range []struct {
		r    Report
		want string
	}{
		{Report{Phase: 0, PhaseKnown: true}, "phase=0"},
		{Report{Phase: 3, PhaseKnown: true}, "phase=3"},
		{Report{Failures: []Failure{{Rule: RuleFeatureListParse}}}, "phase unknown (.harness/feature_list.json does not parse)"},
		{Report{Failures: []Failure{{Rule: "stop.io-error"}}}, "phase unknown (the records could not be read)"},
	} {
		if got := c.r.PhaseLabel(); got != c.want {
			t.Errorf("PhaseLabel(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}
