package launch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/gitrepo"
	"github.com/superagent-harness/harness/internal/mockapi"
	"github.com/superagent-harness/harness/internal/ops"
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
	srv, err := startProbeAPI(target)
	if err != nil {
		return res, err
	}
	defer srv.Close()
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
		"ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-ant-harness-probe",
		"HTTPS_PROXY=" + srv.URL(), "HTTP_PROXY=" + srv.URL(), "NO_PROXY=127.0.0.1,localhost",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_TMPDIR=" + tmp,
	}
	cmd.WaitDelay = 2 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	res.Output = probeOutput(srv)
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

// probeToolID is the tool_use id of the probe's one Bash call.
const probeToolID = "toolu_harness_probe"

// startProbeAPI starts the mock Messages API (internal/mockapi) scripted
// with the probe: the first main-loop request gets one Bash call that
// appends nothing to target and then prints probeMarker, every later one a
// final text. It refuses to forward anything (it is the proxy, too).
func startProbeAPI(target string) (*mockapi.Server, error) {
	q := "'" + strings.ReplaceAll(target, "'", `'\''`) + "'"
	return mockapi.Start(mockapi.Script{
		Turns: [][]mockapi.Block{{mockapi.ToolUse(probeToolID, "Bash", map[string]any{
			"command": ": >> " + q + " && echo " + probeMarker, "description": "harness doctor sandbox probe"})}},
		FinalText: "probe done",
	}, "")
}

// probeOutput is the tool result of the probe's Bash call the client sent
// back ("" when none arrived).
func probeOutput(m *mockapi.Server) string {
	for _, r := range m.Messages() {
		for _, tr := range r.ToolResults() {
			if tr.ToolUseID == probeToolID {
				return tr.Text
			}
		}
	}
	return ""
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
		Home: env["HOME"], ClaudeConfigDir: env["CLAUDE_CONFIG_DIR"], GitDir: rootGitDir(root),
		HermesHome: ops.HermesHome(func(k string) string { return env[k] }),
	}
}

// rootGitDir is the git directory of the work tree holding root
// (gitrepo.Dir), "" outside a repository.
func rootGitDir(root string) string {
	g, _ := gitrepo.Dir(root)
	return g
}
