package bashguard

import (
	"github.com/superagent-harness/harness/internal/verdict"
)

// Rule is one entry of the rule table (rules/*.yaml).
type Rule struct {
	// ID is the stable rule id, e.g. "git.push-force".
	ID string
	// Family is the corpus family (rm_rf, privilege, git_history, perms,
	// disk, forkbomb, production, harness_admin, warn_external) or "shell".
	Family string
	// Action is Block or Warn.
	Action verdict.Action
	// Message says what the rule guards against, for the model.
	Message string
	// Hint is the legitimate way forward.
	Hint string
}

// Rules returns a copy of the built-in rule table, in evaluation order.
func Rules() []Rule {
	out := make([]Rule, len(builtinRules))
	copy(out, builtinRules)
	return out
}

// rules is the effective rule table for one Decide: built-ins with the
// project's overrides applied.
type rules struct {
	rules []Rule
	ov    *Overrides
	user  []userRule
}

func ruleSet(ov *Overrides) rules {
	if ov == nil {
		return rules{rules: builtinRules}
	}
	return rules{rules: builtinRules, ov: ov, user: ov.userRules()}
}

func (rs rules) byID(id string) *Rule {
	for i := range rs.rules {
		if rs.rules[i].ID == id {
			return &rs.rules[i]
		}
	}
	return nil
}

// action is the rule's action for invocation c after overrides: disabled
// rules and allow-listed targets give Allow, warn switches give Warn; by
// names the override file and entry that decided ("" when none did).
func (rs rules) action(r *Rule, c *call, cwd string) (a verdict.Action, by string) {
	if rs.ov == nil {
		return r.Action, ""
	}
	return rs.ov.action(r, c, cwd)
}
