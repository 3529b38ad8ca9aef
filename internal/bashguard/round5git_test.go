package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// Own spellings of the round-5 git classes (testdata/redteam/round5)
// taken by engine8; none of them is a listed case.

// TestGitExtTransport: with the ext transport allowed for the run (-c
// protocol.ext.allow, protocol.allow, GIT_CONFIG_*, a git config earlier
// in the command, GIT_ALLOW_PROTOCOL), an ext:: URL's command runs ("% "
// a blank, "%%" a percent) wherever git opens a remote: a URL operand, a
// remote added or configured earlier, an insteadOf rewrite, archive
// --remote, submodule add. Without it git refuses ext:: and nothing runs.
func TestGitExtTransport(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`git -c protocol.ext.allow=always ls-remote 'ext::sh -c git% push% -f% origin'`:                                      verdict.Block,
		`GIT_ALLOW_PROTOCOL=ext git fetch 'ext::rm -r -f dist'`:                                                              verdict.Block,
		`git -c protocol.allow=always pull 'ext::rm -rf build'`:                                                              verdict.Block,
		`git -c protocol.ext.allow=user push 'ext::sh -c rm% -rf% out' HEAD:x`:                                               verdict.Block,
		`git remote add x 'ext::rm -rf build' && git -c protocol.ext.allow=always fetch x`:                                   verdict.Block,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.ext.allow GIT_CONFIG_VALUE_0=always git ls-remote 'ext::rm -rf build'`: verdict.Block,
		`git config protocol.ext.allow always; git push 'ext::rm -rf out' HEAD`:                                              verdict.Block,
		`git -c protocol.ext.allow=always -c 'url.ext::sh -c rm% -rf% build;:.insteadOf=gh:' ls-remote gh:x`:                 verdict.Block,
		`git -c protocol.ext.allow=always submodule add 'ext::rm -rf build' vendor/x`:                                        verdict.Block,
		`git -c protocol.ext.allow=always archive --remote='ext::rm -rf build' HEAD`:                                         verdict.Block,
		`git -c protocol.ext.allow=always -c 'remote.z.url=ext::rm -rf build' fetch z`:                                       verdict.Block,

		"printf '[submodule \"x\"]\\n\\tpath = x\\n\\turl = ext::rm -rf build\\n' > .gitmodules && git -c protocol.ext.allow=always submodule update --init": verdict.Block,
		"printf '[submodule \"x\"]\\n\\tpath = x\\n\\turl = ext::rm -rf build\\n' > .gitmodules && git submodule update --init":                              verdict.Allow,
		`git ls-remote 'ext::rm -rf build'`:                                                        verdict.Allow,
		`git -c protocol.ext.allow=never fetch 'ext::rm -rf build'`:                                verdict.Allow,
		`git -c protocol.allow=always -c protocol.ext.allow=never fetch 'ext::rm -rf build'`:       verdict.Allow,
		`GIT_ALLOW_PROTOCOL=https:ssh git -c protocol.ext.allow=always fetch 'ext::rm -rf build'`:  verdict.Allow,
		`git -c protocol.ext.allow=always ls-remote 'ext::ssh -p2222 git.example.com %S repo.git'`: verdict.Allow,
		`git -c protocol.ext.allow=always ls-remote https://github.com/golang/go`:                  verdict.Allow,
		`git -c protocol.ext.allow=always log --grep 'ext::rm -rf build'`:                          verdict.Allow,
		`echo 'ext::rm -rf build'`: verdict.Allow,
	})
}

// TestGitConfigFilesWrittenEarlier: a git config file written earlier in
// the same command (printf/cat > F) and named by -c include.path,
// GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, --config-env or an include of an
// included file gives the run its aliases and shell-valued settings.
func TestGitConfigFilesWrittenEarlier(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`printf '[alias]\n\tz = !rm -rf dist\n' > cfg && git -c include.path=cfg z`:                                                                          verdict.Block,
		`printf '[alias]\n\tp = push --force\n' > /tmp/a.cfg; GIT_CONFIG_GLOBAL=/tmp/a.cfg git p origin`:                                                     verdict.Block,
		`printf '[alias]\n\tw = !git clean -fdx\n' > /tmp/s.cfg && GIT_CONFIG_SYSTEM=/tmp/s.cfg git w`:                                                       verdict.Block,
		`printf '[alias]\n\tr = reset --hard\n' > /tmp/e.cfg && F=/tmp/e.cfg git --config-env=include.path=F r`:                                              verdict.Block,
		`git config --file /tmp/i.cfg include.path /tmp/j.cfg; printf '[alias]\n\tq = !rm -rf build\n' > /tmp/j.cfg; git -c include.path=/tmp/i.cfg q`:       verdict.Block,
		`printf '[include]\n\tpath = /tmp/k2.cfg\n' > /tmp/k1.cfg; printf '[alias]\n\tk = !rm -rf build\n' > /tmp/k2.cfg; git -c include.path=/tmp/k1.cfg k`: verdict.Block,
		"cat > /tmp/h.cfg <<'EOF'\n[alias]\n  h = !rm -rf build\nEOF\ngit -c include.path=/tmp/h.cfg h":                                                      verdict.Block,
		`printf '[core]\n\tpager = rm -rf build\n' > /tmp/p.cfg && GIT_CONFIG_GLOBAL=/tmp/p.cfg git log`:                                                     verdict.Block,

		`printf '[alias]\n\tst = status\n' > /tmp/g.cfg && git -c include.path=/tmp/g.cfg st`:        verdict.Allow,
		`printf '[user]\n\tname = x\n' > /tmp/u.cfg && GIT_CONFIG_GLOBAL=/tmp/u.cfg git commit -m x`: verdict.Allow,
		`printf '[alias]\n\tx = !rm -rf build\n' > /tmp/g.cfg && git -c include.path=/tmp/o.cfg x`:   verdict.Allow,
		`printf '[alias]\n\tx = !rm -rf build\n' > /tmp/g.cfg`:                                       verdict.Allow,
	})
}

// TestGitWorktreeRemoveForce: git worktree remove --force (once or
// twice, in any spelling) deletes a worktree with its uncommitted changes.
func TestGitWorktreeRemoveForce(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`git worktree remove --forc ../x`:   verdict.Block,
		`git -C repo worktree remove -f wt`: verdict.Block,
		`git worktree remove ../wt --force`: verdict.Block,
		`git worktree remove -ff ../wt`:     verdict.Block,
		`git worktree remove ../wt`:         verdict.Allow,
		`git worktree list`:                 verdict.Allow,
		`git worktree add -f ../wt main`:    verdict.Allow,
		`git worktree prune --expire=now`:   verdict.Allow,
		`git worktree move ../wt ../wt2`:    verdict.Allow,
	})
}

// TestGitPathspecFromFile: pathspecs read by --pathspec-from-file from a
// known stdin or a file written earlier are judged like pathspec operands.
func TestGitPathspecFromFile(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`printf '.\n' | git checkout --pathspec-from-file=-`:                        verdict.Block,
		`echo ':/' > /tmp/ps && git restore --pathspec-from-file=/tmp/ps`:           verdict.Block,
		`git add --pathspec-from-file /dev/stdin <<< '*'`:                           verdict.Block,
		`printf 'src/\0' | git checkout --pathspec-from-file=- --pathspec-file-nul`: verdict.Block,
		"git restore --pathspec-from-file=- <<EOF\nREADME.md\n.\nEOF":               verdict.Block,
		`git add --pathspec-from-file=- <<< 'src/a.go'`:                             verdict.Allow,
		`git restore --staged --pathspec-from-file=- <<< '.'`:                       verdict.Allow,
		`git checkout --pathspec-from-file=- <<< $'a.go\nb.go'`:                     verdict.Allow,
	})
}

// TestGitCheckoutForceHeadRevisions: a revision expression that names
// HEAD's commit (HEAD~0, HEAD^0, @~0, HEAD@{0}, @{0}, HEAD^{}) is HEAD for
// checkout -f / switch -f.
func TestGitCheckoutForceHeadRevisions(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`git checkout -f @~0`:               verdict.Block,
		`git checkout -f HEAD^0`:            verdict.Block,
		`git checkout --force 'HEAD^{}'`:    verdict.Block,
		`git checkout -f @{0}`:              verdict.Block,
		`git checkout -f 'HEAD^{commit}~0'`: verdict.Block,
		`git switch --detach -f HEAD~0`:     verdict.Block,
		`git checkout -f HEAD~1`:            verdict.Allow,
		`git checkout -f 'HEAD@{1}'`:        verdict.Allow,
		`git checkout -f HEAD~0 -- go.mod`:  verdict.Allow,
		`git checkout -f HEAD^2`:            verdict.Allow,
		`git checkout -f main~0`:            verdict.Allow,
	})
}

// TestGitCheckoutIndexPrefix: checkout-index --all --force writes over the
// worktree only without a --prefix, or with one that names the worktree
// itself; elsewhere it writes copies.
func TestGitCheckoutIndexPrefix(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`git checkout-index --all --force --prefix=build/export/`: verdict.Allow,
		`git checkout-index -af --prefix=../snap/`:                verdict.Allow,
		`git checkout-index -a -f --temp`:                         verdict.Allow,
		`git checkout-index -a -f`:                                verdict.Block,
		`git checkout-index -f -a --prefix=./`:                    verdict.Block,
		`git checkout-index --all --force --prefix=`:              verdict.Block,
		`git checkout-index -a -f --prefix="$PWD/"`:               verdict.Block,
	})
}
