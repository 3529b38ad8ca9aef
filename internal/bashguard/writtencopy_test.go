package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestWrittenFileTextFollows: the text a command writes to a file follows
// the file when tee writes it (-a appends), when cp, mv, install or ln
// copies, renames or links it (into a directory too: DEST/NAME; a symbolic
// link's relative target is read from the link's directory), when cat
// reads it back (to a pipe or another file) and when $(<FILE) reads it, so
// a later command that runs or reads the copy runs that text (checked with
// bash 5.2 and git 2.39: each runs its command). Before, only a redirection
// of a literal's output was remembered and each of these deleted build
// through the real client (testdata/redteam/round6/README.md). Harmless
// text, and a copy nobody runs, stay allowed.
func TestWrittenFileTextFollows(t *testing.T) {
	judgedIn(t, "/r", map[string]verdict.Action{
		`printf 'rm -rf build' | tee a.sh && bash a.sh`:                                                                verdict.Block,
		`printf 'rm -rf build' | tee -a x a.sh >/dev/null; sh ./a.sh`:                                                  verdict.Block,
		`printf 'rm -rf build' > a.sh && cp a.sh b.sh && bash b.sh`:                                                    verdict.Block,
		`printf 'rm -rf build' > a.sh && mv a.sh /r/src/b.sh && bash src/b.sh`:                                         verdict.Block,
		`printf 'rm -rf build' > a.sh && cp a.sh src && bash src/a.sh`:                                                 verdict.Block,
		`printf 'rm -rf build' > a.sh && install -t src a.sh && bash /r/src/a.sh`:                                      verdict.Block,
		`printf 'rm -rf build' > src/a.sh && ln -s a.sh src/b.sh && bash src/b.sh`:                                     verdict.Block,
		`echo 'rm -rf build' > a.sh; cat a.sh | sh`:                                                                    verdict.Block,
		`echo 'rm -rf build' > a.sh; cat a.sh > b.sh; sh b.sh`:                                                         verdict.Block,
		`echo 'git push -f' > c.txt && eval "$(cat c.txt)"`:                                                            verdict.Block,
		`echo 'rm -rf build' > c.txt; $(<c.txt)`:                                                                       verdict.Block,
		"printf '[alias]\\n x = !rm -rf build\\n' | tee src/g.cfg >/dev/null && git -c include.path=$PWD/src/g.cfg x":  verdict.Block,
		"printf '[alias]\\n x = !rm -rf build\\n' > g.cfg && cp g.cfg src/h.cfg && git -c include.path=/r/src/h.cfg x": verdict.Block,
		`printf 'echo hi' | tee a.sh && bash a.sh`:                                                                     verdict.Allow,
		`printf 'rm -rf build' | tee a.sh`:                                                                             verdict.Allow,
		`printf 'rm -rf build' > a.sh && cp a.sh b.sh`:                                                                 verdict.Allow,
		`echo 'echo hi' > a.sh; cat a.sh | sh`:                                                                         verdict.Allow,
		`echo 'rm -rf build' > a.sh; cat -n a.sh`:                                                                      verdict.Allow,
		`echo 'echo hi' > c.txt; $(<c.txt)`:                                                                            verdict.Allow,
	})
}
