package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// The fast path of the eval_log pass (evalfast.go) must change no finding:
// every report is compared with the general path's (Options.generalOnly),
// for Validate and FinalizeCheck, on the fixture sprints, on real-shaped
// logs, on random mutations of their lines (values, members, repeated
// names, escapes, bytes), with and without a provenance ledger.

// fixtureRoots lists every fixture sprint (valid and broken).
func fixtureRoots(t *testing.T) []string {
	t.Helper()
	var roots []string
	for _, pat := range []string{"*", "broken/*"} {
		m, _ := filepath.Glob(filepath.Join(sprints, pat, ".harness", "eval_log.jsonl"))
		for _, p := range m {
			roots = append(roots, filepath.Dir(filepath.Dir(p)))
		}
	}
	if len(roots) < 10 {
		t.Fatalf("only %d fixture sprints found", len(roots))
	}
	return roots
}

// compareFastGeneral runs Validate and FinalizeCheck on root with the fast
// path and with the general path only, fails on any difference, and
// returns how many lines the fast path checked.
func compareFastGeneral(t *testing.T, root, what string) int {
	t.Helper()
	fastLines := 0
	for _, fin := range []bool{false, true} {
		var n int
		fast, err := runWith(root, fin, Options{fastLines: &n})
		if err != nil {
			t.Fatal(err)
		}
		gen, err := runWith(root, fin, Options{generalOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast.Findings, gen.Findings) || fast.String() != gen.String() {
			log, _ := os.ReadFile(filepath.Join(root, ".harness", "eval_log.jsonl"))
			t.Fatalf("%s (finalize %v): the fast path changes the findings\nfast:\n%s\ngeneral:\n%s\neval_log:\n%s", what, fin, fast, gen, log)
		}
		fastLines += n
	}
	return fastLines
}

func TestFastPathFindsWhatTheGeneralPathFindsOnFixtures(t *testing.T) {
	total := 0
	for _, src := range fixtureRoots(t) {
		total += compareFastGeneral(t, src, src)
	}
	if total == 0 {
		t.Fatal("the fast path checked no fixture line")
	}
	t.Logf("fixtures: %d lines on the fast path", total)
}

// TestFastPathTakesRealShapedLines: every line of the real-shaped log
// (testutil.EvalRealShapedLine) is on the fast path, so `harness validate`
// on such a log never builds a map per line.
func TestFastPathTakesRealShapedLines(t *testing.T) {
	const lines = 400
	root := realShapedEvalLog(t, lines)
	for _, fin := range []bool{false, true} {
		var n int
		if _, err := runWith(root, fin, Options{fastLines: &n}); err != nil {
			t.Fatal(err)
		}
		// the fixture's own lines (a few) may take the general path
		if n < lines-20 {
			t.Fatalf("finalize %v: %d of %d lines on the fast path", fin, n, lines)
		}
	}
	compareFastGeneral(t, root, "real-shaped")
}

// mutator makes random variants of eval_log lines.
type mutator struct {
	r    *rand.Rand
	acc  map[string][]string // feature id → its acceptance texts
	base [][]byte
}

func (m *mutator) value() any {
	num := func(s string) json.Number { return json.Number(s) }
	values := []any{"", " ", "x", "f001", "f002", "f003", "f999", "f1-", "pass", "retry", "fail", "skipped", "phase_evaluation",
		"checkpoint", "retry", "fail", "reset", "yolo_enter", "gate", "review", "notify", "approved", "rejected", "revoked",
		"cp-sprint-dag", "cp-sprint-tooling", "cp-f001-1", "2026-04-21T02:00:00Z", "2026-04-21T02:00:00+08:00",
		"2026-04-21T02:00:00.5Z", "sprint_20260421_1", "sprint_x", "补录: 改正第 3 行的结论", "ok", "done", "通过", " PASS ", "abc1234",
		"claude-code", "hermes", "短理由", "解析器覆盖引用式链接,表驱动用例 24 个全部通过,a1 a2 核对完毕",
		num("1"), num("2"), num("3"), num("4"), num("0"), num("5"), num("2.0"), num("-1"), num("99"), num("1e0"), nil, true, false,
		map[string]any{}, []any{}, []any{"x"}, map[string]any{"a": "b"}}
	switch m.r.IntN(8) {
	case 0:
		return m.acceptance(nil)
	case 1:
		return m.blockers()
	}
	return values[m.r.IntN(len(values))]
}

// acceptance is an acceptance_results value: the verbatim items of
// feature fid (or another), with at most one defect.
func (m *mutator) acceptance(fid any) []any {
	fids := []string{"f001", "f002", "f003"}
	f, _ := fid.(string)
	if m.r.IntN(4) == 0 {
		f = fids[m.r.IntN(len(fids))]
	}
	acc := m.acc[f]
	out := make([]any, 0, len(acc))
	for i, cr := range acc {
		out = append(out, map[string]any{"id": fmt.Sprintf("a%d", i+1), "criteria": cr, "status": "pass", "evidence": "go test ./... 通过(24 个用例)"})
	}
	if len(out) == 0 || m.r.IntN(3) == 0 {
		return out
	}
	it := out[m.r.IntN(len(out))].(map[string]any)
	switch m.r.IntN(12) {
	case 0:
		delete(it, []string{"id", "criteria", "status", "evidence"}[m.r.IntN(4)])
	case 1:
		it["checked_at"] = "2026-04-21T02:00:00+08:00"
	case 2:
		it["note"] = "x"
	case 3:
		it["evidence"] = []any{nil, "", " ", "ok", "通过", json.Number("1")}[m.r.IntN(6)]
	case 4:
		it["criteria"] = []any{"无关的标准", "", nil, strings.ToUpper(it["criteria"].(string)) + " "}[m.r.IntN(4)]
	case 5:
		it["status"] = []any{"fail", "skipped", "PASS", nil}[m.r.IntN(4)]
	case 6:
		return out[:len(out)-1]
	case 7:
		return append(out, out[0])
	case 8:
		out[0] = "not an object"
	case 9:
		it["id"] = json.Number("1")
	case 10:
		it["status"] = "fail"
	case 11:
		it["evidence"] = "  go test -cover 输出 91.2% of statements  "
	}
	return out
}

// defect makes one targeted change to obj: what one finding of one rule
// is about.
func (m *mutator) defect(obj map[string]any) { m.defectCase(obj, m.r.IntN(defects)) }

// defects is the number of cases of defectCase.
const defects = 14

func (m *mutator) defectCase(obj map[string]any, k int) {
	pick := func(vs ...any) any { return vs[m.r.IntN(len(vs))] }
	switch k {
	case 0:
		obj["feature_id"] = pick("f999", "f003", "f002", "f001", "", nil)
	case 1:
		obj["sprint_id"] = pick("sprint_x", "sprint_20260421_2", "")
	case 2:
		obj["reason"] = pick("ok", " done ", "通过", "", " ", "短理由", "十九个字节的理由啊啊", "二十个字节的理由啊啊啊", nil)
	case 3:
		obj["phase"], obj["result"], obj["event_type"] = json.Number("3"), "pass", "phase_evaluation"
		if m.r.IntN(2) == 0 {
			delete(obj, "acceptance_results")
		}
	case 4:
		obj["event_type"], obj["decision"] = "checkpoint", pick("", " ", nil, "approved", "rejected")
		if m.r.IntN(2) == 0 {
			obj["checkpoint_type"] = pick("notify", "gate", "review")
		}
	case 5:
		obj["generator"] = pick("hermes", nil, "claude-code", "")
	case 6:
		obj["event_type"] = pick("phase_evaluation", "retry", "checkpoint", "fail", "reset", "yolo_enter")
	case 7:
		delete(obj, pick("feature_id", "phase", "result", "reason", "timestamp", "sprint_id", "event_type").(string))
	case 8:
		obj["checkpoint_id"] = pick("cp-sprint-dag", "cp-sprint-tooling", nil, "cp-f001-1")
		obj["event_type"] = "checkpoint"
	case 9:
		obj["result"] = pick("pass", "retry", "fail", "PASS")
	case 10:
		obj["timestamp"] = pick("2026-04-21T02:00:00.5Z", "2026-04-21T02:00:00+08:00", "2026-04-21 02:00:00Z")
	case 11:
		obj["phase"] = pick(json.Number("1"), json.Number("4"), json.Number("2.0"), json.Number("0"), "2")
	case 12:
		obj["commit"] = pick("abc1234", nil, "")
	case 13:
		obj["acceptance_results"] = m.acceptance(obj["feature_id"])
	}
}

func (m *mutator) blockers() []any {
	out := []any{}
	for i := m.r.IntN(4); i > 0; i-- {
		b := map[string]any{"id": "q1", "answer": "a", "feedback": nil}
		switch m.r.IntN(8) {
		case 0:
			b["resolved_at"] = "2026-04-21T02:00:00+08:00"
		case 1:
			b["answer"] = json.Number("1")
		case 2:
			delete(b, "feedback")
		case 3:
			out = append(out, "not an object")
		}
		out = append(out, b)
	}
	return out
}

var mutKeys = []string{"timestamp", "sprint_id", "generator", "feature_id", "phase", "iteration", "event_type", "result", "reason",
	"acceptance_results", "commit", "checkpoint_id", "checkpoint_type", "decision", "user_reply_raw", "hermes_notes",
	"blockers_resolved", "supersedes_line", "created_at", "yolo_context", "agent", "extra", "Phase"}

// line returns a variant of a random base line.
func (m *mutator) line() []byte {
	l := m.base[m.r.IntN(len(m.base))]
	if m.r.IntN(3) == 0 {
		return l
	}
	var obj map[string]any
	d := json.NewDecoder(bytes.NewReader(l))
	d.UseNumber()
	if d.Decode(&obj) == nil && obj != nil && m.r.IntN(4) != 0 {
		switch m.r.IntN(3) {
		case 0:
			obj["acceptance_results"] = m.acceptance(obj["feature_id"])
		case 1:
			m.defect(obj)
		default:
			for k := m.r.IntN(3); k >= 0; k-- {
				key := mutKeys[m.r.IntN(len(mutKeys))]
				if m.r.IntN(5) == 0 {
					delete(obj, key)
				} else {
					obj[key] = m.value()
				}
			}
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(m.r.IntN(2) == 0)
		enc.Encode(obj)
		l = bytes.TrimRight(b.Bytes(), "\n")
	}
	if m.r.IntN(4) != 0 {
		return l
	}
	s := string(l)
	switch m.r.IntN(9) {
	case 0: // a repeated name (the last wins)
		s = strings.Replace(s, "{", `{"phase":3,`, 1)
	case 1:
		s = strings.Replace(s, "{", `{"event_type":"reset",`, 1)
	case 2: // whitespace
		s = " \t" + strings.ReplaceAll(s, ",", " ,\r ") + "\r"
	case 3: // an escape
		s = strings.Replace(s, `":"`, `":"\"\u0041`, 1)
	case 4: // truncated
		if len(s) > 0 {
			s = s[:m.r.IntN(len(s))]
		}
	case 5: // a byte replaced
		if len(s) > 0 {
			i := m.r.IntN(len(s))
			s = s[:i] + string([]byte{"\x00\x1f\"\\{}[],:x\xff"[m.r.IntN(12)]}) + s[i+1:]
		}
	case 6: // trailing data
		s += ` {}`
	case 7:
		s = "\ufeff" + s
	case 8: // a control byte in a string
		s = strings.Replace(s, `":"`, "\":\"\t", 1)
	}
	return []byte(s)
}

// baseLines are the eval_log lines of every fixture and both real shapes.
func baseLines(t *testing.T) [][]byte {
	var out [][]byte
	for _, root := range fixtureRoots(t) {
		data, _ := os.ReadFile(filepath.Join(root, ".harness", "eval_log.jsonl"))
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				out = append(out, l)
			}
		}
	}
	for i := 0; i < 8; i++ {
		out = append(out, []byte(testutil.EvalRealShapedLine(i)), []byte(testutil.EvalPaddingLine(i)), []byte(testutil.EvalMentionLine(i)))
	}
	return out
}

func acceptanceOf(t *testing.T, root string) map[string][]string {
	t.Helper()
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := ws.LoadFeatureList()
	if err != nil {
		t.Fatal(err)
	}
	acc := map[string][]string{}
	for _, f := range fl.Features {
		acc[f.ID] = f.Acceptance
	}
	return acc
}

// writeLog writes lines as root's eval_log.jsonl and, when ledger, a
// provenance ledger in hermes_context_state.json that records about half
// of them (so the other half are judged by their shape).
func writeLog(t *testing.T, r *rand.Rand, root string, lines [][]byte, ledger bool) {
	t.Helper()
	var buf bytes.Buffer
	type rec struct {
		At     int64  `json:"at"`
		SHA256 string `json:"sha256"`
	}
	var recs []rec
	for _, l := range lines {
		if r.IntN(2) == 0 {
			recs = append(recs, rec{int64(buf.Len()), workspace.LineHash(l)})
		}
		buf.Write(l)
		buf.WriteByte('\n')
	}
	h := filepath.Join(root, ".harness")
	if err := os.WriteFile(filepath.Join(h, "eval_log.jsonl"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if !ledger {
		return
	}
	p := filepath.Join(h, "hermes_context_state.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var hc map[string]any
	if err := json.Unmarshal(data, &hc); err != nil {
		t.Fatal(err)
	}
	hc[workspace.LedgerKey] = map[string]any{"since": r.IntN(2) * 200, "lines": recs}
	if data, err = json.Marshal(hc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFastPathFindsWhatTheGeneralPathFindsOnRandomLogs(t *testing.T) {
	base := baseLines(t)
	srcs := []string{filepath.Join(sprints, "valid-midway"), filepath.Join(sprints, "valid-complete"), filepath.Join(sprints, "valid-midway-reset")}
	r := rand.New(rand.NewPCG(13, 1))
	rounds := 30
	if testing.Short() {
		rounds = 6
	}
	fast, total := 0, 0
	for round := 0; round < rounds; round++ {
		src := srcs[round%len(srcs)]
		root := copyTree(t, src)
		m := &mutator{r: r, acc: acceptanceOf(t, root), base: base}
		lines := make([][]byte, 40+r.IntN(80))
		for i := range lines {
			lines[i] = m.line()
		}
		writeLog(t, r, root, lines, round%2 == 1)
		fast += compareFastGeneral(t, root, fmt.Sprintf("round %d on %s", round, filepath.Base(src)))
		total += 2 * len(lines)
	}
	if fast == 0 || fast == total {
		t.Fatalf("%d of %d lines on the fast path: the random logs do not exercise both paths", fast, total)
	}
	t.Logf("%d of %d lines on the fast path", fast, total)
}

// FuzzFastLine: one line after the fixture's log, with and without a
// ledger; both paths must report the same.
func FuzzFastLine(f *testing.F) {
	for i := 0; i < 4; i++ {
		f.Add([]byte(testutil.EvalRealShapedLine(i)), false)
		f.Add([]byte(testutil.EvalMentionLine(i)), true)
	}
	f.Add([]byte(`{"timestamp":"2026-04-21T02:00:00Z","sprint_id":"sprint_20260421_1","event_type":"checkpoint","checkpoint_id":"cp-sprint-dag","decision":"approved","reason":"用户确认 DAG"}`), false)
	src := testutil.Testdata(f, "sprints", "valid-midway")
	f.Fuzz(func(t *testing.T, line []byte, ledger bool) {
		root := t.TempDir()
		testutil.CopyTree(t, src, root)
		old, err := os.ReadFile(filepath.Join(root, ".harness", "eval_log.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimRight(old, "\n"), []byte("\n"))
		writeLog(t, rand.New(rand.NewPCG(1, 2)), root, append(lines, bytes.ReplaceAll(line, []byte("\n"), nil)), ledger)
		compareFastGeneral(t, root, "fuzz")
	})
}

// TestFastPathFindsWhatTheGeneralPathFindsOnEachDefect: every defect case
// on every well-formed base line (a fixture's valid line or a real-shaped
// one), several times, in one log each for the three valid fixtures.
func TestFastPathFindsWhatTheGeneralPathFindsOnEachDefect(t *testing.T) {
	var base [][]byte
	for _, src := range []string{"valid-midway", "valid-complete"} {
		data, _ := os.ReadFile(filepath.Join(sprints, src, ".harness", "eval_log.jsonl"))
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				base = append(base, l)
			}
		}
	}
	for i := 0; i < 4; i++ {
		base = append(base, []byte(testutil.EvalRealShapedLine(i)), []byte(testutil.EvalMentionLine(i)))
	}
	r := rand.New(rand.NewPCG(7, 7))
	for ri, src := range []string{"valid-midway", "valid-complete", "valid-midway-reset"} {
		root := copyTree(t, filepath.Join(sprints, src))
		m := &mutator{r: r, acc: acceptanceOf(t, root)}
		var lines [][]byte
		for _, l := range base {
			for k := 0; k < defects; k++ {
				for rep := 0; rep < 4; rep++ {
					var obj map[string]any
					d := json.NewDecoder(bytes.NewReader(l))
					d.UseNumber()
					if err := d.Decode(&obj); err != nil {
						t.Fatal(err)
					}
					m.defectCase(obj, k)
					b, err := json.Marshal(obj)
					if err != nil {
						t.Fatal(err)
					}
					lines = append(lines, b)
				}
			}
		}
		writeLog(t, r, root, lines, ri == 1)
		if n := compareFastGeneral(t, root, src); n == 0 {
			t.Fatalf("%s: no line on the fast path", src)
		}
	}
}
