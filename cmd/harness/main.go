// Command harness is the command line of the harness toolkit: sprint
// workspaces (init, init-feature), record checks (validate, finalize --check,
// phase complete), guard explanations and the protocol operations.
// See `harness --help` and internal/cli for the commands and exit codes.
package main

import (
	"io"
	"os"

	"github.com/superagent-harness/harness/internal/cli"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}

// run is the whole program: parse args, run the command, return the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string) int {
	return cli.Run(args, stdin, stdout, stderr, cli.EnvMap(environ), version)
}
