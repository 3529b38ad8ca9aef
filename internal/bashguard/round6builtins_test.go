package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// Own spellings of the round-6 classes of bash builtins and tables that run
// a command (testdata/redteam/round6/README.md "What it probes"; none of
// them is a listed case) next to allow neighbours of the same mechanism.
// What runs was checked with bash 5.2.15 under /tmp, `touch marker` in
// place of the delete.

// TestBuiltinsRunningCommandWords: `jobs -x CMD ARGS` runs CMD with ARGS;
// `compgen -C CMD` runs CMD to list completions; `complete -C CMD` and
// `bind -x 'KEYSEQ: CMD'` register CMD to run later (judged like a
// function body, testdata/corpus/README.md §6).
func TestBuiltinsRunningCommandWords(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"jobs -x rm -rf dist":                    verdict.Block,
		"jobs -x -- git reset --hard":            verdict.Block,
		"jobs -x sh -c 'rm -rf dist'":            verdict.Block,
		"jobs -l":                                verdict.Allow,
		"jobs -x echo rm -rf dist":               verdict.Allow,
		"jobs -p; jobs -x ls -la":                verdict.Allow,
		"compgen -C 'rm -rf dist' y":             verdict.Block,
		"compgen -A file -C 'git clean -fdx' --": verdict.Block,
		"compgen -W 'a b' x":                     verdict.Allow,
		"compgen -C 'echo a b' x":                verdict.Allow,
		"compgen -c gi":                          verdict.Allow,
		"complete -C 'rm -rf dist' git":          verdict.Block,
		"complete -o default -C 'echo x' git":    verdict.Allow,
		"complete -W 'a b' make":                 verdict.Allow,
		`bind -x '"\C-x": rm -rf dist'`:          verdict.Block,
		`bind -x '"\C-x": ls -la'`:               verdict.Allow,
		`bind '"\C-x": forward-char'`:            verdict.Allow,
	})
}

// TestHistoryReRun: `fc -s [OLD=NEW] [PREFIX]` re-runs the last history
// entry (the one `history -s` stored), with OLD replaced by NEW; `history
// -s` alone runs nothing.
func TestHistoryReRun(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"history -s 'rm -rf dist'; fc -s":                      verdict.Block,
		"history -s 'rm -rf dist' && fc -s rm":                 verdict.Block,
		"history -s 'git reset --mixed'; fc -s mixed=hard":     verdict.Block,
		"history -s 'rm -i dist'; fc -s -- -i=-rf":             verdict.Block,
		"history -s 'rm -rf dist'; history -s ls; fc -s -2":    verdict.Block,
		"history -s ls; fc -s":                                 verdict.Allow,
		"history -s 'rm -rf dist'":                             verdict.Allow,
		"history -s 'git reset --hard'; fc -s hard=soft":       verdict.Allow,
		"history -s 'rm -rf dist'; history -s 'ls -la'; fc -s": verdict.Allow,
	})
}

// TestInteractivePromptStrings: an interactive shell (`bash -i`) expands
// PS1 (and PS0 before each command) with their command substitutions, and
// runs PROMPT_COMMAND before each prompt; a non-interactive one does not.
func TestInteractivePromptStrings(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"PS1='$(rm -rf dist) $ ' bash --norc -i < /dev/null":      verdict.Block,
		"PS0='`git reset --hard`' bash -i <<< 'true'":             verdict.Block,
		"PROMPT_COMMAND='rm -rf dist' bash --norc -i < /dev/null": verdict.Block,
		"export PS1='$(rm -rf dist)'; bash --norc -i < /dev/null": verdict.Block,
		"PS1='> ' bash --norc -i < /dev/null":                     verdict.Allow,
		"PS1='$(date +%T) $ ' bash --norc -i < /dev/null":         verdict.Allow,
		"PS1='$(rm -rf dist)' bash -c 'true'":                     verdict.Allow,
		"PROMPT_COMMAND='history -a' bash --norc -i < /dev/null":  verdict.Allow,
	})
}

// TestReadStdinAsCommandWord: `$(</dev/stdin)` of a here-string is its
// text; as a command word it word-splits into the command.
func TestReadStdinAsCommandWord(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"{ $(</dev/stdin); } <<< 'rm -rf dist'":          verdict.Block,
		"{ $(< /dev/fd/0) ; } <<< 'git clean -fdx'":      verdict.Block,
		"{ $(</dev/stdin); } <<< 'ls -la'":               verdict.Allow,
		"{ echo \"$(</dev/stdin)\"; } <<< 'rm -rf dist'": verdict.Allow,
	})
}

// TestUnsetDeclareSubscripts: `unset 'a[SUB]'` and `declare 'a[SUB]=V'`
// evaluate SUB as an arithmetic expression for an indexed array: its
// command substitutions run.
func TestUnsetDeclareSubscripts(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"b=(1 2); unset 'b[$(rm -rf dist)]'":     verdict.Block,
		"unset -v 'b[`rm -rf dist`]'":            verdict.Block,
		"declare 'b[$(git reset --hard)]=x'":     verdict.Block,
		"f(){ local 'b[$(rm -rf dist)]=1'; }; f": verdict.Block,
		"typeset -a b; typeset 'b[1]'":           verdict.Allow,
		"b=(1 2); unset 'b[1]'":                  verdict.Allow,
		"declare 'b[1]=x'; echo \"${b[1]}\"":     verdict.Allow,
		"declare b='[$(rm -rf dist)]'":           verdict.Allow,
	})
}

// TestBashTables: BASH_CMDS is the command hash table (`BASH_CMDS[ls]=
// /bin/rm` makes `ls` run rm, like `hash -p`); BASH_ALIASES[NAME] is the
// alias text.
func TestBashTables(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"BASH_CMDS[ll]=/usr/bin/rm; ll -rf dist":             verdict.Block,
		"BASH_CMDS+=([go]=/bin/rm); go -r -f dist":           verdict.Block,
		"declare -A BASH_CMDS=([ll]=/bin/rm); ll -rf dist":   verdict.Block,
		"BASH_CMDS[ll]=/bin/ls; ll -la":                      verdict.Allow,
		"BASH_CMDS[ll]=/bin/rm":                              verdict.Allow,
		"alias z='rm -rf dist'; ${BASH_ALIASES[z]}":          verdict.Block,
		"alias z='rm -rf dist'; eval \"${BASH_ALIASES[z]}\"": verdict.Block,
		"BASH_ALIASES[z]='git reset --hard'\nz":              verdict.Block,
		"alias z='rm -rf dist'; echo \"${BASH_ALIASES[z]}\"": verdict.Allow,
		"alias z='ls -la'; ${BASH_ALIASES[z]}":               verdict.Allow,
	})
}

// TestLastpipeRead: with `shopt -s lastpipe` (job control is off in
// `bash -c`) the last command of a pipeline runs in this shell, so `read`
// keeps the piped literal; without it read runs in a subshell.
func TestLastpipeRead(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"shopt -s lastpipe; printf 'rm -rf dist' | read x; $x":     verdict.Block,
		"shopt -s lastpipe\necho 'git clean -fdx' | read -r y\n$y": verdict.Block,
		"shopt -s lastpipe; echo 'ls -la' | read x; $x":            verdict.Allow,
	})
}

// TestSourceWithArguments: `source FILE ARGS…` runs FILE with ARGS as its
// positional parameters.
func TestSourceWithArguments(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`source /dev/stdin rm -rf dist <<< '"$@"'`:            verdict.Block,
		`. /dev/fd/0 dist <<< 'rm -rf "$1"'`:                  verdict.Block,
		`echo '$1 -rf $2' > s.sh; . ./s.sh rm dist`:           verdict.Block,
		`source /dev/stdin ls -la <<< '"$@"'`:                 verdict.Allow,
		`source /dev/stdin rm -rf dist <<< 'echo "$#"'`:       verdict.Allow,
		`set -- rm -rf dist; source /dev/stdin ls <<< '"$@"'`: verdict.Allow,
	})
}

// TestElementReferences: a reference to an array element, by indirection
// `${!x}` or by a nameref, expands and evaluates its subscript each time it
// is used (bash 5.2: x='a[$(touch m)]'; echo ${!x} made m; declare -n
// alone did not).
func TestElementReferences(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"x='a[$(rm -rf dist)]'; echo ${!x}":                         verdict.Block,
		"declare -A m; x='m[`git reset --hard`]'; : \"${!x}\"":      verdict.Block,
		"declare -n r='a[$(rm -rf dist)]'; echo \"$r\"":             verdict.Block,
		"declare -n r='a[$(rm -rf dist)]'; r=1":                     verdict.Block,
		"f(){ local -n r=$1; echo \"$r\"; }; f 'a[$(rm -rf dist)]'": verdict.Block,
		"declare -n r='a[$(rm -rf dist)]'":                          verdict.Allow,
		"a=(p q); x='a[1]'; echo \"${!x}\"":                         verdict.Allow,
		"a=(p q); declare -n r='a[0]'; echo \"$r\"":                 verdict.Allow,
		"x='a[$(rm -rf dist)]'; echo \"$x\" ${#x}":                  verdict.Allow,
	})
}
