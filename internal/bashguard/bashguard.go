// Package bashguard decides Bash commands for the command policy of testdata/corpus/README.md
// §2: it walks the command with internal/shell into normalised
// invocations and matches each against a rule table (rules/*.yaml, one Go
// matcher per rule id), plus project overrides (<root>/.harness/rules.yaml)
// and, inside a sprint workspace, the path guard for Bash writes (§3.3).
//
// The hook (PreToolUse, tool Bash) and `harness explain` call the same
// function, Decide.
package bashguard

import (
	"fmt"
	"strings"

	"github.com/superagent-harness/harness/internal/pathguard"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

//go:generate go run gen_rules.go

// PathChecker judges the write targets of one invocation (the path guard,
// testdata/corpus/README.md §3.3). internal/pathguard's *Guard implements it; it is nil
// outside a sprint workspace.
type PathChecker interface {
	// CheckInvocation returns the decision for inv's write targets; relative
	// targets resolve against cwd joined with inv.Dir.
	CheckInvocation(inv shell.Invocation, cwd string) verdict.Decision
}

// Context is what Decide needs besides the command.
type Context struct {
	// Feature is the running feature id in a Generator session ("" for
	// Hermes or a human): harness_admin applies only when it is set (§2.4).
	Feature string
	// Paths is the path guard, nil outside a workspace.
	Paths PathChecker
	// Cwd is the hook payload's cwd (base of relative targets).
	Cwd string
	// Overrides are the project's rule overrides; nil for the defaults.
	Overrides *Overrides
	// Vars are variables with values known before the command runs (e.g.
	// HARNESS_ROOT), substituted like literal assignments.
	Vars map[string]string
	// Identify recognises the harness binaries by what a file is
	// (shell.Options.Identify; the hook passes binid.Set.Identify); nil:
	// only names and copies made in the command count.
	Identify func(file string, dirs []string) (id string, found bool)
}

// Match is one rule that fired.
type Match struct {
	// Rule is the stable rule id ("fs.rm-recursive-force", a user rule id, or
	// the path guard's rule).
	Rule string
	// Family is the corpus family (rm_rf, …) or path rule.
	Family string
	// Invocation is the index in Result.Invocations, -1 for whole-command
	// rules (fork bombs, work bounds).
	Invocation int
	// Action is what the rule asks for (after overrides).
	Action verdict.Action
	// Why says what in the invocation made the rule fire.
	Why string
	// Override names the override file and entry that set Action
	// ("/p/.claude/harness.yaml: disable fs.rm-recursive-force", or the
	// file defining a user rule); "" when the rule acted as built in.
	Override string
}

// Result is the decision and everything needed to explain it.
type Result struct {
	// Decision is the strongest match (Block > Warn > Allow), the first one
	// left to right on ties; Action Allow when nothing matched.
	Decision verdict.Decision
	// Invocations are every command the shell would run (shell.Result).
	Invocations []shell.Invocation
	// Matches are every rule that fired, in order.
	Matches []Match
	// ParseError is the syntax error when the command (or a nested script)
	// did not parse and the token scan of §2.6 was used.
	ParseError error
	// Errors are problems to log with the decision (parse error, work bound).
	Errors []string
}

// lookupOnly reports an invocation whose only argument is --help,
// --version or -V: a lookup, not a run (testdata/corpus/README.md §2.3 "Lookups are not runs").
// Redirections still count (the path guard judges them).
func lookupOnly(c *call) bool {
	if privPrograms(c.prog) || c.prog == "su" {
		// any invocation of them is a run (§2.4 privilege; sudo's lookups
		// are matchSudo's)
		return false
	}
	if len(c.inv.Redirects) > 0 {
		return false
	}
	args := c.args
	if g := c.inv.Cmd; g != nil && len(g.SubAt) > 0 {
		// `git filter-repo --help`, `docker volume prune --help`: the help
		// of a subcommand is a lookup too (the subcommand path, then only
		// the help word; git's subcommands all take -h for it)
		args = args[g.SubAt[len(g.SubAt)-1]+1:]
		if c.prog == "git" && len(args) == 1 && args[0] == "-h" {
			return true
		}
	}
	// a lone -V is the version of the programs that spell it so
	// (`mkfs.ext4 -V`, `mke2fs -V`): without an operand nothing is run
	return len(args) == 1 && (args[0] == "--help" || args[0] == "--version" || args[0] == "-V")
}

// Decide judges one Bash command line. An empty or blank command is
// allowed. It never fails open: unparseable text is token-scanned, and work
// bounds that stop the walk block.
func Decide(cmd string, ctx Context) (res Result) {
	if strings.TrimSpace(cmd) == "" {
		return Result{}
	}
	defer func() {
		// a bug in the walk must not become an allow
		if p := recover(); p != nil {
			why := fmt.Sprintf("internal error while analysing the command: %v", p)
			res = Result{Errors: []string{why}}
			res.Matches = []Match{{Rule: ruleid.ShellTooComplex, Family: "shell", Invocation: -1, Action: verdict.Block, Why: why}}
			res.Decision = verdict.Decision{Action: verdict.Block, Rule: ruleid.ShellTooComplex, Family: "shell", Message: why,
				Hint: "split the command into simpler steps or write a script file and run it"}
		}
	}()
	opts := shell.Options{Vars: ctx.Vars, Cwd: ctx.Cwd, Identify: ctx.Identify}
	if ph, ok := ctx.Paths.(interface{ Physical(string) string }); ok {
		opts.Physical = ph.Physical // cd -P follows links the way the kernel does (§9.4)
	}
	pr := shell.Parse(cmd, opts)
	res = Result{Invocations: pr.Invocations, ParseError: pr.ParseError}
	if pr.ParseError != nil {
		res.Errors = append(res.Errors, "parse: "+pr.ParseError.Error())
	}
	if pr.Overflow != "" {
		res.Errors = append(res.Errors, "walk: "+pr.Overflow)
	}
	rs := ruleSet(ctx.Overrides)
	m := &evalCtx{ctx: ctx, res: &pr}
	paths := ctx.Paths
	if g, ok := paths.(*pathguard.Guard); ok && g != nil {
		// a symbolic link made by one part of the command is followed
		// when another part writes through it (pathguard.ForCommand)
		paths = g.ForCommand(pr.Invocations, ctx.Cwd)
	}
	decs := make([]verdict.Decision, 0, 2)
	add := func(r *Rule, idx int, action verdict.Action, by, why, subj string) {
		res.Matches = append(res.Matches, Match{Rule: r.ID, Family: r.Family, Invocation: idx, Action: action, Why: why, Override: by})
		if action == verdict.Allow {
			return
		}
		msg := why
		if msg == "" {
			msg = r.Message
		}
		hint := r.Hint
		if idx >= 0 {
			inv := &pr.Invocations[idx]
			if via := inv.Via; len(via) > 0 {
				msg += " (run via " + strings.Join(via, " › ") + ")"
			}
			if shell.IsHarnessBinary(inv.Program) && inv.Word.Known && shell.Identity(inv.Word.Value) != inv.Program {
				// recognised by what the file is, not by its name (§9.1)
				msg += "; " + inv.Word.Value + " is the " + inv.Program + " binary (a copy, link or rename of it)"
			}
			if inv.Inferred != "" && inv.InferredCode {
				// the cautious default for code handed to an unknown program
				msg += "; " + inv.Inferred + " is a program the guard does not know, and the code given to it holds this command, so it is judged as run by it (cautious default for unknown interpreters, editors and runners)"
				hint = "if " + inv.Inferred + " only prints or stores that text, pass it another way (a file, stdin; harness explain CMD shows the command read from the code); otherwise: " + hint
			} else if inv.Inferred != "" {
				// the cautious default of §9.1 found this command
				msg += "; " + inv.Inferred + " is a program the guard does not know, so the command in its arguments is judged as run by it (cautious default)"
				hint = "if " + inv.Inferred + " does not run its arguments, pass them another way (a file, stdin); otherwise: " + hint
			}
		}
		if pr.ParseError != nil {
			msg = "the command could not be parsed (" + pr.ParseError.Error() + "); the token scan found " + msg
		}
		decs = append(decs, verdict.Decision{Action: action, Rule: r.ID, Family: r.Family, Message: msg, Hint: hint, Subject: subj})
	}
	for i := range pr.Invocations {
		inv := &pr.Invocations[i]
		c := newCall(inv, i)
		if lookupOnly(c) {
			// `prog --help` / `prog --version` alone is a lookup, not a run (§2.3)
			continue
		}
		for k := range rs.rules {
			r := &rs.rules[k]
			mt := matchers.Get()[r.ID]
			if mt == nil {
				continue
			}
			hit, why := mt(m, c)
			if !hit {
				continue
			}
			action, by := rs.action(r, c, ctx.Cwd)
			add(r, i, action, by, why, subject(inv))
		}
		for k := range rs.user {
			u := &rs.user[k]
			if u.matches(c) {
				add(&u.rule, i, u.rule.Action, u.ov.source, "matches the project rule "+u.rule.ID, subject(inv))
			}
		}
		if paths != nil {
			d := paths.CheckInvocation(*inv, ctx.Cwd)
			if d.Action > verdict.Allow {
				res.Matches = append(res.Matches, Match{Rule: d.Rule, Family: d.Family, Invocation: i, Action: d.Action, Why: d.Message})
				if pr.ParseError != nil {
					d.Message = "the command could not be parsed (" + pr.ParseError.Error() + "); the token scan found: " + d.Message
				}
				decs = append(decs, d)
			}
		}
	}
	for _, fn := range pr.Functions {
		if !fn.SelfBackground {
			continue
		}
		if r := rs.byID(ruleid.ForkbombSelfBackground); r != nil {
			a, by := rs.action(r, nil, ctx.Cwd)
			add(r, -1, a, by, fmt.Sprintf("function %s runs itself in the background", fn.Name), fn.Name+"()")
		}
	}
	for _, loop := range pr.BackgroundLoops {
		if r := rs.byID("forkbomb.background-loop"); r != nil {
			a, by := rs.action(r, nil, ctx.Cwd)
			add(r, -1, a, by, "an endless loop starts a job in the background on every turn", loop)
		}
	}
	if pr.Overflow != "" {
		if r := rs.byID(ruleid.ShellTooComplex); r != nil {
			// never weakened by overrides: the guard could not finish
			add(r, -1, verdict.Block, "", pr.Overflow, "")
		}
	}
	res.Decision = verdict.Max(decs...)
	return res
}
