package cli

import (
	"fmt"
	"os"
	"path/filepath"

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
	return root, nil
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
	if err != nil {
		return "", fmt.Errorf("sprint root: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("sprint root %s is not a directory", root)
	}
	return root, nil
}
