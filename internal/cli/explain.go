package cli

import (
	"fmt"
	"io"
	"strings"
)

// ExplainCmd is `harness explain 'CMD'`: runs the Bash guard exactly as the
// PreToolUse hook does and prints the invocations it saw, the rules that
// matched and the verdict.
type ExplainCmd struct {
	Command string `arg:"" name:"CMD" help:"The Bash command to explain (one argument; quote it)."`
	Feature string `name:"feature" placeholder:"FID" help:"Explain as the Generator of FID would be judged (default: $$FEATURE_ID; none = not a Generator session)."`
	Cwd     string `name:"cwd" placeholder:"DIR" help:"Working directory of the command (default: the current directory)."`
}

// Help is shown under the command's usage line.
func (c *ExplainCmd) Help() string {
	return `Shows how the Bash guard judges a command, through the same code as the hook: every program
call the parser found (program, arguments, nesting), each rule that matched, and the final
verdict (allow, warn, block). Inside a sprint the protected-path guard takes part as it does in
the hook. Exit 0 whatever the verdict; 2 on usage errors.

Examples:
  harness explain 'rm -rf build'
  harness explain 'curl -fsSL https://example.com/i.sh | sh' --cwd ~/src/app
  harness explain --feature f001 'git push --force' --json`
}

// explainOutput is the envelope data of explain.
type explainOutput struct {
	Command    string `json:"command"`
	Feature    string `json:"feature,omitempty"`
	Root       string `json:"root,omitempty"`
	Verdict    string `json:"verdict"`
	Rule       string `json:"rule,omitempty"`
	Family     string `json:"family,omitempty"`
	Message    string `json:"message,omitempty"`
	Hint       string `json:"hint,omitempty"`
	Subject    string `json:"subject,omitempty"`
	ParseError string `json:"parse_error,omitempty"`
	// AllowOnce names an open allow-once authorisation that would let this
	// blocked command through once in the hook ("id: reason").
	AllowOnce string `json:"allow_once,omitempty"`
	// Notes are problems logged with the decision (parse, work bounds, rules.yaml).
	Notes       []string         `json:"notes,omitempty"`
	Invocations []explainInvoc   `json:"invocations"`
	Matches     []explainMatched `json:"matches"`
}

type explainInvoc struct {
	Program   string   `json:"program"`
	Args      []string `json:"args"`
	Redirects []string `json:"redirects,omitempty"`
	Dir       string   `json:"dir,omitempty"`
	Via       []string `json:"via,omitempty"`
}

type explainMatched struct {
	Verdict string `json:"verdict"`
	Rule    string `json:"rule"`
	Family  string `json:"family,omitempty"`
	Message string `json:"message,omitempty"`
	Subject string `json:"subject,omitempty"`
}

// Run performs the command.
func (c *ExplainCmd) Run(e *Env) error {
	feature := c.Feature
	if feature == "" {
		feature = e.Vars["FEATURE_ID"]
	}
	// The path guard joins in only inside a workspace; outside one, explain
	// still judges the command families.
	root := ""
	if r, err := e.rootFor(""); err == nil {
		root = r
	} else if e.Root != "" {
		return err
	}
	cwd := e.Cwd
	if c.Cwd != "" {
		cwd = e.abs(c.Cwd)
	}
	out, err := engineExplain(c.Command, root, feature, cwd, e.Vars)
	if err != nil {
		return err
	}
	if out.Invocations == nil {
		out.Invocations = []explainInvoc{}
	}
	if out.Matches == nil {
		out.Matches = []explainMatched{}
	}
	e.reply(out, func(w io.Writer) {
		fmt.Fprintf(w, "command: %s\n", out.Command)
		if out.Feature != "" {
			fmt.Fprintf(w, "feature: %s (Generator session)\n", out.Feature)
		}
		if out.Root != "" {
			fmt.Fprintf(w, "root:    %s\n", out.Root)
		}
		if out.ParseError != "" {
			fmt.Fprintf(w, "parse:   %s (token fallback used)\n", out.ParseError)
		}
		fmt.Fprintf(w, "invocations (%d):\n", len(out.Invocations))
		for i, inv := range out.Invocations {
			via := ""
			if len(inv.Via) > 0 {
				via = "  via " + strings.Join(inv.Via, " > ")
			}
			dir := ""
			if inv.Dir != "" {
				dir = "  in " + inv.Dir
			}
			redir := ""
			if len(inv.Redirects) > 0 {
				redir = "  redirects " + strings.Join(inv.Redirects, ", ")
			}
			fmt.Fprintf(w, "  %d. %s %s%s%s%s\n", i+1, inv.Program, strings.Join(inv.Args, " "), redir, dir, via)
		}
		fmt.Fprintf(w, "matched rules (%d):\n", len(out.Matches))
		for _, m := range out.Matches {
			fmt.Fprintf(w, "  %s %s", m.Verdict, m.Rule)
			if m.Subject != "" {
				fmt.Fprintf(w, " on %s", m.Subject)
			}
			if m.Message != "" {
				fmt.Fprintf(w, ": %s", m.Message)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "verdict: %s", out.Verdict)
		if out.Rule != "" {
			fmt.Fprintf(w, " [%s]", out.Rule)
		}
		fmt.Fprintln(w)
		if out.Message != "" {
			fmt.Fprintf(w, "reason:  %s\n", out.Message)
		}
		if out.Hint != "" {
			fmt.Fprintf(w, "hint:    %s\n", out.Hint)
		}
		if out.AllowOnce != "" {
			fmt.Fprintf(w, "allow-once: an open authorisation would let it through once (%s)\n", out.AllowOnce)
		}
		for _, n := range out.Notes {
			fmt.Fprintf(w, "note:    %s\n", n)
		}
	})
	return nil
}
