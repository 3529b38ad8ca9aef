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
