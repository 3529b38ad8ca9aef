package workspace

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func newContextWS(t *testing.T, content string) *Workspace {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, HarnessDir), 0o755); err != nil {
		t.Fatal(err)
	}
	ws := &Workspace{Root: root}
	if content != "" {
		if err := os.WriteFile(ws.ClaudeCodeContext(), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func TestContextStateMissingFileAndEntry(t *testing.T) {
	ws := newContextWS(t, "")
	cs, err := ws.ContextState("f001")
	if err != nil || cs != nil {
		t.Fatalf("missing file: %v %v", cs, err)
	}
	ws = newContextWS(t, "{}\n")
	if cs, err := ws.ContextState("f001"); err != nil || cs != nil {
		t.Fatalf("missing entry: %v %v", cs, err)
	}
	ws = newContextWS(t, "[1]\n")
	if _, err := ws.ContextState("f001"); err == nil {
		t.Fatal("an array file must be an error")
	}
}

// The fixtures' shape (session_id, token_usage_ratio, updated_at) reads, an
// ill-typed member is listed in Bad and kept as read, unknown members and
// members of other features survive an update byte for byte in meaning.
func TestContextStateUpdateKeepsUnknownAndOthers(t *testing.T) {
	ws := newContextWS(t, `{
  "f001": {"session_id": "s-1", "token_usage_ratio": 0.74, "updated_at": "2026-04-21T01:00:00Z", "note": {"a": [1, 2]}, "retries": "two"},
  "f002": {"session_id": "s-2", "anything": true}
}
`)
	cs, err := ws.ContextState("f001")
	if err != nil || cs == nil {
		t.Fatal(cs, err)
	}
	if cs.SessionID != "s-1" || cs.TokenUsageRatio != 0.74 || cs.Retries != 0 || len(cs.Bad) != 1 || cs.Bad[0] != "retries" {
		t.Fatalf("decoded %+v", cs)
	}
	written, err := ws.UpdateContextState("f001", func(cs *ContextState) error {
		cs.ContextTokens, cs.ContextWindow = 148000, 200000
		cs.TokenUsageRatio = RoundRatio(148000.0 / 200000)
		cs.ResetTrigger = &ResetTrigger{Kind: TriggerContext, Detail: "token_usage_ratio 0.74 > 0.70", At: "2026-04-21T01:02:03Z", SessionID: "s-1"}
		return nil
	})
	if err != nil || !written {
		t.Fatal(written, err)
	}
	data, _ := os.ReadFile(ws.ClaudeCodeContext())
	var top map[string]map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	f1 := top["f001"]
	if f1["retries"] != "two" {
		t.Errorf("an ill-typed member must be kept as read: %v", f1["retries"])
	}
	if n, _ := f1["note"].(map[string]any); n == nil {
		t.Errorf("unknown member lost: %s", data)
	}
	for _, k := range contextStateKeys {
		if _, ok := f1[k]; !ok {
			t.Errorf("contract member %s missing: %s", k, data)
		}
	}
	if f1["context_tokens"] != float64(148000) || f1["token_usage_ratio"] != 0.74 {
		t.Errorf("figures: %v", f1)
	}
	if tr, _ := f1["reset_trigger"].(map[string]any); tr["kind"] != "context" || tr["session_id"] != "s-1" {
		t.Errorf("trigger: %v", f1["reset_trigger"])
	}
	if top["f002"]["anything"] != true || top["f002"]["session_id"] != "s-2" || len(top["f002"]) != 2 {
		t.Errorf("another feature's entry changed: %v", top["f002"])
	}
	if !strings.HasPrefix(string(data), "{\n  \"f001\"") {
		t.Errorf("member order or formatting changed:\n%s", data)
	}
}

func TestContextStateUnchangedWritesNothing(t *testing.T) {
	ws := newContextWS(t, `{"f001": {"session_id": "s"}}`)
	before, _ := os.Stat(ws.ClaudeCodeContext())
	written, err := ws.UpdateContextState("f001", func(*ContextState) error { return ErrContextStateUnchanged })
	if err != nil || written {
		t.Fatal(written, err)
	}
	data, _ := os.ReadFile(ws.ClaudeCodeContext())
	after, _ := os.Stat(ws.ClaudeCodeContext())
	if string(data) != `{"f001": {"session_id": "s"}}` || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("file touched: %s", data)
	}
	boom := errors.New("boom")
	if _, err := ws.UpdateContextState("f001", func(*ContextState) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("callback error: %v", err)
	}
}

// A reset_trigger that is not changed is written back as read (a member a
// newer writer added inside it survives); null and a missing file work.
func TestContextStateTriggerRoundTrip(t *testing.T) {
	ws := newContextWS(t, `{"f001": {"reset_trigger": {"kind": "hermes", "detail": "d", "at": "2026-04-21T01:00:00Z", "session_id": "s", "by": "hermes-cli"}}}`)
	if _, err := ws.UpdateContextState("f001", func(cs *ContextState) error { cs.Retries = 2; return nil }); err != nil {
		t.Fatal(err)
	}
	cs, _ := ws.ContextState("f001")
	if cs.ResetTrigger == nil || cs.ResetTrigger.Kind != TriggerHermes || cs.Retries != 2 {
		t.Fatalf("%+v", cs)
	}
	data, _ := os.ReadFile(ws.ClaudeCodeContext())
	if !strings.Contains(string(data), `"by": "hermes-cli"`) {
		t.Errorf("member inside reset_trigger lost:\n%s", data)
	}
	if _, err := ws.UpdateContextState("f001", func(cs *ContextState) error { cs.ResetTrigger = nil; return nil }); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(ws.ClaudeCodeContext())
	if !strings.Contains(string(data), `"reset_trigger": null`) {
		t.Errorf("cleared trigger must be null:\n%s", data)
	}

	fresh := newContextWS(t, "")
	if _, err := fresh.UpdateContextState("f009", func(cs *ContextState) error { cs.SessionID = "x"; return nil }); err != nil {
		t.Fatal(err)
	}
	if cs, err := fresh.ContextState("f009"); err != nil || cs == nil || cs.SessionID != "x" || cs.ResetTrigger != nil {
		t.Fatalf("%+v %v", cs, err)
	}
}

// Concurrent updaters of different features (two hooks of two sessions)
// never lose each other's entry.
func TestContextStateConcurrentUpdates(t *testing.T) {
	ws := newContextWS(t, "{}")
	var wg sync.WaitGroup
	ids := []string{"f001", "f002", "f003", "f004"}
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if _, err := ws.UpdateContextState(id, func(cs *ContextState) error { cs.Retries++; return nil }); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	all, err := ws.LoadContextStates()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if e := all.Entries[id]; e == nil || e.Retries != 20 {
			t.Errorf("%s: %+v", id, e)
		}
	}
}

// TestContextStateOfAgreesWithParseContextStates: decoding only one
// feature's entry (Workspace.ContextState) gives exactly
// ParseContextStates(data).Entries[fid] and the same error, on hand-made
// files (duplicates, entries that are not objects, broken files), every
// fixture state file and 50,000 random mutations of a two-feature file.
func TestContextStateOfAgreesWithParseContextStates(t *testing.T) {
	const rel = ".harness/claude_code_context_state.json"
	agree := func(data []byte) {
		t.Helper()
		all, aerr := ParseContextStates(data)
		for _, fid := range []string{"f001", "f002", "f003", "", "a"} {
			got, err := contextStateOf(data, fid, rel)
			if aerr != nil {
				if err == nil || err.Error() != rel+": "+aerr.Error() {
					t.Fatalf("%q %s: error %v, want %v", data, fid, err, aerr)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%q %s: error %v, ParseContextStates none", data, fid, err)
			}
			if want := all.Entries[fid]; !reflect.DeepEqual(got, want) {
				t.Fatalf("%q %s: %+v, want %+v", data, fid, got, want)
			}
		}
	}
	for _, s := range []string{``, ` `, "\n", `{}`, `[]`, `null`, `{`, `{"f001":1}`, `{"f001":null}`, `{"f001":[]}`,
		`{"f001":{"session_id":"a"},"f001":{"session_id":"b"}}`, `{"f001":{"session_id":"a"},"f001":7}`,
		`{"f001":{"session_id":1,"retries":"x"},"f002":{"context_tokens":1.5}}`, `{"f001":{}} x`, `{"a":{"model":"m"}}`} {
		agree([]byte(s))
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sprints", "*", ".harness", "claude_code_context_state.json"))
	if len(files) == 0 {
		t.Fatal("no fixture context state files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		agree(data)
	}
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 50000; i++ {
		agree(mutateContextState(r))
	}
}
