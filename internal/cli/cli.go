// Package cli is the kong command tree of `harness`, the command line that
// Hermes, CI and (for a few read-only commands) a Generator use instead of
// hand-written jq/sed snippets (docs/protocol.md §4).
//
// Exit codes, for every command:
//
//	0  ok: the workspace is valid, the change was made, the question answered
//	1  findings or refused: validate/finalize found errors, phase complete
//	   found missing records, init refused a non-empty target, unknown feature
//	2  usage or internal error: bad flags or arguments, unreadable workspace,
//	   I/O failure
//
// With --json every command answers with one Envelope on stdout (output.go,
// schemas/cli_envelope.schema.json): {"ok", "command", "data", "error"?}. An
// error's text also goes to stderr.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/superagent-harness/harness/internal/buildinfo"
	"github.com/superagent-harness/harness/internal/notify"
	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/safetext"
)

// rootHelp is the description bare `harness` and `harness --help` print.
const rootHelp = `Guards Claude Code sessions and runs the Hermes + Claude Code sprint protocol: wire the guard
into any project, read its decisions, and create, check and drive sprint workspaces.

Exit codes: 0 ok, 1 findings or refused, 2 usage or internal error.

Examples:
  harness install                       # guard the project in the current directory
  harness doctor                        # check that the guard really runs
  harness logs --verdict block          # what the guard refused
  harness explain 'rm -rf build'        # how a command is judged
  harness explain Z11                   # the protocol rule a refusal cites by that code
  harness init ~/sprints/sprint_20260421_1 && harness validate ~/sprints/sprint_20260421_1`

// Exit codes of every harness command.
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitUsage    = 2
)

// CLI is the kong root of `harness`. Global flags are accepted before or
// after the subcommand. Commands of the protocol-operations engineer are added
// through the embedded opsCommands struct (opscmds.go), so this struct does not
// need to change when they land.
type CLI struct {
	Version kong.VersionFlag `help:"Print the version and exit."`
	JSON    bool             `name:"json" help:"Machine output: one JSON object on stdout."`
	Root    string           `name:"root" placeholder:"DIR" help:"Sprint root (default: positional DIR, then $$HARNESS_ROOT, then the nearest folder above the working directory holding .harness/)."`
	NotifyFlags

	Init        InitCmd        `cmd:"" help:"Create a new sprint workspace."`
	InitFeature InitFeatureCmd `cmd:"" name:"init-feature" help:"Create a feature's directory and wire harness-hook for its Generator session."`
	Validate    ValidateCmd    `cmd:"" help:"Check every state file and record of a sprint workspace."`
	Finalize    FinalizeCmd    `cmd:"" help:"Check that a sprint is ready to be closed (the finalizer checklist)."`
	Phase       PhaseCmd       `cmd:"" help:"Phase bookkeeping of one feature."`
	Explain     ExplainCmd     `cmd:"" help:"Show how the Bash guard decides a command (same code path as the hook)."`
	Allow       AllowCmd       `cmd:"" help:"Authorise one exact blocked command once (for a feature, a project or the user), or list authorisations."`
	Demo        DemoCmd        `cmd:"" help:"Run the self-contained demonstration of the guards."`
	Doctor      DoctorCmd      `cmd:"" help:"Check that the binaries and every settings.json really enforce the harness."`
	Skill       SkillCmd       `cmd:"" help:"The Hermes skill shipped with harness (install)."`
	NotifyCmd   NotifyCmd      `cmd:"" name:"notify" help:"Deliver a message to the user's channel (see the global --notify)."`
	Install     InstallCmd     `cmd:"" help:"Guard Claude Code in a project (or --user: every project) by wiring harness-hook into its settings."`
	Uninstall   UninstallCmd   `cmd:"" help:"Remove harness-hook from a project's (or --user: the user's) Claude Code settings."`
	Logs        LogsCmd        `cmd:"" help:"Show the guard's decisions (the sprint's hook.log, or the user-level audit log outside a sprint)."`
	Completion  CompletionCmd  `cmd:"" help:"Print the shell code that completes harness commands and flags (bash, zsh, fish)."`
	VersionCmd  VersionCmd     `cmd:"" name:"version" help:"Print the version, commit and build date (same as --version)."`

	opsCommands
}

// Env is everything a command may read from its process: streams, the
// environment as a map, and the working directory. Commands never call
// os.Getenv or os.Getwd themselves.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Vars           map[string]string
	Cwd            string
	// Version is the build version printed by --version.
	Version string
	// Build is the whole build information (version, commit, date).
	Build buildinfo.Info
	// JSON mirrors the global --json flag.
	JSON bool
	// Root mirrors the global --root flag.
	Root string

	// data is the command's answer for the JSON envelope (set by reply).
	data any
	// messages are the messages for the user the command produced (send).
	messages []render.Message
	// root is the sprint root the command resolved (opsEnvAt), where a
	// delivery is recorded.
	root string
	// deliveries are the --notify delivery attempts of the messages.
	deliveries []notify.Delivery
	// streamed is set by a command that prints a stream of JSON lines
	// under --json (harness watch) instead of the one envelope.
	streamed bool
}

// exitError carries a non-zero exit code and its message: printed on stderr
// and put into the JSON envelope's error, or (quiet) only into the envelope
// because the text output already explained it.
type exitError struct {
	code  int
	msg   string
	quiet bool
}

func (e *exitError) Error() string { return e.msg }

// refused returns an error that exits 1 (findings or refused) with msg.
func refused(format string, a ...any) error {
	return &exitError{code: ExitFindings, msg: fmt.Sprintf(format, a...)}
}

// usage returns an error that exits 2 with msg.
func usage(format string, a ...any) error {
	return &exitError{code: ExitUsage, msg: fmt.Sprintf(format, a...)}
}

// silent is an exit code whose explanation the text output already gave;
// the message goes only into the JSON envelope's error.
func silent(code int, format string, a ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, a...), quiet: true}
}

// kongExit is the panic value used to unwind kong's Exit calls (--help,
// --version) back into Run.
type kongExit struct{ code int }

// EnvMap turns os.Environ-style "KEY=value" pairs into a map. Later
// duplicates win, as with the process environment.
func EnvMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// Run parses args (without the program name), runs the command and returns
// the process exit code (ExitOK, ExitFindings, ExitUsage). Output goes only to
// stdout/stderr; configuration comes only from env.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, env map[string]string, version string) int {
	return RunBuild(args, stdin, stdout, stderr, env, buildinfo.Get(version, "", ""))
}

// RunBuild is Run with the full build information (version, commit, date)
// that --version prints: "harness v1.2.3 (commit abcdef1, built 2026-…)".
func RunBuild(args []string, stdin io.Reader, stdout, stderr io.Writer, env map[string]string, build buildinfo.Info) (code int) {
	version := build.Version
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "harness: cannot read the working directory: %v\n", err)
		return ExitUsage
	}
	// Every human-facing byte goes through safetext: a value a Generator
	// wrote (a denied command, a title, a reason) never reaches the
	// terminal as an ESC/OSC sequence (JSON stays valid: \uXXXX escapes).
	stdout, stderr = safetext.Writer(stdout), safetext.Writer(stderr)
	e := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Vars: env, Cwd: cwd, Version: version, Build: build}
	asJSON := wantsJSON(args)
	if asJSON && wantsVersion(args) {
		// kong's VersionFlag prints plain text; --json promises one envelope,
		// the same as `harness version --json`.
		writeEnvelope(stdout, "version", build, ExitOK, "")
		return ExitOK
	}
	if len(args) == 0 {
		args = []string{"--help"} // bare `harness` shows what it can do
	}
	if args[0] == "help" {
		// `harness help [COMMAND…]` is `harness COMMAND… --help`, the
		// spelling git and go accept
		args = append(append([]string{}, args[1:]...), "--help")
	}

	var root CLI
	defer func() {
		if r := recover(); r != nil {
			if ke, ok := r.(kongExit); ok {
				code = ke.code
				return
			}
			panic(r)
		}
	}()
	parser, err := newParser(&root, stdout, stderr, build.Line("harness"))
	if err != nil {
		fmt.Fprintf(stderr, "harness: internal error: %v\n", err)
		if asJSON {
			writeEnvelope(stdout, "", nil, ExitUsage, "internal error: "+err.Error())
		}
		return ExitUsage
	}
	if completing(env) {
		// the shell asks for completions (harness completion)
		if err := completeLine(parser, env, stdout); err != nil {
			fmt.Fprintf(stderr, "harness: completion: %v\n", err)
			return ExitUsage
		}
		return ExitOK
	}
	ctx, err := parser.Parse(args)
	if err != nil {
		command, msg := "", err.Error()
		var pe *kong.ParseError
		if errors.As(err, &pe) && pe.Context != nil {
			msg = unknownCommand(pe.Context, msg)
			if pe.Context.Selected() != nil {
				command = commandPath(pe.Context.Selected())
			}
		}
		if command != "" {
			fmt.Fprintf(stderr, "harness: %s\nRun 'harness %s --help' for usage.\n", msg, command)
		} else {
			fmt.Fprintf(stderr, "harness: %s\nRun 'harness --help' for usage.\n", msg)
		}
		if asJSON {
			writeEnvelope(stdout, command, nil, ExitUsage, msg)
		}
		return ExitUsage
	}
	e.JSON = root.JSON
	e.Root = root.Root
	command := commandPath(ctx.Selected())
	code, msg := ExitOK, ""
	err = generatorGate(&root, ctx, env)
	var ch *notify.Feishu
	if err == nil {
		ch, err = e.notifier(root.NotifyFlags)
	}
	if err == nil {
		err = ctx.Run(e)
	}
	if err == nil && ch != nil {
		err = e.deliver(ch, command)
	}
	if err != nil {
		code, msg = ExitUsage, err.Error()
		quiet := false
		var xe *exitError
		if errors.As(err, &xe) {
			code, msg, quiet = xe.code, xe.msg, xe.quiet
		}
		if msg != "" && !quiet {
			fmt.Fprintf(stderr, "harness: %s\n", msg)
		}
	}
	if e.JSON && !(e.streamed && code == ExitOK) {
		var deliveries any // absent without --notify; [] when --notify had nothing to deliver
		if e.deliveries != nil {
			deliveries = e.deliveries
		}
		writeEnvelope(stdout, command, withMessages(e.data, e.messages, deliveries), code, msg)
	}
	return code
}

// unknownCommand rewrites kong's "unexpected argument X[, did you mean …]"
// into `unknown command "X"[ (did you mean …)]` when X stands where a
// subcommand name belongs (the last node parsed has subcommands and X is
// none of them); any other parse error is returned as it is.
func unknownCommand(ctx *kong.Context, msg string) string {
	rest, ok := strings.CutPrefix(msg, "unexpected argument ")
	if !ok {
		return msg
	}
	var node *kong.Node // the last command (or the app) parsed; flags have none
	for i := len(ctx.Path) - 1; i >= 0 && node == nil; i-- {
		node = ctx.Path[i].Node()
	}
	if node == nil || node.Type == kong.ArgumentNode {
		return msg
	}
	hasCommands := false
	for _, c := range node.Children {
		if c.Type == kong.CommandNode {
			hasCommands = true
			break
		}
	}
	if !hasCommands {
		return msg
	}
	word, hint, _ := strings.Cut(rest, ", did you mean ")
	out := fmt.Sprintf("unknown command %q", word)
	if p := commandPath(node); p != "" {
		out = fmt.Sprintf("unknown command %q for %q", word, p)
	}
	if hint != "" {
		out += " (did you mean " + strings.TrimSuffix(hint, "?") + "?)"
	}
	return out
}

// newParser builds the kong parser of the harness command tree (also used by
// the tests that walk every command); versionLine is what --version prints.
func newParser(root *CLI, stdout, stderr io.Writer, versionLine string) (*kong.Kong, error) {
	return kong.New(root,
		kong.Name("harness"),
		kong.Description(rootHelp),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(kongExit{c}) }),
		kong.Vars{"version": versionLine},
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
	)
}

// wantsJSON reports whether args ask for --json (before a "--" terminator),
// for answering a parse error in JSON.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "--json=true" {
			return true
		}
	}
	return false
}

// wantsVersion reports whether args ask for --version (before a "--").
func wantsVersion(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--version" {
			return true
		}
	}
	return false
}
