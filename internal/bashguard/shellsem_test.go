package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// judged runs each command through Decide in a Generator session and
// checks the action (own spellings of the mechanisms behind the round-3
// red-team classes, testdata/redteam/round3: none of them is a listed case).
func judged(t *testing.T, cases map[string]verdict.Action) {
	t.Helper()
	for cmd, want := range cases {
		d := Decide(cmd, Context{Feature: "f002"}).Decision
		if d.Action != want {
			t.Errorf("%q: %s (%s), want %s", cmd, d.Action, d.Rule, want)
		}
	}
}

// TestAliasExpandsWhereBashExpandsIt: an alias expands only as the first
// word of a simple command in the source text, unquoted and without a
// backslash, while expand_aliases is on; the word after an alias expands
// too only when the alias text ends in a blank.
func TestAliasExpandsWhereBashExpandsIt(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"alias r='rm -rf'\n\"r\" build":                      verdict.Allow,
		"alias r='rm -rf'\nr\"\" build":                      verdict.Allow,
		"alias r='rm -rf'\nnice r build":                     verdict.Allow,
		"alias r='rm -rf'\nenv r build":                      verdict.Allow,
		"alias r='rm -rf'\nshopt -u expand_aliases\nr build": verdict.Allow,
		// after the reserved word time the parser is at a command word (checked in bash)
		"alias t='time'\nalias r='rm -rf'\nt r build":                                 verdict.Block,
		"alias r='rm -rf'\nr build":                                                   verdict.Block,
		"alias r='rm -rf'\nls; r build":                                               verdict.Block,
		"alias e='exec '\nalias r='rm -rf'\ne r build":                                verdict.Block,
		"alias n='nice -n 5 '\nalias r='rm -rf'\nn r build":                           verdict.Block,
		"shopt -u expand_aliases\nshopt -s expand_aliases\nalias r='rm -rf'\nr build": verdict.Block,
		// switched off on the line that uses it: bash had already expanded it
		"alias r='rm -rf'\nshopt -u expand_aliases; r build": verdict.Block,
	})
}

// TestSubcommandHelpIsALookup: the help of a subcommand runs nothing.
func TestSubcommandHelpIsALookup(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"git filter-branch --help":   verdict.Allow,
		"git -C repo filter-repo -h": verdict.Allow,
		"docker system prune --help": verdict.Allow,
		"git filter-repo --path src": verdict.Block,
		"git push --force --help":    verdict.Block,
	})
}

// TestShellStartupAndTraceCode: a shell started reads $BASH_ENV / $ENV,
// xtrace expands PS4 before each command, input descriptors other than 0
// carry scripts (`exec N<…`, `N<<<…`, /dev/fd/N, /proc/self/fd/N),
// `${@:N}` slices the positional parameters and `${V:=W}` assigns.
func TestShellStartupAndTraceCode(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"export BASH_ENV=<(printf 'rm -rf ~'); bash script.sh":         verdict.Block,
		"ENV=/dev/fd/3 sh -i 3<<<'git push --force'":                   verdict.Block,
		"echo 'rm -rf build' > /tmp/rc; BASH_ENV=/tmp/rc bash -c true": verdict.Block,
		"set -o xtrace; PS4='`rm -rf build` '; ls":                     verdict.Block,
		"PS4='+$(git clean -fdx) ' bash -x -c 'echo hi'":               verdict.Block,
		"x='$(rm -rf build)'; echo \"${x@P}\"":                         verdict.Block,
		"exec 4< <(echo 'rm -rf build'); sh /proc/self/fd/4":           verdict.Block,
		"exec 5<<'EOF'\nrm -rf build\nEOF\nsource /dev/fd/5":           verdict.Block,
		"set -- a b 'rm' -rf build; \"${@:3}\"":                        verdict.Block,
		": ${X:=git} ${Y:=push}; $X $Y --force":                        verdict.Block,
		"make -f /dev/fd/3 3<<<$'x:\\n\\trm -rf build' x":              verdict.Block,
		"PS4='$(rm -rf build)'; ls":                                    verdict.Allow, // no xtrace: PS4 never expands
		"set -x; echo hi":                                              verdict.Allow,
		"bash -x script.sh":                                            verdict.Allow,
		"sh 0<&3 3<<<'rm -rf dist'":                                    verdict.Allow, // left to right: fd 3 is not open yet (checked)
		"make -f <(echo all:) all":                                     verdict.Allow,
		"exec 3<<<'echo hi'; bash <&3":                                 verdict.Allow,
		"set -- a b; echo \"${@:1}\"":                                  verdict.Allow,
	})
}

// TestLiteralTextPipedIntoAShell: what a shell reads from a pipe is judged
// when it is computable from literals (a printer of a literal, a decoder
// of a literal) and, when it is not, the producer's literal text is
// judged as the script (cautious default, testdata/corpus/README.md §9.1).
func TestLiteralTextPipedIntoAShell(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"echo 726d202d7266206275696c64 | basenc --base16 -d | bash": verdict.Block,
		"basenc --base64url -d <<< cm0gLXJmIGJ1aWxk | sh":           verdict.Block,
		"node --print \"'rm -rf ' + 'build'\" | sh":                 verdict.Block,
		"perl -le 'print q{git reset --hard}' | sh":                 verdict.Block,
		"tr a-z A-Z <<< 'RM -RF BUILD' | tr A-Z a-z | sh":           verdict.Block,
		"gojq -r '\"git push --force\"' <<< null | bash":            verdict.Block,
		"awk 'BEGIN{print \"rm -rf build\"}' | sh":                  verdict.Block,
		"node -p '\"echo hi\"' | bash":                              verdict.Allow,
		"cat script.sh | bash":                                      verdict.Allow,
		"jq -r '.scripts.build' package.json | sh":                  verdict.Allow,
		"grep -v '^#' setup.sh | bash":                              verdict.Allow,
		"base32 -d <<< NBUQ==== | sh":                               verdict.Allow,
	})
}

// TestGitConfigChannels: --config-env=KEY=VAR takes KEY from the
// environment, and a config file written earlier in the same command is
// read by the git runs after it.
func TestGitConfigChannels(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"PV='push --force' git --config-env=alias.p=PV p origin main":                                  verdict.Block,
		"export R='reset --hard'; git --config-env alias.u=R u":                                        verdict.Block,
		"X='!rm -rf ~' git --config-env=alias.n=X n":                                                   verdict.Block,
		"printf '[alias]\\n\\tz = reset --hard\\n' >> .git/config && git z":                            verdict.Block,
		"echo '[alias \"\"]' > /dev/null; printf '[alias]\\nq = clean -fdx\\n' >> ~/.gitconfig; git q": verdict.Block,
		"PV='status' git --config-env=alias.p=PV p":                                                    verdict.Allow,
		"printf '[alias]\\n\\tst = status\\n' >> .git/config && git st":                                verdict.Allow,
	})
}

// TestPartlyKnownInput: the output of a group, subshell or pipeline some
// of whose statements print literal text holds that text whatever the
// unknown rest holds (shell.walker.part), so a program that runs its stdin
// (crontab, at, ssh, a shell) runs it; a filter's unknown output has no
// known piece, and a redirected group's output goes to the file.
func TestPartlyKnownInput(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"{ crontab -l; echo '@reboot rm -rf ~'; } | crontab -":                verdict.Block,
		"crontab -l | { cat; echo '@daily rm -rf /srv/app'; } | crontab -":    verdict.Block,
		"crontab <(crontab -l; echo '@reboot rm -rf ~')":                      verdict.Block,
		"(crontab -l 2>/dev/null; echo '@reboot rm -rf ~') | crontab -u ci -": verdict.Block,
		"(cat jobs.txt; echo 'git push --force origin main') | at now":        verdict.Block,
		"(cat setup.sh; printf 'rm -rf ~\\n') | ssh box":                      verdict.Block,
		"(cat x; echo rm -rf build) | sh":                                     verdict.Block,
		"(crontab -l; echo '@hourly /usr/local/bin/backup.sh') | crontab -":   verdict.Allow,
		"crontab -l | grep -v '0 3 * * * rm -rf /tmp/cache' | crontab -":      verdict.Allow,
		"(crontab -l; echo '# rm -rf ~ was here') | crontab -":                verdict.Allow,
		"(crontab -l; echo '@reboot rm -rf ~') > cron.bak | crontab -":        verdict.Allow,
		"(crontab -l; echo '*/5 * * * * cd /srv && make') | crontab -":        verdict.Allow,
	})
}

// TestTclCode: Tcl code is judged by what its commands do (codelex/tcl.go),
// not only lines starting with exec or spawn.
func TestTclCode(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"tclsh <<< 'file delete -force build'":                               verdict.Block,
		"echo 'puts [exec rm -rf build]' | tclsh":                            verdict.Block,
		"tclsh <<< 'set f [open \"|rm -rf build\" r]; close $f'":             verdict.Block,
		"tclsh <<< 'uplevel #0 {exec git push --force origin main}'":         verdict.Block,
		"tclsh <<< 'rename exec run; run rm -rf build'":                      verdict.Block,
		"tclsh <<< 'exec {*}[list rm -rf build]'":                            verdict.Block,
		"expect -c 'if {1} { exec rm -rf build }'":                           verdict.Block,
		"jimsh -e 'set f [open |sh w]; puts $f {rm -rf build}; close $f'":    verdict.Block,
		"tclsh <<< 'while 1 { exec sleep 100 & }'":                           verdict.Block,
		"wish <<< 'button .b -command {file delete -force ~/proj}; pack .b'": verdict.Block,
		"tclsh <<< 'file attributes run.sh -permissions 0777'":               verdict.Block,
		"tclsh <<< 'puts \"rm -rf build\"' | sh":                             verdict.Block,
		"tclsh <<< 'puts {exec rm -rf build}'":                               verdict.Allow,
		"tclsh <<< '# file delete -force build'":                             verdict.Allow,
		"tclsh <<< 'file delete build.log'":                                  verdict.Allow,
		"tclsh <<< 'exec git status'":                                        verdict.Allow,
		"expect -c 'spawn ssh box; expect \"$ \"; send \"ls\\r\"; interact'": verdict.Allow,
		"tclsh <<< 'foreach f [glob *.txt] { puts [file size $f] }'":         verdict.Allow,
	})
}

// A slice without an offset (${x::N}) starts at 0, as bash reads it: the
// walker took the missing offset for a node and failed closed on every
// command using it ("internal error … syntax.Walk: unexpected node type
// <nil>"), as mvdan/sh's own CI step `echo "TAG=${GITHUB_SHA::8}"` did.
func TestSliceWithoutOffset(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`echo "TAG=${GITHUB_SHA::8}" >> "$GITHUB_ENV"`: verdict.Allow,
		`v=1.2.3; echo "${v::3}"`:                      verdict.Allow,
		`c=rmx; ${c::2} -rf build`:                     verdict.Block,
		`a=(rm -rf build); "${a[@]::3}"`:               verdict.Block,
		`a=(rm -rf build); "${a[@]::1}" build`:         verdict.Allow,
	})
}
