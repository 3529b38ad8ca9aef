package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/superagent-harness/harness/internal/cli/scaffold"
	"github.com/superagent-harness/harness/internal/workspace"
)

// InitCmd is `harness init`: STEP 1 of the protocol (§4.3) in one command.
type InitCmd struct {
	Dir        string `arg:"" optional:"" name:"DIR" help:"Sprint root to create (same as --root)."`
	Sprint     string `name:"sprint" placeholder:"ID" help:"Sprint id (sprint_YYYYMMDD_N); default: the root's folder name when it has that form."`
	SprintsDir string `name:"sprints-dir" placeholder:"DIR" help:"Create DIR/sprint_<UTC yyyymmdd>_<N+1> instead of a given root."`
}

// Help is shown under the command's usage line.
func (c *InitCmd) Help() string {
	return `Copies the embedded read-only resources (schemas/, templates/, spec/, and spec/protocols/* to protocols/),
creates .harness/ with features/, sprint_contracts/, logs/ and the seven state files at their initial
values (docs/protocol.md §3.12), and prints the sprint root's real path as the last stdout line. From the
previous sprint of the same folder it carries Hermes' Reset counters (docs/protocol.md §13 #26):
consecutive_sprints_with_retries (+1 after a sprint with a retry, else 0) and Hermes' session start (while
that sprint's last heartbeat is at most 1h old).

Exit 1 when the target exists and is not empty, or when another sprint of the same folder is still running
(one runtime runs one sprint); exit 2 on usage errors.`
}

// initResult is the envelope data of init.
type initResult struct {
	Root   string   `json:"root"`
	Sprint string   `json:"sprint"`
	Files  []string `json:"files"`
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
	e.reply(initResult{Root: real, Sprint: sprint, Files: files}, func(w io.Writer) {
		fmt.Fprintf(w, "initialised sprint %s (%d files)\n", sprint, len(files))
		fmt.Fprintln(w, real)
	})
	return nil
}

// refuseBesideActive refuses a new sprint while another sprint of the same
// sprints folder is still running (Z8).
func refuseBesideActive(sprintsDir, skip string) error {
	if id, why := scaffold.ActiveSprint(sprintsDir, skip); id != "" {
		return refused("sprint %s in %s is still running (%s); one runtime runs one sprint: finish it first (sink it with `harness pipeline sink --id ID`, or archive it) (Z8)", id, sprintsDir, why)
	}
	return nil
}

// asExit maps scaffold's refusals to exit 1; other errors stay internal (2).
func asExit(err error) error {
	var re *scaffold.RefusedError
	if errors.As(err, &re) {
		return refused("%s", re.Msg)
	}
	return err
}
