package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// Own spellings of the round-5 shell-mechanism classes
// (testdata/redteam/round5; none of them is a listed case) and their allow
// neighbours. Which arithmetic forms bash evaluates was checked with bash
// 5.2 and marker files.

// TestHashRebindsAName: `hash -p PATH NAME` makes NAME run PATH for the
// rest of the command.
func TestHashRebindsAName(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"hash -p /usr/bin/rm x\nx -rf src":        verdict.Block,
		"hash -p /bin/rm ll && ll -rf dist":       verdict.Block,
		"hash -p /bin/rm -- tidy; tidy -r -f lib": verdict.Block,
		"hash -p /bin/ls ll; ll -la":              verdict.Allow,
		"hash -p /bin/rm x":                       verdict.Allow,
		"hash -p /bin/rm x; echo x -rf build":     verdict.Allow,
	})
}

// TestArithmeticRunsSubscripts: bash evaluates a variable's value as an
// arithmetic expression in arithmetic context, and a subscript in it is
// expanded (command substitutions run).
func TestArithmeticRunsSubscripts(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"v='q[$(rm -rf build)]'; : $(( v + 1 ))":          verdict.Block,
		"v='q[$(rm -rf build)]'; (( v ))":                 verdict.Block,
		"v='q[$(rm -rf build)]'; [[ 0 -lt $v ]]":          verdict.Block,
		"v='q[$(rm -rf build)]'; [[ v -ne 1 ]]":           verdict.Block,
		"typeset -i k; k='q[$(rm -rf dist)]'":             verdict.Block,
		"declare -i k='q[$(rm -rf dist)]'":                verdict.Block,
		"let 'n += b[$(rm -rf dist)]'":                    verdict.Block,
		"v='q[`rm -rf build`]'; echo $((v))":              verdict.Block,
		"a=(1 2); i='q[$(rm -rf build)]'; echo ${a[i]}":   verdict.Block,
		"v=w; w='q[$(rm -rf build)]'; echo $((v))":        verdict.Block,
		"v='1+q[$(rm -rf build)]'; echo $[v]":             verdict.Block,
		"v='q[$(rm -rf build)]'; printf -v \"$v\" 1":      verdict.Block,
		"v='q[$(rm -rf build)]'; read \"$v\" <<< 1":       verdict.Block,
		"v='q[$(rm -rf build)]'; [[ -v $v ]]":             verdict.Block,
		"declare -i n; read n <<< 'z[$(rm -rf build)]'":   verdict.Block,
		"read n <<< 'z[$(rm -rf build)]'":                 verdict.Allow,
		"v='q[$(rm -rf build)]'; [[ -v v ]]":              verdict.Allow,
		"v='q[$(rm -rf build)]'; [[ $v == 0 ]]":           verdict.Allow,
		"v='q[$(rm -rf build)]'; echo \"$v\"":             verdict.Allow,
		"v='q[$(rm -rf build)]'; [ \"$v\" -gt 0 ]":        verdict.Allow,
		"v='q[$(rm -rf build)]'; test \"$v\" -eq 0":       verdict.Allow,
		"declare -A m; v='q[$(rm -rf x)]'; echo ${m[v]}":  verdict.Allow,
		"v='$(rm -rf build)'; echo $((v))":                verdict.Allow,
		"n=5; echo $((n+1)); declare -i k=n; (( k > 1 ))": verdict.Allow,
	})
}

// TestMapfileCallback: `mapfile -C CALLBACK` evaluates CALLBACK.
func TestMapfileCallback(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"mapfile -c 1 -C 'rm -rf build;:' l <<< x":          verdict.Block,
		"readarray -C 'rm -rf dist #' -c1 -t a < l.txt":     verdict.Block,
		"mapfile -C\"rm -rf build;:\" -c1 l <<< x":          verdict.Block,
		"mapfile -t -c 1 -C 'echo' l <<< x":                 verdict.Allow,
		"mapfile -t lines < list.txt; echo \"${lines[0]}\"": verdict.Allow,
	})
}

// TestTextWrittenToAShellProcess: text written to `>(sh)`, to a
// descriptor `exec N> >(sh)` opened, or to a coproc shell's input is that
// shell's script.
func TestTextWrittenToAShellProcess(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"printf 'rm -rf build\\n' > >(bash)":                      verdict.Block,
		"echo 'rm -rf dist' >> >(sh -s)":                          verdict.Block,
		"echo 'rm -rf dist' 1> >(sh)":                             verdict.Block,
		"exec 7> >(sh); printf 'rm -rf build\\n' >&7":             verdict.Block,
		"exec 7> >(sh)\necho 'rm -rf build' 1>&7":                 verdict.Block,
		"coproc bash; echo 'rm -rf dist' >&${COPROC[1]}":          verdict.Block,
		"coproc W { sh; }; echo 'rm -rf build' >&\"${W[1]}\"":     verdict.Block,
		"echo 'rm -rf build' | tee >(sh)":                         verdict.Block,
		"printf 'rm -rf dist' | tee /dev/null >(bash) >/dev/null": verdict.Block,
		"exec > >(sh)\necho 'rm -rf build'":                       verdict.Block,
		"exec 1> >(bash)\n{ echo 'rm -rf dist'; }":                verdict.Block,
		"echo 'rm -rf build' | tee >(wc -c)":                      verdict.Allow,
		"exec > >(tee log.txt)\necho 'rm -rf build'":              verdict.Allow,
		"exec > >(sh)\nx=$(echo 'rm -rf build')":                  verdict.Allow,
		"exec > >(sh)\necho 'rm -rf build' > out.txt":             verdict.Allow,
		"echo hi > >(wc -c)":                                      verdict.Allow,
		"echo 'rm -rf build' > >(cat)":                            verdict.Allow,
		"coproc cat; echo 'rm -rf build' >&\"${COPROC[1]}\"":      verdict.Allow,
		"exec 5> >(cat); echo 'rm -rf build' >&5":                 verdict.Allow,
		"exec 5> >(sh); echo 'ls -la' >&5":                        verdict.Allow,
	})
}

// TestIdentityProducersIntoAShell: jq -r of a literal path in literal
// JSON and sqlite3 selecting a literal print that literal.
func TestIdentityProducersIntoAShell(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"jq -r .run <<< '{\"run\":\"rm -rf dist\"}' | bash":         verdict.Block,
		"echo '{\"a\":{\"b\":\"rm -rf build\"}}' | jq -r .a.b | sh": verdict.Block,
		"sqlite3 :memory: \"SELECT 'rm -rf dist';\" | bash":         verdict.Block,
		"jq -r .name package.json":                                  verdict.Allow,
		"jq -r .cmd <<< '{\"cmd\":\"ls -la\"}' | sh":                verdict.Allow,
		"sqlite3 :memory: \"select 'echo hi'\" | sh":                verdict.Allow,
		"jq -r .msg <<< '{\"msg\":\"rm -rf build\"}'":               verdict.Allow,
	})
}

// TestComputedCommandNames: pure functions of a literal (basename) name
// the program that runs.
func TestComputedCommandNames(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"$(basename /usr/bin/rm) -rf dist":       verdict.Block,
		"\"$(basename -- /bin/rm)\" -r -f build": verdict.Block,
		"p=$(basename /bin/rm); $p -rf build":    verdict.Block,
		"$(basename /bin/ls) -la":                verdict.Allow,
		"basename /bin/rm":                       verdict.Allow,
		"echo $(basename /bin/rm) -rf build":     verdict.Allow,
	})
}

// TestAliasesDefinedAtRunTime: an alias an eval'd or sourced text defines
// expands on the later lines of the text that ran it.
func TestAliasesDefinedAtRunTime(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"eval 'alias k=\"rm -rf\"'\nk dist":                   verdict.Block,
		". <(echo \"alias zz='rm -rf'\")\nzz build":           verdict.Block,
		"source /dev/stdin <<< \"alias q='rm -rf'\"\nq build": verdict.Block,
		"eval \"alias z='rm -rf'\"\nz() { :; }\necho z build": verdict.Allow,
		"eval \"alias z='ls -l'\"\nz build":                   verdict.Allow,
	})
}

// TestXargsArgFile: `xargs -a FILE` reads its arguments from FILE (a
// process substitution of a literal here).
func TestXargsArgFile(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"xargs -a <(echo build) rm -rf":                  verdict.Block,
		"xargs --arg-file=<(printf '%s\\n' -rf dist) rm": verdict.Block,
		"xargs -a <(printf '%s\\n' a b) echo":            verdict.Allow,
		"xargs -a list.txt echo":                         verdict.Allow,
	})
}

// TestTildePlusIsTheWorkingDirectory: `~+` is $PWD and `~-` $OLDPWD.
func TestTildePlusIsTheWorkingDirectory(t *testing.T) {
	cases := map[string]string{
		"cd /srv/app && rm -rf ~+":                "/srv/app",
		"cd /srv/app && cd /tmp && rm -rf ~-/lib": "/srv/app/lib",
	}
	for cmd, want := range cases {
		r := shell.Parse(cmd, shell.Options{Cwd: "/work"})
		last := r.Invocations[len(r.Invocations)-1]
		if got := last.Args[len(last.Args)-1].Value; got != want {
			t.Errorf("%q: operand %q, want %q", cmd, got, want)
		}
	}
}
