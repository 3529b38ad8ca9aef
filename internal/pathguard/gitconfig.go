package pathguard

import (
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/gitrepo"
	"github.com/superagent-harness/harness/internal/verdict"
)

// A git repository's configuration and hooks run code for every later git
// in that repository (core.fsmonitor, core.pager, diff.external, "!"
// aliases, filter drivers, core.hooksPath, the hooks themselves), and
// commondir moves where git reads them from. harness launch keeps the root
// repository's .git/config and .git/hooks read-only (docs/sandbox.md §2.1),
// but a repository nested in the product tree is the Generator's to create:
// through the real client 2.1.332 a sandboxed `git init src/sub && git -C
// src/sub config core.fsmonitor CMD && git add src/sub` made Hermes's next
// `git status` at the root (outside the sandbox) run CMD, because git
// status runs `git status` in every submodule checked out
// (testdata/redteam/round9/README.md). In a Generator session a write to
// those files of any repository below the root is refused (rule kind
// git-config).

// GitConfigRule returns the rule of a repository's configuration and hooks
// (rules/paths.yaml kind git-config): its patterns are relative to a .git
// directory.
func GitConfigRule() Rule {
	return genGitConfigRule()
}

// judgeGitConfig blocks, in a Generator session, a write to the
// configuration, hooks or commondir of a git directory below the root (a
// path component named .git, case-folded, and the rest matching the rule's
// patterns), and writing or linking a .git entry itself (a `.git` file's
// "gitdir:" line names the directory git reads). Deleting the entry and
// creating it as a directory (git init) are not refused. ok is false when
// t is none of them.
func (g *Guard) judgeGitConfig(t target, o op, tool string) (verdict.Decision, bool) {
	if g.feature == "" {
		return verdict.Decision{}, false
	}
	r := GitConfigRule()
	for _, p := range [...]string{t.lex, t.phys} {
		rel, ok := g.relRoot(p)
		if !ok || rel == "." {
			continue
		}
		comps := strings.Split(filepath.ToSlash(rel), "/")
		for i, c := range comps {
			if !namesEqual(c, ".git") {
				continue
			}
			below := "."
			if i+1 < len(comps) {
				below = strings.Join(comps[i+1:], "/")
			}
			if below == "." && (o == opDelete || o == opTree || o == opMkdir) {
				continue
			}
			if below == "." || matchAny(r.Patterns, foldName(below)) {
				return g.block(r, t, o, tool, "", "of the repository at "+filepath.Join(g.rootLex, filepath.FromSlash(strings.Join(comps[:i], "/")))), true
			}
		}
	}
	return verdict.Decision{}, false
}

// repoConfig returns the configuration file `git config` (no --file,
// --global, --system or --blob) writes when run in dir: $GIT_DIR's config
// when gitDir is set (relative to dir), else that of the nearest directory
// at or above dir, up to the root, that holds a .git entry (a .git file's
// "gitdir:" line is followed), else dir/.git/config (a repository the same
// command creates). worktree selects config.worktree.
func (c *collector) repoConfig(dir, gitDir string, worktree bool) string {
	name := "config"
	if worktree {
		name = "config.worktree"
	}
	if gitDir != "" {
		return filepath.Join(absJoin(dir, gitDir), name)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if g, ok := gitrepo.EntryGitDir(d); ok {
			if g == "" {
				g = filepath.Join(d, ".git")
			}
			return filepath.Join(g, name)
		}
		if !c.g.inRoot(d) || filepath.Dir(d) == d {
			break
		}
	}
	return filepath.Join(dir, ".git", name)
}
