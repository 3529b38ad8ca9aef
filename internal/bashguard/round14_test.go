package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestGitShellAliasAppendsArguments (round 14 eb0119): git runs a "!"
// alias as `sh -c 'BODY "$@"' BODY ARGS…` (git-config(1): "arguments are
// appended"), so a shell body with -c runs the word after it.
func TestGitShellAliasAppendsArguments(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`git -c alias.s='!sh' s -c 'rm -rf build'`:                               verdict.Block,
		`git -c alias.s='!bash' s -c 'git push --force'`:                         verdict.Block,
		`git -c alias.s='!sh -c' s 'rm -rf build'`:                               verdict.Block,
		`git -c alias.s='!python3' s -c 'import shutil; shutil.rmtree("build")'`: verdict.Block,
		`git -c alias.s='!sh' s -c 'echo hi'`:                                    verdict.Allow,
		`git -c alias.s='!sh' s -c 'ls build'`:                                   verdict.Allow,
		`git -c alias.s='!echo' s 'rm -rf build'`:                                verdict.Allow,
		`git -c alias.s='!sh -c' s 'echo "rm -rf build"'`:                        verdict.Allow,
	})
}
