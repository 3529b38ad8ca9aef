// Command harness-hook is the one Claude Code hook of the superAgent
// harness: every hook event (SessionStart, PreToolUse, Stop, …) runs this
// binary, which reads the payload on stdin and prints one JSON answer
// (see internal/hook for the behaviour and the failure policy).
package main

import (
	"io"
	"os"
	"strings"

	"github.com/superagent-harness/harness/internal/hook"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, environ()))
}

// run is the whole program; it always returns 0 (hook.Run never fails open
// through an exit code).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, env map[string]string) int {
	return hook.Run(args, stdin, stdout, stderr, env)
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
