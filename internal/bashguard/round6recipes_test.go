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
