package monitor

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The transcripts in testdata/ were written by the real Claude Code CLI
// 2.1.332 against the e2e mock (internal/e2e), which reported the usage
// given below; each is cut where a hook ran.

func TestReadTranscriptRealClient(t *testing.T) {
	cases := []struct {
		file    string
		model   string
		total   int64
		pending bool
	}{
		// 7 turns with cache_read 30000·(k+1), cache_creation 1000, input 100+k, output 50+k; the last is k=6
		{"growing-usage.jsonl", "claude-opus-5-5", 106 + 210000 + 1000 + 56, false},
		// PreCompact ran after the request of turn 3 failed with "prompt is too long": no answer after it
		{"precompact-after-context-error.jsonl", "claude-opus-5-5", 102 + 3000 + 1000 + 52, true},
		// PreCompact ran before a request: the last answer (turn 3 reported 900,000 cache-read tokens) is the latest record
		{"precompact-at-threshold.jsonl", "claude-opus-5-5", 100 + 900000 + 50, false},
		// --model 'claude-sonnet-4-6[1m]': requestedModel keeps the suffix, message.model does not
		{"model-1m-variant.jsonl", "claude-sonnet-4-6[1m]", 0, false},
	}
	for _, c := range cases {
		rd, err := ReadTranscript(filepath.Join("testdata", c.file))
		if err != nil || !rd.Found {
			t.Fatalf("%s: %+v %v", c.file, rd, err)
		}
		if rd.Model != c.model || rd.PendingRequest != c.pending || (c.total > 0 && rd.Usage.Total() != c.total) {
			t.Errorf("%s: model %q total %d pending %v, want %q %d %v", c.file, rd.Model, rd.Usage.Total(), rd.PendingRequest, c.model, c.total, c.pending)
		}
		if rd.BytesRead > 128<<10 {
			t.Errorf("%s: read %d bytes to find the latest usage", c.file, rd.BytesRead)
		}
	}
	if w := ContextWindow("claude-sonnet-4-6[1m]"); w != Window1M {
		t.Errorf("1m variant window %d", w)
	}
}

// Subagent, synthetic and API-error messages never count; the reader walks
// past a line longer than MaxTranscriptLine without holding it, and a
// missing transcript is no reading, not an error.
func TestReadTranscriptSkipsAndBounds(t *testing.T) {
	dir := t.TempDir()
	main := `{"type":"assistant","isSidechain":false,"requestedModel":"claude-haiku-4-5","timestamp":"2026-12-01T10:00:00.000Z","message":{"model":"claude-haiku-4-5","usage":{"input_tokens":5,"cache_read_input_tokens":100000,"cache_creation_input_tokens":20,"output_tokens":7}}}`
	side := `{"type":"assistant","isSidechain":true,"message":{"model":"claude-haiku-4-5","usage":{"input_tokens":999999}}}`
	synth := `{"type":"assistant","isApiErrorMessage":true,"message":{"model":"<synthetic>","usage":{"input_tokens":0}}}`
	big := `{"type":"user","message":{"content":"` + strings.Repeat("x", MaxTranscriptLine+10) + `"}}`
	p := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(p, []byte(main+"\n"+big+"\n"+side+"\n"+synth+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rd, err := ReadTranscript(p)
	if err != nil || !rd.Found || rd.Usage.Total() != 100032 || rd.Model != "claude-haiku-4-5" {
		t.Fatalf("%+v %v", rd, err)
	}
	if rd, err := ReadTranscript(filepath.Join(dir, "missing.jsonl")); err != nil || rd.Found {
		t.Fatalf("missing: %+v %v", rd, err)
	}
	if rd, err := ReadTranscript(""); err != nil || rd.Found {
		t.Fatalf("empty path: %+v %v", rd, err)
	}
	// nothing within the bound
	var b bytes.Buffer
	b.WriteString(main + "\n")
	line := `{"type":"user","message":{"content":"` + strings.Repeat("y", 1<<20) + `"}}` + "\n"
	for b.Len() < MaxTranscriptRead+(2<<20) {
		b.WriteString(line)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rd, err = ReadTranscript(p)
	if err != nil || rd.Found || !rd.Truncated || rd.BytesRead > MaxTranscriptRead+(64<<10) {
		t.Fatalf("bounded read: %+v %v", rd, err)
	}
}

func TestContextWindow(t *testing.T) {
	for model, want := range map[string]int64{
		"claude-opus-5-5":                   Window1M,
		"claude-opus-4-7":                   Window1M,
		"claude-sonnet-5":                   Window1M,
		"claude-haiku-5-5":                  Window1M,
		"claude-sonnet-4-6":                 DefaultWindow,
		"claude-sonnet-4-5-20250929":        DefaultWindow,
		"claude-sonnet-4-5-20250929[1m]":    Window1M,
		"CLAUDE-OPUS-4-6[1M]":               Window1M,
		"us.anthropic.claude-opus-4-6-v1:0": DefaultWindow,
		"claude-opus-5@20260301":            Window1M,
		"claude-haiku-4-5":                  DefaultWindow,
		"claude-3-7-sonnet-20250219":        DefaultWindow,
		"my-gateway-model":                  DefaultWindow,
		"":                                  DefaultWindow,
	} {
		if got := ContextWindow(model); got != want {
			t.Errorf("ContextWindow(%q) = %d, want %d", model, got, want)
		}
	}
	th := Default()
	th.ContextWindow = 500000
	th.Models = map[string]int64{"my-gateway-model": 64000}
	if th.Window("my-gateway-model") != 64000 || th.Window("claude-opus-5-5") != 500000 {
		t.Errorf("overrides: %d %d", th.Window("my-gateway-model"), th.Window("claude-opus-5-5"))
	}
}

func TestParseThresholds(t *testing.T) {
	th, err := ParseThresholds([]byte("disable: [x]\nreset:\n  context_ratio: 0.6\n  context_hard_ratio: 0.9\n  retries: 3\n  retries_hard: 4\n  session_age: 90m\n  session_age_hard: 2h\n  stale_after: 10m\n  context_window: 300000\n  precompact: allow\n"))
	if err != nil {
		t.Fatal(err)
	}
	if th.ContextRatio != 0.6 || th.ContextHardRatio != 0.9 || th.Retries != 3 || th.RetriesHard != 4 || th.SessionAge != 90*time.Minute ||
		th.SessionAgeHard != 2*time.Hour || th.StaleAfter != 10*time.Minute || th.ContextWindow != 300000 || th.PreCompact != PreCompactAllow {
		t.Errorf("%+v", th)
	}
	if th, err := ParseThresholds([]byte("warn: []\n")); err != nil || th.ContextRatio != 0.70 || th.Retries != 2 || th.SessionAge != 2*time.Hour {
		t.Errorf("no section: %+v %v", th, err)
	}
	for _, bad := range []string{
		"reset:\n  context_ratio: 1.5\n",
		"reset:\n  context_ratio: 0.9\n",                 // above the default hard ratio 0.85
		"reset:\n  retries: 0\n",                         // below 1
		"reset:\n  session_age: soon\n",                  // not a duration
		"reset:\n  precompact: maybe\n",                  // unknown policy
		"reset:\n  unknown_key: 1\n",                     // strict keys
		"reset:\n  models: {x: -1}\n",                    // window not positive
		"reset:\n  session_age: 3h\n",                    // above the hard age
		"reset:\n  context_window: 0\n",                  // not positive
		"reset:\n  retries: 3\n  retries_hard: 2\n",      // hard below soft
		"reset:\n  hermes_session_age: -1h\n",            // negative
		"reset: [1, 2]\n",                                // not a mapping
		"reset:\n  context_ratio: high\n",                // not a number
		"reset:\n  context_hard_ratio: 0.5\n",            // below the soft ratio
		"reset:\n  hermes_consecutive_sprints: 0\n",      // below 1
		"reset:\n  stale_after: 0s\n",                    // not positive
		"reset:\n  context_ratio: 0.7\n  retries: two\n", // not a number
	} {
		if th, err := ParseThresholds([]byte(bad)); err == nil {
			t.Errorf("accepted %q: %+v", bad, th)
		} else if th.ContextRatio != 0.70 {
			t.Errorf("%q: an invalid section must leave the defaults, got %+v", bad, th)
		}
	}
	dir := t.TempDir()
	if th, err := LoadThresholds(dir); err != nil || th.ContextRatio != 0.70 {
		t.Errorf("no file: %+v %v", th, err)
	}
	os.MkdirAll(filepath.Join(dir, ".harness"), 0o755)
	os.WriteFile(filepath.Join(dir, ".harness", "rules.yaml"), []byte("reset:\n  retries: 5\n  retries_hard: 5\n"), 0o644)
	if th, err := LoadThresholds(dir); err != nil || th.Retries != 5 {
		t.Errorf("file: %+v %v", th, err)
	}
	os.WriteFile(filepath.Join(dir, ".harness", "rules.yaml"), []byte("reset:\n  retries: -5\n"), 0o644)
	if th, err := LoadThresholds(dir); err == nil || th.Retries != 2 || !strings.Contains(err.Error(), "rules.yaml: reset") {
		t.Errorf("invalid file: %+v %v", th, err)
	}
}

func TestEvaluate(t *testing.T) {
	th := Default()
	got := Evaluate(Figures{Tokens: 148000, Window: 200000, Ratio: 0.74, Retries: 2, RetriesAtStart: 1, Age: 2*time.Hour + 5*time.Minute}, th)
	want := []Trigger{
		{Kind: "context", Detail: "token_usage_ratio 0.74 > 0.70"},
		{Kind: "retries", Detail: "retries 2 >= 2"},
		{Kind: "age", Detail: "session_age 2h5m > 2h"},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if got := Evaluate(Figures{Window: 200000, Ratio: 0.70, Retries: 2, RetriesAtStart: 2, Age: 2 * time.Hour}, th); len(got) != 0 {
		t.Errorf("at the limits nothing fires (> 0.70, a retry during the session, > 2h): %+v", got)
	}
	hard := Evaluate(Figures{Window: 200000, Ratio: 0.86, Retries: 3, Age: 151 * time.Minute}, th)
	for _, tr := range hard {
		if !tr.Hard || !strings.Contains(tr.Detail, "hard limit") {
			t.Errorf("not hard: %+v", tr)
		}
	}
	if len(hard) != 3 {
		t.Errorf("%+v", hard)
	}
	if got := Evaluate(Figures{Ratio: 0.99}, th); len(got) != 0 {
		t.Errorf("no window: the context trigger cannot fire: %+v", got)
	}
	if s := ratioText(0.7012); s != "0.7012" {
		t.Errorf("ratioText %s", s)
	}
}

func TestInstructionNamesTheTemplateSections(t *testing.T) {
	s := Instruction("f002", "token_usage_ratio 0.74 > 0.70", ".harness/features/f002/handoff.md", ".harness/features/f002/generator_log.md", false)
	for _, want := range []string{"f002", "token_usage_ratio 0.74 > 0.70", ".harness/features/f002/handoff.md", "**Trigger reason**",
		"**Generated at**", "## 当前状态", "### 进行中", "## 给新 session 的提醒", "## Reset at", ".harness/features/f002/generator_log.md", "Stop"} {
		if !strings.Contains(s, want) {
			t.Errorf("instruction lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "refused") {
		t.Errorf("soft instruction says refused:\n%s", s)
	}
	if h := Instruction("f002", "d", "h", "g", true); !strings.Contains(h, "refused") {
		t.Errorf("hard instruction: %s", h)
	}
	if n := len([]rune(s)); n > 2500 {
		t.Errorf("instruction is %d characters; keep it short (additionalContext cap 10,000)", n)
	}
}

func TestCompactionThresholdAndRecovering(t *testing.T) {
	if got := CompactionThreshold(200000, nil); got != 187000 {
		t.Errorf("default 200k: %d", got)
	}
	if got := CompactionThreshold(200000, map[string]string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}); got != 100000 {
		t.Errorf("override 50: %d", got)
	}
	if got := CompactionThreshold(1000000, map[string]string{"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "400000"}); got != 387000 {
		t.Errorf("auto-compact window: %d", got)
	}
	if got := CompactionThreshold(200000, map[string]string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "x", "CLAUDE_CODE_AUTO_COMPACT_WINDOW": "-1"}); got != 187000 {
		t.Errorf("bad values are ignored: %d", got)
	}
	if !Recovering(Reading{}, 150000, 200000, nil) || Recovering(Reading{}, 190000, 200000, nil) || !Recovering(Reading{PendingRequest: true}, 190000, 200000, nil) {
		t.Error("Recovering")
	}
}

// scanLine reads what encoding/json reads of every line of the real
// client's transcripts and of hand-made lines with the hard cases; where it
// gives up, decodeLine falls back to encoding/json.
func TestScanLineMatchesEncodingJSON(t *testing.T) {
	var lines [][]byte
	for _, f := range []string{"growing-usage.jsonl", "precompact-after-context-error.jsonl", "precompact-at-threshold.jsonl", "model-1m-variant.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(bytes.TrimSpace(data), []byte("\n"))...)
	}
	for _, l := range []string{
		`{"type":"assistant","message":{"model":"m","usage":{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":null}}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"usage":{"input_tokens":999}}}],"model":"m","usage":{"input_tokens":5}}}`,
		`{"type":"assistant","type":"user"}`,
		`{"type":"assi\u0073tant","message":{"usage":{"input_tokens":3}}}`,
		`{"type":"assistant","message":{"usage":{"input_tokens":3.5}}}`,
		`{"type":"assistant","message":"text","isSidechain":true}`,
		`{"type":"assistant","message":{"usage":{"input_tokens":1e3}}}`,
		`{"type":"assistant","message":{"model":"a\"b","usage":{}}} trailing`,
		`{"type":"assistant",}`, `[]`, `{"a":[1,{"b":"]}"}],"type":"api-request"}`, `{"isApiErrorMessage":false,"requestedModel":"x[1m]"}`,
	} {
		lines = append(lines, []byte(l))
	}
	scanned := 0
	for _, line := range lines {
		var want transcriptLine
		werr := json.Unmarshal(line, &want)
		got, ok := scanLine(line)
		if ok {
			scanned++
			if werr != nil {
				t.Errorf("scanLine accepted what encoding/json rejects (%v): %s", werr, line)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("scanLine %+v, encoding/json %+v: %s", got, want, line)
			}
		}
		if d, ok := decodeLine(line); ok != (werr == nil) || (ok && !reflect.DeepEqual(d, want)) {
			t.Errorf("decodeLine %+v %v, encoding/json %+v %v: %s", d, ok, want, werr, line)
		}
	}
	if scanned < len(lines)/2 {
		t.Errorf("scanLine handled %d of %d lines itself", scanned, len(lines))
	}
}
