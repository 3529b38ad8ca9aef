// Package workspace knows the layout of a sprint workspace ($HARNESS_ROOT,
// docs/protocol.md §2) and loads its state files (docs/protocol.md §3) into typed
// values that keep unknown fields, so that read-modify-write commands never
// drop what a newer or foreign writer put there.
package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// HarnessDir is the name of the state folder inside a sprint root ("H/").
const HarnessDir = ".harness"

// findRoot is how a command is pointed at a sprint workspace; every "no
// workspace" error ends with it.
const findRoot = "pass --root, set HARNESS_ROOT, or run inside a folder holding .harness/ (harness init DIR creates one)"

// ErrNoWorkspace is returned by Resolve when no root can be found.
var ErrNoWorkspace = errors.New("no sprint workspace: " + findRoot)

// ErrNotWorkspace is wrapped by every NotWorkspaceError.
var ErrNotWorkspace = errors.New("not a sprint workspace")

// NotWorkspaceError is the one error of a named root (--root, DIR,
// HARNESS_ROOT) that is not a sprint workspace: it does not exist, is not
// a directory, or holds no .harness/ directory. Every command that needs a
// workspace reports it with this text.
type NotWorkspaceError struct {
	Root string
	// Why is "it does not exist", "it is not a directory" or "no .harness/ directory".
	Why string
}

func (e *NotWorkspaceError) Error() string {
	return fmt.Sprintf("no sprint workspace at %s (%s): %s", e.Root, e.Why, findRoot)
}

// Unwrap makes errors.Is(err, ErrNotWorkspace) true.
func (e *NotWorkspaceError) Unwrap() error { return ErrNotWorkspace }

// Check returns nil when root is a directory holding a .harness/
// directory, else a *NotWorkspaceError saying which part is missing.
func Check(root string) error {
	st, err := os.Stat(root)
	switch {
	case err != nil && errors.Is(err, os.ErrNotExist):
		return &NotWorkspaceError{root, "it does not exist"}
	case err != nil:
		return &NotWorkspaceError{root, err.Error()}
	case !st.IsDir():
		return &NotWorkspaceError{root, "it is not a directory"}
	}
	if st, err := os.Stat(filepath.Join(root, HarnessDir)); err != nil || !st.IsDir() {
		return &NotWorkspaceError{root, "no " + HarnessDir + "/ directory"}
	}
	return nil
}

// Resolve finds the workspace root, in this order: explicit (a --root flag or
// positional argument), env["HARNESS_ROOT"], then the nearest folder holding
// a .harness/ directory walking up from cwd. Relative paths are taken
// relative to cwd. The result is absolute and cleaned (not symlink-resolved).
// explicit and HARNESS_ROOT are returned even if they hold no .harness/ (the
// caller decides whether that is an error, e.g. `harness init` creates it);
// the walk up returns ErrNoWorkspace when it finds nothing.
func Resolve(explicit string, env map[string]string, cwd string) (string, error) {
	abs := func(p string) (string, error) {
		if !filepath.IsAbs(p) {
			if cwd == "" {
				wd, err := os.Getwd()
				if err != nil {
					return "", err
				}
				cwd = wd
			}
			p = filepath.Join(cwd, p)
		}
		return filepath.Clean(p), nil
	}
	if explicit != "" {
		return abs(explicit)
	}
	if r := env["HARNESS_ROOT"]; r != "" {
		return abs(r)
	}
	start, err := abs(".")
	if err != nil {
		return "", err
	}
	for dir := start; ; {
		if st, err := os.Stat(filepath.Join(dir, HarnessDir)); err == nil && st.IsDir() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoWorkspace
		}
		dir = parent
	}
}

// Workspace is one sprint root. Its methods return absolute paths of the
// protocol's files (docs/protocol.md §2); they never touch the disk.
type Workspace struct {
	// Root is the absolute, cleaned sprint root ($HARNESS_ROOT).
	Root string
}

// Open returns the workspace at root (made absolute). It fails with a
// *NotWorkspaceError when root has no .harness/ directory.
func Open(root string) (*Workspace, error) {
	r, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if err := Check(r); err != nil {
		return nil, err
	}
	return &Workspace{Root: r}, nil
}

// H returns <root>/.harness.
func (w *Workspace) H() string { return filepath.Join(w.Root, HarnessDir) }

// Path joins elems under the root.
func (w *Workspace) Path(elems ...string) string {
	return filepath.Join(append([]string{w.Root}, elems...)...)
}

// Rel returns p relative to the root with forward slashes (for messages),
// or p unchanged when it is outside the root.
func (w *Workspace) Rel(p string) string {
	r, err := filepath.Rel(w.Root, p)
	if err != nil || r == ".." || len(r) > 2 && r[:3] == ".."+string(filepath.Separator) {
		return p
	}
	return filepath.ToSlash(r)
}

func (w *Workspace) h(elems ...string) string {
	return filepath.Join(append([]string{w.Root, HarnessDir}, elems...)...)
}

// StateLock is the path whose fsutil.Lock serialises state read-modify-writes
// (the sidecar is H/state.lock).
func (w *Workspace) StateLock() string { return w.h("state") }

// RuntimeState is H/runtime_state.json (docs/protocol.md §3.1).
func (w *Workspace) RuntimeState() string { return w.h("runtime_state.json") }

// FeatureList is H/feature_list.json (docs/protocol.md §3.2).
func (w *Workspace) FeatureList() string { return w.h("feature_list.json") }

// SessionPool is H/session_pool.json (docs/protocol.md §3.3).
func (w *Workspace) SessionPool() string { return w.h("session_pool.json") }

// EvalLog is H/eval_log.jsonl (docs/protocol.md §3.6).
func (w *Workspace) EvalLog() string { return w.h("eval_log.jsonl") }

// HermesContext is H/hermes_context_state.json (docs/protocol.md §3.7).
func (w *Workspace) HermesContext() string { return w.h("hermes_context_state.json") }

// ClaudeCodeContext is H/claude_code_context_state.json (docs/protocol.md §3.8).
func (w *Workspace) ClaudeCodeContext() string { return w.h("claude_code_context_state.json") }

// CurrentAgent is H/.current_agent, JSON without extension (docs/protocol.md §3.9).
func (w *Workspace) CurrentAgent() string { return w.h(".current_agent") }

// EnvironmentProbe is H/environment_probe.json (docs/protocol.md §3.10).
func (w *Workspace) EnvironmentProbe() string { return w.h("environment_probe.json") }

// HermesHandoff is H/hermes_handoff.md (docs/protocol.md §3.11).
func (w *Workspace) HermesHandoff() string { return w.h("hermes_handoff.md") }

// LogsDir is H/logs.
func (w *Workspace) LogsDir() string { return w.h("logs") }

// HookLog is H/logs/hook.log.
func (w *Workspace) HookLog() string { return w.h("logs", "hook.log") }

// NotifyLog is H/logs/notify.jsonl, one record per message delivery attempt
// (`--notify`, docs/protocol.md §15).
func (w *Workspace) NotifyLog() string { return w.h("logs", "notify.jsonl") }

// SessionSettings is H/sessions/<session_id>/settings.json, the one
// --settings tier `harness launch` writes for a Generator session
// (docs/sandbox.md); the hook reads its sandbox.network.allowedDomains.
func (w *Workspace) SessionSettings(sessionID string) string {
	return w.h("sessions", sessionID, "settings.json")
}

// FeaturesDir is H/features.
func (w *Workspace) FeaturesDir() string { return w.h("features") }

// FeatureDir is H/features/<id> ($FDIR).
func (w *Workspace) FeatureDir(id string) string { return w.h("features", id) }

// GeneratorLog is H/features/<id>/generator_log.md.
func (w *Workspace) GeneratorLog(id string) string { return w.h("features", id, "generator_log.md") }

// GeneratorOutputName is the file of the feature directory that receives a
// print-mode Generator session's output (harness launch --mode print;
// docs/protocol.md §4.6 STEP 3.3).
const GeneratorOutputName = "generator_log.md.cc_output"

// Handoff is H/features/<id>/handoff.md.
func (w *Workspace) Handoff(id string) string { return w.h("features", id, "handoff.md") }

// SessionIDFile is H/features/<id>/session_id.txt.
func (w *Workspace) SessionIDFile(id string) string { return w.h("features", id, "session_id.txt") }

// ContextSnapshot is H/features/<id>/context_snapshot.md.
func (w *Workspace) ContextSnapshot(id string) string {
	return w.h("features", id, "context_snapshot.md")
}

// FeatureAgents is H/features/<id>/AGENTS.md.
func (w *Workspace) FeatureAgents(id string) string { return w.h("features", id, "AGENTS.md") }

// SprintContractsDir is H/sprint_contracts.
func (w *Workspace) SprintContractsDir() string { return w.h("sprint_contracts") }

// ContractDir is H/sprint_contracts/<sprint>.
func (w *Workspace) ContractDir(sprint string) string { return w.h("sprint_contracts", sprint) }

// Contract is H/sprint_contracts/<sprint>/contract.json (docs/protocol.md §3.4).
func (w *Workspace) Contract(sprint string) string {
	return w.h("sprint_contracts", sprint, "contract.json")
}

// Tooling is H/sprint_contracts/<sprint>/tooling.md (docs/protocol.md §3.5).
func (w *Workspace) Tooling(sprint string) string {
	return w.h("sprint_contracts", sprint, "tooling.md")
}

// RulesOverrides is H/rules.yaml (local guard-rule overrides, bashguard).
func (w *Workspace) RulesOverrides() string { return w.h("rules.yaml") }
