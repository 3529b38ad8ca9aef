package launch

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/workspace"
)

// MustDeny lists the paths of a sprint that no sandboxed command of
// feature's Generator may write: corpus README §3.2 (readonly_dir,
// readonly_file, contract, tooling — which the sandbox cannot keep
// append-only —, other_feature, eval_log_append_only, state_via_cli,
// hook_log) and §9.4 (claude_config at the root and in the feature
// directories), for the features of ids and those with a directory. It is
// the list doctor holds a session's settings to, independent of how
// BuildPolicy spells its denials.
func MustDeny(root, feature string, ids []string) []string {
	var out []string
	add := func(p ...string) { out = append(out, filepath.Join(append([]string{root}, p...)...)) }
	for _, n := range []string{"schemas", "templates", "spec", "protocols", "sub-skills", "SKILL.md", "README.md", ".claude", ".mcp.json", "CLAUDE.md", "CLAUDE.local.md"} {
		add(n)
	}
	h := workspace.HarnessDir
	for _, n := range []string{"runtime_state.json", "hermes_handoff.md", "hermes_context_state.json", "session_pool.json",
		".current_agent", "rules.yaml", "allow.jsonl", "eval_log.jsonl", "feature_list.json", "logs"} {
		add(h, n)
	}
	for _, c := range readDir(filepath.Join(root, h, "sprint_contracts")) {
		if c.IsDir() {
			add(h, "sprint_contracts", c.Name(), "contract.json")
			add(h, "sprint_contracts", c.Name(), "tooling.md")
		}
	}
	others := map[string]bool{}
	for _, id := range ids {
		others[id] = true
	}
	for _, e := range readDir(filepath.Join(root, h, "features")) {
		if e.IsDir() {
			others[e.Name()] = true
		}
	}
	delete(others, feature)
	for _, id := range sortedKeys(others) {
		add(h, "features", id)
	}
	add(h, "features", feature, ".claude")
	for _, n := range memoryFiles {
		add(h, n)
		add(h, "features", n)
		add(h, "features", feature, n)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Covered reports whether path is one of the deny entries or below one.
// Entries may be spelled as in settings ("//abs") or plain absolute paths.
func Covered(deny []string, path string) bool {
	for _, d := range deny {
		d = unSandboxPath(d)
		if d != "" && within(path, d) {
			return true
		}
	}
	return false
}

// Uncovered returns the paths that no deny entry covers.
func Uncovered(deny []string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if !Covered(deny, p) {
			out = append(out, p)
		}
	}
	return out
}

// unSandboxPath turns a settings path ("//abs", "/abs") into an absolute
// path ("" for the relative and home forms, which launch never writes).
func unSandboxPath(s string) string {
	switch {
	case strings.HasPrefix(s, "//"):
		return filepath.FromSlash("/" + strings.TrimLeft(s, "/"))
	case filepath.IsAbs(s):
		return filepath.Clean(s)
	}
	return ""
}

// Verify checks that the settings a session runs with hold the policy
// (docs/sandbox.md §2): the sandbox enabled and failing closed, the
// dangerouslyDisableSandbox escape off, no excluded command but the
// Generator's own harness commands, every MustDeny path and the binaries'
// directories denied, the settings file itself denied to Bash and to the
// Edit tools, and the hooks wired. It returns one line per problem.
func Verify(s ccsettings.Settings, settingsFile string, in PolicyInput) []string {
	var bad []string
	sb := s.Sandbox
	if sb == nil || !ccsettings.IsTrue(sb.Enabled) {
		return []string{"sandbox.enabled is not true: Bash runs unsandboxed"}
	}
	if !ccsettings.IsTrue(sb.FailIfUnavailable) {
		bad = append(bad, "sandbox.failIfUnavailable is not true: without bubblewrap/Seatbelt commands run unsandboxed")
	}
	if !ccsettings.IsFalse(sb.AllowUnsandboxedCommands) {
		bad = append(bad, "sandbox.allowUnsandboxedCommands is not false: dangerouslyDisableSandbox takes a command out of the sandbox")
	}
	allowed := excludedCommands(in.HarnessBin)
	for _, c := range sb.ExcludedCommands {
		if !slices.Contains(allowed, c) {
			bad = append(bad, fmt.Sprintf("sandbox.excludedCommands has %q: only the Generator's own harness commands (%s) may leave the sandbox", c, strings.Join(allowed, ", ")))
		}
	}
	var deny, allow []string
	if sb.Filesystem != nil {
		deny, allow = sb.Filesystem.DenyWrite, sb.Filesystem.AllowWrite
	}
	if s.Permissions != nil {
		for _, r := range s.Permissions.Deny {
			if p, ok := strings.CutPrefix(r, "Edit("); ok {
				deny = append(deny, strings.TrimSuffix(strings.TrimSuffix(p, ")"), "/**"))
			}
		}
	}
	for _, p := range Uncovered(deny, MustDeny(in.Root, in.Feature, in.FeatureIDs)) {
		bad = append(bad, "sandbox.filesystem.denyWrite does not cover the protected "+p)
	}
	var hidden []string
	if sb.Filesystem != nil {
		hidden = sb.Filesystem.DenyRead
	}
	for _, n := range LockSidecars {
		if p := filepath.Join(in.Root, workspace.HarnessDir, filepath.FromSlash(n)); !Covered(hidden, p) {
			bad = append(bad, "sandbox.filesystem.denyRead does not hide the lock file "+p+": a sandboxed program can take the lock and hold it for the session (Hermes's writes and the Stop hook then time out)")
		}
	}
	for _, b := range []string{in.HarnessBin, in.HookBin} {
		if b != "" && !Covered(deny, filepath.Dir(b)) {
			bad = append(bad, "the directory of "+b+" is writable in the sandbox: a planted binary would run as the excluded command")
		}
	}
	if settingsFile != "" {
		if !Covered(deny, settingsFile) {
			bad = append(bad, "the settings file "+settingsFile+" is writable in the sandbox")
		}
		editDeny := []string{}
		if s.Permissions != nil {
			for _, r := range s.Permissions.Deny {
				if p, ok := strings.CutPrefix(r, "Edit("); ok {
					editDeny = append(editDeny, strings.TrimSuffix(strings.TrimSuffix(p, ")"), "/**"))
				}
			}
		}
		if !Covered(editDeny, settingsFile) {
			bad = append(bad, "no Edit deny rule covers the settings file "+settingsFile+": the Write tool could rewrite it")
		}
	}
	for _, a := range allow {
		a = unSandboxPath(a)
		if a != "" && a != filepath.Clean(in.Root) && within(in.Root, a) {
			bad = append(bad, "sandbox.filesystem.allowWrite has "+a+", above the sprint root")
		}
	}
	for _, ev := range []string{"SessionStart", "PreToolUse", "Stop"} {
		found := false
		for _, g := range s.Hooks[ev] {
			for _, h := range g.Hooks {
				if h.IsOurs(in.HookBin) {
					found = true
				}
			}
		}
		if !found {
			bad = append(bad, "no harness-hook handler for "+ev)
		}
	}
	return bad
}
