package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestMakeCommandLineShell: a variable assigned on make's command line
// with $(shell CMD) in its value, or with != (the value is a command),
// runs CMD (GNU make 4.3: := ::= and != at once, checked with a marker;
// = += ?= when the makefile uses the variable, judged the same way), and
// .SHELLFLAGS on the command line is put before every recipe line, so
// `SHELL=/bin/sh .SHELLFLAGS='-c CMD;:'` runs CMD for each line (checked);
// makefile text (--eval, an inline makefile) is read the same way.
func TestMakeCommandLineShell(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`make -f /dev/null 'X:=$(shell rm -rf build)'`:                                         verdict.Block,
		`make 'V:=$(shell git reset --hard)' test`:                                             verdict.Block,
		`make 'X::=${shell rm -rf build}'`:                                                     verdict.Block,
		`make 'CFLAGS=$(shell rm -rf build)' all`:                                              verdict.Block,
		`make 'X!=rm -rf build'`:                                                               verdict.Block,
		`make 'X != git push --force'`:                                                         verdict.Block,
		`make --eval='X:=$(shell rm -rf build)'`:                                               verdict.Block,
		`make -f - <<< $'X != rm -rf build\nall:\n\techo hi'`:                                  verdict.Block,
		`make -f - <<< $'Y := $(shell git clean -fdx)\nall:\n\techo hi'`:                       verdict.Block,
		`make -s -f - SHELL=/bin/sh .SHELLFLAGS='-c rm\ -rf\ build;:' <<< $'all:\n\t@echo hi'`: verdict.Block,
		`make -f - .SHELLFLAGS='-ec "git reset --hard;:"' <<< $'all:\n\techo hi'`:              verdict.Block,
		`make .SHELLFLAGS='-c rm\ -rf\ build;:' test`:                                          verdict.Block,
		`make CC=gcc test`: verdict.Allow,
		`make -j4 V=1`:     verdict.Allow,
		`make 'CFLAGS=$(shell pkg-config --cflags zlib)' all`:                            verdict.Allow,
		`make -f /dev/null 'X:=$(shell echo hi)'`:                                        verdict.Allow,
		`make 'REV!=git rev-parse HEAD' all`:                                             verdict.Allow,
		`make -f - <<< $'X != date\nall:\n\techo $(X)'`:                                  verdict.Allow,
		`make SHELL=/bin/bash .SHELLFLAGS='-euo pipefail -c' test`:                       verdict.Allow,
		`make -s -f - SHELL=/bin/sh .SHELLFLAGS='-c echo\ hi;:' <<< $'all:\n\t@echo hi'`: verdict.Allow,
		`make -f - .SHELLFLAGS=-ec <<< $'all:\n\techo hi'`:                               verdict.Allow,
		`make MSG='rm -rf build is what clean does' help`:                                verdict.Allow,
		`make -f - <<< $'all:\n\techo "$(shell date)"'`:                                  verdict.Allow,
	})
}

// TestGitDiscardByDataFlow: the worktree's own changes fed back in
// reverse (`git diff | git apply -R`, `git diff HEAD | patch -R -p1`), a
// listing of the tree's files handed to `git checkout --` (by xargs or
// $(…)) and `update-ref --stdin` fed `delete` lines by for-each-ref
// discard work as `git checkout -- .` and `update-ref -d` do (checked with
// git 2.39 in /tmp); checks, saved patches, the index-only reverse and
// other consumers of the same producers run.
func TestGitDiscardByDataFlow(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`git diff | git apply -R`:                                                                verdict.Block,
		`git diff HEAD | patch -R -p1`:                                                           verdict.Block,
		`git diff -- src/ | git apply --reverse`:                                                 verdict.Block,
		`git diff --cached | git apply -R --index`:                                               verdict.Block,
		`git diff | nice patch -p1 -R`:                                                           verdict.Block,
		`git ls-files -m | xargs git checkout --`:                                                verdict.Block,
		`git checkout -- $(git ls-files -m)`:                                                     verdict.Block,
		`git diff --name-only | xargs git restore`:                                               verdict.Block,
		`git restore $(git diff --name-only)`:                                                    verdict.Block,
		`git for-each-ref --format='delete %(refname)' refs/heads/old | git update-ref --stdin`:  verdict.Block,
		`git for-each-ref --format='delete %(refname)' refs/heads/tmp/ | git update-ref --stdin`: verdict.Block,
		`git diff | git apply --check -R`:                                                        verdict.Allow,
		`git diff | git apply --check`:                                                           verdict.Allow,
		`git diff > p.patch`:                                                                     verdict.Allow,
		`git apply p.patch`:                                                                      verdict.Allow,
		`git apply -R p.patch`:                                                                   verdict.Allow,
		`git diff | git apply --stat -R`:                                                         verdict.Allow,
		`git diff --cached | git apply -R`:                                                       verdict.Allow,
		`git diff --cached | git apply -R --cached`:                                              verdict.Allow,
		`git diff main feature | git apply -R`:                                                   verdict.Allow,
		`git diff HEAD~2..HEAD~1 | git apply -R`:                                                 verdict.Allow,
		`git diff HEAD | patch -R -p1 --dry-run`:                                                 verdict.Allow,
		`git diff | less`:                                                                        verdict.Allow,
		`git diff | patch -p1 -d ../copy`:                                                        verdict.Allow,
		`git ls-files -m | xargs git add`:                                                        verdict.Allow,
		`git ls-files -m | xargs git diff --`:                                                    verdict.Allow,
		`git checkout -- $(git ls-files -m | head -1)`:                                           verdict.Allow,
		`git for-each-ref --format='%(refname)'`:                                                 verdict.Allow,
		`git for-each-ref --format='%(refname)' refs/heads | git update-ref --stdin`:             verdict.Allow,
		`git for-each-ref --format='create refs/backup/%(refname:short) %(objectname)' refs/heads | git update-ref --stdin`: verdict.Allow,
	})
}
