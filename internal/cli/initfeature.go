package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/cli/scaffold"
	"github.com/superagent-harness/harness/internal/workspace"
)

// InitFeatureCmd is `harness init-feature FID`: STEP 3.1–3.2 (docs/protocol.md §4.6).
type InitFeatureCmd struct {
	Feature string `arg:"" name:"FID" help:"Feature id from feature_list.json (f001)."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (same as --root)."`
	HookBin string `name:"hook-bin" placeholder:"PATH" help:"harness-hook binary to wire (default: beside this harness binary, else on PATH)."`
}

// Help is shown under the command's usage line.
func (c *InitFeatureCmd) Help() string {
	return `Prepares the directory a feature's Generator session runs in (.harness/features/FID/): its
context snapshot, AGENTS.md, generator_log.md, handoff.md, session_id.txt, and a
.claude/settings.json that runs harness-hook when the session starts, before every Bash and
file-editing tool call, and when the session stops.

Running it again keeps generator_log.md, handoff.md and session_id.txt and replaces only
harness-hook's own settings entries; every other hook and key stays. It trusts only what it
wrote itself (recorded in hermes_context_state.json feature_dirs): a feature directory it did
not create (a Generator can create one for a feature id not yet in feature_list.json), or an
AGENTS.md / context_snapshot.md whose bytes changed since, is moved to .harness/logs/quarantine/
and written afresh, with a warning. Exit 1 for a feature id
that is not in feature_list.json; exit 2 when no harness-hook binary is found.

Examples:
  harness init-feature f001
  harness init-feature f002 ~/sprints/sprint_20260421_1 --hook-bin /usr/local/bin/harness-hook`
}

// Run performs the command.
func (c *InitFeatureCmd) Run(e *Env) error {
	if !workspace.FeatureIDPattern.MatchString(c.Feature) {
		return usage("%q is not a feature id (f<number>, e.g. f001)", c.Feature)
	}
	root, err := e.workspaceFor(c.Dir)
	if err != nil {
		return err
	}
	hookBin, err := scaffold.FindHookBin(c.HookBin, e.Vars, e.Cwd)
	if err != nil {
		return usage("%v", err)
	}
	res, err := scaffold.InitFeature(root, c.Feature, hookBin)
	if err != nil {
		var re *scaffold.RefusedError
		if errors.As(err, &re) {
			return refused("%s", re.Msg)
		}
		return err
	}
	e.reply(res, func(w io.Writer) {
		fmt.Fprintf(w, "feature %s ready in %s\n", res.Feature, res.Dir)
		if len(res.Created) > 0 {
			fmt.Fprintf(w, "  created: %s\n", strings.Join(res.Created, ", "))
		}
		if len(res.Kept) > 0 {
			fmt.Fprintf(w, "  kept:    %s\n", strings.Join(res.Kept, ", "))
		}
		fmt.Fprintf(w, "  hooks:   %s -> %s\n", res.Settings, res.HookBin)
		for _, n := range res.Notes {
			fmt.Fprintf(w, "  note:    %s\n", n)
		}
	})
	if len(res.Quarantined) > 0 {
		fmt.Fprintf(e.Stderr, "harness init-feature: warning: %s held what init-feature had not written; moved to %s (see the notes)\n",
			res.Feature, strings.Join(res.Quarantined, ", "))
	}
	return nil
}
