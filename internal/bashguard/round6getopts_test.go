package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestGetoptsSetsOptarg: getopts reads the option at $OPTIND from its
// arguments (or the positional parameters) and sets OPTARG to its value,
// so a command built from $OPTARG is known (checked with bash 5.2).
func TestGetoptsSetsOptarg(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`getopts :x: o -x'rm -rf build'; $OPTARG`:                    verdict.Block,
		`set -- -e 'git push --force'; getopts e: k; eval "$OPTARG"`: verdict.Block,
		`OPTIND=2; getopts c: o x -c 'git reset --hard'; $OPTARG`:    verdict.Block,
		`getopts a:b: o -a rm -b x; $OPTARG -rf build`:               verdict.Block,
		`getopts c: o -c 'ls -la'; $OPTARG`:                          verdict.Allow,
		`getopts c o -c 'rm -rf build'; $OPTARG`:                     verdict.Allow,
		`getopts :c o -z; $OPTARG`:                                   verdict.Allow,
		`getopts c: o -- -c 'rm -rf build'; $OPTARG`:                 verdict.Allow,
	})
}
