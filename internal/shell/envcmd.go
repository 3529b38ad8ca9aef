package shell

import (
	"maps"
	"slices"
	"sort"
	"strings"
)

// EnvCommand is one row of the table of environment variables whose value
// programs run as a shell command line (testdata/corpus/README.md §2.1
// "wherever the shell would execute it", §9.2 "programs that run a shell
// string from an option"): pagers, editors, ssh and diff commands, the
// input preprocessors of less. An assignment of one of them in the
// environment of a command that runs (`PAGER=… man ls`, `env EDITOR=… git
// commit`, `export GIT_SSH_COMMAND=…; git fetch`) is judged as the command
// its value is, whatever the program: a program the table does not know
// may start a pager or an editor of its own. Data programs (KindData:
// echo, export, type …) and exec wrappers (which hand the environment to
// the command they run) do not count as readers.
type EnvCommand struct {
	// Names are the variables (space-separated).
	Names string
	// Marks are leading characters that select a mode rather than belong
	// to the command (less's LESSOPEN='|lesspipe %s', '||…', '|-…').
	Marks string
	// Readers names the programs known to run the value (documentation:
	// the mechanism applies to every program).
	Readers string
	// Example is a command line (program and arguments) that reads the
	// variables; TestEnvCommandExamples runs `NAME='rm -rf build'
	// EXAMPLE` for every name (block) and `NAME=true EXAMPLE` (allow).
	Example string
}

// envCommands is the table (sources: the programs' manual pages —
// man(1), less(1) INPUT PREPROCESSOR, git(1) ENVIRONMENT and
// git-config(1), systemctl(1), psql(1), gh(1) environment, kubectl edit,
// sudo(8) SUDO_EDITOR, bash(1) fc, rsync(1), ssh(1) SSH_ASKPASS).
var envCommands = [...]EnvCommand{
	{Names: "PAGER MANPAGER", Readers: "man, git, psql, systemctl, journalctl, gh, mysql, apt changelog", Example: "man ls"},
	{Names: "GIT_PAGER GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_SSH_COMMAND GIT_EXTERNAL_DIFF GIT_ASKPASS GIT_PROXY_COMMAND", Readers: "git", Example: "git log"},
	{Names: "EDITOR VISUAL", Readers: "git, crontab -e, kubectl edit, systemctl edit, visudo, fc, gh, mutt, less v", Example: "git commit"},
	{Names: "LESSOPEN LESSCLOSE", Marks: "|-", Readers: "less", Example: "less notes.md"},
	{Names: "SYSTEMD_PAGER SYSTEMD_EDITOR", Readers: "systemctl, journalctl, loginctl", Example: "systemctl status"},
	{Names: "KUBE_EDITOR", Readers: "kubectl edit", Example: "kubectl edit deploy web"},
	{Names: "PSQL_PAGER PSQL_EDITOR", Readers: "psql", Example: "psql"},
	{Names: "GH_PAGER GH_EDITOR GH_BROWSER BROWSER", Readers: "gh, xdg-open, python webbrowser", Example: "gh pr create"},
	{Names: "SUDO_EDITOR FCEDIT SVN_EDITOR HGEDITOR CVSEDITOR", Readers: "sudoedit, fc, svn, hg, cvs", Example: "fc -1"},
	{Names: "RSYNC_RSH CVS_RSH", Readers: "rsync (-e), cvs", Example: "rsync -a src/ host:dst/"},
	{Names: "SSH_ASKPASS AWS_PAGER BAT_PAGER DELTA_PAGER", Readers: "ssh, aws v2, bat, delta", Example: "aws s3 ls"},
}

// envCommand returns the row of variable name (nil: not a command-valued
// variable).
func envCommand(name string) *EnvCommand {
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return nil
	}
	for i := range envCommands {
		if hasName(envCommands[i].Names, name) {
			return &envCommands[i]
		}
	}
	return nil
}

// EnvCommands returns a copy of the table (for tests and documentation).
func EnvCommands() []EnvCommand { return append([]EnvCommand(nil), envCommands[:]...) }

// envRuns walks the command lines the command-valued variables of a
// command's environment hold (envCommands), once per variable, value and
// directory in a parse.
func (w *walker) envRuns(f *frame, st *state, prog string, c cmdCtx) {
	if len(c.env) == 0 && !st.cmdVars {
		return
	}
	if row := c.cmd.Prog; row != nil && (row.Kind == KindData || row.Kind == KindExec && len(row.Subs) == 0) || prog == "env" {
		return // env(1) is an exec wrapper too: its command gets the environment
	}
	var names []string
	vals, cloned := c.env, false
	for name := range c.env {
		if envCommand(name) != nil {
			names = append(names, name)
		}
	}
	if st.cmdVars && !slices.Contains(c.unset, "*") {
		// set in the shell without export: the variable may be exported
		// by the parent already (PAGER, EDITOR, GIT_EDITOR …), and then
		// the new value is what the program sees
		for name, v := range st.vars {
			if _, inEnv := c.env[name]; inEnv || !v.known || v.isArr || v.isAssoc || envCommand(name) == nil || slices.Contains(c.unset, name) {
				continue
			}
			if !cloned {
				vals, cloned = make(map[string]string, len(c.env)+1), true
				maps.Copy(vals, c.env)
			}
			vals[name] = v.val
			names = append(names, name)
		}
	}
	sort.Strings(names) // one order of the judged commands
	for _, name := range names {
		src := strings.TrimLeft(vals[name], envCommand(name).Marks)
		if strings.TrimSpace(src) == "" {
			continue
		}
		key := name + "=" + src + "\x00" + st.dir
		if w.envRan[key] {
			continue
		}
		if w.envRan == nil {
			w.envRan = map[string]bool{}
		}
		w.envRan[key] = true
		via := name
		if prog != "" {
			via = prog + " " + name
		}
		w.runShellString(f, st, via, src)
	}
}
