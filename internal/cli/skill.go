package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"

	"github.com/superagent-harness/harness/internal/skill"
)

// SkillCmd is `harness skill`.
type SkillCmd struct {
	Install SkillInstallCmd `cmd:"" help:"Install the Hermes skill harness-sprint that ships with this binary (Hermes Agent, and Claude Code with --claude)."`
}

// Help is shown under the usage line.
func (c *SkillCmd) Help() string {
	return `The Hermes skill harness-sprint ships inside this binary; install writes it where Hermes Agent
(and, with --claude, Claude Code) loads skills.

Examples:
  harness skill install
  harness skill install --claude`
}

// SkillInstallCmd is `harness skill install`.
type SkillInstallCmd struct {
	HermesHome string `name:"hermes-home" placeholder:"DIR" help:"Hermes home (default $$HERMES_HOME, else ~/.hermes); the skill goes to DIR/skills/software-development/harness-sprint/."`
	Claude     bool   `name:"claude" help:"Also install it as a Claude Code user skill: $$CLAUDE_CONFIG_DIR/skills/harness-sprint/ (default ~/.claude/skills/), for setups where Claude Code is the orchestrator."`
}

// Help is shown under the usage line.
func (c *SkillInstallCmd) Help() string {
	return `Writes skills/harness-sprint (SKILL.md and references/) as embedded in this binary, in the Agent Skills
layout Hermes Agent loads (<hermes home>/skills/<category>/<name>/SKILL.md). Idempotent: files already equal are
not touched, files of an earlier version of the skill that this one no longer has are removed, files you added
are kept. 'harness doctor' warns when an installed copy differs from the binary's.

--json data: {"installs": [{"dir", "written", "unchanged", "removed", "version"}]}. Exit 2 when a folder cannot be
written.

Examples:
  harness skill install
  harness skill install --hermes-home /srv/hermes --claude --json`
}

// Run performs the command.
func (c *SkillInstallCmd) Run(e *Env) error {
	home := e.Vars["HOME"]
	if runtime.GOOS == "windows" && home == "" {
		home = e.Vars["USERPROFILE"]
	}
	hermes := c.HermesHome
	if hermes == "" {
		hermes = e.Vars["HERMES_HOME"]
	}
	if hermes == "" {
		if home == "" {
			return usage("no Hermes home: pass --hermes-home DIR or set HERMES_HOME (or HOME)")
		}
		hermes = filepath.Join(home, ".hermes")
	}
	dirs := []string{skill.HermesDir(e.abs(hermes))}
	if c.Claude {
		cc := e.Vars["CLAUDE_CONFIG_DIR"]
		if cc == "" {
			if home == "" {
				return usage("--claude: no Claude Code config dir: set CLAUDE_CONFIG_DIR (or HOME)")
			}
			cc = filepath.Join(home, ".claude")
		}
		dirs = append(dirs, skill.ClaudeDir(e.abs(cc)))
	}
	installs := make([]skill.Result, 0, len(dirs))
	for _, d := range dirs {
		res, err := skill.Install(d)
		if err != nil {
			return usage("skill install %s: %v", d, err)
		}
		installs = append(installs, res)
	}
	e.reply(map[string]any{"installs": installs}, func(w io.Writer) {
		for _, r := range installs {
			fmt.Fprintf(w, "%s %s → %s: %d written, %d unchanged, %d removed\n", skill.Name, r.Version, r.Dir,
				len(r.Written), len(r.Unchanged), len(r.Removed))
		}
	})
	return nil
}
