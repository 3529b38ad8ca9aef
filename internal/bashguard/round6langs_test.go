package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestScriptLanguagesRunShell: programs that read a script in a language
// that runs shell commands (ninja's rule `command =`, justfile recipe
// lines and backticks, Taskfile cmds, dc's `!`, m4's syscmd/esyscmd, TeX's
// \write18 under -shell-escape) run those commands, judged like a
// top-level command; benign scripts and listing modes run.
func TestScriptLanguagesRunShell(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`ninja -f /dev/stdin <<< $'rule r\n  command = rm -rf build\nbuild x: r\n'`:               verdict.Block,
		`ninja -f - <<< $'rule r\n  command = rm -rf $out\nbuild build: r\n'`:                     verdict.Block,
		`printf 'rule r\n command = git push --force\nbuild x: r\n' > build.ninja && ninja`:       verdict.Block,
		`ninja -f /dev/stdin <<< $'rule cc\n  command = gcc -c $in -o $out\nbuild a.o: cc a.c\n'`: verdict.Allow,
		`ninja -n -f /dev/stdin <<< $'rule r\n  command = rm -rf build\nbuild x: r\n'`:            verdict.Allow,
		`ninja -C build`: verdict.Allow,
		`just --justfile /dev/stdin --working-directory . wipe <<< $'wipe:\n    rm -rf build'`: verdict.Block,
		"just --justfile - <<< $'x := `git reset --hard`\\nb:\\n    echo hi'":                  verdict.Block,
		`just --justfile /dev/stdin b <<< $'b:\n    @go build ./...'`:                          verdict.Allow,
		`just --list`: verdict.Allow,
		`just --list --justfile /dev/stdin <<< $'wipe:\n    rm -rf build'`:                                 verdict.Allow,
		`task --taskfile /dev/stdin nuke <<< $'version: 3\ntasks:\n  nuke:\n    cmds: ["git clean -fdx"]'`: verdict.Block,
		`task -t /dev/stdin x <<< $'version: "3"\ntasks:\n  x:\n    cmds:\n      - cmd: rm -rf build\n'`:   verdict.Block,
		`task -t /dev/stdin x <<< $'version: "3"\ntasks:\n  x:\n    cmds:\n      - go build ./...\n'`:      verdict.Allow,
		`task --list`: verdict.Allow,
		`task -t /dev/stdin x <<< $'tasks: [: bad\n  - rm -rf build'`: verdict.Block,
		`task -t /dev/stdin x <<< $'tasks: [: bad\n  - go build'`:     verdict.Allow,
		`dc -e '!rm -rf build'`:                                         verdict.Block,
		`dc <<< '2 3 + p !git push -f'`:                                 verdict.Block,
		`dc -e '2 3 + p'`:                                               verdict.Allow,
		`dc -e '1 2 !<a 3 p'`:                                           verdict.Allow,
		`m4 <<< 'syscmd(rm -rf build)'`:                                 verdict.Block,
		"m4 <<< 'esyscmd(git push --force)dnl'":                         verdict.Block,
		"m4 -P <<< 'm4_syscmd(`rm -rf build'\\'')'":                     verdict.Block,
		`m4 <<< 'define(x, 1)x'`:                                        verdict.Allow,
		`m4 <<< 'syscmd(echo hi)'`:                                      verdict.Allow,
		`pdflatex -shell-escape '\immediate\write18{rm -rf build}\bye'`: verdict.Block,
		`xelatex --shell-escape '\write18{git clean -fdx}\bye'`:         verdict.Block,
		`pdflatex '\immediate\write18{rm -rf build}\bye'`:               verdict.Allow,
		`pdflatex -shell-escape '\immediate\write18{echo hi}\bye'`:      verdict.Allow,
		`pdflatex -interaction=nonstopmode paper.tex`:                   verdict.Allow,
	})
}
