package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"time"
)

// GitTimeout bounds each git run of ProtectedChanges.
const GitTimeout = 10 * time.Second

// ProtectedChanges returns the paths (slash-separated, relative to the
// work tree's top, sorted) matched by pathspecs (git pathspecs relative to
// the top, pathguard.GitPathspecs) whose content in HEAD or in the index
// differs from the work tree: changed, tracked in HEAD (or the index) but
// missing, or new there. A root outside any repository has none.
//
// Why (round 16 #13, testdata/redteam/round16/README.md): the Generator
// writes the object store and refs, so it can commit protected content on
// a branch and move HEAD to it (`git checkout evil`); the sandbox refuses
// writing the files, but HEAD stays moved, and Hermes's `git checkout --
// .`, `git restore .`, `git reset --hard` or `git stash` outside the
// sandbox then writes the Generator's versions. The policy leaves
// whole-worktree git operations to the command line (corpus §3.3), so
// Hermes looks here before running git.
//
// Its cost is bounded by the pathspecs, not the repository: `git diff
// --name-only HEAD -- PATHSPECS` (work tree against HEAD) and `git diff
// --name-only -- PATHSPECS` (against the index), each with GitTimeout, with
// fsmonitor, external diff drivers and submodules off (a nested repository's
// settings run nothing here; Risky names those).
func ProtectedChanges(root string, pathspecs []string) ([]string, error) {
	gd, top := Dir(root)
	if gd == "" || len(pathspecs) == 0 {
		return nil, nil
	}
	base := []string{"--no-optional-locks", "-c", "core.fsmonitor=false", "-c", "diff.external=", "-C", top}
	diff := []string{"diff", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", "--no-renames", "--name-only", "-z"}
	set := map[string]bool{}
	run := func(args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", append(append([]string{}, base...), args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("git %s: no answer in %s", args[0], GitTimeout)
			}
			return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	collect := func(out []byte) {
		for _, p := range bytes.Split(out, []byte{0}) {
			if len(p) > 0 {
				set[string(p)] = true
			}
		}
	}
	_, headErr := run("rev-parse", "-q", "--verify", "HEAD^{commit}")
	var ee *exec.ExitError
	if headErr != nil && !errors.As(headErr, &ee) {
		return nil, headErr
	}
	if headErr == nil { // an unborn HEAD has no content to write
		out, err := run(append(append(append([]string{}, diff...), "HEAD", "--"), pathspecs...)...)
		if err != nil {
			return nil, err
		}
		collect(out)
	}
	out, err := run(append(append(append([]string{}, diff...), "--"), pathspecs...)...)
	if err != nil {
		return nil, err
	}
	collect(out)
	if len(set) == 0 {
		return nil, nil
	}
	paths := make([]string, 0, len(set))
	for p := range set {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths, nil
}

// DescribeProtectedChanges is the one line status and doctor give for
// ProtectedChanges' paths.
func DescribeProtectedChanges(paths []string) string {
	return "HEAD (or the index) carries changes to protected paths: a git checkout/restore/reset/stash run outside the sandbox would write them; inspect with git diff HEAD -- " + strings.Join(paths, " ") + ", then reset HEAD to the commit Hermes recorded (docs/sandbox.md §6)"
}
