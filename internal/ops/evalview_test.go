package ops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/testutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// The reference the cached view (evalview.go) is proven equal to: the full
// scan every operation made before the view existed, kept verbatim
// (loadEvalLog, events, lastVerdict, rollbackMark, retryCount), and what
// the operations derived from it at their call sites (phase retry's last
// entry of the feature, the abort trigger's first fail, the reset loops of
// session reset and reset resume, eval amend's line lookup).

type refEntry struct {
	Line int
	*Obj
	ws     *workspace.EvalEntry
	hermes bool
}

func (e refEntry) isCorrection() bool { return e.ws != nil && e.ws.IsCorrection() }

type refLog struct {
	entries []refEntry
	lines   int
	ws      []*workspace.EvalEntry
	ignored []string
}

func loadRefLog(e *Env) (refLog, error) {
	var log refLog
	ws := &workspace.Workspace{Root: e.Root}
	prov, err := ws.LoadProvenance()
	if err != nil {
		return log, err
	}
	f, st, err := fsutil.OpenRegular(e.H("eval_log.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return log, nil
	}
	if err != nil {
		return log, err
	}
	defer f.Close()
	if st.Size() > fsutil.CapLog {
		return log, &fsutil.TooLargeError{Path: e.H("eval_log.jsonl"), Size: st.Size(), Cap: fsutil.CapLog}
	}
	err = workspace.EachEvalLineAt(f, fsutil.CapLine, func(n int, at int64, line []byte) {
		log.lines = n
		if len(bytes.TrimSpace(line)) == 0 {
			return
		}
		m, derr := workspace.DecodeEvalLine(line)
		if derr != nil {
			return
		}
		we := &workspace.EvalEntry{Line: n, At: at, Fields: m}
		v, why := prov.Of(at, line, we)
		if v == workspace.Forged {
			log.ignored = append(log.ignored, fmt.Sprintf("%s:%d (%s: %s)", relEvalLog, n, firstNonEmpty(we.EventType(), "no event_type"), why))
			return
		}
		o, perr := parseObj(line)
		if perr != nil {
			return
		}
		hermes := v == workspace.Hermes || v == workspace.Legacy
		log.entries = append(log.entries, refEntry{Line: n, Obj: o, ws: we, hermes: hermes})
		if hermes {
			log.ws = append(log.ws, we)
		}
	}, func(n int, _, _ int64) { log.lines = n })
	return log, err
}

func (l refLog) events() []refEntry {
	var out []refEntry
	for _, en := range l.entries {
		if en.hermes && !en.isCorrection() {
			out = append(out, en)
		}
	}
	return out
}

func (l refLog) lastVerdict(f string, p, after int) (refEntry, bool) {
	ev := l.events()
	for i := len(ev) - 1; i >= 0; i-- {
		en := ev[i]
		if en.Line <= after {
			break
		}
		if n, ok := en.Int("phase"); ok && n == p && en.Str("feature_id") == f && en.Str("event_type") == "phase_evaluation" {
			return en, true
		}
	}
	return refEntry{}, false
}

func (l refLog) rollbackMark(f string, p int) int {
	if m := records.RollbackMark(l.ws, f, p, 0); m != nil {
		return m.Entry.Line
	}
	return 0
}

func (l refLog) retryCount(f string) int {
	n := 0
	for _, en := range l.events() {
		if en.Str("result") == "retry" && (f == "" || en.Str("feature_id") == f) {
			n++
		}
	}
	return n
}

// probeFeatures are the feature ids the answers are rendered for.
var probeFeatures = []string{"", "f001", "f002", "f003", "f0021"}

// renderRef renders every answer the operations take from the log.
func renderRef(t testing.TB, l refLog, features []string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "lines %d\nignored %q\n", l.lines, l.ignored)
	for _, f := range features {
		fmt.Fprintf(&b, "%s retries %d\n", f, l.retryCount(f))
		if f == "" {
			continue // the sprint's count; the operations ask the rest only of a feature id
		}
		for p := 0; p <= 5; p++ {
			mark := l.rollbackMark(f, p)
			v, ok := l.lastVerdict(f, p, mark)
			fmt.Fprintf(&b, "%s phase=%d mark=%d verdict=%v %d %q %q\n", f, p, mark, ok, v.Line, v.Str("result"), v.Str("commit"))
		}
		// phase retry: the feature's last entry
		ev := l.events()
		for i := len(ev) - 1; i >= 0; i-- {
			if ev[i].Str("feature_id") == f {
				n, ok := ev[i].Int("phase")
				fmt.Fprintf(&b, "%s last %d %d %v %q\n", f, ev[i].Line, n, ok, ev[i].Str("reason"))
				break
			}
		}
		// session reset: the feature's reset entries
		for _, en := range l.events() {
			if en.Str("event_type") == "reset" && en.Str("feature_id") == f {
				fmt.Fprintf(&b, "%s reset %d %q\n", f, en.Line, en.Str("timestamp"))
			}
		}
	}
	// abortTriggers: the first fail of a feature
	for _, en := range l.events() {
		if en.Str("feature_id") != "" && (en.Str("result") == "fail" || en.Str("event_type") == "fail") {
			fmt.Fprintf(&b, "fail %s %d\n", en.Str("feature_id"), en.Line)
			break
		}
	}
	// reset resume: Hermes's reset entries
	for _, en := range l.events() {
		if en.Str("event_type") == "reset" && en.Str("agent") == "hermes" {
			fmt.Fprintf(&b, "hermes reset %d %q\n", en.Line, en.Str("timestamp"))
		}
	}
	// eval amend: every line as the object it copies from
	for n := 1; n <= l.lines; n++ {
		if !probeLine(n, l.lines) {
			continue
		}
		var orig *Obj
		for _, en := range l.entries {
			if en.Line == n {
				orig = en.Obj
			}
		}
		fmt.Fprintf(&b, "line %d %s\n", n, objText(t, orig))
	}
	return b.String()
}

// renderView renders the same answers from the view.
func renderView(t testing.TB, l evalLog, features []string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "lines %d\nignored %q\n", l.Lines, l.Ignored)
	for _, f := range features {
		fmt.Fprintf(&b, "%s retries %d\n", f, l.retryCount(f))
		if f == "" {
			continue // the sprint's count; the operations ask the rest only of a feature id
		}
		for p := 0; p <= 5; p++ {
			mark := l.rollbackMark(f, p)
			v, ok := l.lastVerdict(f, p, mark)
			fmt.Fprintf(&b, "%s phase=%d mark=%d verdict=%v %d %q %q\n", f, p, mark, ok, v.Line, v.Result, v.Commit)
		}
		if last := l.last(f); last != nil {
			fmt.Fprintf(&b, "%s last %d %d %v %q\n", f, last.Line, last.Phase, last.PhaseOK, last.Reason)
		}
		for _, r := range l.Resets {
			if r.Feature == f {
				fmt.Fprintf(&b, "%s reset %d %q\n", f, r.Line, r.Timestamp)
			}
		}
	}
	if l.Fail != nil {
		fmt.Fprintf(&b, "fail %s %d\n", l.Fail.Feature, l.Fail.Line)
	}
	for _, r := range l.Resets {
		if r.Agent == "hermes" {
			fmt.Fprintf(&b, "hermes reset %d %q\n", r.Line, r.Timestamp)
		}
	}
	for n := 1; n <= l.Lines; n++ {
		if !probeLine(n, l.Lines) {
			continue
		}
		o, err := l.entryAt(n)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "line %d %s\n", n, objText(t, o))
	}
	return b.String()
}

// probeLine says which lines eval amend's lookup is compared at: all of a
// short log; of a longer one the first and last lines, the lines around
// each index step, and every 37th.
func probeLine(n, lines int) bool {
	if lines <= 120 || n <= 3 || n > lines-3 || n%37 == 0 {
		return true
	}
	m := (n - 1) % evalIndexStep
	return m <= 1 || m >= evalIndexStep-1
}

func objText(t testing.TB, o *Obj) string {
	if o == nil {
		return "nil"
	}
	var parts []string
	for _, k := range []string{"event_type", "feature_id", "phase", "checkpoint_id"} {
		if o.Has(k) {
			v, err := json.Marshal(o.Value(k))
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, k+"="+string(v))
		}
	}
	return strings.Join(parts, " ")
}

// checkView compares the cached view (and the uncached fold) with the
// reference on env's workspace as it is now.
func checkView(t *testing.T, env *Env, features []string, what string) {
	t.Helper()
	ref, rerr := loadRefLog(env)
	for _, opts := range []evalViewOptions{{}, {noCache: true}} {
		got, gerr := env.loadEvalLogWith(opts)
		if fmt.Sprint(gerr) != fmt.Sprint(rerr) {
			t.Fatalf("%s (noCache %v): error %v, reference %v", what, opts.noCache, gerr, rerr)
		}
		if rerr != nil {
			continue
		}
		if g, w := renderView(t, got, features), renderRef(t, ref, features); g != w {
			t.Fatalf("%s (noCache %v): the view differs from the full scan:\n%s", what, opts.noCache, lineDiff(g, w))
		}
	}
}

func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			fmt.Fprintf(&b, " got  %s\n want %s\n", gl, wl)
		}
	}
	return b.String()
}

// TestEvalViewEqualsFullScanOnFixtures: on every fixture sprint, the view
// (cold, then from its cache) answers as the full scan, for every feature.
func TestEvalViewEqualsFullScanOnFixtures(t *testing.T) {
	dirs, err := os.ReadDir(testutil.Testdata(t, "sprints"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	var walk func(dir string)
	walk = func(dir string) {
		if _, err := os.Stat(filepath.Join(dir, ".harness")); err == nil {
			root := filepath.Join(t.TempDir(), filepath.Base(dir))
			testutil.CopyTree(t, dir, root)
			env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
			features := append([]string(nil), probeFeatures...)
			if fl, err := env.loadFeatureList(); err == nil {
				for _, f := range fl.features() {
					features = append(features, f.Str("id"))
				}
			}
			for i := 0; i < 2; i++ {
				checkView(t, env, features, fmt.Sprintf("%s call %d", dir, i))
			}
			checked++
			return
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.IsDir() {
				walk(filepath.Join(dir, e.Name()))
			}
		}
	}
	for _, d := range dirs {
		if d.IsDir() {
			walk(testutil.Testdata(t, "sprints", d.Name()))
		}
	}
	if checked < 4 {
		t.Fatalf("only %d fixture sprints checked", checked)
	}
}

// randomOpsLine is line n of a random eval_log in the shapes the
// operations read: verdicts, retries, fails, checkpoints (rejected or not),
// resets by Hermes or of a feature, corrections (valid or not), commits,
// Generator-shaped lines and lines with Hermes-only fields, odd phase
// numbers, duplicate members, escapes, garbage.
func randomOpsLine(rng *rand.Rand, n int) string {
	return testutil.RandomEvalLine(rng, n, &testutil.EvalLineSpec{
		Features:    []string{`"f001"`, `"f002"`, `"f002"`, `"\u0066002"`, `"f0021"`, `2`, `"f003"`},
		Phases:      []string{"1", "2", "3", "4", "2.0", `"2"`, "null", "1", "1e0", "0", "5", "2147483648", "-1"},
		Events:      []string{`"phase_evaluation"`, `"phase_evaluation"`, `"checkpoint"`, `"retry"`, `"fail"`, `"reset"`, `"yolo_abort"`, `"yolo_enter"`},
		Results:     []string{`"pass"`, `"retry"`, `"fail"`, `"pass"`, `null`, `"retry"`},
		Reasons:     []string{`"拆出 3 个子任务并逐项核对 acceptance a1 a2 a3"`, `"ok"`, `""`, `42`, `"覆盖 a1:表驱动用例 12 个全部通过"`, `"need \"jq\" \u00e9"`},
		Timestamps:  []string{`"2026-04-21T03:00:00Z"`, `"2026-04-21T04:00:00Z"`, `"2026-04-21T02:00:00+08:00"`, `"2026-04-21T05:30:00.5Z"`, `17`},
		Decisions:   []string{`"approved"`, `"rejected"`, `"approved_with_changes"`},
		Corrections: []string{`"补录: 第 3 项已验证,日志见 build/test.log 第 12 行"`, `"not a 补录 reason"`, `"补录：全角冒号也算"`},
		More: func(rng *rand.Rand, et string) []string {
			var more []string
			switch et {
			case `"checkpoint"`:
				more = append(more, `"checkpoint_id":"cp-f002-1"`)
			case `"reset"`:
				if rng.IntN(2) == 0 {
					more = append(more, `"agent":"hermes"`)
				}
			}
			if rng.IntN(5) == 0 {
				more = append(more, `"commit":`+testutil.Pick(rng, `"abc1234"`, `null`, `"deadbeefcafe"`))
			}
			if rng.IntN(6) == 0 {
				more = append(more, `"generator":`+testutil.Pick(rng, `"claude-code"`, `"hermes"`))
			}
			return more
		},
		RepeatResult: 12,
		Garbage:      []string{`[1,2]`},
	})
}

// writeLedger writes hermes_context_state.json with a ledger from since
// recording the lines at the given offsets (none: a sprint without one).
func writeLedger(t *testing.T, env *Env, since int64, known bool, lines map[int64]string) {
	t.Helper()
	hc := map[string]any{"agent": "hermes"}
	if known {
		var ls []any
		for at, h := range lines {
			ls = append(ls, map[string]any{"at": at, "sha256": h})
		}
		hc[workspace.LedgerKey] = map[string]any{"since": since, "lines": ls}
	}
	data, _ := json.Marshal(hc)
	if err := os.WriteFile(env.H("hermes_context_state.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEvalViewEqualsFullScanOnRandomLogs appends random lines in random
// batches (a batch may end inside a line, as a writer caught mid-append),
// with a provenance ledger that records some lines as Hermes's (the rest
// are the Generator's or forged), and after each batch compares the cached
// view with the full scan. Now and then the log is rewritten below the
// cached offset, or a ledger entry of the prefix is dropped: the view must
// notice and still answer as the full scan.
func TestEvalViewEqualsFullScanOnRandomLogs(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 5))
	trials := 30
	if testing.Short() {
		trials = 10
	}
	for trial := 0; trial < trials; trial++ {
		root := filepath.Join(t.TempDir(), "sprint_20260421_1")
		if err := os.MkdirAll(filepath.Join(root, ".harness"), 0o755); err != nil {
			t.Fatal(err)
		}
		env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
		var all bytes.Buffer
		n := 20 + rng.IntN(1200) // past a few index steps
		mode := rng.IntN(3)      // 0: no ledger, 1: ledger from 0, 2: ledger from the middle
		var since int64
		ledger := map[int64]string{}
		type span struct {
			at   int64
			end  int64
			hash string
		}
		var spans []span
		for i := 1; i <= n; i++ {
			line := randomOpsLine(rng, i)
			if mode == 2 && i == n/2 {
				since = int64(all.Len())
			}
			at := int64(all.Len())
			all.WriteString(line)
			if i < n || rng.IntN(3) > 0 {
				all.WriteByte('\n')
			}
			if rng.IntN(5) < 2 {
				spans = append(spans, span{at, int64(all.Len()), workspace.LineHash([]byte(strings.TrimSuffix(line, "\r")))})
			}
		}
		if trial == 3 {
			// one line over fsutil.CapLine: counted, never assembled
			all.WriteString(`{"reason":"` + strings.Repeat("x", fsutil.CapLine) + `"}` + "\n")
		}
		data := all.Bytes()
		written := 0
		for written < len(data) {
			step := 1 + rng.IntN(len(data)/4+1)
			if written+step > len(data) {
				step = len(data) - written
			}
			f, err := os.OpenFile(env.H("eval_log.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(data[written : written+step])
			f.Close()
			written += step
			for _, s := range spans {
				if s.end <= int64(written) {
					ledger[s.at] = s.hash
				}
			}
			writeLedger(t, env, since, mode > 0, ledger)
			what := fmt.Sprintf("trial %d (ledger mode %d) after %d/%d bytes", trial, mode, written, len(data))
			checkView(t, env, probeFeatures, what)
			switch rng.IntN(12) {
			case 0: // a rewrite below the cached offset: same size, other bytes
				b, _ := os.ReadFile(env.H("eval_log.jsonl"))
				if i := bytes.Index(b, []byte(`"retry"`)); i >= 0 {
					copy(b[i:], `"pass!"`)
					os.WriteFile(env.H("eval_log.jsonl"), b, 0o644)
					data = append(b, data[written:]...)
					checkView(t, env, probeFeatures, what+", rewritten")
				}
			case 1: // a ledger entry of the prefix dropped
				for at := range ledger {
					delete(ledger, at)
					break
				}
				writeLedger(t, env, since, mode > 0, ledger)
				checkView(t, env, probeFeatures, what+", ledger entry dropped")
			}
		}
	}
}

// TestEvalViewCacheIsUsedAndChecked: after a first call the view is read
// from its cache (a planted state answers), a cache of another version or
// of a rewritten log is not trusted.
func TestEvalViewCacheIsUsedAndChecked(t *testing.T) {
	root := fixture(t, "valid-midway")
	env := testEnv(root, time.Date(2026, 4, 21, 3, 0, 0, 0, time.UTC))
	if _, err := env.loadEvalLog(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(env.evalViewCache())
	if err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	// the cache is what a call reads: a state planted in it answers
	planted := bytes.Replace(data, []byte(`"retries_all":`), []byte(`"retries_all":1000`), 1)
	if err := os.WriteFile(env.evalViewCache(), planted, 0o644); err != nil {
		t.Fatal(err)
	}
	if l, _ := env.loadEvalLog(); l.retryCount("") < 1000 {
		t.Fatalf("the cache was not read: retries %d", l.retryCount(""))
	}
	// another version: rebuilt
	other := bytes.Replace(planted, []byte(fmt.Sprintf(`"version":%d`, evalViewVersion)), []byte(`"version":0`), 1)
	os.WriteFile(env.evalViewCache(), other, 0o644)
	checkView(t, env, probeFeatures, "another version")
	// a rewritten log under a planted cache: rebuilt
	os.WriteFile(env.evalViewCache(), planted, 0o644)
	b, _ := os.ReadFile(env.H("eval_log.jsonl"))
	os.WriteFile(env.H("eval_log.jsonl"), bytes.Replace(b, []byte(`"f001"`), []byte(`"f00X"`), 1), 0o644)
	checkView(t, env, probeFeatures, "rewritten log")
}
