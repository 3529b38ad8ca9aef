package cli

// DemoCmd is `harness demo`: a self-contained tour of the guards on a
// throw-away sprint (the hook engineer's demo driver).
type DemoCmd struct {
	Keep bool `name:"keep" help:"Keep the temporary sprint and print its path."`
}

// Help is shown under the command's usage line.
func (c *DemoCmd) Help() string {
	return `Creates a temporary sprint, sends real hook payloads through harness-hook (blocked and allowed
Bash commands, edits of protected files, a Stop with missing records) and prints each decision.
Exit 0 when every decision is the expected one, 1 otherwise.

Examples:
  harness demo
  harness demo --keep --json`
}

// Run performs the command.
func (c *DemoCmd) Run(e *Env) error { return engineDemo(e, c.Keep) }
