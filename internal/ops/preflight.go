package ops

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// CheckItem is one preflight check, printed ok/fail.
type CheckItem struct {
	Scope  string `json:"scope"` // "sprint" or a feature id
	Check  string `json:"check"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// PreflightResult is the outcome of `harness preflight`.
type PreflightResult struct {
	Stage string      `json:"stage"`
	OK    bool        `json:"ok"`
	Items []CheckItem `json:"items"`
	// Started lists the features marked in_progress (stage started, all ok).
	Started []string `json:"started,omitempty"`
}

// Preflight runs the STEP 2.5 hard checks (docs/protocol.md §4.5, §13 #50) for
// the given features. Sprint level, both stages: (1) tooling_locked, (2) the
// last cp-sprint-tooling entry approves, (3) the last cp-sprint-dag entry
// approves (never pushed = fail), (4) runtime_state.mode and (5)
// contract.status are legal enum values. Stage "launch", per feature: (1)
// $FDIR exists; (2) context_snapshot.md, AGENTS.md, generator_log.md,
// session_id.txt and handoff.md exist; (3) $FDIR/.claude/settings.json
// registers, for SessionStart, PreToolUse (Bash and
// Edit|Write|MultiEdit|NotebookEdit) and Stop, a command that resolves to an
// executable harness-hook (or, legacy sprints, the four scripts in
// $FDIR/.claude/hooks/); (3b) when the sprint keeps the record,
// hermes_context_state.json feature_dirs lists $FDIR and its AGENTS.md and
// context_snapshot.md hold the bytes init-feature recorded
// (workspace.FeatureDirs.Problems). Stage "started", per feature: (4)
// session_pool.active.<fid> exists; (5) session_id.txt is non-empty; (6)
// the hooks are live: hook.log holds a SessionStart record for the pool
// entry's session id, no older than its started_at minus HookProofWindow,
// and session_id.txt names the same id (an empty or stale session_id.txt
// proves nothing); (7) .current_agent has role generator and
// current_feature <fid> (§13 #18).
// When every started-stage check passes, each listed feature that is still
// pending becomes in_progress (STEP 2.5: only then). Nothing else is written.
func Preflight(env *Env, stage string, fids []string) (*PreflightResult, *Report, error) {
	return PreflightWith(env, stage, fids, false)
}

// PreflightWith is Preflight; with recordFailure, a failing run also performs
// the §4.5 violation handling for every listed feature that failed a check:
// status back to pending (from in_progress), phase 1 when it had not left
// phase 1, and one event_type fail entry whose reason names the failed
// checks. (Hermes then pushes a gate; the sprint-level failures are listed
// in each reason.)
func PreflightWith(env *Env, stage string, fids []string, recordFailure bool) (*PreflightResult, *Report, error) {
	if stage != "launch" && stage != "started" {
		return nil, nil, usage("--stage %q: launch or started", stage)
	}
	fl, err := env.loadFeatureList()
	if err != nil {
		return nil, nil, err
	}
	res := &PreflightResult{Stage: stage, OK: true}
	add := func(scope, check string, ok bool, format string, args ...any) {
		res.Items = append(res.Items, CheckItem{Scope: scope, Check: check, OK: ok, Detail: fmt.Sprintf(format, args...)})
		if !ok {
			res.OK = false
		}
	}
	add("sprint", "tooling_locked", fl.Bool("tooling_locked"), "feature_list.tooling_locked = %v", fl.Value("tooling_locked"))
	ok, why := env.gateApproved(fl, GateTooling)
	add("sprint", "cp-sprint-tooling approved", ok, "%s", why)
	ok, why = env.gateApproved(fl, GateDAG)
	add("sprint", "cp-sprint-dag approved", ok, "%s", why)
	rt, err := env.readObj("runtime_state.json")
	mode := ""
	if err == nil {
		mode = rt.Str("mode")
	}
	add("sprint", "runtime_state.mode legal", oneOf(mode, runtimeModes), "mode %q", mode)
	c, _, err := env.loadContract(fl)
	cs := ""
	if err == nil && c != nil {
		cs = c.Str("status")
		if cs == "" {
			cs = "planning" // schema default
		}
	}
	add("sprint", "contract.status legal", oneOf(cs, contractStates), "contract status %q", cs)

	if len(fids) == 0 {
		return nil, nil, usage("name at least one feature id")
	}
	var dirs workspace.FeatureDirs
	if stage == "launch" {
		if dirs, err = (&workspace.Workspace{Root: env.Root}).LoadFeatureDirs(); err != nil {
			return nil, nil, err
		}
	}
	for _, fid := range fids {
		if _, err := fl.mustFeature(fid); err != nil {
			return nil, nil, err
		}
		fdir := env.H("features", fid)
		rel := ".harness/features/" + fid
		if stage == "launch" {
			st, err := os.Stat(fdir)
			add(fid, "feature directory", err == nil && st.IsDir(), "%s", rel)
			var missing []string
			for _, name := range []string{"context_snapshot.md", "AGENTS.md", "generator_log.md", "session_id.txt", "handoff.md"} {
				if st, err := os.Stat(filepath.Join(fdir, name)); err != nil || st.IsDir() {
					missing = append(missing, name)
				}
			}
			if len(missing) > 0 {
				add(fid, "feature files", false, "missing in %s: %s (run `harness init-feature %s`)", rel, strings.Join(missing, ", "), fid)
			} else {
				add(fid, "feature files", true, "context_snapshot.md, AGENTS.md, generator_log.md, session_id.txt, handoff.md")
			}
			// what the session is told to read first must be what
			// init-feature wrote (a Generator can plant a future feature's
			// directory, docs/sandbox.md §6)
			if probs := dirs.Problems(&workspace.Workspace{Root: env.Root}, fid); len(probs) > 0 {
				add(fid, "written by init-feature", false, "%s (run `harness init-feature %s`: it moves what it did not write to .harness/logs/quarantine/ and writes the files afresh)", strings.Join(probs, "; "), fid)
			} else if dirs.Known {
				add(fid, "written by init-feature", true, "%s and its %s as init-feature recorded them", rel, strings.Join(workspace.HermesFeatureFiles, ", "))
			}
			ok, detail := env.checkWiring(fdir)
			add(fid, "hook wiring", ok, "%s/.claude/settings.json: %s", rel, detail)
			continue
		}
		pool, err := env.readObj("session_pool.json")
		entry := pool.ObjAt("active").ObjAt(fid)
		inPool := err == nil && entry != nil
		add(fid, "session_pool entry", inPool, "session_pool.active.%s %s", fid, map[bool]string{true: "present", false: "missing (run `harness session start`)"}[inPool])
		b, err := fsutil.ReadRegular(filepath.Join(fdir, "session_id.txt"), fsutil.CapSmall)
		sid := strings.TrimSpace(string(b))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			add(fid, "session_id.txt non-empty", false, "%s/session_id.txt cannot be read: %v", rel, err)
		} else {
			add(fid, "session_id.txt non-empty", err == nil && sid != "", "%s/session_id.txt = %q", rel, sid)
		}
		ok, detail := env.hookProof(entry, sid)
		add(fid, "hooks live", ok, "%s", detail)
		ca, err := env.readObj(".current_agent")
		role, cur := "", ""
		if err == nil {
			role, cur = ca.Str("role"), ca.Str("current_feature")
		}
		add(fid, ".current_agent", role == "generator" && cur == fid, "role %q, current_feature %q (want generator, %s)", role, cur, fid)
	}
	rep := &Report{Command: "preflight"}
	if stage == "started" && res.OK {
		err := env.update(rep, func(tx *Tx) error {
			fl, err := env.loadFeatureList()
			if err != nil {
				return err
			}
			changed := false
			for _, fid := range fids {
				if f := fl.feature(fid); f != nil && f.Str("status") == "pending" {
					f.With("status", "in_progress")
					res.Started = append(res.Started, fid)
					rep.did("%s status pending → in_progress", fid)
					changed = true
				}
			}
			if changed {
				fl.touch(env.stamp())
				return tx.WriteJSON(relFeatureList, fl.Obj)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if !res.OK && recordFailure {
		var sprintFails []string
		failed := map[string][]string{}
		for _, it := range res.Items {
			if it.OK {
				continue
			}
			if it.Scope == "sprint" {
				sprintFails = append(sprintFails, it.Check)
			} else {
				failed[it.Scope] = append(failed[it.Scope], it.Check)
			}
		}
		err := env.update(rep, func(tx *Tx) error {
			fl, err := env.loadFeatureList()
			if err != nil {
				return err
			}
			now := env.stamp()
			for _, fid := range fids {
				checks := append(append([]string{}, failed[fid]...), sprintFails...)
				if len(checks) == 0 {
					continue
				}
				f := fl.feature(fid)
				if f.Str("status") == "in_progress" {
					f.With("status", "pending")
					rep.did("%s status in_progress → pending", fid)
				}
				p, _ := f.Int("phase")
				if p <= 1 {
					p = 1
				}
				e := NewObj().With("timestamp", now).With("sprint_id", fl.sprint()).With("feature_id", fid).With("phase", num(p)).
					With("event_type", "fail").
					With("reason", fmt.Sprintf("STEP 2.5 preflight --stage %s failed for %s: %s", stage, fid, strings.Join(checks, ", ")))
				if err := tx.AppendEval(e); err != nil {
					return err
				}
				rep.did("appended event_type fail for %s (%s)", fid, strings.Join(checks, ", "))
			}
			fl.touch(now)
			return tx.WriteJSON(relFeatureList, fl.Obj)
		})
		if err != nil {
			return nil, nil, err
		}
		rep.Notes = append(rep.Notes, "next: push a gate to the user about the failed checks (docs/protocol.md §4.5)")
	}
	return res, rep, nil
}

var legacyScripts = map[string]string{
	"SessionStart": "session-start.sh", "Bash": "pre-bash-guard.sh", "Edit": "pre-edit-guard.sh", "Stop": "stop-guard.sh",
}

// checkWiring verifies the hook registration of one feature directory.
func (env *Env) checkWiring(fdir string) (bool, string) {
	data, err := fsutil.ReadRegular(filepath.Join(fdir, ".claude", "settings.json"), fsutil.CapConfig)
	if err != nil {
		return false, "missing (run `harness init-feature`)"
	}
	sf, err := ccsettings.Decode(data)
	if err != nil {
		return false, "not a valid settings file: " + err.Error()
	}
	if sf.Hooks == nil {
		return false, "no hooks object"
	}
	type need struct {
		event, tool, label string
	}
	needs := []need{
		{"SessionStart", "", "SessionStart"},
		{"PreToolUse", "Bash", "PreToolUse Bash"},
		{"PreToolUse", "Edit", "PreToolUse Edit"},
		{"PreToolUse", "Write", "PreToolUse Write"},
		{"PreToolUse", "MultiEdit", "PreToolUse MultiEdit"},
		{"PreToolUse", "NotebookEdit", "PreToolUse NotebookEdit"},
		{"Stop", "", "Stop"},
	}
	var problems []string
	for _, n := range needs {
		found, why := false, "not registered"
		for _, group := range sf.Hooks[n.event] {
			if !matcherCovers(group.Matcher, n.tool) {
				continue
			}
			for _, handler := range group.Hooks {
				if handler.Type != "command" {
					continue
				}
				ok, w := env.resolvesToHook(handler.Command, fdir, n)
				if ok {
					found = true
					break
				}
				why = w
			}
			if found {
				break
			}
		}
		if !found {
			problems = append(problems, n.label+": "+why)
		}
	}
	if len(problems) > 0 {
		return false, strings.Join(problems, "; ")
	}
	return true, "harness-hook registered for SessionStart, PreToolUse (Bash, Edit|Write|MultiEdit|NotebookEdit), Stop"
}

// matcherCovers reports whether a matcher group selects tool (Claude Code's
// matcher syntax, ccsettings.MatcherMatches); events without tools accept
// any group.
func matcherCovers(matcher *string, tool string) bool {
	if tool == "" || matcher == nil {
		return true
	}
	ok, err := ccsettings.MatcherMatches(*matcher, tool)
	return err == nil && ok
}

// resolvesToHook reports whether command runs an executable harness-hook
// (or a legacy script for that event, deployed in $FDIR/.claude/hooks/).
func (env *Env) resolvesToHook(command, fdir string, n struct{ event, tool, label string }) (bool, string) {
	cmd := strings.TrimSpace(command)
	if cmd == "" {
		return false, "empty command"
	}
	exe := cmd
	if !fileExists(exe) {
		if f := strings.Fields(cmd); len(f) > 0 {
			exe = strings.Trim(f[0], `"'`)
		}
	}
	if strings.Contains(exe, "${HARNESS_ROOT}") || strings.Contains(exe, "$HARNESS_ROOT") {
		root := env.Root
		exe = strings.ReplaceAll(strings.ReplaceAll(exe, "${HARNESS_ROOT}", root), "$HARNESS_ROOT", root)
	}
	if !filepath.IsAbs(exe) && !strings.ContainsAny(exe, `/\`) {
		found := ""
		for _, dir := range filepath.SplitList(env.getenv("PATH")) {
			if p := filepath.Join(dir, exe); isExecutable(p) {
				found = p
				break
			}
		}
		if found == "" {
			return false, fmt.Sprintf("%s is not on PATH", exe)
		}
		exe = found
	}
	base := strings.TrimSuffix(filepath.Base(exe), ".exe")
	isHook := base == "harness-hook" || (env.HookBinary != "" && filepath.Clean(exe) == filepath.Clean(env.HookBinary))
	if !isHook {
		key := n.event
		if n.event == "PreToolUse" {
			key = map[bool]string{true: "Bash", false: "Edit"}[n.tool == "Bash"]
		}
		want := filepath.Join(fdir, ".claude", "hooks", legacyScripts[key])
		if filepath.Clean(exe) != filepath.Clean(want) {
			return false, fmt.Sprintf("%s is neither harness-hook nor the legacy %s in .claude/hooks/", exe, legacyScripts[key])
		}
	}
	if !isExecutable(exe) {
		return false, fmt.Sprintf("%s is missing or not executable", exe)
	}
	return true, ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return false
	}
	if runtime.GOOS == "windows" {
		ext := strings.ToLower(filepath.Ext(p))
		return ext == ".exe" || ext == ".bat" || ext == ".cmd" || ext == ".com"
	}
	return st.Mode().Perm()&0o111 != 0
}

// hookProof is preflight's "hooks live" check for one pool entry: a
// SessionStart hook record of the entry's session (SessionStartRecord, not
// older than started_at minus HookProofWindow), with session_id.txt (fileID)
// naming the same session.
func (env *Env) hookProof(entry *Obj, fileID string) (bool, string) {
	if entry == nil {
		return false, "no session_pool entry, so no session to prove"
	}
	sid := entry.Str("session_id")
	started, err := time.Parse(time.RFC3339, entry.Str("started_at"))
	if sid == "" || err != nil {
		return false, fmt.Sprintf("session_pool entry without a session_id or started_at (%q, %q)", sid, entry.Str("started_at"))
	}
	if fileID != sid {
		return false, fmt.Sprintf("session_id.txt names %q but the pool's session is %q", fileID, sid)
	}
	rec, ok, err := SessionStartRecord(env.Root, sid, started.Add(-HookProofWindow))
	switch {
	case err != nil:
		return false, "cannot read .harness/logs/hook.log: " + err.Error()
	case !ok:
		return false, fmt.Sprintf("no SessionStart record for session %s in .harness/logs/hook.log since %s: its hooks are not proven live (a client started outside the feature directory and without the session's --settings runs no hook); start it with `harness launch`",
			sid, started.Add(-HookProofWindow).UTC().Format(TimeLayout))
	}
	return true, fmt.Sprintf("SessionStart hook record for session %s at %s", sid, rec.Time)
}
