package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestPosixlyCorrectStopsPermutation: with POSIXLY_CORRECT in its
// environment a GNU getopt program stops reading options at the first
// operand (`POSIXLY_CORRECT=1 rm d -rf` removes the files d and -rf,
// checked with coreutils 9); a plain shell variable is not exported, and
// git does not read POSIXLY_CORRECT.
func TestPosixlyCorrectStopsPermutation(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`POSIXLY_CORRECT= rm build -rf`:                                 verdict.Allow,
		`export POSIXLY_CORRECT=y; rm build -r -f`:                      verdict.Allow,
		`env POSIXLY_CORRECT=1 rm build -rf`:                            verdict.Allow,
		`POSIXLY_CORRECT=1 rm -rf build`:                                verdict.Block,
		`POSIXLY_CORRECT=1; rm build -rf`:                               verdict.Block,
		`export POSIXLY_CORRECT=1; unset POSIXLY_CORRECT; rm build -rf`: verdict.Block,
		`POSIXLY_CORRECT=1 git push origin main --force`:                verdict.Block,
		`rm build -rf`: verdict.Block,
	})
}

// TestPosixlyCorrectTakenBack: POSIXLY_CORRECT removed from rm's
// environment again — by env -u or env -i, or by export -n / declare +x,
// which take the export back — lets rm permute, so rm d -rf deletes d
// (checked with bash 5.2 and coreutils 9); 2ee4970 read the variable in
// the environment view and allowed them. Exported again, or set by the
// command's own prefix, it stops the permutation.
func TestPosixlyCorrectTakenBack(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`POSIXLY_CORRECT=1 env -u POSIXLY_CORRECT rm build -rf`:                                     verdict.Block,
		`POSIXLY_CORRECT=1 env --unset=POSIXLY_CORRECT rm build -rf`:                                verdict.Block,
		`POSIXLY_CORRECT=1 env -i rm build -rf`:                                                     verdict.Block,
		`POSIXLY_CORRECT=1 env - rm build -rf`:                                                      verdict.Block,
		`export POSIXLY_CORRECT=1; env -i /bin/rm build -rf`:                                        verdict.Block,
		`export POSIXLY_CORRECT=1; export -n POSIXLY_CORRECT; rm build -rf`:                         verdict.Block,
		`export POSIXLY_CORRECT=1; declare +x POSIXLY_CORRECT; rm build -rf`:                        verdict.Block,
		`export -n POSIXLY_CORRECT=1; rm build -rf`:                                                 verdict.Block,
		`typeset +x POSIXLY_CORRECT=1; rm build -rf`:                                                verdict.Block,
		`POSIXLY_CORRECT=1 env -u X rm build -rf`:                                                   verdict.Allow,
		`declare -x POSIXLY_CORRECT=1; rm build -rf`:                                                verdict.Allow,
		`export POSIXLY_CORRECT=1; declare +x POSIXLY_CORRECT; POSIXLY_CORRECT=1 rm build -rf`:      verdict.Allow,
		`export POSIXLY_CORRECT=1; export -n POSIXLY_CORRECT; export POSIXLY_CORRECT; rm build -rf`: verdict.Allow,
	})
}
