package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/skill"
)

// checkSkill compares the installed copies of the Hermes skill (the Hermes
// home's skills/<category>/harness-sprint, and Claude Code's
// <config dir>/skills/harness-sprint when there is one) with the skill this
// binary ships: a copy that differs is outdated (warn), because Hermes would
// follow steps for another version of the commands.
func checkSkill(o Options) []Check {
	hermes := o.Env["HERMES_HOME"]
	if hermes == "" && o.Home != "" {
		hermes = filepath.Join(o.Home, ".hermes")
	}
	claude := o.Env["CLAUDE_CONFIG_DIR"]
	if claude == "" && o.Home != "" {
		claude = filepath.Join(o.Home, ".claude")
	}
	var out []Check
	for _, t := range []struct {
		where, dir, flag string
		quietIfMissing   bool
	}{
		{"Hermes", skill.HermesDir(hermes), "", false},
		{"Claude Code", skill.ClaudeDir(claude), " --claude", true},
	} {
		if hermes == "" && t.where == "Hermes" || claude == "" && t.where == "Claude Code" {
			continue
		}
		name := "skill " + t.dir
		st, err := skill.Compare(t.dir)
		switch {
		case err != nil:
			out = append(out, Check{Name: name, Status: StatusFail, Detail: "the shipped skill cannot be read: " + err.Error(),
				Fix: "rebuild harness"})
		case st.Status == "missing":
			if !t.quietIfMissing {
				out = append(out, Check{Name: name, Status: StatusInfo,
					Detail: fmt.Sprintf("the %s skill %s is not installed (shipped version %s)", t.where, skill.Name, st.Shipped)})
			}
		case st.Status == "current":
			out = append(out, Check{Name: name, Status: StatusOK,
				Detail: fmt.Sprintf("%s skill %s %s matches this harness", t.where, skill.Name, st.Shipped)})
		default:
			installed := st.Installed
			if installed == "" {
				installed = "unknown version"
			}
			out = append(out, Check{Name: name, Status: StatusWarn,
				Detail: fmt.Sprintf("the %s skill %s is outdated: %s installed, this harness ships %s; differs: %s",
					t.where, skill.Name, installed, st.Shipped, strings.Join(st.Differs, ", ")),
				Fix: "harness skill install" + t.flag})
		}
	}
	return out
}
