package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/workspace"
)

// AllowCmd is `harness allow`: single-use, exact-match authorisations of a
// Bash command for one feature, in .harness/allow.jsonl (internal/allowonce).
type AllowCmd struct {
	Command string `arg:"" optional:"" name:"CMD" help:"The exact command to authorise once (compared without leading and trailing blanks)."`
	Feature string `name:"feature" placeholder:"FID" help:"Feature whose Generator may run CMD once."`
	Once    bool   `name:"once" help:"Authorise a single use (the only kind there is; required when adding)."`
	Reason  string `name:"reason" help:"Why the command is authorised (who approved it, which checkpoint)."`
	List    bool   `name:"list" help:"List authorisations and whether they were used."`
}

// Help is shown under the command's usage line.
func (c *AllowCmd) Help() string {
	return `Lets the Generator of a feature run one exact command once, although the Bash guard blocks it;
the hook uses the authorisation up on that call. The command must match exactly, apart from
leading and trailing blanks: ' rm -rf build' and 'rm -rf build ' are the same command,
'rm -rf  build' is not. --list prints every authorisation and whether it was used.

A Generator session cannot run this command. Exit 0 ok, 2 usage error.

Examples:
  harness allow --feature f001 --once 'rm -rf build' --reason 'clean rebuild approved at cp-f001-2'
  harness allow --list`
}

// Run performs the command.
func (c *AllowCmd) Run(e *Env) error {
	root, err := e.rootFor("")
	if err != nil {
		return err
	}
	if c.List {
		if c.Command != "" || c.Once || c.Reason != "" {
			return usage("--list takes no CMD, --once or --reason")
		}
		list, err := allowonce.List(root)
		if err != nil {
			return err
		}
		if c.Feature != "" {
			var f []allowonce.Entry
			for _, en := range list {
				if en.Feature == c.Feature {
					f = append(f, en)
				}
			}
			list = f
		}
		if list == nil {
			list = []allowonce.Entry{}
		}
		e.reply(map[string]any{"allows": list}, func(w io.Writer) {
			if len(list) == 0 {
				fmt.Fprintln(w, "no authorisations")
			}
			for _, en := range list {
				state := "open"
				if en.Consumed {
					state = "used " + en.ConsumedAt
				}
				fmt.Fprintf(w, "%s %s %s [%s] %q — %s\n", en.ID, en.CreatedAt, en.Feature, state, en.Command, en.Reason)
			}
		})
		return nil
	}
	switch {
	case c.Feature == "":
		return usage("--feature FID is required")
	case !workspace.FeatureIDPattern.MatchString(c.Feature):
		return usage("%q is not a feature id", c.Feature)
	case !c.Once:
		return usage("--once is required: an authorisation covers exactly one use")
	case allowonce.Normalise(c.Command) == "":
		return usage("the command to authorise is required")
	case strings.ContainsAny(allowonce.Normalise(c.Command), "\n\r"):
		return usage("the command must be a single line")
	case strings.TrimSpace(c.Reason) == "":
		return usage("--reason is required")
	}
	en, err := allowonce.Add(root, c.Feature, c.Command, c.Reason)
	if err != nil {
		return err
	}
	e.reply(map[string]any{"allow": en}, func(w io.Writer) {
		fmt.Fprintf(w, "authorised once for %s: %q (%s)\n", en.Feature, en.Command, en.ID)
	})
	return nil
}
