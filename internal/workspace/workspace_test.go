package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "sprint_20260421_1")
	deep := filepath.Join(root, "linkcheck", "internal")
	if err := os.MkdirAll(filepath.Join(root, HarnessDir), 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(deep, 0o755)
	other := filepath.Join(base, "other")
	env := map[string]string{"HARNESS_ROOT": other}

	if got, _ := Resolve("x", env, root); got != filepath.Join(root, "x") {
		t.Errorf("explicit relative = %s", got)
	}
	if got, _ := Resolve(root, env, deep); got != root {
		t.Errorf("explicit = %s", got)
	}
	if got, _ := Resolve("", env, deep); got != other {
		t.Errorf("HARNESS_ROOT = %s", got)
	}
	if got, err := Resolve("", nil, deep); err != nil || got != root {
		t.Errorf("walk up = %s, %v", got, err)
	}
	if _, err := Resolve("", map[string]string{}, base); err != ErrNoWorkspace {
		t.Errorf("outside any workspace: err = %v", err)
	}
	if _, err := Open(base); err == nil {
		t.Error("Open of a folder without .harness must fail")
	}
	ws, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if ws.Rel(ws.GeneratorLog("f001")) != ".harness/features/f001/generator_log.md" || ws.Rel(ws.StateLock()) != ".harness/state" {
		t.Errorf("paths: %s %s", ws.Rel(ws.GeneratorLog("f001")), ws.Rel(ws.StateLock()))
	}
	if ws.Rel(base) != base {
		t.Errorf("Rel outside root = %s", ws.Rel(base))
	}
}

// Unknown fields and key order survive a typed read-modify-write.
func TestFeatureListRoundTrip(t *testing.T) {
	in := `{"version":"1.2","x_future":{"a":[1,2]},"sprint":"sprint_20260421_1","tooling_locked":false,"features":[` +
		`{"id":"f001","name":"n","status":"pending","phase":1,"zz_custom":"keep <me> & me",` +
		`"next_phases":[{"phase":1,"action":"plan","done":false,"note":"n1"}],"acceptance":["a"],"depends_on":[],"checkpoints":[` +
		`{"id":"cp-f001-1","phase":1,"type":"gate","status":"pending","decision":null,"extra":true,"blockers":[{"id":"catch_all","question":"q","options":["a","b"],"hint":"h"}]}]}],"blocked":[]}`
	var fl FeatureList
	if err := json.Unmarshal([]byte(in), &fl); err != nil {
		t.Fatal(err)
	}
	fl.ToolingLocked = true
	fl.Features[0].Status = StatusInProgress
	fl.Features[0].NextPhases[0].Done = true
	out, err := MarshalIndent(fl)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`"x_future"`, `"zz_custom": "keep <me> & me"`, `"note": "n1"`, `"extra": true`, `"hint": "h"`,
		`"tooling_locked": true`, `"status": "in_progress"`, `"done": true`, `"decision": null`} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, `"commit"`) || strings.Contains(s, `"sprint_checkpoints"`) {
		t.Errorf("absent optional fields were added:\n%s", s)
	}
	if strings.Index(s, `"x_future"`) > strings.Index(s, `"sprint"`) || strings.Index(s, `"zz_custom"`) > strings.Index(s, `"next_phases"`) {
		t.Errorf("key order not kept:\n%s", s)
	}
}

func TestLenientDecode(t *testing.T) {
	var f Feature
	if err := json.Unmarshal([]byte(`{"id":"f001","phase":"2","status":"in_progress","depends_on":"f002"}`), &f); err != nil {
		t.Fatal(err)
	}
	if f.ID != "f001" || f.Status != StatusInProgress || f.PhaseOK() {
		t.Errorf("lenient decode: %+v", f)
	}
	if !strings.Contains(strings.Join(f.Bad, ","), "phase") || !strings.Contains(strings.Join(f.Bad, ","), "depends_on") {
		t.Errorf("Bad = %v", f.Bad)
	}
	var g Feature
	json.Unmarshal([]byte(`{"id":"f002","status":"pending"}`), &g)
	if g.PhaseOK() {
		t.Error("a missing phase is not an integer phase")
	}
	for in, want := range map[string]bool{`null`: false, `2.0`: true, `2.5`: false, `"2"`: false, `3`: true} {
		var f Feature
		json.Unmarshal([]byte(`{"id":"f001","phase":`+in+`}`), &f)
		if f.PhaseOK() != want {
			t.Errorf("phase %s: PhaseOK = %v, want %v", in, f.PhaseOK(), want)
		}
		if want && f.Phase < 2 {
			t.Errorf("phase %s decoded as %d", in, f.Phase)
		}
	}
}

func TestSessionPoolRoundTrip(t *testing.T) {
	in := `{"max_concurrent":2,"policy":"start_when_dependency_ready","active":{"f002":{"session_id":"b","status":"running","started_at":"2026-04-21T02:42:00Z","x":1},"f001":{"session_id":"a","status":"running","started_at":"2026-04-21T01:50:00Z"}},"custom":[1]}`
	var p SessionPool
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.ActiveOrder, ",") != "f002,f001" || p.Active["f002"].Status != "running" {
		t.Fatalf("pool = %+v", p)
	}
	p.Active["f001"].Status = "resetting"
	out, _ := json.Marshal(p)
	s := string(out)
	if !strings.Contains(s, `"custom":[1]`) || !strings.Contains(s, `"x":1`) || !strings.Contains(s, `"status":"resetting"`) ||
		strings.Index(s, `"f002"`) > strings.Index(s, `"f001"`) {
		t.Errorf("round trip: %s", s)
	}
}

func TestParseEvalLog(t *testing.T) {
	data := "{\"a\":1}\n\n   \n{bad json}\r\n[1,2]\n{\"phase\":2.0,\"x\":\"1\"} {\"y\":2}\n{\"phase\":3,\"supersedes_line\":1,\"reason\":\" 补录：fix\"}"
	ls := ParseEvalLog([]byte(data))
	if len(ls) != 7 {
		t.Fatalf("%d lines, want 7", len(ls))
	}
	if ls[0].Entry == nil || !ls[1].Blank || !ls[2].Blank || ls[3].Err == nil || ls[4].Err == nil || ls[5].Err == nil || ls[6].Entry == nil {
		t.Fatalf("lines: %+v", ls)
	}
	if ls[3].Text != "{bad json}" {
		t.Errorf("CR not stripped: %q", ls[3].Text)
	}
	e := ls[6].Entry
	if e.Line != 7 || !e.IsCorrection() {
		t.Errorf("correction on line 7 not recognised: %+v", e)
	}
	var one EvalEntry
	one.Fields = map[string]any{"phase": json.Number("2.0"), "p2": json.Number("2.5"), "s": "1"}
	if p, ok := one.Phase(); !ok || p != 2 {
		t.Error("2.0 is an integer")
	}
	if _, ok := one.Int("p2"); ok {
		t.Error("2.5 is not an integer")
	}
	if _, ok := one.Int("s"); ok {
		t.Error(`"1" is not an integer`)
	}
	notCorr := EvalEntry{Line: 3, Fields: map[string]any{"supersedes_line": json.Number("3"), "reason": "补录: x"}}
	if notCorr.IsCorrection() {
		t.Error("supersedes_line must name an earlier line")
	}
	noPrefix := EvalEntry{Line: 3, Fields: map[string]any{"supersedes_line": json.Number("1"), "reason": "fix"}}
	if noPrefix.IsCorrection() {
		t.Error("a correction needs the 补录: prefix")
	}
}

func TestMergeKeepsPresentEmptyAndIllTyped(t *testing.T) {
	in := `{"id":"f001","title":"","phase":"2","status":"pending","name":"n","retry_hint":"fix a2"}`
	var f Feature
	if err := json.Unmarshal([]byte(in), &f); err != nil {
		t.Fatal(err)
	}
	f.RetryHint = ""
	f.Status = StatusBlocked
	out, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`"title":""`, `"phase":"2"`, `"status":"blocked"`, `"retry_hint":""`} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s: %s", want, s)
		}
	}
	for _, no := range []string{`"assignee"`, `"commit"`, `"children"`} {
		if strings.Contains(s, no) {
			t.Errorf("output gained %s: %s", no, s)
		}
	}
}

// FuzzParseEvalLog: line numbers are physical and every non-blank line is
// either an entry or an error, whatever the bytes.
func FuzzParseEvalLog(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n{bad}\r\n[1]\n{\"b\":2}"))
	f.Add([]byte("\n\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ls := ParseEvalLog(data)
		want := strings.Count(string(data), "\n")
		if len(data) > 0 && data[len(data)-1] != '\n' {
			want++
		}
		if len(ls) != want {
			t.Fatalf("%d lines, want %d", len(ls), want)
		}
		for i, l := range ls {
			if l.Line != i+1 {
				t.Fatalf("line %d numbered %d", i+1, l.Line)
			}
			n := 0
			if l.Blank {
				n++
			}
			if l.Entry != nil {
				n++
				if l.Entry.Line != l.Line {
					t.Fatal("entry line mismatch")
				}
			}
			if l.Err != nil {
				n++
			}
			if n != 1 {
				t.Fatalf("line %d: blank=%v entry=%v err=%v", l.Line, l.Blank, l.Entry != nil, l.Err)
			}
		}
	})
}
