package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestAnchoredReplaceAndArraySubscript: `${v/#P/R}` and `${v/%P/R}`
// replace only at the start or end of the value, and an indexed array's
// subscript is arithmetic (negative counts from the end), so the command
// word they build is known (checked with bash 5.2).
func TestAnchoredReplaceAndArraySubscript(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`c=m; ${c/#/r} -rf build`:            verdict.Block,
		`c=rmX; ${c/%X} -rf build`:           verdict.Block,
		`g=xgit; ${g/#x} reset --hard`:       verdict.Block,
		`p=rx; "${p/%x/m}" -rf build`:        verdict.Block,
		`a=(rm ls); ${a[-2]} -rf build`:      verdict.Block,
		`a=(ls rm); ${a[0x1]} -rf build`:     verdict.Block,
		`a=(x git y); ${a[-2]} reset --hard`: verdict.Block,
		`a=(ls rm); ${a[ 3 - 2 ]} -rf build`: verdict.Block,
		`c=rmX; ${c/#X/} -rf build`:          verdict.Allow,
		`c=Xm; ${c/"#X"/r} -rf build`:        verdict.Allow,
		`c=Xm; ${c//#X/r} -rf build`:         verdict.Allow,
		`a=(rm ls); ${a[-1]} -rf build`:      verdict.Allow,
		`g=gitx; ${g/%x/} status`:            verdict.Allow,
	})
}
