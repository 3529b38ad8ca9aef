package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/workspace"
)

// full validates doc with the compiled schema alone (never quickAccepts).
func full(t *testing.T, s *Set, name string, doc any) bool {
	t.Helper()
	s.compile()
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.schemas[name].Validate(doc) == nil
}

// The fast path is on for the embedded schemas and off as soon as the
// eval_log schema or the defs it refers to differ from the bytes it was
// written for (a sprint copy, an edited file).
func TestQuickInUse(t *testing.T) {
	s := New(harness.Assets(), nil)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if !s.quick[EvalLog] {
		t.Fatal("quickAccepts is not used for the embedded eval_log schema: the embedded eval_log.schema.json or defs.schema.json " +
			"changed; review quickEvalLogProperty against them and update quickFor's sums")
	}
	for _, file := range []string{"eval_log.schema.json", "defs.schema.json"} {
		data, err := fs.ReadFile(harness.Assets(), "schemas/"+file)
		if err != nil {
			t.Fatal(err)
		}
		// same document, other bytes (a sprint copy re-indented, or edited)
		changed := append(bytes.TrimRight(data, "\n"), "\n\n"...)
		o := New(harness.Assets(), map[string][]byte{file: changed})
		if err := o.Err(); err != nil {
			t.Fatal(err)
		}
		if o.quick[EvalLog] {
			t.Errorf("quickAccepts still used with a changed %s", file)
		}
	}
}

// quickAccepts must never accept what the schema rejects: random entries
// built from valid and invalid values of every property, and every line of
// the fixtures' eval_logs.
// TestQuickAcceptsOnlyWhatTheSchemaAccepts also checks QuickAcceptsFlat
// against quickAccepts on every random entry of the fixed shape.
func TestQuickAcceptsOnlyWhatTheSchemaAccepts(t *testing.T) {
	s := New(harness.Assets(), nil)
	flatN := 0
	check := func(doc map[string]any) (quick, ok bool) {
		quick = quickAccepts(EvalLog, doc)
		ok = full(t, s, EvalLog, doc)
		if quick && !ok {
			b, _ := json.Marshal(doc)
			t.Fatalf("quickAccepts accepts what the schema rejects: %s", b)
		}
		// QuickAcceptsFlat answers as quickAccepts for a line of the
		// fixed shape
		b, _ := json.Marshal(doc)
		var f workspace.FlatEntry
		if workspace.DecodeEvalFlat(b, &f) {
			m, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if qf, q := QuickAcceptsFlat(&f), quickAccepts(EvalLog, m); qf != q {
				t.Fatalf("QuickAcceptsFlat %v, quickAccepts %v: %s", qf, q, b)
			}
			flatN++
		}
		return quick, ok
	}
	num := func(s string) json.Number { return json.Number(s) }
	strs := []any{"", "x", "f1", "f001", "f1-2", "f1-", "f-1", "f", "F1", "f1--2", "f1 ", "f１", "pass", "retry", "fail",
		"phase_evaluation", "checkpoint", "yolo_enter", "yolo_abort", "reset", "gate", "review", "notify", "approved",
		"rejected", "approved_with_changes", "auto_approved_timeout", "auto_approved_yolo", "auto_approved_yolo_task",
		"revoked", "Approved", "pass ", "2026-04-21T02:00:00Z", "2026-04-21T02:00:00.5Z", "2026-04-21T02:00:00.Z",
		"2026-04-21T02:00:00", "2026-04-21T02:00:00+00:00", "2026-04-21 02:00:00Z", "2026-4-21T02:00:00Z",
		"2026-04-21T02:00:00ZZ", "2026-04-21T02:00:00.123456789Z", "２026-04-21T02:00:00Z", "\n2026-04-21T02:00:00Z",
		"2026-04-21T02:00:00Z\n", "sprint_20260421_1", "补录: x"}
	nums := []any{num("1"), num("2"), num("3"), num("4"), num("0"), num("5"), num("-1"), num("1.0"), num("2e0"), num("1.5"),
		num("10"), num("999999999999999999"), num("99999999999999999999999"), num("4.0000000001"), 1.0, 2}
	others := []any{nil, true, false, map[string]any{}, map[string]any{"a": "b"}, []any{}, []any{map[string]any{}},
		[]any{"x"}, []any{map[string]any{"id": "a1", "criteria": "c", "status": "pass", "evidence": "e"}},
		[]any{map[string]any{"id": "a1", "criteria": "c", "status": "pass", "evidence": "e", "extra": num("1")}, map[string]any{"id": "a2", "criteria": "d", "status": "skipped", "evidence": ""}},
		[]any{map[string]any{"id": "a1", "criteria": "c", "status": "passed", "evidence": "e"}},
		[]any{map[string]any{"id": "a1", "criteria": "c", "status": "pass"}},
		[]any{map[string]any{"id": num("1"), "criteria": "c", "status": "pass", "evidence": "e"}},
		[]any{map[string]any{"id": "a1", "criteria": nil, "status": "fail", "evidence": "e"}},
		[]any{map[string]any{"id": "q1", "answer": "a", "feedback": nil}, map[string]any{"id": "catch_all", "answer": "a"}},
		[]any{map[string]any{"id": "q1"}, "x"}, []any{nil}}
	var pool []any
	pool = append(append(append(pool, strs...), nums...), others...)
	keys := []string{"timestamp", "sprint_id", "generator", "feature_id", "phase", "iteration", "event_type", "result",
		"reason", "acceptance_results", "hermes_notes", "commit", "checkpoint_id", "checkpoint_type", "decision",
		"user_reply_raw", "blockers_resolved", "yolo_context", "task_id", "revoked_from", "revoke_reason", "agent",
		"supersedes_line", "created_at", "unknown"}
	valid := map[string]any{"timestamp": "2026-04-21T02:00:00Z", "sprint_id": "sprint_20260421_1", "generator": "claude-code",
		"feature_id": "f001", "phase": num("2"), "iteration": num("3"), "event_type": "retry", "result": "retry", "reason": "r"}
	r := rand.New(rand.NewPCG(1, 2))
	quickN, okN := 0, 0
	for i := 0; i < 60000; i++ {
		doc := map[string]any{}
		if r.IntN(2) == 0 { // a valid entry with a few changes
			for k, v := range valid {
				doc[k] = v
			}
		}
		for n := r.IntN(4); n >= 0; n-- {
			k := keys[r.IntN(len(keys))]
			if r.IntN(8) == 0 {
				delete(doc, k)
				continue
			}
			doc[k] = pool[r.IntN(len(pool))]
		}
		q, ok := check(doc)
		if q {
			quickN++
		}
		if ok {
			okN++
		}
	}
	// quickAccepts is of use only when it accepts most valid entries.
	if quickN < okN/2 || quickN == 0 {
		t.Errorf("quickAccepts accepted %d of %d valid random entries", quickN, okN)
	}
	t.Logf("random entries: schema accepts %d, quickAccepts %d", okN, quickN)

	lines := 0
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sprints", "*", ".harness", "eval_log.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			doc, err := Decode(line)
			if m, ok := doc.(map[string]any); err == nil && ok {
				check(m)
				lines++
			}
		}
	}
	if lines < 20 {
		t.Errorf("only %d fixture lines checked", lines)
	}
	if flatN < 1000 {
		t.Errorf("only %d entries of the fixed shape compared with QuickAcceptsFlat", flatN)
	}
	t.Logf("%d entries of the fixed shape", flatN)
}

func TestQuickPatterns(t *testing.T) {
	for s, want := range map[string]bool{"f1": true, "f001-2-33": true, "f": false, "f-1": false, "f1-": false, "f1--2": false, "g1": false, "f1a": false} {
		if got := isFeatureID(s); got != want {
			t.Errorf("isFeatureID(%q) = %v", s, got)
		}
	}
	for s, want := range map[string]bool{"2026-04-21T02:00:00Z": true, "2026-04-21T02:00:00.1Z": true, "2026-04-21T02:00:00.Z": false,
		"2026-04-21T02:00:00": false, "2026-04-21T02:00:0Z": false, "2026-04-21T02:00:00.1aZ": false, "x2026-04-21T02:00:00Z": false} {
		if got := isTimestamp(s); got != want {
			t.Errorf("isTimestamp(%q) = %v", s, got)
		}
	}
}

// Violations of several properties come in the same order every time (the
// validator visits properties in map order).
func TestViolationOrderIsStable(t *testing.T) {
	s := New(harness.Assets(), nil)
	doc := map[string]any{"timestamp": "x", "sprint_id": 1, "event_type": "y", "phase": "z", "result": 2, "iteration": "w",
		"feature_id": 3, "yolo_context": true, "decision": "q", "supersedes_line": "s"}
	first := ""
	for i := 0; i < 30; i++ {
		vs, err := s.Validate(EvalLog, doc)
		if err != nil || len(vs) < 8 {
			t.Fatal(err, vs)
		}
		got := fmt.Sprint(vs)
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("order changed:\n%s\n%s", first, got)
		}
	}
}

// TestTimestampPatternIsUTCZ: isTimestamp stands for the pattern of
// $defs/timestamp by being workspace.UTCZPattern, so the two expressions
// must be the same.
func TestTimestampPatternIsUTCZ(t *testing.T) {
	var defs struct {
		Defs map[string]struct {
			Pattern string `json:"pattern"`
		} `json:"$defs"`
	}
	data, err := fs.ReadFile(harness.Assets(), "schemas/defs.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &defs); err != nil {
		t.Fatal(err)
	}
	if got, want := defs.Defs["timestamp"].Pattern, workspace.UTCZPattern.String(); got != want {
		t.Errorf("$defs/timestamp pattern %q, workspace.UTCZPattern %q", got, want)
	}
}

// quickStrip must leave the findings of hermes_context_state as the general
// validator reports them: random ledgers of valid and invalid entries, with
// and without invalid members elsewhere in the document, validated by a Set
// that strips and by the compiled schema on the whole document.
func TestQuickStripKeepsTheFindings(t *testing.T) {
	s := New(harness.Assets(), nil)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if !s.quick[HermesContextState] {
		t.Fatal("quickStrip is not used for the embedded hermes_context_state schema: it or defs.schema.json changed; " +
			"review quickLedgerLine against them and update quickFor's sums")
	}
	ref := New(harness.Assets(), nil)
	ref.compile()
	ref.quick = map[string]bool{} // the general validator on every document
	r := rand.New(rand.NewPCG(13, 7))
	goodAt := []any{json.Number("0"), json.Number("17"), json.Number("123456789012")}
	badAt := []any{json.Number("-1"), json.Number("1.5"), json.Number("2.0"), json.Number("1e3"), "5", nil, true, float64(3), json.Number("1234567890123456789012")}
	goodSHA := []any{"0123456789abcdef", "ffffffffffffffff"}
	badSHA := []any{"0123456789ABCDEF", "0123", "0123456789abcdefa", 7, nil, "0123456789abcdeg"}
	pick := func(a []any) any { return a[r.IntN(len(a))] }
	stripped := 0
	for trial := 0; trial < 3000; trial++ {
		var lines []any
		for i, n := 0, r.IntN(6); i < n; i++ {
			e := map[string]any{}
			switch r.IntN(10) {
			case 0:
				e["at"] = pick(badAt)
			case 1:
				delete(e, "at")
			default:
				e["at"] = pick(goodAt)
			}
			switch r.IntN(10) {
			case 0:
				e["sha256"] = pick(badSHA)
			case 1:
			default:
				e["sha256"] = pick(goodSHA)
			}
			if r.IntN(8) == 0 {
				e["note"] = "extra"
			}
			var it any = e
			if r.IntN(30) == 0 {
				it = pick([]any{"x", json.Number("1"), nil, []any{}})
			}
			lines = append(lines, it)
		}
		led := map[string]any{"since": json.Number("0"), "lines": lines}
		switch r.IntN(12) {
		case 0:
			delete(led, "since")
		case 1:
			led["since"] = json.Number("-4")
		case 2:
			led["lines"] = "not an array"
		}
		doc := map[string]any{"agent": "hermes", "pending_checkpoints": []any{}, ledgerMember: led}
		switch r.IntN(6) {
		case 0:
			doc["pending_checkpoints"] = "x"
		case 1:
			doc["resumed_handoff"] = "not-a-digest"
		case 2:
			doc[ledgerMember] = []any{}
		}
		got, err := s.Validate(HermesContextState, doc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Validate(HermesContextState, doc)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			b, _ := json.Marshal(doc)
			t.Fatalf("findings differ on %s:\nquick: %v\nfull:  %v", b, got, want)
		}
		if fmt.Sprintf("%p", quickStrip(HermesContextState, doc)) != fmt.Sprintf("%p", doc) {
			stripped++
		}
	}
	if stripped < 300 {
		t.Fatalf("only %d of 3000 documents took the fast path: the test does not exercise it", stripped)
	}
}
