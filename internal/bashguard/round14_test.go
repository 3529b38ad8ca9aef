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

// TestEnvironmentValueRunByInnerProgram (round 14 eb0133, eb0135, eb0136):
// a prefix assignment is in the environment of the program it starts, so
// an inner shell's "$C", awk's ENVIRON["C"], python's os.environ["C"], …
// are C's value.
func TestEnvironmentValueRunByInnerProgram(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`C='rm -rf build' sh -c 'eval "$C"'`:                                           verdict.Block,
		`C='rm -rf build' bash -c '$C'`:                                                verdict.Block,
		`C='git push -f' awk 'BEGIN { system(ENVIRON["C"]) }'`:                         verdict.Block,
		`C='rm -rf build' python3 -c 'import os; os.system(os.environ["C"])'`:          verdict.Block,
		`C='rm -rf build' python3 -c 'import os; os.system(os.getenv("C"))'`:           verdict.Block,
		`C='rm -rf build' python3 -c 'import os; os.system(os.environ.get("C"))'`:      verdict.Block,
		`C='rm -rf build' node -e 'require("child_process").execSync(process.env.C)'`:  verdict.Block,
		`C='rm -rf build' ruby -e 'system(ENV["C"])'`:                                  verdict.Block,
		`C='rm -rf build' perl -e 'system($ENV{C})'`:                                   verdict.Block,
		`env C='rm -rf build' python3 -c 'import os; os.system(os.environ["C"])'`:      verdict.Block,
		`export C='rm -rf build'; python3 -c 'import os; os.system(os.environ["C"])'`:  verdict.Block,
		`C='rm -rf build' env -u C python3 -c 'import os; os.system(os.environ["C"])'`: verdict.Allow,
		`C='rm -rf build' env -i python3 -c 'import os; os.system(os.environ["C"])'`:   verdict.Allow,
		`C='echo hi' sh -c 'eval "$C"'`:                                                verdict.Allow,
		`C='rm -rf build' sh -c 'echo "$C"'`:                                           verdict.Allow,
		`C='echo hi' awk 'BEGIN { system(ENVIRON["C"]) }'`:                             verdict.Allow,
		`C='rm -rf build' awk 'BEGIN { print ENVIRON["C"] }'`:                          verdict.Allow,
		`C=x python3 -c 'import os; print(os.environ["C"])'`:                           verdict.Allow,
		`C='rm -rf build' python3 -c 'import os; print(os.environ["C"])'`:              verdict.Allow,
		`C='echo hi' python3 -c 'import os; os.system(os.environ["C"])'`:               verdict.Allow,
		`C='echo hi' node -e 'require("child_process").execSync(process.env.C)'`:       verdict.Allow,
		`C='rm -rf build' ruby -e 'puts ENV["C"]'`:                                     verdict.Allow,
		`C='rm -rf build' perl -e 'print $ENV{C}'`:                                     verdict.Allow,
	})
}
