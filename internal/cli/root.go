package cli

import (
	"os"
	"path/filepath"

	"github.com/superagent-harness/harness/internal/roles"
	"github.com/superagent-harness/harness/internal/workspace"
)

// rootFor returns the sprint root a command works on: --root or the
// command's positional DIR (giving both with different values is a usage
// error), else HARNESS_ROOT, else the nearest folder at or above the working
// directory that holds .harness/ (docs/protocol.md §4). The result is absolute.
func (e *Env) rootFor(positional string) (string, error) {
	explicit := e.Root
	if positional != "" {
		if explicit != "" && filepath.Clean(explicit) != filepath.Clean(positional) {
			return "", usage("--root %q and positional DIR %q disagree; give one", explicit, positional)
		}
		explicit = positional
	}
	root, err := resolveRoot(explicit, e.Vars, e.Cwd)
	if err != nil {
		return "", usage("%v", err)
	}
	if err := generatorRoot(explicit, root, e.Vars); err != nil {
		return "", err
	}
	return root, nil
}

// generatorRoot refuses (exit 1) an explicit sprint root other than the
// session's own HARNESS_ROOT in a Generator session (internal/roles). The
// Generator's eval append and phase complete run outside Claude Code's
// sandbox (docs/sandbox.md §2.2): pointed at a sprint root the Generator
// built itself in its work area, whose .harness/eval_log.jsonl is a symbolic
// link, `harness eval append --root FAKE …` appended a line, unsandboxed, to
// whatever file the link names (runtime_state.json in the attack that found
// it). Roots are compared after resolving symbolic links.
func generatorRoot(explicit, root string, vars map[string]string) error {
	own := vars["HARNESS_ROOT"]
	if explicit == "" || own == "" {
		return nil
	}
	if gen, _ := roles.GeneratorSession(vars); !gen {
		return nil
	}
	if samePlace(root, own) {
		return nil
	}
	return refused("refused: this Generator session belongs to the sprint at %s (HARNESS_ROOT); it cannot work on %s (docs/sandbox.md §2.2)", own, root)
}

// samePlace reports whether a and b name the same directory once symbolic
// links are resolved.
func samePlace(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// abs makes p absolute against the command's working directory.
func (e *Env) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(e.Cwd, p)
}

// resolveRoot applies workspace.Resolve (explicit > HARNESS_ROOT > walk up
// from cwd to the folder holding .harness/) and requires the result to be an
// existing directory.
func resolveRoot(explicit string, env map[string]string, cwd string) (string, error) {
	root, err := workspace.Resolve(explicit, env, cwd)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(root)
	if err != nil || !st.IsDir() {
		// the workspace's own error: does not exist, not a directory
		if err := workspace.Check(root); err != nil {
			return "", err
		}
	}
	return root, nil
}

// workspaceFor is rootFor for a command that reads or changes a sprint
// workspace: the root must also hold .harness/. Every such command (validate,
// finalize, phase complete, init-feature and the operations) fails on a
// missing workspace with the same workspace.NotWorkspaceError, exit 2.
func (e *Env) workspaceFor(positional string) (string, error) {
	root, err := e.rootFor(positional)
	if err != nil {
		return "", err
	}
	if err := workspace.Check(root); err != nil {
		return "", usage("%v", err)
	}
	return root, nil
}
