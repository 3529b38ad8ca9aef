package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/ops"
)

// PreflightCmd is `harness preflight --stage launch|started FID…`.
type PreflightCmd struct {
	Stage         string   `name:"stage" required:"" enum:"launch,started" help:"launch (before STEP 3.3) or started (after STEP 3.4)."`
	Features      []string `arg:"" name:"FID" help:"Feature ids being started."`
	RecordFailure bool     `name:"record-failure" help:"On failure, do the §4.5 handling: feature back to pending and an event_type fail entry naming the failed checks."`
}

// Help is shown under the usage line.
func (c *PreflightCmd) Help() string {
	return `STEP 2.5 hard checks (docs/protocol.md §4.5, §13 #50), each printed ok/fail; exit 1 if any fails.
Sprint: tooling_locked, cp-sprint-tooling and cp-sprint-dag approved (last eval entry), legal
runtime_state.mode and contract.status. launch: feature directory, its five files, and
.claude/settings.json registering an executable harness-hook for SessionStart, PreToolUse (Bash,
Edit|Write|MultiEdit|NotebookEdit) and Stop. started: session_pool entry, non-empty session_id.txt,
.current_agent role generator on the feature; when all pass, pending features become in_progress.`
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
			fmt.Fprintln(w, "preflight: FAILED — put the feature back to pending/phase 1, log an event_type fail entry naming the check (--record-failure does both), and push a gate (§4.5)")
		} else if !res.OK {
			fmt.Fprintln(w, "preflight: FAILED — recorded; push a gate to the user (§4.5)")
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

// YoloCheckCmd is `harness yolo check`.
type YoloCheckCmd struct {
	Home   string `name:"home" placeholder:"DIR" help:"Hermes home (default $$HERMES_HOME, else ~/.hermes)."`
	DryRun bool   `name:"dry-run" help:"Only report; do not append yolo_enter."`
	Dir    string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *YoloCheckCmd) Help() string {
	return `docs/protocol.md §6.1: eligible when the sprint's pipeline has stats.total_runs ≥ min_total_runs (3) and
total_success_rate ≥ min_success_rate (0.9), the current version did not fail its last 2 runs (§13 #14)
and YOLO was not aborted earlier in this sprint (§13 #20). When eligible it appends yolo_enter with
yolo_context; while YOLO is on, 'checkpoint open' passes feature gates as auto_approved_yolo (gates marked
external_irreversible are always sent). Also reports due abort triggers. Exit 0 eligible, 1 not.`
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
	return `docs/protocol.md §6.1 revoke procedure: each auto_approved_yolo checkpoint → status revoked, revoked_from,
revoke_reason "yolo_aborted: <cause>", decision null (§13 #2); one yolo_abort entry per checkpoint plus a
sprint-level one; mode waiting_human; prints the one aggregated message. No YOLO re-entry this sprint.`
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
	Hermes ResetHermesCmd `cmd:"" help:"Write the Hermes Reset files in the fixed order (Z9)."`
	Resume ResetResumeCmd `cmd:"" help:"After a Hermes Reset: apply the pending_eval, list answered checkpoints."`
}

// ResetHermesCmd is `harness reset hermes --handoff FILE`.
type ResetHermesCmd struct {
	Handoff     string `name:"handoff" required:"" placeholder:"FILE|-" help:"The hermes_handoff.md text."`
	PendingEval string `name:"pending-eval" placeholder:"JSON" help:"pending_eval object {feature_id, reason, eval_decision, fix_direction}."`
	Dir         string `arg:"" optional:"" name:"DIR" help:"Sprint root (or --root)."`
}

// Help is shown under the usage line.
func (c *ResetHermesCmd) Help() string {
	return `Writes (1) .harness/hermes_handoff.md, (2) hermes_context_state.json (last_reset_at, token_usage_ratio 0,
pending_eval, pending_checkpoints), (3) runtime_state.json (last_reset_at, last_heartbeat), in that order
(Z9), each atomically: a crash between two steps loses nothing (the pending eval is in the handoff first).
Refused in suspended or idle mode (§13 #29).`
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
	return `Abstracts a finished sprint (docs/protocol.md §9.3; refused unless 'finalize --check' passes) into
<home>/pipelines/<id>/: feature_template.json (the DAG, acceptance items, checkpoint types and blockers,
the contract), tooling_template.md (tooling.md with its reasons), checkpoint_policy.yaml, pipeline.yaml
(checked against its schema) and runs/<sprint_id>; rebuilds registry.json; sets the contract status sunk.
Texts are de-named: each --var NAME=VALUE (and each value the sprint was instantiated with) becomes {NAME}.

A sprint is counted once: sinking a sunk or closed sprint, or one the pipeline already counted, is refused.
New pipeline: 1.0.0, total_runs 1. Existing pipeline: a sprint with the same DAG, checkpoint policy and texts
is another run of the current version (total_runs + 1, current_version_runs + 1, consecutive failures
counted on); a changed feature DAG needs --change major (stats start over), a changed checkpoint policy
--change minor, changed texts (names, acceptance, prompts, blockers) --change patch (minor and patch
inherit the totals). A run is a success unless YOLO was aborted in it; yolo_eligible needs total_runs >= 3,
total_success_rate >= 0.9 and fewer than 2 consecutive failures of the current version.

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
	return `docs/protocol.md §8.2 reload: the pending_eval (hermes_context_state.json, or the handoff's Pending Eval block
when a crash came before step 2) is appended as a phase_evaluation with a recovery note and cleared;
pending checkpoints whose decision arrived are listed and dropped, the others kept without re-sending;
then the reset entry {agent hermes, pending_eval_recovered, pending_checkpoints_recovered}. Prints the
role to resume as (finalizing contract → finalizer, planning → planner, else evaluator; §13 #29).
Idempotent: a second run after the reset entry changes nothing.`
}
