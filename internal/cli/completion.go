package cli

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/posener/complete"
	"github.com/willabides/kongplete"
)

// CompletionCmd is `harness completion bash|zsh|fish`: it prints the shell
// code that makes the shell ask harness for completions. The shell then runs
// harness with COMP_LINE (the command line so far) and COMP_POINT (the
// cursor) set, and harness answers with the candidates, one per line
// (completeLine).
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

// Help is the long help of the command.
func (c *CompletionCmd) Help() string {
	return `Prints the shell code that completes harness's commands, flags and flag values (for example the
shells of 'harness completion' and the formats of 'harness validate --format') as you type. Load it
in the shell's start-up file, or once by hand.

Examples:
  harness completion bash >> ~/.bashrc
  harness completion zsh >> ~/.zshrc
  harness completion fish > ~/.config/fish/completions/harness.fish
  eval "$(harness completion bash)"       # this shell only`
}

// Run prints the script.
func (c *CompletionCmd) Run(e *Env) error {
	script := completionScript(c.Shell, "harness")
	e.reply(map[string]any{"shell": c.Shell, "script": script}, func(w io.Writer) { io.WriteString(w, script) })
	return nil
}

// completionScript is the shell code for shell. bash and zsh use the
// shell's own protocol for a program that completes itself (complete -C:
// the program runs with COMP_LINE and COMP_POINT set); fish sets COMP_LINE
// in a function and reads the candidates from it.
func completionScript(shell, bin string) string {
	switch shell {
	case "bash":
		return "# harness completion for bash\ncomplete -o default -C " + bin + " " + bin + "\n"
	case "zsh":
		return "# harness completion for zsh (through zsh's bash completion support)\n" +
			"autoload -U +X bashcompinit && bashcompinit\ncomplete -o default -C " + bin + " " + bin + "\n"
	case "fish":
		return "# harness completion for fish\n" +
			"function __harness_complete\n" +
			"    set -lx COMP_LINE (commandline -cp)\n" +
			"    set -lx COMP_POINT (string length -- $COMP_LINE)\n" +
			"    " + bin + "\n" +
			"end\n" +
			"complete -c " + bin + " -f -a '(__harness_complete)'\n"
	}
	return ""
}

// completing reports whether the process was started by the shell's
// completion (complete -C or the fish function): COMP_LINE is set (it
// always holds at least the program name).
func completing(env map[string]string) bool {
	return env["COMP_LINE"] != ""
}

// completeLine prints the completions of the command line in env's
// COMP_LINE, cut at COMP_POINT: the subcommands, flags and flag values
// (enums) that the kong tree allows there and that start with the word being
// typed, one per line, sorted. The tree is mapped by kongplete; the line is
// read from env (not the process environment).
func completeLine(parser *kong.Kong, env map[string]string, w io.Writer) error {
	cmd, err := kongplete.Command(parser)
	if err != nil {
		return err
	}
	line := env["COMP_LINE"]
	if p, err := strconv.Atoi(env["COMP_POINT"]); err == nil && p >= 0 && p < len(line) {
		line = line[:p]
	}
	args := completionArgs(line)
	var out []string
	for _, c := range cmd.Predict(args) {
		if strings.HasPrefix(c, args.Last) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	for _, c := range out {
		fmt.Fprintln(w, c)
	}
	return nil
}

// completionArgs splits a command line the way the shell's completion sees
// it: the words after the program name; the last one is the word being
// typed ("" after a space); --flag=value is two words, so the value is
// completed.
func completionArgs(line string) complete.Args {
	words := strings.Fields(line)
	if len(words) > 0 {
		words = words[1:]
	}
	if strings.HasSuffix(line, " ") || len(words) == 0 {
		words = append(words, "")
	}
	if last := words[len(words)-1]; strings.HasPrefix(last, "-") && strings.Contains(last, "=") {
		k, v, _ := strings.Cut(last, "=")
		words = append(words[:len(words)-1], k, v)
	}
	a := complete.Args{All: words, Completed: words[:len(words)-1], Last: words[len(words)-1]}
	if n := len(a.Completed); n > 0 {
		a.LastCompleted = a.Completed[n-1]
	}
	return a
}
