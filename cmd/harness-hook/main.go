// Command harness-hook is the one Claude Code hook of the superAgent
// harness: every hook event (SessionStart, PreToolUse, Stop, …) runs this
// binary, which reads the payload on stdin and prints one JSON answer
// (see internal/hook for the behaviour and the failure policy).
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/superagent-harness/harness/internal/buildinfo"
	"github.com/superagent-harness/harness/internal/hook"
)

// version, commit and date are set at build time (install.sh stamps both
// binaries with the same values, see cmd/harness).
var version, commit, date = "dev", "", ""

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, environ()))
}

// run is the whole program; it always returns 0 (hook.Main never fails open
// through an exit code; past a decision's budget it answers and exits 0
// itself). `harness-hook --version` (alone) prints the build
// version for people and doctor; Claude Code never passes it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, env map[string]string) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") {
		fmt.Fprintln(stdout, buildinfo.Get(version, commit, date).Line("harness-hook"))
		return 0
	}
	return hook.Main(args, stdin, stdout, stderr, env)
}

// environ returns the process environment as a map.
func environ() map[string]string {
	env := os.Environ()
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}
