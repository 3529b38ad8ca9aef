package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestInterpreterOptionGrammar: an interpreter's inline code is found by its
// row's option grammar (internal/shell's program table), whatever options
// come before it. Checked with Python 3.11, Node 20 and Perl 5.36 (a
// marker file written by the code): `python3 -X dev -c CODE` and
// `python3 -Wd -c CODE` run CODE; node runs the last -e of several (`node
// -e A -e B` runs only B), `node -p -e CODE` prints CODE's value, `node
// --input-type module -e CODE` and `node --title T -e CODE` run CODE;
// `perl -Mstrict -e CODE` runs CODE (`perl -M strict` is an error).
func TestInterpreterOptionGrammar(t *testing.T) {
	py := `'import os; os.system("rm -rf ~")'`
	js := `'require("child_process").execSync("rm -rf ~")'`
	pl := `'system("rm -rf ~")'`
	judged(t, map[string]verdict.Action{
		"python3 -c " + py:                          verdict.Block,
		"python3 -Wd -c " + py:                      verdict.Block,
		"python3 -X dev -c " + py:                   verdict.Block,
		"python3 -Xdev -c " + py:                    verdict.Block,
		"python3 -W ignore -c " + py:                verdict.Block,
		"python3 -IsEc " + py:                       verdict.Block,
		"python3 -X dev -c 'print(1)'":              verdict.Allow,
		"python3 -m pytest -c " + py:                verdict.Allow,
		"node -e " + js:                             verdict.Block,
		"node --require ./x.js -e " + js:            verdict.Block,
		"node -r ./x.js -e " + js:                   verdict.Block,
		"node -e 'console.log(1)' -e " + js:         verdict.Block,
		"node -p -e " + js:                          verdict.Block,
		"node --input-type module -e " + js:         verdict.Block,
		"node --title t -e " + js:                   verdict.Block,
		"node --require ./x.js -e 'console.log(1)'": verdict.Allow,
		"node -p -e '1+1'":                          verdict.Allow,
		"node app.js -e " + js:                      verdict.Allow,
		"perl -e " + pl:                             verdict.Block,
		"perl -Mstrict -e " + pl:                    verdict.Block,
		"perl -Mstrict -e 'print 1'":                verdict.Allow,
		"perl -I lib -e " + pl:                      verdict.Block,
		"perl -e 'print 1;' -e " + pl:               verdict.Block,
	})
}

// TestShellOptionGrammar: `bash OPTIONS -c CMD` runs CMD whatever options
// come before it and after -c (bash 5.2, `touch marker` for CMD): `bash -O
// extglob -c CMD`, `bash --rcfile F -c CMD`, `bash -co pipefail CMD`
// (-o takes the next word, CMD is the first operand), `bash -c -x CMD`;
// `bash - FILE` runs FILE ("-" ends the options as "--" does); `bash -n -c
// CMD` runs nothing.
func TestShellOptionGrammar(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"bash -O extglob -c 'rm -rf ~'":         verdict.Block,
		"bash --rcfile /dev/null -c 'rm -rf ~'": verdict.Block,
		"bash -co pipefail 'rm -rf ~'":          verdict.Block,
		"bash -c -x 'rm -rf ~'":                 verdict.Block,
		"bash -O extglob -c 'ls'":               verdict.Allow,
		"bash -n -c 'rm -rf ~'":                 verdict.Allow,
		"echo 'rm -rf ~' > s.sh && bash - s.sh": verdict.Block,
		"echo 'ls' > s.sh && bash - s.sh":       verdict.Allow,
	})
}

// TestSgCommand: `sg [-] GROUP [-c] CMD` runs the one word CMD with
// /bin/sh (shadow-utils sg, run here: `sg root -c 'touch m'`, `sg root
// 'touch m'` and `sg - root 'touch m'` write m; `sg root touch m` runs
// touch alone).
func TestSgCommand(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"sg root -c 'rm -rf ~'":      verdict.Block,
		"sg root 'rm -rf ~'":         verdict.Block,
		"sg - root 'rm -rf ~'":       verdict.Block,
		"sg - root -c 'rm -rf ~'":    verdict.Block,
		"sg root -c 'ls -la'":        verdict.Allow,
		"sg - root 'ls'":             verdict.Allow,
		"sg - docker -c 'docker ps'": verdict.Allow,
	})
}

// TestDebuggerArgs: `gdb … --args PROG ARGS…` and `lldb … -- PROG ARGS…`
// run PROG (gdb 13, run here: getopt_long_only reads `-args` and `--arg`
// as --args, and `gdb -q -batch -ex run -arg touch m` wrote m).
func TestDebuggerArgs(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"gdb -q --args rm -rf ~":            verdict.Block,
		"gdb -batch -ex run -args rm -rf ~": verdict.Block,
		"gdb -batch -ex run --arg rm -rf ~": verdict.Block,
		"lldb -b -o run -- rm -rf ~":        verdict.Block,
		"gdb -q --args ./app --verbose":     verdict.Allow,
		"gdb -batch -ex run -args ls -la":   verdict.Allow,
		"lldb -b -o run -- ./app -rf":       verdict.Allow,
	})
}
