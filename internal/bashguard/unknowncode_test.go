package bashguard

import (
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// unknownCodeCases are commands that hand code to programs the guard has
// no row for (testdata/corpus/README.md §9.1 cautious default for unknown
// programs, §2.1 "Interpreters"): languages, editors, debuggers and runners
// other than round 5's, written before the default was built. A shell
// command or argv the policy blocks inside the code is judged as run; the
// allow neighbours print the same text, run harmless commands, or give an
// unknown program words that are not code.
var unknownCodeCases = map[string]verdict.Action{
	// lisps and schemes: a string handed to a call
	`sbcl --non-interactive --eval '(uiop:run-program "rm -rf build")'`:  verdict.Block,
	`clisp -x '(ext:shell "rm -rf build")'`:                              verdict.Block,
	`gosh -e '(sys-system "rm -rf dist")'`:                               verdict.Block,
	`csi -e '(system "rm -rf build")'`:                                   verdict.Block,
	`bb -e '(babashka.process/shell "rm -rf build")'`:                    verdict.Block,
	`chibi-scheme -e '(system "rm -rf build")'`:                          verdict.Block,
	`mit-scheme --quiet --eval '(run-shell-command "git push --force")'`: verdict.Block,
	`newlisp -e '(exec "rm -rf build")'`:                                 verdict.Block,
	`fennel -e '(os.execute "rm -rf build")'`:                            verdict.Block,
	`hy -c '(import os) (os.system "rm -rf build")'`:                     verdict.Block,
	`lfe -e '(os:cmd "rm -rf build")'`:                                   verdict.Block,
	// argv lists of string literals
	`clojure -M -e '(clojure.java.shell/sh "rm" "-rf" "build")'`:                 verdict.Block,
	`janet -e '(os/execute ["rm" "-rf" "build"] :p)'`:                            verdict.Block,
	`kotlin -e 'Runtime.getRuntime().exec(arrayOf("rm", "-rf", "build"))'`:       verdict.Block,
	`gleam-run -e 'shellout.command(run: "git", with: ["push", "-f"], in: ".")'`: verdict.Block,
	`qjs --std -e 'os.exec(["git", "reset", "--hard"])'`:                         verdict.Block,
	`gjs -c 'imports.gi.GLib.spawn_command_line_sync("rm -rf build")'`:           verdict.Block,
	`pike -e 'Process.system("rm -rf build");'`:                                  verdict.Block,
	`rhino -e 'java.lang.Runtime.getRuntime().exec("rm -rf build")'`:             verdict.Block,
	`swipl -g 'shell("rm -rf build")' -t halt`:                                   verdict.Block,
	`slsh -e 'system("rm -rf build");'`:                                          verdict.Block,
	`gforth -e 's" rm -rf build" system bye'`:                                    verdict.Block,
	`mlr -n put 'end { system("rm -rf build") }'`:                                verdict.Block,
	`frawk 'BEGIN { system("rm -rf build") }'`:                                   verdict.Block,
	`wren -e 'Process.exec("sudo", ["reboot"])'`:                                 verdict.Block,
	`mytool --command='git push --force origin main'`:                            verdict.Block,
	`pwsh-preview -c 'Remove-Item -Recurse -Force build'`:                        verdict.Block,
	// editors, debuggers and consoles with a shell escape
	`radare2 -qc '!rm -rf build' /bin/ls`: verdict.Block,
	`rizin -qc '!rm -rf dist' a.out`:      verdict.Block,
	`vis '+!rm -rf build' notes.txt`:      verdict.Block,
	`nvi -c '!rm -rf build' notes.txt`:    verdict.Block,
	`jdb -J-Dx=1 -ex '!rm -rf build'`:     verdict.Block,
	// runners given a shell string
	`xterm -e 'rm -rf build'`:                    verdict.Block,
	`pueue add 'rm -rf build'`:                   verdict.Block,
	`when-changed -r src -c 'rm -rf build'`:      verdict.Block,
	`byobu new-window 'git push -f origin main'`: verdict.Block,
	`urxvt -e sh -c 'rm -rf build'`:              verdict.Block,

	// allow: the same languages printing the text (the print leaders)
	`sbcl --eval '(print "rm -rf build")'`:        verdict.Allow,
	`gosh -e '(display "rm -rf build")'`:          verdict.Allow,
	`clisp -x '(format t "rm -rf build~%")'`:      verdict.Allow,
	`kotlin -e 'println("rm -rf build")'`:         verdict.Allow,
	`pike -e 'write("rm -rf build\n");'`:          verdict.Allow,
	`gjs -c 'print("rm -rf build")'`:              verdict.Allow,
	`fennel -e '(print "git push --force")'`:      verdict.Allow,
	`frawk 'BEGIN { print "rm -rf build" }'`:      verdict.Allow,
	`hy -c '(print "rm -rf build")'`:              verdict.Allow,
	`newlisp -e '(println "rm -rf build")'`:       verdict.Allow,
	`qjs -e 'console.log("rm -rf build")'`:        verdict.Allow,
	`swipl -g 'format("rm -rf build~n")' -t halt`: verdict.Allow,
	`lfe -e '(io:format "rm -rf build~n")'`:       verdict.Allow,
	`janet -e '(pp ["rm" "-rf" "build"])'`:        verdict.Allow,
	// allow: harmless commands and payloads
	`sbcl --eval '(uiop:run-program "git status")'`:      verdict.Allow,
	`clojure -M -e '(clojure.java.shell/sh "ls" "-la")'`: verdict.Allow,
	`janet -e '(os/execute ["rm" "build/a.o"] :p)'`:      verdict.Allow,
	`xterm -e 'make test'`:                               verdict.Allow,
	`radare2 -qc '!ls -la' /bin/ls`:                      verdict.Allow,
	`pueue add 'npm test'`:                               verdict.Allow,
	`vis '+set number' notes.txt`:                        verdict.Allow,
	`mytool --message 'cleanup done'`:                    verdict.Allow,
	`mlr --icsv --ojson cat data.csv`:                    verdict.Allow,
	`mytool --title 'how to undo git push --force'`:      verdict.Allow,
	`zenity --info --text 'run rm -rf build later'`:      verdict.Allow,
}

// TestUnknownProgramCode holds the cautious default for code handed to
// programs the guard does not know: each case above, and a block's reason
// names the program and the default.
func TestUnknownProgramCode(t *testing.T) {
	judged(t, unknownCodeCases)
	d := Decide(`clisp -x '(ext:shell "rm -rf build")'`, Context{Feature: "f002"}).Decision
	if !strings.Contains(d.Message, "clisp") || !strings.Contains(d.Message, "cautious default") {
		t.Errorf("reason %q does not name clisp and the cautious default", d.Message)
	}
	if !strings.Contains(d.Hint, "harness explain") {
		t.Errorf("hint %q lacks the explain hint", d.Hint)
	}
}

// TestKnownProgramRows: the rows added for well-known programs with an
// exec, delete or publish channel of their own (round 5's programs), each
// with its own spellings and allow neighbours.
func TestKnownProgramRows(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`python3 -c 'import distutils.dir_util as d; d.remove_tree("dist")'`:        verdict.Block,
		`python3 -c 'from distutils.dir_util import remove_tree; remove_tree("b")'`: verdict.Block,
		`python3 -c 'import distutils.dir_util as d; d.mkpath("b")'`:                verdict.Allow,
		`python3 -c 'f = open("/dev/nvme0n1", "r+b"); f.write(b"x")'`:               verdict.Block,
		`python3 -c 'print(open("/dev/sda", "rb").read(512))'`:                      verdict.Allow,
		`php -r '$g = "passthru"; $g("git push --force");'`:                         verdict.Block,
		`php -r '$f = "strtoupper"; echo $f("rm -rf build");'`:                      verdict.Allow,
		`powershell -NoProfile -c 'ri -r -fo .\out'`:                                verdict.Block,
		`pwsh -c 'Remove-Item -Recurse build'`:                                      verdict.Allow,
		`pwsh -c 'Write-Host "rm -rf build"'`:                                       verdict.Allow,
		`ysh -c 'git push -f'`:                                                      verdict.Block,
		`rc -c 'ls -l'`:                                                             verdict.Allow,
		`racket -e '(system "git reset --hard")'`:                                   verdict.Block,
		`erl -noshell -eval 'io:format("rm -rf build~n"), halt().'`:                 verdict.Allow,
		`elixir -e 'File.rm_rf("tmp/cache")'`:                                       verdict.Block,
		`elixir -e 'File.rm("a.txt")'`:                                              verdict.Allow,
		`crystal eval 'puts "rm -rf build"'`:                                        verdict.Allow,
		`scala -e 'println("rm -rf build")'`:                                        verdict.Allow,
		`raku -e 'run "rm", "-rf", "build"'`:                                        verdict.Block,
		`vim -es -c 'python3 import os; os.system("rm -rf build")' -c qa`:           verdict.Block,
		`vim -es -c 'py3 print("rm -rf build")' -c qa`:                              verdict.Allow,
		`nvim --headless '+lua vim.fn.system("git push -f")' +qa`:                   verdict.Block,
		"vim -Es -S <(printf '%s\\n' '!git push -f') +qa":                           verdict.Block,
		"vim -Es -S <(echo 'set nu') +qa":                                           verdict.Allow,
		`ex -s '+%s/a/b/g' '+wq' notes.txt`:                                         verdict.Allow,
		`view -es '+!ls' +q`:                                                        verdict.Allow,
		`gdb -batch -ex 'pipe bt | grep main'`:                                      verdict.Allow,
		`gdb -batch -ex '| info frame | rm -rf build'`:                              verdict.Block,
		`lldb -b -o 'platform shell ls'`:                                            verdict.Allow,
		`lldb -b -o 'script print("rm -rf build")'`:                                 verdict.Allow,
		`tmux if-shell 'test -d build' 'run-shell "rm -rf build"'`:                  verdict.Block,
		`tmux if-shell true 'display-message "rm -rf build"'`:                       verdict.Allow,
		`ssh-agent -t 60 git push --force`:                                          verdict.Block,
		`ssh-agent bash -c 'ssh-add && git pull'`:                                   verdict.Allow,
		`ip netns exec red git clean -fdx`:                                          verdict.Block,
		`ip netns exec red ping -c1 10.0.0.1`:                                       verdict.Allow,
		`pee 'wc -l' 'sort' < notes.txt`:                                            verdict.Allow,
		`pueue add -- rm -rf build`:                                                 verdict.Block,
		`watchman-make -p '*.c' --run 'make test'`:                                  verdict.Allow,
		`rclone purge build/`:                                                       verdict.Block,
		`rclone purge --dry-run build/`:                                             verdict.Allow,
		`rclone purge gdrive:old-backups`:                                           verdict.Allow,
		`vgremove -f vg0`:                                                           verdict.Block,
		`lvremove /dev/vg0/data`:                                                    verdict.Allow,
		`please -u postgres psql`:                                                   verdict.Block,
		`ksu`:                                                                       verdict.Block,
		`mvn clean deploy -DskipTests`:                                              verdict.Warn,
		`mvn test`:                                                                  verdict.Allow,
		`goreleaser release --skip=publish`:                                         verdict.Allow,
	})
}

// TestUnknownProgramShellCode: a code option's value that is shell code
// whose first word does not name the program it runs (a list after a
// harmless first command, an assignment first, a group, a subshell, a
// compound command, a function) and a value attached to the code letter
// (-cCODE: no cluster of option letters holds a blank) are read as a
// command line too; a renamed copy of bash given them deleted build
// through the real client (testdata/redteam/round6/README.md). Shell code
// of harmless commands, another language's quoted literal and the value
// of an option that is not a code option stay allowed.
func TestUnknownProgramShellCode(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`./tool -c 'true; rm -rf build'`:                verdict.Block,
		`./tool -c 'echo hi; rm -rf build'`:             verdict.Block,
		`./tool -c 'cd /tmp && git push --force'`:       verdict.Block,
		`./tool -c 'x=rm; $x -rf build'`:                verdict.Block,
		`./tool -c 'A=1 rm -rf build'`:                  verdict.Block,
		`./tool -c '{ rm -rf build; }'`:                 verdict.Block,
		`./tool -c '(rm -rf build)'`:                    verdict.Block,
		`./tool -c 'if true; then rm -rf build; fi'`:    verdict.Block,
		`./tool -c 'f(){ rm -rf build; }; f'`:           verdict.Block,
		`./runner --command 'true && git reset --hard'`: verdict.Block,
		`./tool -c"rm -rf build"`:                       verdict.Block,
		`./tool -e'true; rm -rf build'`:                 verdict.Block,
		`./tool -c 'true; echo rm -rf build'`:           verdict.Allow,
		`./tool -c 'make; make test'`:                   verdict.Allow,
		`./tool -c 'a=1; b=2'`:                          verdict.Allow,
		`./tool -e 'print(1); x = 2'`:                   verdict.Allow,
		`./tool -c '(display "rm -rf b")'`:              verdict.Allow,
		`./tool --title 'a; rm -rf build'`:              verdict.Allow,
		`./tool -c"echo hi"`:                            verdict.Allow,
		`./tool -qv -o out.txt`:                         verdict.Allow,
	})
}

// TestPythonRowNamesLexed: every name of the python row is lexed as Python
// (the launcher py too: py -c 'import os; os.system(…)' was allowed while
// python3 -c blocked, because the lexer kept its own list of names).
func TestPythonRowNamesLexed(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`py -c 'import os; os.system("rm -rf build")'`:        verdict.Block,
		`py -3 -c 'import shutil; shutil.rmtree("build")'`:    verdict.Block,
		`pypy3 -c 'import os; os.system("git push --force")'`: verdict.Block,
		`py -c 'print("rm -rf build")'`:                       verdict.Allow,
	})
}
