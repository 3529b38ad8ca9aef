package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/monitor"
	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/schema"
	"github.com/superagent-harness/harness/internal/workspace"
)

// checkWorkspace runs the sprint checks: settings files, probes, rules
// overrides, schemas, hook.log.
func checkWorkspace(o Options, hookBin string) []Check {
	var cs []Check
	root := o.Root
	if fi, err := os.Stat(filepath.Join(root, ".harness")); err != nil || !fi.IsDir() {
		return []Check{{Name: "workspace " + root, Status: StatusFail, Detail: "no .harness/ directory", Fix: "harness init, or pass the right --root"}}
	}
	cs = append(cs, Check{Name: "workspace", Status: StatusInfo, Detail: root})
	targets, err := findSettings(root, o.Env)
	if err != nil {
		cs = append(cs, Check{Name: "settings", Status: StatusFail, Detail: err.Error()})
	}
	features := 0
	statuses := featureStatuses(root)
	disabledIn := map[string]bool{} // project dir → a settings.local.json disables hooks
	var wirings []*wiring
	// A feature directory init-feature has no record of is not Hermes's (a
	// Generator can create one for a feature id not yet in
	// feature_list.json, docs/sandbox.md §6): doctor neither checks nor
	// probes its wiring, and suggests nothing that would act on it.
	dirs, _ := (&workspace.Workspace{Root: root}).LoadFeatureDirs()
	reported := map[string]bool{}
	for _, t := range targets {
		if _, ok := dirs.Dirs[t.feature]; t.feature != "" && dirs.Known && !ok && (t.kind == kindFeature || t.kind == kindLocal) {
			if !reported[t.feature] {
				reported[t.feature] = true
				cs = append(cs, Check{Name: "feature dir " + t.feature, Status: StatusWarn,
					Detail: fmt.Sprintf(".harness/features/%s was not created by harness init-feature (no record in hermes_context_state.json %s): a Generator may have planted it; its settings were neither checked nor probed", t.feature, workspace.FeatureDirsKey),
					Fix:    fmt.Sprintf("inspect .harness/features/%s, then remove it", t.feature)})
			}
			continue
		}
		if t.kind == kindFeature {
			features++
			if !isFile(t.path) {
				c := Check{Name: "settings " + t.rel, Status: StatusFail,
					Detail: "missing: a Claude Code session in this feature directory runs without any guard",
					Fix:    "harness init-feature " + t.feature}
				if st := statuses[t.feature]; st != "in_progress" {
					c.Status = StatusInfo
					c.Detail = fmt.Sprintf("missing (feature status %q: no session expected; run harness init-feature %s before starting one)", orUnknown(st), t.feature)
					c.Fix = ""
				}
				cs = append(cs, c)
				continue
			}
		}
		c, w := checkSettings(t, hookBin, root)
		cs = append(cs, c...)
		if w != nil && w.disabled {
			disabledIn[t.project] = true
		}
		if w != nil && t.kind == kindFeature {
			wirings = append(wirings, w)
		}
	}
	if features == 0 {
		cs = append(cs, Check{Name: "features", Status: StatusInfo, Detail: "no feature directory yet (.harness/features/<fid>/)"})
	}
	if !o.NoProbe {
		for _, w := range wirings {
			if disabledIn[w.t.project] {
				continue
			}
			cs = append(cs, probe(w, root, hookBin, o)...)
		}
	}
	cs = append(cs, checkLaunches(o, hookBin)...)
	cs = append(cs, checkOverrides(root))
	cs = append(cs, checkSchemas(o))
	cs = append(cs, checkHookLog(root))
	cs = append(cs, checkNestedRepositories(root))
	return cs
}

// checkNestedRepositories warns of each repository nested in the product
// tree whose settings or hooks a git run at the root executes outside the
// sandbox (ops.NestedRepositoryWarnings, docs/sandbox.md §6).
func checkNestedRepositories(root string) Check {
	ws := ops.NestedRepositoryWarnings(root)
	if len(ws) == 0 {
		return Check{Name: "nested repositories", Status: StatusOK, Detail: "no gitlink of the root repository has settings or hooks that run code"}
	}
	return Check{Name: "nested repositories", Status: StatusWarn, Detail: strings.Join(ws, "\n"),
		Fix: "read each one's .git/config and .git/hooks; remove what the feature does not need (git rm --cached PATH), and run git at the root with --ignore-submodules=all until then"}
}

// probe pushes a known deny and a known allow payload through the exact
// command lines the settings file configures for PreToolUse Bash and Write,
// from the feature directory (claude's cwd), and reports the verdicts.
// The calls add lines with session_id "harness-doctor" to hook.log.
//
// Only the harness-hook doctor identifies as its own (hookBin, the same
// file) is run: a settings file is not trusted to name a program. A
// sandboxed Generator can create .harness/features/<new id>/.claude/
// settings.json naming a program of its own called harness-hook; doctor,
// run by Hermes outside the sandbox, ran it (docs/sandbox.md §6).
func probe(w *wiring, root, hookBin string, o Options) []Check {
	var cs []Check
	name := w.probeName()
	fdir := w.t.project
	type pr struct {
		h       *ccsettings.Handler
		tool    string
		input   map[string]any
		deny    bool
		label   string
		explain string
	}
	probes := []pr{
		// denied by every preset (standard allows rm -rf only inside the project and in temp dirs)
		{w.bash, "Bash", map[string]any{"command": "rm -rf /harness-doctor-probe"}, true, "Bash `rm -rf /harness-doctor-probe`", "must be denied"},
		{w.bash, "Bash", map[string]any{"command": "ls -la"}, false, "Bash `ls -la`", "must be allowed"},
	}
	if root != "" {
		probes = append(probes, pr{w.write, "Write", map[string]any{"file_path": filepath.Join(root, "schemas", "harness-doctor-probe.json"), "content": "{}"}, true, "Write schemas/harness-doctor-probe.json", "must be denied"})
	} else {
		// outside a sprint the guard protects its own wiring
		probes = append(probes, pr{w.write, "Write", map[string]any{"file_path": filepath.Join(fdir, ".claude", "settings.json"), "content": "{}"}, true, "Write .claude/settings.json", "must be denied"})
	}
	logHint := ".harness/logs/hook.log, session harness-doctor"
	if root == "" {
		logHint = "harness logs --probes"
	}
	for _, p := range probes {
		if p.h == nil {
			continue
		}
		argv, err := commandLine(p.h, w.t)
		if err != nil || len(argv) == 0 {
			continue
		}
		prog := resolveProgram(argv[0], w.t)
		if prog == "" || !isExecutable(prog) {
			// nothing to run: the call exits 127, which Claude Code treats as allow
			cs = append(cs, Check{Name: name, Status: StatusFail,
				Detail: fmt.Sprintf("%s → fail-open (%q cannot be started, so Claude Code runs the tool)", p.label, argv[0]),
				Fix:    "point command at the absolute path of an existing harness-hook: run " + w.t.fix() + " --hook-bin PATH"})
			continue
		}
		if hookBin == "" || !sameFile(prog, hookBin) {
			hb := hookBin
			if hb == "" {
				hb = "none found"
			}
			cs = append(cs, Check{Name: name, Status: StatusWarn,
				Detail: fmt.Sprintf("%s: not probed: the command runs %q, not the harness-hook beside this harness (%s); doctor runs no other program a settings file names", p.label, argv[0], hb),
				Fix:    "run " + w.t.fix() + " so the settings name this build's harness-hook (or pass --hook-bin)"})
			continue
		}
		payload, _ := json.Marshal(map[string]any{
			"session_id": ops.ProbeSessionPrefix, "transcript_path": "", "cwd": fdir, "hook_event_name": "PreToolUse",
			"permission_mode": "default", "tool_name": p.tool, "tool_use_id": "toolu_harness_doctor", "tool_input": p.input,
		})
		timeout := o.ProbeTimeout
		if p.h.Timeout != nil && *p.h.Timeout > 0 {
			timeout = time.Duration(*p.h.Timeout * float64(time.Second))
		}
		verdict, detail := runProbe(p.h, argv, w.t, payload, timeout)
		ok := verdict == "deny" && p.deny || verdict == "allow" && !p.deny
		c := Check{Name: name, Status: StatusOK, Detail: fmt.Sprintf("%s → %s (%s)", p.label, verdict, detail)}
		if !ok {
			c.Status = StatusFail
			c.Detail = fmt.Sprintf("%s → %s, but it %s (%s)", p.label, verdict, p.explain, detail)
			c.Fix = "run the command line by hand with the payload on stdin (see " + logHint + "); rebuild harness-hook and run " + w.t.fix()
		}
		cs = append(cs, c)
	}
	return cs
}

// runProbe runs one configured command line with payload on stdin and
// classifies the answer as Claude Code would: "deny" (exit 2, or exit 0 with
// permissionDecision deny / legacy decision block), "allow" (exit 0 without
// a denial), "fail-open" (any other exit, timeout, start failure).
func runProbe(h *ccsettings.Handler, argv []string, t target, payload []byte, timeout time.Duration) (string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var cmd *exec.Cmd
	if shellForm(h) {
		if runtime.GOOS == "windows" {
			return "not run", "shell-form command on Windows"
		}
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", h.Command)
	} else {
		cmd = exec.CommandContext(ctx, resolveProgram(argv[0], t), argv[1:]...)
	}
	cmd.Dir = t.project
	env := make([]string, 0, len(t.env)+1)
	for k, v := range t.env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	cmd.Env = append(env, "CLAUDE_PROJECT_DIR="+t.project)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(100 * time.Microsecond)
	code := 0
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "fail-open", fmt.Sprintf("timed out after %s: Claude Code runs the tool", timeout)
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return "fail-open", fmt.Sprintf("could not start: %v", err)
	}
	firstLine := func(s string) string {
		s = strings.TrimSpace(s)
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[:i]
		}
		if len(s) > 160 {
			s = s[:160] + "…"
		}
		return s
	}
	switch code {
	case 0:
	case 2:
		return "deny", fmt.Sprintf("exit 2 in %s: %s", took, firstLine(stderr.String()))
	default:
		return "fail-open", fmt.Sprintf("exit %d in %s (Claude Code treats it as allow): %s", code, took, firstLine(stderr.String()))
	}
	out := bytes.TrimSpace(stdout.Bytes())
	if len(out) == 0 {
		return "allow", fmt.Sprintf("exit 0 in %s, no output", took)
	}
	var resp struct {
		Decision           string `json:"decision"`
		Reason             string `json:"reason"`
		HookSpecificOutput struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
			AdditionalContext        string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if out[0] != '{' || json.Unmarshal(out, &resp) != nil {
		return "allow", fmt.Sprintf("exit 0 in %s with stdout that is not one JSON object (ignored by Claude Code)", took)
	}
	hso := resp.HookSpecificOutput
	switch {
	case hso.PermissionDecision == "deny":
		return "deny", fmt.Sprintf("exit 0 in %s: %s", took, firstLine(hso.PermissionDecisionReason))
	case resp.Decision == "block":
		return "deny", fmt.Sprintf("exit 0 in %s, legacy decision block: %s", took, firstLine(resp.Reason))
	case hso.PermissionDecision == "allow" || hso.PermissionDecision == "ask":
		return hso.PermissionDecision, fmt.Sprintf("exit 0 in %s: the hook must never answer %q (it skips or changes the user's permission flow)", took, hso.PermissionDecision)
	case hso.AdditionalContext != "":
		return "allow", fmt.Sprintf("exit 0 in %s, with a warning", took)
	}
	return "allow", fmt.Sprintf("exit 0 in %s", took)
}

// checkOverrides validates .harness/rules.yaml with the hook's own loader.
func checkOverrides(root string) Check {
	name := "rules " + filepath.ToSlash(bashguard.OverridesFile)
	ov, err := bashguard.LoadOverrides(root)
	switch {
	case err != nil:
		return Check{Name: name, Status: StatusFail, Detail: err.Error() + " (the hook ignores the whole file and logs the error on every call; the built-in rules stay in force)",
			Fix: "fix the file (unknown keys, unknown rule ids, invalid globs and incomplete block rules are errors)"}
	case ov == nil:
		return Check{Name: name, Status: StatusOK, Detail: "absent: built-in rules only"}
	}
	if _, err := monitor.LoadThresholds(root); err != nil {
		return Check{Name: name, Status: StatusFail, Detail: err.Error() + " (the hook uses the protocol's default Reset thresholds and logs the error on every call)",
			Fix: "fix the reset: section (ratios in (0, 1], counts ≥ 1, Go durations such as 2h, precompact block or allow)"}
	}
	return Check{Name: name, Status: StatusOK, Detail: "valid"}
}

// checkSchemas compiles the embedded schemas.
func checkSchemas(o Options) Check {
	if o.Assets == nil {
		return Check{Name: "schemas", Status: StatusInfo, Detail: "not checked (no embedded assets given)"}
	}
	set := schema.New(o.Assets, nil)
	if err := set.Err(); err != nil {
		return Check{Name: "schemas", Status: StatusFail, Detail: "embedded schemas do not compile: " + err.Error(), Fix: "rebuild harness from a clean checkout"}
	}
	return Check{Name: "schemas", Status: StatusOK, Detail: fmt.Sprintf("%d embedded schemas compile; run harness validate for the state files", len(set.Names()))}
}

// checkHookLog checks that the hook can append to .harness/logs/hook.log
// (opens it for append, writes nothing).
func checkHookLog(root string) Check {
	name := "hook.log"
	dir := filepath.Join(root, ".harness", "logs")
	p := filepath.Join(dir, "hook.log")
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return Check{Name: name, Status: StatusFail, Detail: ".harness/logs is not a directory: no decision is logged", Fix: "move it away and mkdir .harness/logs"}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Check{Name: name, Status: StatusFail, Detail: err.Error(), Fix: "mkdir -p " + dir}
	}
	if err := fsutil.CheckAppendable(p); err != nil {
		return Check{Name: name, Status: StatusFail, Detail: "cannot append: " + err.Error() + " (decisions are not logged)", Fix: "make " + p + " a writable regular file"}
	}
	lf, err := os.OpenFile(p+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return Check{Name: name, Status: StatusFail, Detail: "cannot open the lock file: " + err.Error(), Fix: "make " + p + ".lock a writable regular file"}
	}
	lf.Close()
	return Check{Name: name, Status: StatusOK, Detail: "writable (" + filepath.ToSlash(filepath.Join(".harness", "logs", "hook.log")) + ")"}
}

// featureStatuses maps feature id → status from feature_list.json (empty
// when unreadable).
func featureStatuses(root string) map[string]string {
	m := map[string]string{}
	data, err := fsutil.ReadRegular(filepath.Join(root, ".harness", "feature_list.json"), fsutil.CapState)
	if err != nil {
		return m
	}
	var fl struct {
		Features []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"features"`
	}
	if json.Unmarshal(data, &fl) == nil {
		for _, f := range fl.Features {
			m[f.ID] = f.Status
		}
	}
	return m
}
