package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/cli/scaffold"
	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/workspace"
)

// InitCmd is `harness init`: STEP 1 of the protocol (§4.3) in one command.
type InitCmd struct {
	Dir        string `arg:"" optional:"" name:"DIR" help:"Sprint root to create (same as --root)."`
	Sprint     string `name:"sprint" placeholder:"ID" help:"Sprint id (sprint_YYYYMMDD_N); default: the root's folder name when it has that form."`
	SprintsDir string `name:"sprints-dir" placeholder:"DIR" help:"Create DIR/sprint_<UTC yyyymmdd>_<N+1> instead of a given root."`

	FromPipeline string   `name:"from-pipeline" placeholder:"ID" help:"Instantiate the sprint from pipeline ID: features, contract, tooling.md, checkpoint policy; then the YOLO entry check."`
	Home         string   `name:"home" placeholder:"DIR" help:"Hermes home of --from-pipeline (default $$HERMES_HOME, else ~/.hermes)."`
	Vars         []string `name:"var" placeholder:"NAME=VALUE" help:"Value of the pipeline's placeholder {NAME} (repeatable; every input of the pipeline is required)."`
}

// Help is shown under the command's usage line.
func (c *InitCmd) Help() string {
	return `Creates a new, empty sprint workspace: the read-only resources (schemas/, templates/, spec/,
protocols/) and .harness/ with its state files at their initial values. The last line printed is
the sprint root's real path, so a script can capture it. From the previous sprint of the same folder
it carries Hermes' Reset counters: consecutive_sprints_with_retries (+1 after a sprint with a retry,
else 0) and Hermes' session start (while that sprint's last heartbeat is at most 1h old).

With --from-pipeline ID the sprint is instantiated from <home>/pipelines/ID: the features with their
acceptance items and checkpoints, the contract, tooling.md sections 1-5 under a header naming the
pipeline, and feature_list's pipeline_id, pipeline_version and pipeline_vars; each placeholder {NAME}
gets its --var NAME=VALUE (every input is required; 'harness pipeline show ID' lists them). Then
'yolo check' runs: an eligible pipeline enters YOLO.

Exit 1 when the target exists and is not empty, when another sprint of the same folder is still
running, or when the pipeline cannot be instantiated; exit 2 on usage errors (a missing or unknown --var).

Examples:
  harness init ~/sprints/sprint_20260421_1
  harness init --sprints-dir ~/sprints          # next free sprint_<today>_<N>
  root=$(harness init --sprints-dir ~/sprints | tail -n 1)
  harness init --sprints-dir sprints --from-pipeline link-check --var project=linkcheck`
}

// initResult is the envelope data of init.
type initResult struct {
	Root   string   `json:"root"`
	Sprint string   `json:"sprint"`
	Files  []string `json:"files"`
	// Pipeline: with --from-pipeline, what the plan wrote and the YOLO check.
	Pipeline *initPipeline `json:"pipeline,omitempty"`
}

type initPipeline struct {
	ID      string          `json:"id"`
	Version string          `json:"version"`
	Actions []string        `json:"actions"`
	Yolo    *ops.YoloResult `json:"yolo"`
}

// Run performs the command.
func (c *InitCmd) Run(e *Env) error {
	target := e.Root
	if c.Dir != "" {
		if target != "" && filepath.Clean(target) != filepath.Clean(c.Dir) {
			return usage("--root %q and DIR %q disagree; give one", target, c.Dir)
		}
		target = c.Dir
	}
	now := time.Now().UTC()
	var plan *ops.Obj
	var src *ops.PlanSource
	if c.FromPipeline != "" {
		vars, err := ops.ParseVars(c.Vars)
		if err != nil {
			return e.opsResult(nil, err)
		}
		home, err := e.opsEnvAt("").PipelinesHome(c.Home)
		if err != nil {
			return e.opsResult(nil, err)
		}
		if plan, src, err = ops.PipelinePlan(home, c.FromPipeline, vars); err != nil {
			return e.opsResult(nil, err)
		}
	} else if len(c.Vars) > 0 || c.Home != "" {
		return usage("--var and --home go with --from-pipeline")
	}
	var sprint string
	switch {
	case c.SprintsDir != "" && target != "":
		return usage("give either --sprints-dir or --root/DIR, not both")
	case c.SprintsDir != "":
		if c.Sprint != "" {
			return usage("--sprint cannot be combined with --sprints-dir (the id is numbered automatically)")
		}
		if err := refuseBesideActive(e.abs(c.SprintsDir), ""); err != nil {
			return err
		}
		dir, id, err := scaffold.NewSprintDir(e.abs(c.SprintsDir), now)
		if err != nil {
			return err
		}
		target, sprint = dir, id
	case target != "":
		target = e.abs(target)
		sprint = c.Sprint
		if sprint == "" {
			sprint = filepath.Base(target)
			if !workspace.SprintIDPattern.MatchString(sprint) {
				return usage("--sprint ID is required: the folder name %q is not a sprint id (sprint_YYYYMMDD_N)", sprint)
			}
		}
		if !workspace.SprintIDPattern.MatchString(sprint) {
			return usage("sprint id %q does not match sprint_YYYYMMDD_N", sprint)
		}
		_, statErr := os.Stat(target)
		if err := scaffold.EnsureEmptyDir(target); err != nil {
			return asExit(err)
		}
		if err := refuseBesideActive(filepath.Dir(target), filepath.Base(target)); err != nil {
			if statErr != nil {
				os.Remove(target) // the empty folder EnsureEmptyDir just made
			}
			return err
		}
	default:
		return usage("give --root DIR --sprint ID, a positional DIR, or --sprints-dir DIR")
	}
	real, err := filepath.EvalSymlinks(target)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", target, err)
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return err
	}
	files, err := scaffold.InitSprint(real, sprint, now)
	if err != nil {
		return fmt.Errorf("init %s: %w", real, err)
	}
	res := initResult{Root: real, Sprint: sprint, Files: files}
	var reps []*ops.Report
	if plan != nil {
		env := e.opsEnvAt(real)
		rep, err := ops.ApplyPlan(env, plan, src)
		if err != nil {
			return e.opsResult(rep, fmt.Errorf("init --from-pipeline %s: the sprint %s was created but its plan was not written: %w", src.PipelineID, real, err))
		}
		yres, yrep, err := ops.YoloCheck(env, c.Home, false)
		if err != nil {
			return e.opsResult(yrep, err)
		}
		reps = append(reps, rep, yrep)
		res.Pipeline = &initPipeline{ID: src.PipelineID, Version: src.Version, Actions: append(append([]string{}, rep.Actions...), yrep.Actions...), Yolo: yres}
	}
	e.reply(res, func(w io.Writer) {
		fmt.Fprintf(w, "initialised sprint %s (%d files)\n", sprint, len(files))
		for _, r := range reps {
			printReport(w, r)
		}
		if res.Pipeline != nil {
			y := res.Pipeline.Yolo
			state := map[bool]string{true: "YOLO on", false: "YOLO off"}[y.Active]
			fmt.Fprintf(w, "from pipeline %s v%s; %s: %s\n", src.PipelineID, src.Version, state, strings.Join(y.Reasons, "; "))
		}
		fmt.Fprintln(w, real)
	})
	return nil
}

// refuseBesideActive refuses a new sprint while another sprint of the same
// sprints folder is still running (Z8), with the way out that exists for
// it: a sprint with a contract is closed by finalize --close (sink or
// archive); one without a contract cannot be finalized, so it is planned on
// or, never used, moved away.
func refuseBesideActive(sprintsDir, skip string) error {
	id, why := scaffold.ActiveSprint(sprintsDir, skip)
	if id == "" {
		return nil
	}
	dir := filepath.Join(sprintsDir, id)
	way := fmt.Sprintf("finish it first: harness finalize --close --root %s, then --sink ID or --archive", dir)
	if _, err := os.Stat(filepath.Join(dir, ".harness", "sprint_contracts", id, "contract.json")); err != nil {
		way = fmt.Sprintf("it has no contract yet, so there is nothing to finalize: go on planning it (harness plan FILE --root %s), or move %s out of %s if it was never used", dir, dir, sprintsDir)
	}
	return refused("sprint %s in %s is still running (%s); one runtime runs one sprint: %s (Z8)", id, sprintsDir, why, way)
}

// asExit maps scaffold's refusals to exit 1; other errors stay internal (2).
func asExit(err error) error {
	var re *scaffold.RefusedError
	if errors.As(err, &re) {
		return refused("%s", re.Msg)
	}
	return err
}
