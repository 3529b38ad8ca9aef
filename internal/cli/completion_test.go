package cli

import (
	"io"
	"strconv"
	"strings"
	"testing"
)

// TestCompleteLine asks for completions as the shell does (COMP_LINE and
// COMP_POINT in the environment) at the places a user presses TAB:
// subcommands, nested subcommands, flags, enum values (also after "=").
func TestCompleteLine(t *testing.T) {
	for line, want := range map[string]string{
		"harness vali":                   "validate",
		"harness ph":                     "phase",
		"harness phase ":                 "advance complete retry",
		"harness phase co":               "complete",
		"harness completion ":            "bash fish zsh",
		"harness validate --format ":     "github junit text",
		"harness validate --format=j":    "junit",
		"harness install --pre":          "--preset",
		"harness install --preset ":      "standard strict",
		"harness checkpoint reply-":      "reply-all",
		"harness nosuchcommand --format": "",
	} {
		var root CLI
		p, err := newParser(&root, io.Discard, io.Discard, "test")
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		env := map[string]string{"COMP_LINE": line + "IGNORED", "COMP_POINT": strconv.Itoa(len(line))}
		if err := completeLine(p, env, &out); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(strings.Fields(out.String()), " "); got != want {
			t.Errorf("%q: completions %q, want %q", line, got, want)
		}
	}
}

// TestCompletionScripts: each script hands completion to harness itself.
func TestCompletionScripts(t *testing.T) {
	for shell, want := range map[string]string{
		"bash": "complete -o default -C harness harness",
		"zsh":  "bashcompinit",
		"fish": "set -lx COMP_LINE (commandline -cp)",
	} {
		if s := completionScript(shell, "harness"); !strings.Contains(s, want) {
			t.Errorf("%s script lacks %q:\n%s", shell, want, s)
		}
	}
}
