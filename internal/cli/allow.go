package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/hook"
	"github.com/superagent-harness/harness/internal/workspace"
)

// AllowCmd is `harness allow`: single-use, exact-match authorisations of a
// Bash command the guard blocks (internal/allowonce): for one feature in a
// sprint's .harness/allow.jsonl, or, outside a sprint, for a project
// (DIR/.claude/harness-allow.jsonl) or for the user
// (~/.claude/harness-allow.jsonl).
type AllowCmd struct {
	Command string `arg:"" optional:"" name:"CMD" help:"The exact command to authorise once (compared without leading and trailing blanks)."`
	Feature string `name:"feature" placeholder:"FID" help:"In a sprint: the feature whose Generator may run CMD once."`
	Project string `name:"project" xor:"scope" placeholder:"DIR" help:"Outside a sprint: authorise (or list) in the project DIR (the default scope outside a sprint: the nearest directory up with a .claude/ folder, else the current one)."`
	User    bool   `name:"user" xor:"scope" help:"Outside a sprint: authorise (or list) for every project of this user."`
	Once    bool   `name:"once" help:"Authorise a single use (the only kind there is; required when adding)."`
	Reason  string `name:"reason" help:"Why the command is authorised (who approved it, which checkpoint)."`
	List    bool   `name:"list" help:"List authorisations and whether they were used (outside a sprint: the project's and the user's)."`
}

// Help is shown under the command's usage line.
func (c *AllowCmd) Help() string {
	return `Lets one exact command run once, although the Bash guard blocks it; the hook uses the
authorisation up on that call, and the next try is blocked again. The command must match exactly,
apart from leading and trailing blanks: ' rm -rf build' and 'rm -rf build ' are the same command,
'rm -rf  build' is not.

In a sprint workspace the authorisation is for the Generator of one feature (--feature), in
.harness/allow.jsonl. Outside a sprint (a project guarded with 'harness install') it is for the
project (--project DIR, default the nearest directory from here up that has a .claude/ folder, else
the current directory: DIR/.claude/harness-allow.jsonl) or, with
--user, for every project of this user (~/.claude/harness-allow.jsonl); the project's are used
first. Outside a sprint every authorisation is also recorded in the user-level audit log
('harness logs'). --list prints every authorisation and whether it was used: outside a sprint the
project's and the user's.

Claude cannot run this command: the hook refuses it (in a sprint for a Generator, outside one for
every session), and the files are protected from its writes. Exit 0 ok, 2 usage error.

Examples:
  harness allow --feature f001 --once 'rm -rf build' --reason 'clean rebuild approved at cp-f001-2'
  harness allow --once 'git push --force origin main' --reason 'rebased on main, approved by me'
  harness allow --project ~/src/app --once 'rm -rf /srv/app/cache' --reason 'stale cache'
  harness allow --user --once 'sudo systemctl restart nginx' --reason 'config reloaded'
  harness allow --list`
}

// scopedAllow is one authorisation outside a sprint, with its scope.
type scopedAllow struct {
	allowonce.Entry
	// Scope is "project" or "user"; File the allow-once log holding it.
	Scope string `json:"scope"`
	File  string `json:"file"`
}

// Run performs the command.
func (c *AllowCmd) Run(e *Env) error {
	if c.Project != "" || c.User {
		return c.runOutside(e)
	}
	root, err := e.rootFor("")
	if err != nil {
		if e.Root != "" || c.Feature != "" {
			return err
		}
		return c.runOutside(e) // no sprint here: the project in the current directory
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
				fmt.Fprintf(w, "%s %s %s [%s] %q — %s\n", en.ID, en.CreatedAt, en.Feature, allowState(en), en.Command, en.Reason)
			}
		})
		return nil
	}
	switch {
	case c.Feature == "":
		return usage("--feature FID is required in a sprint workspace")
	case !workspace.FeatureIDPattern.MatchString(c.Feature):
		return usage("%q is not a feature id", c.Feature)
	}
	if err := c.checkAdd(); err != nil {
		return err
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

// checkAdd checks the flags of an authorisation.
func (c *AllowCmd) checkAdd() error {
	switch {
	case !c.Once:
		return usage("--once is required: an authorisation covers exactly one use")
	case allowonce.Normalise(c.Command) == "":
		return usage("the command to authorise is required")
	case strings.ContainsAny(allowonce.Normalise(c.Command), "\n\r"):
		return usage("the command must be a single line")
	case strings.TrimSpace(c.Reason) == "":
		return usage("--reason is required")
	}
	return nil
}

func allowState(en allowonce.Entry) string {
	if en.Consumed {
		return "used " + en.ConsumedAt
	}
	return "open"
}

// outsideFiles are the allow-once logs of the scope the flags name (both
// for a list without a scope flag), as the hook finds them for a session
// in the project directory.
func (c *AllowCmd) outsideFiles(e *Env) ([]hook.ConfigFile, error) {
	dir := projectDirFrom(e.Cwd, homeDir(e.Vars))
	if c.Project != "" {
		dir = e.abs(c.Project)
	}
	if !c.User {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, usage("--project %s is not a directory", dir)
		}
		if r, err := workspace.Resolve("", nil, dir); err == nil {
			return nil, usage("%s is inside the sprint workspace %s: authorise for a feature there (--feature FID)", dir, r)
		}
	}
	s := hook.ConfigScope{ProjectDir: dir, Home: homeDir(e.Vars)}
	if s.Home != "" {
		s.Home = e.abs(s.Home)
	}
	var out []hook.ConfigFile
	for _, f := range s.AllowOnceFiles() {
		switch {
		case c.User && f.Level != "user", !c.User && !c.List && f.Level != "project", c.Project != "" && f.Level != "project":
			continue
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, usage("--user: no HOME (or USERPROFILE) in the environment")
	}
	return out, nil
}

// runOutside is allow outside a sprint workspace.
func (c *AllowCmd) runOutside(e *Env) error {
	if c.Feature != "" {
		return usage("--feature is for a sprint workspace; outside one an authorisation is for the project or the user")
	}
	files, err := c.outsideFiles(e)
	if err != nil {
		return err
	}
	if c.List {
		if c.Command != "" || c.Once || c.Reason != "" {
			return usage("--list takes no CMD, --once or --reason")
		}
		list := []scopedAllow{}
		for _, f := range files {
			ens, err := allowonce.ListFile(f.Path)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Path, err)
			}
			for _, en := range ens {
				list = append(list, scopedAllow{Entry: en, Scope: f.Level, File: f.Path})
			}
		}
		e.reply(map[string]any{"allows": list}, func(w io.Writer) {
			if len(list) == 0 {
				fmt.Fprintf(w, "no authorisations (%s)\n", filesOf(files))
			}
			for _, en := range list {
				fmt.Fprintf(w, "%s %s %-7s [%s] %q — %s\n", en.ID, en.CreatedAt, en.Scope, allowState(en.Entry), en.Command, en.Reason)
			}
		})
		return nil
	}
	if err := c.checkAdd(); err != nil {
		return err
	}
	f := files[0]
	en, err := allowonce.AddFile(f.Path, "", c.Command, c.Reason)
	if err != nil {
		return err
	}
	project := ""
	if f.Level == "project" {
		project = filepath.Dir(filepath.Dir(f.Path))
	}
	// the audit trail of who authorised what: the hook records the use
	warnings := []string{}
	if err := hook.AppendUserRecord(hook.Record{Time: time.Now().UTC().Format("2006-01-02T15:04:05Z"), Event: "harness allow",
		Verdict: "authorised", Command: en.Command, AllowOnce: en.Reason, Reason: f.Level + " authorisation " + en.ID + " in " + f.Path,
		Project: project}, e.Vars); err != nil {
		warnings = append(warnings, "not recorded in the user-level audit log: "+err.Error())
	}
	e.reply(map[string]any{"allow": scopedAllow{Entry: en, Scope: f.Level, File: f.Path}, "warnings": warnings}, func(w io.Writer) {
		fmt.Fprintf(w, "authorised once (%s, %s): %q (%s)\n", f.Level, f.Path, en.Command, en.ID)
		for _, m := range warnings {
			fmt.Fprintln(e.Stderr, "warning: "+m)
		}
	})
	return nil
}

// projectDirFrom is the project of a command run in cwd: the nearest
// directory from cwd up that has a .claude/ directory (the one Claude Code
// is started in), home excluded (its .claude/ is the user's); cwd when
// there is none.
func projectDirFrom(cwd, home string) string {
	for d := filepath.Clean(cwd); ; {
		if home != "" && d == filepath.Clean(home) {
			break
		}
		if st, err := os.Stat(filepath.Join(d, ".claude")); err == nil && st.IsDir() {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return cwd
}

func filesOf(fs []hook.ConfigFile) string {
	var ps []string
	for _, f := range fs {
		ps = append(ps, f.Path)
	}
	return strings.Join(ps, ", ")
}
