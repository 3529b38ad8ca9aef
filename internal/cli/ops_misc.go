package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/ops"
)

// PreflightCmd is `harness preflight --stage launch|started FID…`.
type PreflightCmd struct {
	Stage         string   `name:"stage" required:"" enum:"launch,started" help:"launch (before the session starts) or started (after harness session start)."`
	Features      []string `arg:"" name:"FID" help:"Feature ids being started."`
	RecordFailure bool     `name:"record-failure" help:"On failure, put the feature back to pending and record a fail entry naming the failed checks."`
}

// Help is shown under the usage line.
func (c *PreflightCmd) Help() string {
	return `The hard checks around starting a feature's Generator session, each printed ok or fail; exit 1
if any fails. Always: tooling locked, the tooling and dependency-plan checkpoints approved, a
valid sprint mode and contract status. --stage launch (before the session starts): the feature
directory, its files, and a .claude/settings.json that runs an executable harness-hook for the
session start, Bash and file tools, and stop. --stage started (after 'harness session start'):
the pool entry, a session id, .current_agent naming the feature; when all pass, the features
become in progress.

Examples:
  harness preflight --stage launch f001
  harness preflight --stage started f001 f002 --record-failure`
}

// Run performs the command.
func (c *PreflightCmd) Run(e *Env) error {
	env, err := e.opsEnv("")
	if err != nil {
		return err
	}
	res, rep, err := ops.PreflightWith(env, c.Stage, c.Features, c.RecordFailure)
	if err != nil {
		return e.opsResult(nil, err)
	}
	data := preflightData{Stage: res.Stage, Items: res.Items, Started: res.Started, Actions: rep.Actions}
	if data.Items == nil {
		data.Items = []ops.CheckItem{}
	}
	if data.Actions == nil {
		data.Actions = []string{}
	}
	e.reply(data, func(w io.Writer) {
		for _, it := range res.Items {
			mark := "ok  "
			if !it.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(w, "%s %-7s %s: %s\n", mark, it.Scope, it.Check, it.Detail)
		}
		for _, a := range rep.Actions {
			fmt.Fprintf(w, "preflight: %s\n", a)
		}
		if !res.OK && !c.RecordFailure {
			fmt.Fprintln(w, "preflight: FAILED — put the feature back to pending/phase 1, log an event_type fail entry naming the check (--record-failure does both), and push a gate (docs/protocol.md §4.5)")
		} else if !res.OK {
			fmt.Fprintln(w, "preflight: FAILED — recorded; push a gate to the user (docs/protocol.md §4.5)")
		}
	})
	if !res.OK {
		failed := 0
		for _, it := range res.Items {
			if !it.OK {
				failed++
			}
		}
		return silent(ExitFindings, "preflight --stage %s: %d check(s) failed", res.Stage, failed)
	}
	return nil
}

// preflightData is the envelope data of preflight: every check item, the
// features marked in_progress (stage started, all ok) and the changes made
// (--record-failure).
type preflightData struct {
	Stage   string          `json:"stage"`
	Items   []ops.CheckItem `json:"items"`
	Started []string        `json:"started,omitempty"`
	Actions []string        `json:"actions"`
}

// YoloCmd groups pipeline YOLO operations (docs/protocol.md §6).
type YoloCmd struct {
	Check YoloCheckCmd `cmd:"" help:"Evaluate YOLO eligibility (safety valve included); enter YOLO when eligible."`
	Abort YoloAbortCmd `cmd:"" help:"Global YOLO abort: revoke every auto_approved_yolo checkpoint."`
}

// Help is the long help of the command group.
func (c *YoloCmd) Help() string {
	return `Pipeline YOLO lets the checkpoints of a well-proven pipeline pass on their own.

Examples:
  harness yolo check --dry-run
  harness yolo abort --reason "retry_count_in_sprint = 2"`
}

// YoloCheckCmd is `harness yolo check`.
type YoloCheckCmd struct {
	Home   string `name:"home" placeholder:"DIR" help:"Hermes home (default $$HERMES_HOME, else ~/.hermes)."`
	DryRun bool   `name:"dry-run" help:"Only report; do not append yolo_enter."`
	Dir    string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *YoloCheckCmd) Help() string {
	return `Checks whether the sprint may run in pipeline YOLO mode (checkpoints pass on their own): its
pipeline has run at least 3 times with a success rate of 90% or more, the current version did
not fail its last 2 runs, and YOLO was not aborted earlier in this sprint. When eligible (and not
--dry-run) it enters YOLO. Also reports the abort triggers that are due. Exit 0 eligible, 1 not.

Examples:
  harness yolo check --dry-run
  harness yolo check --home ~/.hermes`
}

// Run performs the command.
func (c *YoloCheckCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	res, rep, err := ops.YoloCheck(env, c.Home, c.DryRun)
	if err != nil {
		return e.opsResult(nil, err)
	}
	rep.Data = res
	e.reply(newOpsData(rep), func(w io.Writer) {
		printReport(w, rep)
		fmt.Fprintf(w, "yolo: eligible %v, active %v\n", res.Eligible, res.Active)
		for _, r := range res.Reasons {
			fmt.Fprintf(w, "  %s\n", r)
		}
		for _, a := range res.AbortDue {
			fmt.Fprintf(w, "abort due: %s — run `harness yolo abort --reason …`\n", a)
		}
	})
	if !res.Eligible {
		return silent(ExitFindings, "yolo check: not eligible")
	}
	return nil
}

// YoloAbortCmd is `harness yolo abort --reason R`.
type YoloAbortCmd struct {
	Reason string `name:"reason" required:"" help:"The overall cause (e.g. retry_count_in_sprint = 2)."`
	Dir    string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *YoloAbortCmd) Help() string {
	return `Leaves YOLO mode for the whole sprint: every checkpoint that passed on its own is revoked and
must be answered by the user, the sprint waits for the user, and one combined message is
printed. YOLO cannot be entered again in this sprint.

Examples:
  harness yolo abort --reason "retry_count_in_sprint = 2"`
}

// Run performs the command.
func (c *YoloAbortCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	rep, err := ops.YoloAbort(env, c.Reason)
	return e.opsResult(rep, err)
}

// ResetCmd groups the Hermes Reset operations (docs/protocol.md §8.2).
type ResetCmd struct {
	Hermes ResetHermesCmd `cmd:"" help:"Write the Hermes Reset files (handoff, context state, runtime state) in their fixed order."`
	Resume ResetResumeCmd `cmd:"" help:"After a Hermes Reset: apply the pending_eval, list answered checkpoints."`
}

// Help is the long help of the command group.
func (c *ResetCmd) Help() string {
	return `A Hermes Reset hands Hermes' own context over to a fresh Hermes: write the handoff, then resume.

Examples:
  harness reset hermes --handoff handoff.md
  harness reset resume`
}

// ResetHermesCmd is `harness reset hermes --handoff FILE`.
type ResetHermesCmd struct {
	Handoff     string `name:"handoff" required:"" placeholder:"FILE|-" help:"The hermes_handoff.md text."`
	PendingEval string `name:"pending-eval" placeholder:"JSON" help:"pending_eval object {feature_id, reason, eval_decision, fix_direction}."`
	Dir         string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *ResetHermesCmd) Help() string {
	return `Writes the files of a Hermes Reset in a fixed order, each atomically: the handoff
(.harness/hermes_handoff.md), then hermes_context_state.json (with the pending evaluation), then
runtime_state.json. A crash between two steps loses nothing, because the pending evaluation is
in the handoff first. Refused while the sprint is suspended or idle.

Examples:
  harness reset hermes --handoff handoff.md
  harness reset hermes --handoff - --pending-eval '{"feature_id":"f001","reason":"A2 unverified","eval_decision":"retry","fix_direction":"add the test"}' < handoff.md`
}

// Run performs the command.
func (c *ResetHermesCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	h, err := e.readArg("--handoff", c.Handoff)
	if err != nil {
		return err
	}
	rep, err := ops.ResetHermes(env, ops.HermesResetInput{Handoff: h, PendingEval: []byte(c.PendingEval)})
	return e.opsResult(rep, err)
}

// ResetResumeCmd is `harness reset resume`.
type ResetResumeCmd struct {
	Dir string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Run performs the command.
func (c *ResetResumeCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	res, rep, err := ops.ResetResume(env)
	if err != nil {
		return e.opsResult(nil, err)
	}
	rep.Data = res
	return e.opsResult(rep, nil)
}

// PipelineCmd groups pipeline operations (docs/protocol.md §9.3).
type PipelineCmd struct {
	Sink PipelineSinkCmd `cmd:"" help:"Abstract the finished sprint into a pipeline under the Hermes home and count it as one run."`
	List PipelineListCmd `cmd:"" help:"List the pipelines of the Hermes home (registry.json) with their stats."`
	Show PipelineShowCmd `cmd:"" help:"Show one pipeline: version, inputs, stats, history and its feature template."`
}

// Help is the long help of the command group.
func (c *PipelineCmd) Help() string {
	return `Pipelines are what finished sprints leave behind for the next sprint of the same kind.

Examples:
  harness pipeline sink --id csv-export --dry-run`
}

// PipelineSinkCmd is `harness pipeline sink --id ID`.
type PipelineSinkCmd struct {
	ID     string   `name:"id" required:"" help:"Pipeline id (kebab-case)."`
	Change string   `name:"change" enum:",patch,minor,major" default:"" help:"Make a new version of an existing pipeline: patch, minor, major (default: another run of the current version)."`
	Home   string   `name:"home" placeholder:"DIR" help:"Hermes home (default $$HERMES_HOME, else ~/.hermes)."`
	Vars   []string `name:"var" placeholder:"NAME=VALUE" help:"De-name: VALUE becomes the placeholder {NAME} in the templates (repeatable)."`
	DryRun bool     `name:"dry-run" help:"Print what would be written; write nothing."`
	Notes  []string `name:"change-note" help:"version_history change line (repeatable)."`
	Dir    string   `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *PipelineSinkCmd) Help() string {
	return `Abstracts a finished sprint into <home>/pipelines/<id>/ (refused unless 'harness finalize' passes):
feature_template.json (the DAG, acceptance items, checkpoints, the contract), tooling_template.md,
checkpoint_policy.yaml, pipeline.yaml and runs/<sprint_id>; rebuilds registry.json; sets the contract
status sunk. Texts are de-named: each --var NAME=VALUE (and each value the sprint was instantiated
with) becomes {NAME}.

A sprint is counted once: sinking a sunk or closed sprint, or one the pipeline already counted, is
refused. A new pipeline starts at 1.0.0 with total_runs 1. For an existing one, a sprint with the same
DAG, checkpoint policy and texts is another run of the current version; a changed feature DAG needs
--change major (stats start over), a changed checkpoint policy --change minor, changed texts --change
patch (minor and patch keep the totals). yolo_eligible needs total_runs >= 3, total_success_rate >= 0.9
and fewer than 2 consecutive failures of the current version.

Exit 1 when refused (finalize findings, counted already, version change missing or too small).

Examples:
  harness pipeline sink --id link-check --var project=linkcheck
  harness pipeline sink --id link-check --change minor --change-note 'phase 3 gate instead of a notify'
  harness pipeline sink --id link-check --dry-run --json`
}

// Run performs the command.
func (c *PipelineSinkCmd) Run(e *Env) error {
	env, err := e.opsEnv(c.Dir)
	if err != nil {
		return err
	}
	vars, err := ops.ParseVars(c.Vars)
	if err != nil {
		return e.opsResult(nil, err)
	}
	env.Finalize = ops.EngineFinalize
	rep, err := ops.PipelineSink(env, ops.SinkInput{ID: c.ID, Change: c.Change, Home: c.Home, DryRun: c.DryRun, Notes: c.Notes, Vars: vars})
	return e.opsResult(rep, err)
}

// PipelineListCmd is `harness pipeline list`.
type PipelineListCmd struct {
	Home string `name:"home" placeholder:"DIR" help:"Hermes home (default $$HERMES_HOME, else ~/.hermes)."`
}

// Help is shown under the usage line.
func (c *PipelineListCmd) Help() string {
	return `Lists the pipelines of <home>/pipelines from registry.json (schemas/pipeline_registry.schema.json), which
every 'pipeline sink' rebuilds; when it is missing or stale the pipeline folders are read directly (a
note says so). One line per pipeline: id, version, runs, success rate, YOLO eligibility, inputs.

Examples:
  harness pipeline list
  harness pipeline list --home ~/.hermes --json`
}

// Run performs the command.
func (c *PipelineListCmd) Run(e *Env) error {
	env := e.opsEnvAt("")
	reg, notes, err := ops.PipelineList(env, c.Home)
	if err != nil {
		return e.opsResult(nil, err)
	}
	e.reply(map[string]any{"pipelines": reg.Pipelines, "updated_at": reg.UpdatedAt, "notes": nonNilStrings(notes)}, func(w io.Writer) {
		for _, n := range notes {
			fmt.Fprintln(w, "note: "+n)
		}
		if len(reg.Pipelines) == 0 {
			fmt.Fprintln(w, "no pipelines")
		}
		for _, p := range reg.Pipelines {
			fmt.Fprintf(w, "%s v%s  runs %d  success %.2f  yolo %s  inputs %s  %s\n", p.ID, p.Version, p.TotalRuns, p.TotalSuccessRate,
				map[bool]string{true: "eligible", false: "not eligible"}[p.YoloEligible], strings.Join(append([]string{}, p.Inputs...), ","), p.Name)
		}
	})
	return nil
}

// PipelineShowCmd is `harness pipeline show ID`.
type PipelineShowCmd struct {
	ID   string `arg:"" name:"ID" help:"Pipeline id."`
	Home string `name:"home" placeholder:"DIR" help:"Hermes home (default $$HERMES_HOME, else ~/.hermes)."`
}

// Help is shown under the usage line.
func (c *PipelineShowCmd) Help() string {
	return `Shows one pipeline: version, inputs (the --var names 'harness init --from-pipeline' needs), stats, version
history, and its features with their dependencies, acceptance items and checkpoints. pipeline.yaml is
checked against its schema first (exit 1 when it breaks it, or when there is no such pipeline).

Examples:
  harness pipeline show link-check
  harness pipeline show link-check --json`
}

// Run performs the command.
func (c *PipelineShowCmd) Run(e *Env) error {
	env := e.opsEnvAt("")
	d, err := ops.PipelineShow(env, c.Home, c.ID)
	if err != nil {
		return e.opsResult(nil, err)
	}
	e.reply(d, func(w io.Writer) {
		s := d.Summary
		fmt.Fprintf(w, "%s v%s: %s\n", s.ID, s.Version, s.Name)
		if s.Description != "" {
			fmt.Fprintln(w, "  "+s.Description)
		}
		fmt.Fprintf(w, "dir: %s\n", d.Dir)
		fmt.Fprintf(w, "inputs: %s\n", firstNonEmptyStr(strings.Join(s.Inputs, ", "), "none"))
		fmt.Fprintf(w, "stats: total_runs %d, total_success_rate %.2f, current_version_runs %d, consecutive failures %d, yolo_eligible %v\n",
			s.TotalRuns, s.TotalSuccessRate, s.CurrentVersionRuns, s.ConsecutiveFailures, s.YoloEligible)
		if h, ok := d.Pipeline["version_history"].([]any); ok {
			for _, v := range h {
				if m, ok := v.(map[string]any); ok {
					ct, _ := m["change_type"].(string)
					fmt.Fprintf(w, "version %v (%v): %v\n", m["version"], firstNonEmptyStr(ct, "new"), m["changes"])
				}
			}
		}
		if d.Template != nil {
			for _, v := range d.Template.Arr("features") {
				f, ok := v.(*ops.Obj)
				if !ok {
					continue
				}
				var cps []string
				for _, c := range f.Arr("checkpoints") {
					if cp, ok := c.(*ops.Obj); ok {
						p, _ := cp.Int("phase")
						cps = append(cps, fmt.Sprintf("phase %d %s", p, cp.Str("type")))
					}
				}
				fmt.Fprintf(w, "%s %s  depends on [%s]  %d acceptance items  checkpoints: %s\n", f.Str("id"), f.Str("name"),
					strings.Join(f.Strs("depends_on"), ", "), len(f.Strs("acceptance")), strings.Join(cps, "; "))
			}
		}
	})
	return nil
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Help is shown under the usage line.
func (c *ResetResumeCmd) Help() string {
	return `Run by Hermes after a Hermes Reset: applies the pending evaluation (from
hermes_context_state.json, or from the handoff if the crash came earlier), lists the checkpoints
answered meanwhile, records the reset, and prints the role to resume as (finalizer, planner or
evaluator). Running it again changes nothing.

Examples:
  harness reset resume
  harness reset resume ~/sprints/sprint_20260421_1 --json`
}
