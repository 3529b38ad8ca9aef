// Command harness is the command line of the harness toolkit: sprint
// workspaces (init, init-feature), record checks (validate, finalize --check,
// phase complete), guard explanations and the protocol operations.
// See `harness --help` and internal/cli for the commands and exit codes.
package main

import (
	"io"
	"os"

	"github.com/superagent-harness/harness/internal/buildinfo"
	"github.com/superagent-harness/harness/internal/cli"
)

// version, commit and date are set at build time (install.sh):
// go build -ldflags "-X main.version=v1.2.3 -X main.commit=abcdef1 -X main.date=2026-12-01T20:00:00Z".
// Unset, --version says "dev" and uses the VCS stamp Go recorded, if any.
var version, commit, date = "dev", "", ""

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}

// run is the whole program: parse args, run the command, return the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string) int {
	return cli.RunBuild(args, stdin, stdout, stderr, cli.EnvMap(environ), buildinfo.Get(version, commit, date))
}
