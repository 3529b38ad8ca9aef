//go:build !bashguard

package hook

import "github.com/superagent-harness/harness/internal/verdict"

// preBash refuses every Bash call until internal/bashguard is wired in
// (fail-closed: a guard that cannot decide never allows silently).
func (r runner) preBash(c *call) Output {
	var in bashInput
	if err := decodeToolInput(c.in.ToolInput, &in); err != nil {
		return r.failure(c, ruleInputInvalid, err)
	}
	c.rec.Command = in.Command
	if d, bad := commandProblem(in.Command); bad {
		return r.answer(c, d, "this Bash command")
	}
	return r.answer(c, verdict.Decision{Action: verdict.Block, Rule: ruleInternalError,
		Message: "the Bash command policy is not available in this build"}, "this Bash command")
}
