package launch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/superagent-harness/harness/internal/ccsettings"
)

// ProbeResult is what one sandboxed probe saw.
type ProbeResult struct {
	// Refused is true when the operating system refused the write (the
	// sandbox holds).
	Refused bool `json:"refused"`
	// Output is the tool result the client returned for the probe's Bash
	// call.
	Output string `json:"output"`
}

// ProbeSettings is the --settings content of a probe: the policy's sandbox
// and permission blocks without any hook, so that what the probe shows is
// the sandbox alone.
func ProbeSettings(pol Policy) ([]byte, error) {
	doc := ccsettings.New()
	if err := doc.SetSandbox(pol.Sandbox(false)); err != nil {
		return nil, err
	}
	if err := doc.SetPermissions(pol.Permissions(false)); err != nil {
		return nil, err
	}
	return doc.Bytes()
}

// probeMarker ends the probe's command output when the write went through.
const probeMarker = "HARNESS-PROBE-WROTE"

// Probe runs the real client once, headless, in dir with the settings file
// settings and CLAUDE_CODE_TMPDIR tmp, against a loopback stand-in of the
// Messages API that asks for exactly one Bash call: `: >> TARGET` (an append
// of nothing, so the file keeps every byte even when the write is allowed).
// HOME is a scratch directory and every network variable points at the
// stand-in, so nothing leaves the machine and the user's configuration is not
// touched. The probe writes no hook.log record (no hooks run).
func Probe(claude, settings, dir, tmp, target string, env map[string]string, timeout time.Duration) (ProbeResult, error) {
	var res ProbeResult
	srv, err := newProbeServer(target)
	if err != nil {
		return res, err
	}
	defer srv.close()
	home, err := os.MkdirTemp("", "harness-probe-home-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// --setting-sources user (and a scratch HOME): the feature directory's
	// own .claude/settings.json, which wires the hook, is not read.
	cmd := exec.CommandContext(ctx, claude, "-p", "probe", "--settings", settings, "--setting-sources", "user",
		"--permission-mode", "bypassPermissions", "--session-id", mustID(), "--no-session-persistence")
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=" + env["PATH"], "HOME=" + home, "LANG=C.UTF-8", "TERM=dumb", "IS_SANDBOX=1",
		"ANTHROPIC_BASE_URL=" + srv.url, "ANTHROPIC_API_KEY=sk-ant-harness-probe",
		"HTTPS_PROXY=" + srv.url, "HTTP_PROXY=" + srv.url, "NO_PROXY=127.0.0.1,localhost",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_TMPDIR=" + tmp,
	}
	cmd.WaitDelay = 2 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	res.Output = srv.result()
	switch {
	case ctx.Err() != nil:
		return res, fmt.Errorf("the probe did not finish within %s", timeout)
	case res.Output == "":
		return res, fmt.Errorf("the client returned no result for the probe's Bash call (%v): %s", runErr, lastLine(out.String()))
	}
	res.Refused = !strings.Contains(res.Output, probeMarker) &&
		(strings.Contains(res.Output, "Read-only file system") || strings.Contains(res.Output, "Permission denied"))
	return res, nil
}

func mustID() string {
	id, err := newSessionID()
	if err != nil {
		return "00000000-0000-4000-8000-000000000000"
	}
	return id
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// probeServer answers POST /v1/messages: the first main-loop request gets
// the probe's Bash call, every later one a final text; it keeps the tool
// result. Anything else gets 404 (or 403 as a proxy: nothing is forwarded).
type probeServer struct {
	url string
	srv *http.Server
	mu  sync.Mutex
	out string
	cmd string
}

func newProbeServer(target string) (*probeServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	q := "'" + strings.ReplaceAll(target, "'", `'\''`) + "'"
	s := &probeServer{url: "http://" + l.Addr().String(), cmd: ": >> " + q + " && echo " + probeMarker}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(l) }()
	return s, nil
}

func (s *probeServer) close() { _ = s.srv.Close() }

func (s *probeServer) result() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out
}

func (s *probeServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect || r.URL.IsAbs() {
		http.Error(w, "probe: no outbound traffic", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"probe"}}`)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	var in struct {
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(body, &in)
	assistant := 0
	for _, m := range in.Messages {
		if m.Role == "assistant" {
			assistant++
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if m.Role == "user" && json.Unmarshal(m.Content, &blocks) == nil {
			for _, b := range blocks {
				if b.Type == "tool_result" && b.ToolUseID == "toolu_harness_probe" {
					s.mu.Lock()
					s.out = blockText(b.Content)
					s.mu.Unlock()
				}
			}
		}
	}
	block := map[string]any{"type": "text", "text": "probe done"}
	stop := "end_turn"
	if len(in.Tools) > 0 && assistant == 0 {
		block = map[string]any{"type": "tool_use", "id": "toolu_harness_probe", "name": "Bash",
			"input": map[string]any{"command": s.cmd, "description": "harness doctor sandbox probe"}}
		stop = "tool_use"
	}
	streamOne(w, block, stop)
}

// blockText is the text of a tool_result's content (a string or text blocks).
func blockText(raw json.RawMessage) string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// streamOne writes one assistant message with one content block as the
// Messages API's server-sent events.
func streamOne(w http.ResponseWriter, block map[string]any, stop string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriter(w)
	ev := func(name string, data map[string]any) {
		data["type"] = name
		b, _ := json.Marshal(data)
		fmt.Fprintf(bw, "event: %s\ndata: %s\n\n", name, b)
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 1}
	ev("message_start", map[string]any{"message": map[string]any{"id": "msg_harness_probe", "type": "message", "role": "assistant",
		"model": "probe", "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	if block["type"] == "tool_use" {
		in, _ := json.Marshal(block["input"])
		ev("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	} else {
		ev("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		ev("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	}
	ev("content_block_stop", map[string]any{"index": 0})
	ev("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 1}})
	ev("message_stop", map[string]any{})
	_ = bw.Flush()
}

// ProbeWorkspace runs Probe for feature of the sprint at root with the
// policy launch would write now (harness doctor): the settings go to a
// temporary file, the target is the sprint's .harness/feature_list.json.
func ProbeWorkspace(claude string, in PolicyInput, env map[string]string, timeout time.Duration) (ProbeResult, error) {
	pol := BuildPolicy(in)
	data, err := ProbeSettings(pol)
	if err != nil {
		return ProbeResult{}, err
	}
	f, err := os.CreateTemp("", "harness-probe-settings-*.json")
	if err != nil {
		return ProbeResult{}, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return ProbeResult{}, err
	}
	f.Close()
	if in.TempDir != "" {
		if _, err := os.Lstat(in.TempDir); os.IsNotExist(err) {
			// made for the probe only: no session of this sprint uses it yet
			defer os.RemoveAll(in.TempDir)
		}
		if err := ensurePrivateDir(in.TempDir); err != nil {
			return ProbeResult{}, err
		}
		if in.CacheDir != "" {
			_ = os.MkdirAll(in.CacheDir, 0o700)
		}
	}
	dir := filepath.Join(in.Root, ".harness", "features", in.Feature)
	return Probe(claude, f.Name(), dir, in.TempDir, filepath.Join(in.Root, ".harness", "feature_list.json"), env, timeout)
}

// PolicyFor is the PolicyInput harness launch would use for feature of the
// sprint at root (the sandbox's temporary directory and caches included).
func PolicyFor(root, feature string, ids []string, harnessBin, hookBin string, env map[string]string) PolicyInput {
	tmp := TempDir(root)
	return PolicyInput{
		Root: root, Feature: feature, FeatureIDs: ids, HarnessBin: harnessBin, HookBin: hookBin,
		TempDir: tmp, CacheDir: filepath.Join(tmp, "cache"), PathDirs: sessionPath(env, root, harnessBin, hookBin),
		Home: env["HOME"], ClaudeConfigDir: env["CLAUDE_CONFIG_DIR"], GitDir: gitDir(root),
	}
}
