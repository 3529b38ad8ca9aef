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
	return `Creates .harness/features/FID/ with context_snapshot.md (rendered from feature_list.json), AGENTS.md
(from spec/), generator_log.md (title block), empty handoff.md and session_id.txt, and
.harness/features/FID/.claude/settings.json registering harness-hook for SessionStart, PreToolUse
(matchers Bash and Edit|Write|MultiEdit|NotebookEdit), Stop and SubagentStop.

Re-running keeps generator_log.md, handoff.md and session_id.txt as they are and replaces only the
settings entries that run harness-hook, leaving every other hook and key untouched.
Exit 1 for a feature id not in feature_list.json; exit 2 when no harness-hook binary is found.`
}

// Run performs the command.
func (c *InitFeatureCmd) Run(e *Env) error {
	if !workspace.FeatureIDPattern.MatchString(c.Feature) {
		return usage("%q is not a feature id (f<number>, e.g. f001)", c.Feature)
	}
	root, err := e.rootFor(c.Dir)
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
	})
	return nil
}
