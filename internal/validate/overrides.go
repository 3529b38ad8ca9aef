package validate

import (
	"strings"

	"github.com/superagent-harness/harness/internal/bashguard"
	"github.com/superagent-harness/harness/internal/monitor"
	"github.com/superagent-harness/harness/internal/ruleid"
)

// rulesOverrides reports an invalid .harness/rules.yaml (the project's guard
// rule overrides, read by bashguard.LoadOverrides). An invalid file makes
// the hook keep the built-in rules only, so the project's intent is lost
// silently unless validate says so. Rule id: rules.overrides.
func (c *checker) rulesOverrides() {
	if _, err := bashguard.LoadOverrides(c.ws.Root); err != nil {
		msg := err.Error()
		if !strings.Contains(msg, bashguard.OverridesFile) {
			msg = bashguard.OverridesFile + ": " + msg
		}
		c.rep.add(Finding{File: bashguard.OverridesFile, Rule: ruleid.RulesOverrides,
			Message: "invalid guard rule overrides (the built-in rules stay in force, the overrides are ignored): " + msg})
	}
	if _, err := monitor.LoadThresholds(c.ws.Root); err != nil {
		c.rep.add(Finding{File: bashguard.OverridesFile, Rule: ruleid.RulesOverrides,
			Message: "invalid Reset thresholds (the protocol's defaults stay in force): " + err.Error()})
	}
}
