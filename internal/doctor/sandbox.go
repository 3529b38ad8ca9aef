package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/launch"
	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/workspace"
)

// checkSandboxHost checks Claude Code's sandbox prerequisites for real
// (launch.CheckSandbox: bwrap creating its namespaces and socat on Linux,
// sandbox-exec on macOS). A missing one fails on Linux and macOS, where
// harness launch refuses without --no-sandbox; elsewhere it is a warning
// (sessions there run with --no-sandbox).
func checkSandboxHost(o Options) []Check {
	var cs []Check
	for _, p := range launch.CheckSandbox(o.Env) {
		c := Check{Name: "sandbox " + p.Name, Status: StatusOK, Detail: p.Detail}
		if !p.OK {
			c.Status, c.Fix = StatusFail, p.Fix
			if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
				c.Status = StatusWarn
			}
		}
		cs = append(cs, c)
	}
	return cs
}

// checkLaunches checks the Generator sessions of the pool (docs/sandbox.md):
// a running session without its SessionStart hook record is unguarded;
// that, and one not started by harness launch, or started with --no-sandbox,
// is warned about on every run; the settings file a launched session runs
// with must still hold the policy (launch.Verify) and be read by the client
// as a trusted tier with the sandbox on (`claude --settings F sandbox
// status`). Then it checks the policy launch would write now for one
// feature and, unless NoProbe, runs one sandboxed probe with it
// (launch.ProbeWorkspace: an append of nothing to feature_list.json must
// be refused by the OS; it writes no hook.log record).
func checkLaunches(o Options, hookBin string) []Check {
	var cs []Check
	root := o.Root
	ws := &workspace.Workspace{Root: root}
	ids := featureIDs(root)
	data, err := fsutil.ReadRegular(ws.SessionPool(), 0)
	var pool struct {
		Active map[string]json.RawMessage `json:"active"`
	}
	if err == nil {
		_ = json.Unmarshal(data, &pool)
	}
	fids := make([]string, 0, len(pool.Active))
	for fid := range pool.Active {
		fids = append(fids, fid)
	}
	sort.Strings(fids)
	claude := launch.FindClaude(o.Env)
	for _, fid := range fids {
		var e struct {
			SessionID string `json:"session_id"`
			Status    string `json:"status"`
			StartedAt string `json:"started_at"`
			Launch    *struct {
				Settings        string `json:"settings"`
				Sandbox         bool   `json:"sandbox"`
				NoSandboxReason string `json:"no_sandbox_reason"`
			} `json:"launch"`
		}
		if json.Unmarshal(pool.Active[fid], &e) != nil || (e.Status != "running" && e.Status != "waiting_human") {
			continue
		}
		name := "session " + fid
		started, perr := time.Parse(time.RFC3339, e.StartedAt)
		if _, ok, rerr := ops.SessionStartRecord(root, e.SessionID, started.Add(-ops.HookProofWindow)); perr != nil || rerr != nil || !ok {
			cs = append(cs, Check{Name: name, Status: StatusWarn,
				Detail: fmt.Sprintf("session %s is UNGUARDED: hook.log has no SessionStart record for it, so its hooks are not proven live", e.SessionID),
				Fix:    fmt.Sprintf("stop it (harness session end %s) and start it with harness launch %s", fid, fid)})
		}
		switch {
		case e.Launch == nil:
			cs = append(cs, Check{Name: name, Status: StatusWarn, Detail: "not started by harness launch: no sandbox on record, and its hooks depend on its working directory",
				Fix: "end the session and start the feature with harness launch " + fid})
			continue
		case !e.Launch.Sandbox:
			cs = append(cs, Check{Name: name, Status: StatusWarn,
				Detail: fmt.Sprintf("session %s runs WITHOUT the sandbox (harness launch --no-sandbox: %s); only the hook guards it", e.SessionID, e.Launch.NoSandboxReason),
				Fix:    "install the sandbox's prerequisites and relaunch without --no-sandbox when the host allows it"})
			continue
		}
		file := e.Launch.Settings
		if !filepath.IsAbs(file) {
			file = filepath.Join(root, filepath.FromSlash(file))
		}
		cs = append(cs, checkSessionSettings(name, file, launch.PolicyFor(root, fid, ids, o.HarnessBin, hookBin, o.Env), claude, ws.FeatureDir(fid))...)
	}
	// The policy launch would write now, and the probe.
	fid := probeFeature(root, ids)
	if fid == "" {
		return append(cs, Check{Name: "launch policy", Status: StatusInfo, Detail: "no feature directory yet: nothing to check"})
	}
	in := launch.PolicyFor(root, fid, ids, o.HarnessBin, hookBin, o.Env)
	settings, err := launch.SessionSettings(ccsettings.Wiring{HookBin: hookBin, Root: root, Feature: fid, Sprint: sprintOf(root)}, launch.BuildPolicy(in), false)
	if err != nil {
		return append(cs, Check{Name: "launch policy", Status: StatusFail, Detail: err.Error()})
	}
	s, _ := ccsettings.Decode(settings)
	bad := launch.Verify(s, ws.SessionSettings("<id>"), in)
	if len(bad) > 0 {
		for _, b := range bad {
			cs = append(cs, Check{Name: "launch policy " + fid, Status: StatusFail, Detail: b, Fix: "rebuild harness from a clean checkout; report the case"})
		}
	} else {
		cs = append(cs, Check{Name: "launch policy " + fid, Status: StatusOK,
			Detail: fmt.Sprintf("the settings harness launch writes deny every protected path (%d), keep the binaries' directories read-only and exclude only %s", len(launch.MustDeny(root, fid, ids)), strings.Join(launch.GeneratorCommands, " and "))})
	}
	switch {
	case o.NoProbe:
	case claude == "":
		cs = append(cs, Check{Name: "sandbox probe", Status: StatusInfo, Detail: "no claude binary (CLAUDE_BIN or PATH): the sandboxed probe did not run"})
	case len(launch.Missing(launch.CheckSandbox(o.Env))) > 0:
		cs = append(cs, Check{Name: "sandbox probe", Status: StatusInfo, Detail: "not run: the sandbox's prerequisites are missing (above)"})
	default:
		res, err := launch.ProbeWorkspace(claude, in, o.Env, 90*time.Second)
		switch {
		case err != nil:
			cs = append(cs, Check{Name: "sandbox probe", Status: StatusFail, Detail: err.Error(), Fix: "run harness launch " + fid + " --dry-run and start the printed command by hand"})
		case !res.Refused:
			cs = append(cs, Check{Name: "sandbox probe", Status: StatusFail,
				Detail: "a sandboxed Bash call of feature " + fid + " could write .harness/feature_list.json: " + oneLine(res.Output),
				Fix:    "check the sandbox's prerequisites and the client version (verified with 2.1.332)"})
		default:
			cs = append(cs, Check{Name: "sandbox probe", Status: StatusOK,
				Detail: "a sandboxed Bash call of feature " + fid + " was refused writing .harness/feature_list.json: " + oneLine(res.Output)})
		}
	}
	return cs
}

// checkSessionSettings holds one launched session's settings file to the
// policy and asks the client how it reads it.
func checkSessionSettings(name, file string, in launch.PolicyInput, claude, dir string) []Check {
	data, err := fsutil.ReadRegular(file, ccsettings.MaxSize)
	if err != nil {
		return []Check{{Name: name, Status: StatusFail, Detail: "its settings file: " + err.Error(), Fix: "end the session and relaunch it"}}
	}
	s, err := ccsettings.Decode(data)
	if err != nil {
		return []Check{{Name: name, Status: StatusFail, Detail: "its settings file is not valid: " + err.Error(), Fix: "end the session and relaunch it"}}
	}
	var cs []Check
	for _, b := range launch.Verify(s, file, in) {
		cs = append(cs, Check{Name: name, Status: StatusFail, Detail: b, Fix: "end the session and relaunch it with harness launch"})
	}
	if claude != "" {
		if st, err := sandboxStatus(claude, file, dir); err != nil {
			cs = append(cs, Check{Name: name, Status: StatusWarn, Detail: "claude sandbox status: " + err.Error()})
		} else if !st.Enabled || !st.StrictMode || st.UnavailableReason != nil {
			cs = append(cs, Check{Name: name, Status: StatusFail,
				Detail: fmt.Sprintf("the client reads the settings as sandbox enabled=%v (from %s), strict=%v, unavailable=%v", st.Enabled, st.EnabledSource, st.StrictMode, orNil(st.UnavailableReason)),
				Fix:    "the sandbox must be on and strict from the --settings tier"})
		}
	}
	if len(cs) == 0 {
		cs = append(cs, Check{Name: name, Status: StatusOK, Detail: "sandboxed; its settings hold the policy (" + file + ")"})
	}
	return cs
}

// sandboxStatus is `claude --settings FILE sandbox status` run in dir.
type clientSandbox struct {
	Enabled           bool    `json:"enabled"`
	EnabledSource     string  `json:"enabledSource"`
	StrictMode        bool    `json:"strictMode"`
	UnavailableReason *string `json:"unavailableReason"`
}

func sandboxStatus(claude, file, dir string) (clientSandbox, error) {
	var st clientSandbox
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "--settings", file, "sandbox", "status")
	cmd.Dir = dir
	home, err := os.MkdirTemp("", "harness-doctor-home-")
	if err != nil {
		return st, err
	}
	defer os.RemoveAll(home)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	out, err := cmd.Output()
	if err != nil {
		return st, err
	}
	line := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	return st, json.Unmarshal([]byte(line), &st)
}

func orNil(p *string) string {
	if p == nil {
		return "no"
	}
	return *p
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// featureIDs are the ids of feature_list.json.
func featureIDs(root string) []string {
	var ids []string
	for id := range featureStatuses(root) {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// probeFeature picks the feature whose policy doctor checks: the first one
// with a directory, preferring one that is pending (the next to launch).
func probeFeature(root string, ids []string) string {
	st := featureStatuses(root)
	first := ""
	for _, id := range ids {
		if fi, err := os.Stat(filepath.Join(root, ".harness", "features", id)); err != nil || !fi.IsDir() {
			continue
		}
		if st[id] == "pending" {
			return id
		}
		if first == "" {
			first = id
		}
	}
	return first
}

func sprintOf(root string) string {
	data, err := fsutil.ReadRegular(filepath.Join(root, ".harness", "feature_list.json"), 0)
	if err != nil {
		return ""
	}
	var fl struct {
		Sprint string `json:"sprint"`
	}
	_ = json.Unmarshal(data, &fl)
	return fl.Sprint
}
