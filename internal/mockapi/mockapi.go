// Package mockapi is a scripted mock of the Anthropic Messages API for
// running the real Claude Code CLI offline: internal/e2e drives every
// real-client test with it, and harness doctor's sandboxed probe
// (internal/launch) scripts its one Bash call with it.
//
// The mock speaks the streaming Messages API the way the CLI expects it
// (docs/hooks.md, the [E2E] marks): POST /v1/messages answers with SSE streaming
// (message_start, content_block_start/delta/stop, message_delta,
// message_stop) or plain JSON; the turn is chosen statelessly from the number
// of assistant messages already in the request, so client retries get the
// same answer. It listens on 127.0.0.1 only and doubles as a black-hole HTTP
// proxy (CONNECT and absolute-URI requests are logged and refused), so with
// HTTPS_PROXY/HTTP_PROXY pointing at it nothing leaves the machine.
package mockapi

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
)

// Block is one content block of a scripted assistant turn, in Messages API
// shape: {"type":"text","text":…} or {"type":"tool_use","name":…,"input":{…}}
// (an "id" is filled in as toolu_mock_t<turn>_b<index> when missing).
type Block map[string]any

// Text returns a text block.
func Text(s string) Block { return Block{"type": "text", "text": s} }

// ToolUse returns a tool_use block for tool name with input and the given id.
func ToolUse(id, name string, input map[string]any) Block {
	return Block{"type": "tool_use", "id": id, "name": name, "input": input}
}

// Script is what the mock model says. A request that carries tools (the main
// agent loop) with k assistant messages already in it gets Turns[k]; past the
// end it gets FinalText. Requests without tools (side queries) get AuxText.
type Script struct {
	Turns     [][]Block
	FinalText string
	AuxText   string
	// Usage, when set, is the usage the reply to main-loop turn k reports
	// (Usage(k)); nil reports input tokens ≈ request bytes / 4 and output
	// tokens ≈ reply bytes / 4. Side queries always get the estimate.
	Usage func(turn int) Usage
	// CompactText answers a compaction request (the client asks for "a
	// detailed summary of the conversation"; reply kind "compact"); empty:
	// a fixed summary. Compaction requests are never scripted turns.
	CompactText string
	// Error, when set and returning non-nil for main-loop turn k, makes the
	// mock answer that request with the API error instead (reply kind
	// "error"), e.g. the 400 "prompt is too long" of a full context.
	Error func(turn int) *APIError
	// Subagents scripts the loops of Agent-tool subagents: a request with
	// tools whose first user message contains a key of Subagents is that
	// subagent's loop (reply kind "subagent"); with k assistant messages in
	// it, it gets Subagents[key][k], past the end FinalText. The key is a
	// marker the scripted Agent call puts in its prompt.
	Subagents map[string][][]Block
}

// subagentTurns returns the scripted turns of the subagent whose loop the
// request body raw belongs to (see Script.Subagents), or ok false.
func (s Script) subagentTurns(raw []byte) (turns [][]Block, ok bool) {
	if len(s.Subagents) == 0 {
		return nil, false
	}
	var in struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(raw, &in) != nil {
		return nil, false
	}
	for _, m := range in.Messages {
		if m.Role != "user" {
			continue
		}
		text := contentText(m.Content)
		for key, t := range s.Subagents {
			if strings.Contains(text, key) {
				return t, true
			}
		}
		return nil, false
	}
	return nil, false
}

// APIError is an error reply of the Messages API: HTTP status, error type
// and message ({"type":"error","error":{"type":…,"message":…}}).
type APIError struct {
	Status  int
	Type    string
	Message string
}

// compactionMarker is the phrase of the client's compaction prompt (Claude
// Code 2.1.332) by which the mock tells a compaction request from a turn.
const compactionMarker = "create a detailed summary of the conversation"

// Usage is the usage object of one Messages API reply (token counts).
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// Total is the context the reply's usage accounts for: input + cache read
// + cache creation + output tokens.
func (u Usage) Total() int {
	return u.InputTokens + u.OutputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// Request is one HTTP request the mock received, body included.
type Request struct {
	// Seq counts requests from 1 in arrival order.
	Seq int `json:"seq"`
	// Kind is messages, count_tokens, models, probe, proxy-attempt or unknown.
	Kind   string `json:"kind"`
	Method string `json:"method"`
	// Path is the request URI as received (query included).
	Path string `json:"path"`
	// Body is the raw request body (JSON for the API routes).
	Body json.RawMessage `json:"body,omitempty"`
	// ReplyKind is turn, final, subagent, compact, error or aux for Kind
	// "messages".
	ReplyKind string `json:"reply_kind,omitempty"`
	// ReplyTurn is the index of the scripted turn sent back (-1 when none).
	ReplyTurn int `json:"reply_turn"`
	// Usage is the scripted usage sent back (nil when Script.Usage is nil).
	Usage *Usage `json:"usage,omitempty"`
}

// Server is a running mock Messages API on a loopback httptest server.
type Server struct {
	script  Script
	logPath string
	srv     *httptest.Server

	mu   sync.Mutex
	reqs []Request
}

// maxBody bounds a request body the mock reads (64 MiB).
const maxBody = 64 << 20

// Start starts the mock on 127.0.0.1 (ephemeral port). Every request is
// kept in memory and, when logPath is not empty, appended to it as JSON Lines.
// The error is a failed listen on the loopback interface.
func Start(script Script, logPath string) (*Server, error) {
	m := &Server{script: script, logPath: logPath}
	m.srv = httptest.NewUnstartedServer(http.HandlerFunc(m.serve))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mock Messages API: listen on loopback: %w", err)
	}
	m.srv.Listener = l
	m.srv.Start()
	return m, nil
}

// URL is the base URL, e.g. http://127.0.0.1:41234.
func (m *Server) URL() string { return m.srv.URL }

// Close stops the server and drops its connections.
func (m *Server) Close() {
	m.srv.CloseClientConnections()
	m.srv.Close()
}

// Requests returns a copy of every request received so far.
func (m *Server) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.reqs...)
}

// Messages returns the POST /v1/messages requests that carried tools (the
// main agent loop), in order.
func (m *Server) Messages() []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Kind == "messages" && r.ReplyKind != "aux" {
			out = append(out, r)
		}
	}
	return out
}

func (m *Server) record(r Request) Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	r.Seq = len(m.reqs) + 1
	m.reqs = append(m.reqs, r)
	if m.logPath != "" {
		if line, err := json.Marshal(r); err == nil {
			if f, err := os.OpenFile(m.logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
				_, _ = f.Write(append(line, '\n'))
				_ = f.Close()
			}
		}
	}
	return r
}

// setUsage notes the scripted usage on the recorded request seq.
func (m *Server) setUsage(seq int, u Usage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if seq >= 1 && seq <= len(m.reqs) {
		m.reqs[seq-1].Usage = &u
	}
}

func (m *Server) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	body := json.RawMessage(nil)
	if len(raw) > 0 {
		if json.Valid(raw) {
			body = raw
		} else {
			body, _ = json.Marshal(map[string]string{"_unparsed": string(raw)})
		}
	}
	req := Request{Method: r.Method, Path: r.RequestURI, Body: body, ReplyTurn: -1}

	if r.Method == http.MethodConnect || strings.HasPrefix(r.RequestURI, "http://") || strings.HasPrefix(r.RequestURI, "https://") {
		req.Kind = "proxy-attempt"
		m.record(req)
		http.Error(w, "mock proxy: outbound traffic refused", http.StatusForbidden)
		return
	}
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages":
		var in struct {
			Stream   bool              `json:"stream"`
			Model    string            `json:"model"`
			Tools    []json.RawMessage `json:"tools"`
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(raw, &in)
		req.Kind = "messages"
		var content []Block
		if len(in.Tools) == 0 {
			req.ReplyKind = "aux"
			content = []Block{Text(cmp.Or(m.script.AuxText, "OK"))}
		} else {
			k := 0
			for _, msg := range in.Messages {
				if msg.Role == "assistant" {
					k++
				}
			}
			req.ReplyTurn = k
			if apiErr := m.scriptError(k); apiErr != nil && !isCompaction(raw) {
				req.ReplyKind = "error"
				m.record(req)
				writeJSON(w, apiErr.Status, map[string]any{"type": "error", "error": map[string]string{
					"type": apiErr.Type, "message": apiErr.Message}})
				return
			}
			sub, isSub := m.script.subagentTurns(raw)
			switch {
			case isSub:
				req.ReplyKind = "subagent"
				if k < len(sub) {
					content = materialise(sub[k], 1000+k)
				} else {
					content = []Block{Text(cmp.Or(m.script.FinalText, "Mock: end of script."))}
				}
			case isCompaction(raw):
				req.ReplyKind = "compact"
				content = []Block{Text(cmp.Or(m.script.CompactText,
					"<analysis>mock</analysis>\n<summary>Mock compaction summary of the session so far.</summary>"))}
			case k < len(m.script.Turns):
				req.ReplyKind = "turn"
				content = materialise(m.script.Turns[k], k)
			default:
				req.ReplyKind = "final"
				content = []Block{Text(cmp.Or(m.script.FinalText, "Mock: end of script."))}
			}
		}
		req = m.record(req)
		msg := messageObject(req.Seq, cmp.Or(in.Model, "mock-model"), content, len(raw))
		if m.script.Usage != nil && (req.ReplyKind == "turn" || req.ReplyKind == "final") {
			msg.Usage = m.script.Usage(req.ReplyTurn)
			req.Usage = &msg.Usage
			m.setUsage(req.Seq, msg.Usage)
		}
		if in.Stream {
			streamMessage(w, req.Seq, msg)
			return
		}
		writeJSON(w, http.StatusOK, msg)
	case r.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		req.Kind = "count_tokens"
		m.record(req)
		writeJSON(w, http.StatusOK, map[string]int{"input_tokens": approxTokens(len(raw))})
	case r.Method == http.MethodGet && path == "/v1/models":
		req.Kind = "models"
		m.record(req)
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{}, "has_more": false, "first_id": nil, "last_id": nil})
	case r.Method == http.MethodHead || (r.Method == http.MethodGet && (path == "/" || path == "/health")):
		req.Kind = "probe"
		m.record(req)
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = io.WriteString(w, "ok")
		}
	default:
		req.Kind = "unknown"
		m.record(req)
		writeJSON(w, http.StatusNotFound, map[string]any{"type": "error", "error": map[string]string{
			"type": "not_found_error", "message": "mock: no handler for " + r.Method + " " + path}})
	}
}

func (m *Server) scriptError(turn int) *APIError {
	if m.script.Error == nil {
		return nil
	}
	return m.script.Error(turn)
}

// isCompaction reports whether a /v1/messages body is the client's
// compaction request: its last message carries the compaction prompt.
func isCompaction(raw []byte) bool {
	var in struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(raw, &in) != nil {
		return false
	}
	for i := len(in.Messages) - 1; i >= 0; i-- {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(in.Messages[i], &m) != nil || m.Role != "user" {
			continue
		}
		return strings.Contains(contentText(m.Content), compactionMarker)
	}
	return false
}

func approxTokens(n int) int { return max(1, (n+3)/4) }

func materialise(blocks []Block, turn int) []Block {
	out := make([]Block, len(blocks))
	for i, b := range blocks {
		c := Block{}
		for k, v := range b {
			c[k] = v
		}
		if c["type"] == "tool_use" {
			if id, _ := c["id"].(string); id == "" {
				c["id"] = fmt.Sprintf("toolu_mock_t%d_b%d", turn, i)
			}
			if c["input"] == nil {
				c["input"] = map[string]any{}
			}
		}
		out[i] = c
	}
	return out
}

type message struct {
	ID         string  `json:"id"`
	Type       string  `json:"type"`
	Role       string  `json:"role"`
	Model      string  `json:"model"`
	Content    []Block `json:"content"`
	StopReason string  `json:"stop_reason"`
	StopSeq    *string `json:"stop_sequence"`
	Usage      Usage   `json:"usage"`
}

func messageObject(seq int, model string, content []Block, inBytes int) message {
	stop := "end_turn"
	for _, b := range content {
		if b["type"] == "tool_use" {
			stop = "tool_use"
		}
	}
	out, _ := json.Marshal(content)
	return message{
		ID: fmt.Sprintf("msg_mock_%d", seq), Type: "message", Role: "assistant", Model: model,
		Content: content, StopReason: stop,
		Usage: Usage{InputTokens: approxTokens(inBytes), OutputTokens: approxTokens(len(out))},
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// streamMessage writes msg as the Messages API server-sent events.
func streamMessage(w http.ResponseWriter, seq int, msg message) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("request-id", fmt.Sprintf("req_mock_%d", seq))
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriter(w)
	ev := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(bw, "event: %s\ndata: %s\n\n", name, b)
	}
	start := msg
	start.Content = []Block{}
	start.StopReason = ""
	startObj := map[string]any{
		"id": start.ID, "type": "message", "role": "assistant", "model": start.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": Usage{InputTokens: msg.Usage.InputTokens, OutputTokens: 1,
			CacheCreationInputTokens: msg.Usage.CacheCreationInputTokens, CacheReadInputTokens: msg.Usage.CacheReadInputTokens},
	}
	ev("message_start", map[string]any{"type": "message_start", "message": startObj})
	ev("ping", map[string]any{"type": "ping"})
	for i, b := range msg.Content {
		switch b["type"] {
		case "text":
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		case "tool_use":
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			in, _ := json.Marshal(b["input"])
			// two halves, to exercise the client's partial-JSON accumulation
			mid := len(in) / 2
			for _, part := range []string{string(in[:mid]), string(in[mid:])} {
				ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		default:
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": b})
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	ev("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": msg.StopReason, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": msg.Usage.OutputTokens}})
	ev("message_stop", map[string]any{"type": "message_stop"})
	_ = bw.Flush()
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// ToolResult is one tool_result block found in a request.
type ToolResult struct {
	ToolUseID string
	Text      string
	IsError   bool
}

// ToolResults returns every tool_result block in the request's messages.
// The text of a result whose content is a list of blocks is their text
// joined with "\n".
func (r Request) ToolResults() []ToolResult {
	var body struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(r.Body, &body) != nil {
		return nil
	}
	var out []ToolResult
	for _, m := range body.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				out = append(out, ToolResult{ToolUseID: b.ToolUseID, Text: contentText(b.Content), IsError: b.IsError})
			}
		}
	}
	return out
}

// MessageTexts returns, for each message of the request, its role and its
// text (string content, or the text of its text/tool_result blocks).
func (r Request) MessageTexts() []RoleText {
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(r.Body, &body) != nil {
		return nil
	}
	out := make([]RoleText, 0, len(body.Messages))
	for _, m := range body.Messages {
		out = append(out, RoleText{Role: m.Role, Text: contentText(m.Content)})
	}
	return out
}

// RoleText is one message of a request reduced to text.
type RoleText struct {
	Role string
	Text string
}

func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		switch {
		case b.Text != "":
			parts = append(parts, b.Text)
		case len(b.Content) > 0:
			parts = append(parts, contentText(b.Content))
		}
	}
	return strings.Join(parts, "\n")
}
