// Package shell parses Bash command lines with mvdan.cc/sh/v3/syntax (bash
// dialect) and walks them into normalised invocations: every simple command
// the shell would run, at any depth (lists, pipelines, bodies, substitutions,
// `bash -c`, eval, wrappers, containers, ssh, stdin scripts), with its words
// reduced to the values the shell would see (testdata/corpus/README.md §2.1–§2.3, §2.6).
//
// The guards (internal/bashguard for the command families, internal/pathguard
// for write targets) work only on []Invocation, never on raw text.
package shell

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/superagent-harness/harness/internal/shell/codelex"
)

// Word is one argument after quote removal, escapes, brace/literal-variable
// expansion (testdata/corpus/README.md §2.2).
type Word struct {
	// Value is the text the program would receive. When Known is false it
	// holds the literal parts with unknown parts left out.
	Value string
	// Known is true when every part of the word was literal or resolved.
	Known bool
	// Raw is the source text of the word, for messages.
	Raw string
}

// Redirect is one redirection of a simple command.
type Redirect struct {
	// Op is the operator: ">", ">>", ">|", "&>", "&>>", "<>", "<", "<<", "<<-", "<<<", ">&", "<&".
	Op string
	// Fd is the explicit descriptor ("2" in 2>f), "" when implicit.
	Fd string
	// Target is the file word (or heredoc delimiter for "<<").
	Target Word
	// Listing is set when the target is substituted from a listing
	// producer (`> $(ls X)`, `> "$(find D -name N)"`): the file is one of
	// the listed paths (testdata/corpus/README.md §3.3 Listings).
	Listing *Listing
}

// Listing describes operands that a command gets from a listing instead of
// its own command line: a writer run by `xargs` over the output of `ls`,
// `find`, `grep -l`, `git ls-files`, `fd`, by `find … -exec CMD {}`, or a
// listing substituted as an argument (`sed -i … $(grep -rl x spec)`).
// The listed paths are everything under Roots (testdata/corpus/README.md §3.3 Listings).
type Listing struct {
	// Roots are the producer's path operands, resolved words; "." when it has none.
	// Roots is nil when xargs reads from something that is not a known listing
	// producer (`cat list.txt | xargs rm`, `xargs -a FILE`): the paths are unknown.
	Roots []string
	// Dir is the producer's working directory (same meaning as Invocation.Dir).
	Dir string
	// AltDirs are the producer's other possible directories (same meaning
	// as Invocation.AltDirs: `cd /tmp; find spec | xargs rm` may list ./spec).
	AltDirs []DirAlt
	// Follow is true when the producer follows symbolic links below the
	// roots (`find -L`): the listed paths include every link's target tree
	// (testdata/corpus/README.md §9.4).
	Follow bool
}

// Invocation is one simple command the shell would run, after unwrapping.
type Invocation struct {
	// Program is the program's identity (Identity): quotes removed, the
	// directory part, a leading backslash and a trailing ".exe" dropped,
	// case-folded ("/usr/bin/git" → "git", "NOHUP" → "nohup"); a git helper
	// binary is git with its subcommand as the first argument
	// ("/usr/lib/git-core/git-push" → "git" "push"). Empty for a command that
	// is only assignments and/or redirections, or whose name is unknown.
	Program string
	// Args are the words after the program.
	Args []Word
	// Word is the command word as the shell expanded it (before Program's
	// normalisation): "/usr/local/bin/harness", "./x.sh", "RM".
	Word Word
	// Cmd is Args parsed once by the program's row of the program table:
	// subcommand, options, operands, git configuration (testdata/corpus/README.md §9.1).
	// Guards read it and never re-parse Args. Never nil in a Result.
	Cmd *Command
	// Env holds literal values of variables in the command's environment:
	// prefix assignments, `env VAR=…`, and `export VAR=…` earlier in the same
	// command line. Values that are not fully literal keep their literal text.
	Env map[string]string
	// Unset are the variables an `env` wrapper removed from the command's
	// environment (`env -u NAME`), "*" for a cleared one (`env -i`, `env -`).
	Unset []string
	// Redirects are the command's redirections in source order, including
	// those of an enclosing compound command or `exec`.
	Redirects []Redirect
	// Dir is the working directory the shell would be in, as changed by
	// earlier `cd`/`pushd` in the same command: "" means the hook payload's
	// cwd; a relative value is relative to that cwd; a value starting with
	// "~" (`cd ~/x`) is relative to the home directory; DirUnknown means a cd
	// to a value the guard cannot know.
	Dir string
	// UnknownSub is, when Dir is DirUnknown, the relative path later cds
	// moved to below the unknown directory (`cd "$T" && cd .harness/features`
	// → ".harness/features"); "" otherwise.
	UnknownSub string
	// AltDirs are the other directories the command may run in, because an
	// earlier cd/pushd in the same command may have failed: bash then stays
	// in the old directory and goes on after `;`, a newline, `||` and `&`
	// (`cd nope 2>/dev/null; rm f` removes ./f). Only a cd the command
	// depends on makes its directory certain: `cd X && …`, `if cd X; then
	// …`, `cd X || exit`. Dir stays the directory of the path where every cd
	// succeeded; AltDirs never holds Dir itself and is nil when Dir is the
	// only possibility. Path guards judge a relative target against Dir and
	// every AltDirs entry; the strongest verdict wins (testdata/corpus/README.md §3.3).
	AltDirs []DirAlt
	// Stdin is the literal text the command reads on stdin when it is known
	// (heredoc body, here-string, pipe from a literal producer); nil otherwise.
	Stdin *string
	// PipedFrom is, when Stdin is a pipe from one simple command whose
	// output the guard does not compute, that command's invocation (`git
	// diff | git apply -R`: git diff; its own PipedFrom is nil); nil
	// otherwise. Rules read it to judge what a consumer does with a
	// producer's kind of output (testdata/corpus/README.md §9.3
	// git_history: the worktree's changes applied in reverse).
	PipedFrom *Invocation
	// Listing is set when trailing operands come from a listing (xargs, find -exec {}).
	Listing *Listing
	// Via is the nesting path from the top-level command to this one, outermost
	// first, e.g. ["bash -c", "$( )", "xargs"]; empty at top level. Commands
	// that run on another machine or in a container have "ssh", "ssh stdin",
	// "docker exec", "kubectl exec", … in their path; "unparsed" marks
	// commands found by the token scan of testdata/corpus/README.md §2.6.
	Via []string
	// Inferred names the unknown program this command was found in the
	// words of, by the cautious default of testdata/corpus/README.md §9.1
	// (`rtk rm -rf build` → rm -rf build, Inferred "rtk"); "" otherwise.
	// Guards say so in their reasons.
	Inferred string
	// InferredCode: the command was found in code handed to Inferred
	// (`clisp -x '(ext:shell "rm -rf b")'`, unknowncode.go), not in its
	// words.
	InferredCode bool
	// RunsFrom is, on an unknown program's own invocation, the index in
	// Args+1 of the word where the command judged as run by it starts
	// (Inferred); 0 when none. The words from there belong to that command.
	RunsFrom int
	// Func: Program names a shell function defined earlier in the command
	// (`f() { …; }; f`), whose body the walker judges, not a program.
	Func bool
	// CopiesBinary is HarnessCLI or HarnessHook when this invocation
	// copies, links or renames that binary (cp, ln, mv, install, rsync,
	// ditto, dd, cat > FILE; binaries.go); "" otherwise.
	CopiesBinary string
	// Pos is the position of the command in the (innermost) parsed source.
	Pos syntax.Pos
	// Code is the inline code of an interpreter invocation (`python3 -c`,
	// `node -e`, `perl -e`, a script on stdin, …) lexed once, with its calls
	// and their effects (shell strings, argv lists, file writes, tree
	// deletes, chmods, fork loops); nil for other commands. Guards read it
	// instead of scanning the code again (testdata/corpus/README.md §2.1
	// "Interpreters", §3.3, §9.2, §9.3).
	Code *codelex.Code
	// Awk are the programs of an awk invocation (one per inline program
	// text), scanned once for the commands they run and the files they
	// write; nil for other commands.
	Awk []AwkScript
}

// Command returns inv.Cmd, parsing Args by the program table when the
// invocation was not made by Parse (tests, callers building their own).
func (inv *Invocation) Command() *Command {
	if inv.Cmd == nil {
		vals := make([]string, len(inv.Args))
		for i, a := range inv.Args {
			vals[i] = a.Value
		}
		inv.Cmd = ParseCommandIn(inv.Program, vals, inv.Env)
	}
	return inv.Cmd
}

// DirAlt is one other directory an invocation may run in (Invocation.AltDirs).
type DirAlt struct {
	// Dir has the form and meaning of Invocation.Dir.
	Dir string
	// UnknownSub has the meaning of Invocation.UnknownSub, for this Dir.
	UnknownSub string
}

// DirUnknown is Invocation.Dir after a cd whose target is not literal.
const DirUnknown = "\x00unknown"
