package mockapi

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestMockAPIStreamsScriptedTurns checks the SSE wire format the CLI parses and
// the stateless turn choice, without the CLI.
func TestMockAPIStreamsScriptedTurns(t *testing.T) {
	m := newTestServer(t, Script{Turns: [][]Block{
		{Text("hi"), ToolUse("", "Bash", map[string]any{"command": "ls -la"})},
	}, FinalText: "bye"}, "")
	defer m.Close()
	if !strings.HasPrefix(m.URL(), "http://127.0.0.1:") {
		t.Fatalf("mock not on loopback: %s", m.URL())
	}
	post := func(body string) *http.Response {
		resp, err := http.Post(m.URL()+"/v1/messages?beta=true", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post(`{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"}]}`)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content-type %q", ct)
	}
	var events []string
	var partial strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			events = append(events, name)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var ev struct {
				Delta struct {
					PartialJSON string `json:"partial_json"`
					StopReason  string `json:"stop_reason"`
				} `json:"delta"`
			}
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatalf("data line is not JSON: %q", data)
			}
			partial.WriteString(ev.Delta.PartialJSON)
			if ev.Delta.StopReason != "" && ev.Delta.StopReason != "tool_use" {
				t.Errorf("stop_reason %q, want tool_use", ev.Delta.StopReason)
			}
		}
	}
	want := "message_start ping content_block_start content_block_delta content_block_stop content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(events, " "); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	if partial.String() != `{"command":"ls -la"}` {
		t.Errorf("tool input reassembled as %q", partial.String())
	}
	// One assistant message already present: past the script → final text, plain JSON.
	resp2 := post(`{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"},{"role":"assistant","content":"x"}]}`)
	defer resp2.Body.Close()
	var msg struct {
		Content []Block `json:"content"`
	}
	if err := json.NewDecoder(resp2.Body).Decode(&msg); err != nil || len(msg.Content) != 1 || msg.Content[0]["text"] != "bye" {
		t.Errorf("final reply %+v (%v)", msg, err)
	}
	reqs := m.Messages()
	if len(reqs) != 2 || reqs[0].ReplyTurn != 0 || reqs[1].ReplyKind != "final" {
		t.Errorf("recorded %+v", reqs)
	}
	// tool ids are filled in deterministically
	if id := materialise(m.script.Turns[0], 0)[1]["id"]; id != "toolu_mock_t0_b1" {
		t.Errorf("tool id %v", id)
	}
}

func TestMockAPIRefusesProxyAndUnknown(t *testing.T) {
	m := newTestServer(t, Script{}, "")
	defer m.Close()
	resp, err := http.Get(m.URL() + "/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path: %d", resp.StatusCode)
	}
	// absolute-URI request = used as plain HTTP proxy
	req, _ := http.NewRequest("GET", m.URL(), nil)
	req.RequestURI = ""
	req.URL.Opaque = "http://example.invalid/x"
	tr := &http.Transport{}
	resp, err = tr.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("proxy attempt answered %d", resp.StatusCode)
		}
	}
	kinds := map[string]int{}
	for _, r := range m.Requests() {
		kinds[r.Kind]++
	}
	if kinds["unknown"] != 1 || kinds["proxy-attempt"] != 1 {
		t.Errorf("recorded kinds %v", kinds)
	}
}

func TestRequestToolResultsAndTexts(t *testing.T) {
	r := Request{Body: json.RawMessage(`{"messages":[
	 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"denied","is_error":true}]},
	 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]},
	 {"role":"system","content":[{"type":"text","text":"ctx"}]}]}`)}
	trs := r.ToolResults()
	if len(trs) != 2 || trs[0] != (ToolResult{"t1", "denied", true}) || trs[1].Text != "a\nb" || trs[1].IsError {
		t.Errorf("tool results %+v", trs)
	}
	mt := r.MessageTexts()
	if len(mt) != 3 || mt[2] != (RoleText{"system", "ctx"}) {
		t.Errorf("texts %+v", mt)
	}
}

// TestMockAPIUsageCompactionAndErrors checks the scripted usage of a turn,
// the compaction reply and a scripted API error, without the CLI.
func TestMockAPIUsageCompactionAndErrors(t *testing.T) {
	m := newTestServer(t, Script{
		Turns: [][]Block{{Text("one")}, {Text("two")}},
		Usage: func(k int) Usage {
			return Usage{InputTokens: 10 * (k + 1), CacheReadInputTokens: 1000, OutputTokens: 5}
		},
		Error: func(k int) *APIError {
			if k == 1 {
				return &APIError{Status: 400, Type: "invalid_request_error", Message: "prompt is too long: 210000 tokens > 200000 maximum"}
			}
			return nil
		},
	}, "")
	defer m.Close()
	post := func(body string) (int, map[string]any) {
		resp, err := http.Post(m.URL()+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	code, msg := post(`{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"}]}`)
	u, _ := msg["usage"].(map[string]any)
	if code != 200 || u["input_tokens"] != float64(10) || u["cache_read_input_tokens"] != float64(1000) {
		t.Errorf("turn 0: %d %v", code, msg)
	}
	code, msg = post(`{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"},{"role":"assistant","content":"one"}]}`)
	if e, _ := msg["error"].(map[string]any); code != 400 || e["type"] != "invalid_request_error" {
		t.Errorf("turn 1 must be the scripted error: %d %v", code, msg)
	}
	code, msg = post(`{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"},{"role":"assistant","content":"one"},` +
		`{"role":"user","content":[{"type":"text","text":"Your task is to create a detailed summary of the conversation so far"}]}]}`)
	content, _ := msg["content"].([]any)
	if code != 200 || len(content) != 1 || !strings.Contains(content[0].(map[string]any)["text"].(string), "<summary>") {
		t.Errorf("compaction reply: %d %v", code, msg)
	}
	var kinds []string
	for _, r := range m.Messages() {
		kinds = append(kinds, r.ReplyKind)
	}
	if strings.Join(kinds, ",") != "turn,error,compact" {
		t.Errorf("reply kinds %v", kinds)
	}
	if r := m.Messages()[0]; r.Usage == nil || r.Usage.Total() != 1015 {
		t.Errorf("recorded usage %+v", r.Usage)
	}
}

func newTestServer(t *testing.T, script Script, logPath string) *Server {
	t.Helper()
	m, err := Start(script, logPath)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
