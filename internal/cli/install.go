package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/cli/scaffold"
	"github.com/superagent-harness/harness/internal/fsutil"
)

// scopeFlags are the settings file install and uninstall edit: the
// project's .claude/settings.json (default: the working directory) or the
// user's ~/.claude/settings.json.
type scopeFlags struct {
	User    bool   `name:"user" xor:"scope" help:"Edit ~/.claude/settings.json: every project of this user is guarded."`
	Project string `name:"project" xor:"scope" placeholder:"DIR" help:"Edit DIR/.claude/settings.json (default: the current directory)."`
	DryRun  bool   `name:"dry-run" help:"Print the change; write nothing."`
}

// homeDir is the user's home directory from the environment: HOME, else
// USERPROFILE (Windows); "" when neither is set.
func homeDir(vars map[string]string) string {
	if h := vars["HOME"]; h != "" {
		return h
	}
	return vars["USERPROFILE"]
}

// settingsPath resolves the scope to an absolute settings file.
func (s scopeFlags) settingsPath(e *Env) (string, error) {
	if s.User {
		home := homeDir(e.Vars)
		if home == "" {
			return "", usage("--user: no HOME (or USERPROFILE) in the environment")
		}
		return filepath.Join(home, ".claude", "settings.json"), nil
	}
	dir := e.Cwd
	if s.Project != "" {
		dir = e.abs(s.Project)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", usage("--project %s is not a directory", dir)
	}
	return filepath.Join(dir, ".claude", "settings.json"), nil
}

// InstallCmd is `harness install`: wires harness-hook into a Claude Code
// settings file (docs/hooks.md §7) outside any sprint.
type InstallCmd struct {
	scopeFlags
	Preset  string `name:"preset" enum:"strict,standard" default:"standard" help:"Policy: standard (for ordinary projects) or strict (the sprint policy)."`
	HookBin string `name:"hook-bin" placeholder:"PATH" help:"harness-hook binary to wire (default: beside this harness binary, else on PATH)."`
}

// Help is the long help of install.
func (c *InstallCmd) Help() string {
	return `Guards Claude Code in a project (or, with --user, in every project): adds harness-hook as the
PreToolUse hook for Bash and for the file tools (Edit, Write, MultiEdit, NotebookEdit) to the settings
file, in exec form with the absolute path of harness-hook and "onFailure": "block", so a hook that
cannot run refuses the tool call instead of letting it through.

Only harness-hook's own entries are added or replaced; every other byte of the file stays as it was.
The previous file is kept as settings.json.harness-backup, and the change is printed as a diff.
Running it again changes nothing. Decisions are logged: see 'harness logs'.

Presets: standard = the sprint policy, except that rm -rf of build outputs inside the project and of
temp dirs is allowed, and piping a download into a shell is blocked (rules/presets/presets.yaml);
strict = the sprint policy unchanged.

Examples:
  harness install                       # guard the project in the current directory
  harness install --project ~/src/app --dry-run
  harness install --user --preset strict
  harness doctor                        # then check that the guard is really wired`
}

// installData is the envelope data of install and uninstall.
type installData struct {
	Settings string `json:"settings"`
	HookBin  string `json:"hook_bin,omitempty"`
	Preset   string `json:"preset,omitempty"`
	Changed  bool   `json:"changed"`
	DryRun   bool   `json:"dry_run"`
	Backup   string `json:"backup,omitempty"`
	Diff     string `json:"diff"`
	// Removed: uninstall deleted the settings file, which held nothing
	// but harness-hook's entries ({} without them; install had created it).
	Removed bool `json:"removed,omitempty"`
	// dropEmpty makes an edit that leaves {} delete the file (uninstall).
	dropEmpty bool
}

// Run performs install.
func (c *InstallCmd) Run(e *Env) error {
	path, err := c.settingsPath(e)
	if err != nil {
		return err
	}
	hookBin, err := scaffold.FindHookBin(c.HookBin, e.Vars, e.Cwd)
	if err != nil {
		return usage("%v", err)
	}
	groups := ccsettings.Wiring{HookBin: hookBin, Preset: c.Preset}.GuardGroups()
	return editSettings(e, path, c.DryRun, installData{HookBin: hookBin, Preset: c.Preset}, func(old []byte) ([]byte, error) {
		return ccsettings.SpliceHooks(old, hookBin, groups)
	})
}

// UninstallCmd is `harness uninstall`.
type UninstallCmd struct {
	scopeFlags
}

// Help is the long help of uninstall.
func (c *UninstallCmd) Help() string {
	return `Removes every harness-hook entry from the settings file that 'harness install' edited (the project's
.claude/settings.json, or with --user ~/.claude/settings.json); everything else stays byte for byte.
The previous file is kept as settings.json.harness-backup; the change is printed as a diff. A file
that would be left holding nothing ({}, e.g. one install created) is removed instead.

Examples:
  harness uninstall                     # the project in the current directory
  harness uninstall --user --dry-run`
}

// Run performs uninstall.
func (c *UninstallCmd) Run(e *Env) error {
	path, err := c.settingsPath(e)
	if err != nil {
		return err
	}
	// A file that holds nothing else is removed, not left as {}: a project
	// without settings before install has none after uninstall.
	return editSettings(e, path, c.DryRun, installData{dropEmpty: true}, func(old []byte) ([]byte, error) {
		return ccsettings.SpliceHooks(old, "", nil)
	})
}

// emptyObject reports whether b is a JSON object without members ({}, any
// white space around).
func emptyObject(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}

// diffLines splits b into lines for the unified diff, each keeping its
// "\n": nothing for an empty (or absent) file, and no extra empty line
// after a final newline (difflib.SplitLines adds one, which showed a new
// file's diff as "@@ -1 +1,N @@" ending in a blank context line).
func diffLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1]
	}
	lines[len(lines)-1] += "\n" // difflib wants every line terminated
	return lines
}

// editSettings applies edit to the settings file at path: prints the diff,
// keeps a backup of a file it changes, writes atomically (unless dryRun).
func editSettings(e *Env, path string, dryRun bool, d installData, edit func([]byte) ([]byte, error)) error {
	old, err := fsutil.ReadRegular(path, 4<<20) // settings files are a few KB
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	neu, err := edit(old)
	if err != nil {
		return refused("%s: %v; nothing was changed", path, err)
	}
	d.Settings, d.DryRun = path, dryRun
	d.Changed = !bytes.Equal(old, neu) && !(len(old) == 0 && len(bytes.TrimSpace(neu)) == 0)
	d.Removed = d.dropEmpty && exists && emptyObject(neu)
	if d.Removed {
		d.Changed, neu = true, nil
	}
	if d.Changed {
		from, to := path, path
		if !exists {
			from = "/dev/null"
		}
		if d.Removed {
			to = "/dev/null"
		}
		d.Diff, _ = difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A: diffLines(old), B: diffLines(neu), FromFile: from, ToFile: to, Context: 2,
		})
	}
	if d.Changed && !dryRun {
		if exists {
			d.Backup = path + ".harness-backup"
			if err := fsutil.WriteFileAtomic(d.Backup, old, 0o600); err != nil {
				return fmt.Errorf("backup %s: %w", d.Backup, err)
			}
		}
		if d.Removed {
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("remove %s: %w", path, err)
			}
		} else {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := fsutil.WriteFileAtomic(path, neu, 0o644); err != nil {
				return fmt.Errorf("write %s: %w", path, err)
			}
		}
	}
	e.reply(d, func(w io.Writer) {
		switch {
		case !d.Changed:
			fmt.Fprintf(w, "%s: already up to date, nothing to change\n", path)
			return
		case dryRun && d.Removed:
			fmt.Fprintf(w, "%s would be removed: it holds nothing but harness-hook's entries (dry run, nothing written):\n", path)
		case dryRun:
			fmt.Fprintf(w, "%s would change (dry run, nothing written):\n", path)
		case d.Removed:
			fmt.Fprintf(w, "%s removed: it held nothing but harness-hook's entries (previous version: %s):\n", path, d.Backup)
		default:
			fmt.Fprintf(w, "%s changed", path)
			if d.Backup != "" {
				fmt.Fprintf(w, " (previous version: %s)", d.Backup)
			}
			fmt.Fprintln(w, ":")
		}
		fmt.Fprint(w, d.Diff)
		if d.HookBin != "" && !dryRun {
			fmt.Fprintf(w, "guarded by %s (preset %s); new Claude Code sessions pick it up. Check with: harness doctor\n", d.HookBin, d.Preset)
		}
	})
	return nil
}
