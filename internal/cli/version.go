package cli

import (
	"fmt"
	"io"
)

// VersionCmd is `harness version`: what --version prints, and with --json the
// build information in the envelope's data ({version, commit, date}).
type VersionCmd struct{}

// Help is shown under the usage line.
func (c *VersionCmd) Help() string {
	return `Prints the version of this harness binary, the commit it was built from and when it was built,
the same line as harness --version. With --json: {"version", "commit", "date"} in data.

Examples:
  harness version
  harness version --json`
}

// Run performs the command.
func (c *VersionCmd) Run(e *Env) error {
	e.reply(e.Build, func(w io.Writer) { fmt.Fprintln(w, e.Build.Line("harness")) })
	return nil
}
