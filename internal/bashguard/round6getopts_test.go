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

// TestGetoptsClusterAndLoop: inside an option cluster getopts keeps its
// place in the word (`-ac VALUE`: a, then c with the next word; `-acVALUE`),
// OPTIND assigned again starts over, and `while getopts` runs its body once
// per option, each time with that option's OPTARG (checked with bash 5.2);
// before, the cluster's later letters were forgotten and the loop body saw
// only the first option, so these deleted build through the real client
// (testdata/redteam/round6/README.md). A body the loop may not enter is
// still judged.
func TestGetoptsClusterAndLoop(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`getopts ac: o -ac 'rm -rf build'; getopts ac: o -ac 'rm -rf build'; eval "$OPTARG"`:          verdict.Block,
		`getopts ac: o '-acrm -rf build'; getopts ac: o '-acrm -rf build'; $OPTARG`:                   verdict.Block,
		`for i in 1 2 3; do getopts abc: o -ab -c 'rm -rf build'; done; eval "$OPTARG"`:               verdict.Block,
		`while getopts ac: o -a -c 'rm -rf build'; do eval "$OPTARG"; done`:                           verdict.Block,
		`set -- -vc 'git push -f'; while getopts vc: k; do case $k in c) eval "$OPTARG";; esac; done`: verdict.Block,
		`while getopts a o; do rm -rf build; done`:                                                    verdict.Block,
		`getopts abc: o -ab -c 'rm -rf build'; getopts abc: o -ab -c 'rm -rf build'; eval "$OPTARG"`:  verdict.Allow,
		`getopts ab o -ab; OPTIND=1; getopts ab: o -ab 'rm -rf build'; eval "$OPTARG"`:                verdict.Allow,
		`while getopts ac: o -a -c 'ls -la'; do eval "$OPTARG"; done`:                                 verdict.Allow,
		`set -- -v -x; while getopts vx o; do echo "$o"; done`:                                        verdict.Allow,
	})
}
