package cli

import "github.com/superagent-harness/harness/internal/ops"

// PlanCmd is `harness plan FILE`.
type PlanCmd struct {
	File string `arg:"" name:"FILE" help:"Plan file (YAML or JSON; - = stdin)."`
	Dir  string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *PlanCmd) Help() string {
	return `Hermes's planner in one step: writes the features, their checkpoints, the contract and tooling.md
from one plan file. The plan has three keys:

  features:      each {id: f001, name, acceptance: [1-7 checkable items], depends_on: [..],
                 checkpoints: [{phase: 1-4, type: gate|review|notify, prompt, blockers: [{id, question,
                 options: [a. .., b. ..]}], external_irreversible}]}; optional priority (P1), execution_path
                 (generator_cc), verification_mode (hybrid), assignee (claude-code); checkpoint ids default
                 to cp-<fid>-<n>
  contract:      optional {generator_contract, evaluator_criteria: {pass, retry, fail}, max_iterations: 3}
  tooling:       optional text for tooling.md sections 1-5: {capabilities, mapping, decisions, forbidden,
                 constraints}

Every gate gets the catch-all question appended (2-4 drafted blockers before it); a review needs at least
one blocker, a notify has none. The DAG is checked (unique ids, known dependencies, no cycle, an entry
feature) and so is the acceptance count. tooling.md is rendered from templates/tooling.template.md while
the tooling gate is not approved. Refused (exit 1) once the DAG gate is approved or a feature has started;
exit 2 for a malformed plan.

Examples:
  harness plan plan.yaml
  harness plan --json plan.json /path/to/sprint_20260502_1
  cat plan.yaml | harness plan -`
}

// Run performs the command.
func (c *PlanCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	data, err := e.readArg("FILE", c.File)
	if err != nil {
		return err
	}
	plan, err := ops.ParsePlan(data)
	if err != nil {
		return e.opsResult(nil, err)
	}
	rep, err := ops.ApplyPlan(env, plan, nil)
	return e.opsResult(rep, err)
}
