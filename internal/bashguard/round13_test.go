package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestGitRestoreWorkingDirectory (round 13 db0032): `git restore -W --
// "$PWD"` discards every local change below the working directory, as
// `git checkout -- "$PWD"` does (testdata/corpus/README.md §9.3); a file
// below it, --staged alone, and a named subdirectory of a known file are
// judged as before.
func TestGitRestoreWorkingDirectory(t *testing.T) {
	judged(t, map[string]verdict.Action{`git restore -W -- "$PWD"`: verdict.Block, `git restore --staged -- "$PWD"`: verdict.Allow})
	judgedIn(t, "/work/sprint", map[string]verdict.Action{
		`git restore -W -- "$PWD"`:               verdict.Block,
		`git restore -- "$PWD"`:                  verdict.Block,
		`git restore --worktree -- "$(pwd)"`:     verdict.Block,
		"git restore `pwd`/":                     verdict.Block,
		`git restore -SW -- "${PWD}"`:            verdict.Block,
		`git restore -W -- "$PWD/src/app.go"`:    verdict.Allow,
		`git restore --staged -- "$PWD"`:         verdict.Allow,
		`git restore -W -- src/app.go`:           verdict.Allow,
		`git checkout -- "$PWD/src/app.go"`:      verdict.Allow,
		`echo "$PWD"; git restore -- src/app.go`: verdict.Allow,
	})
}
