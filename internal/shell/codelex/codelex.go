package codelex

import (
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

// Lang is a language the package lexes.
type Lang string

// Languages.
const (
	Python      Lang = "python"
	Node        Lang = "node" // JavaScript and TypeScript (node, deno, bun, tsx, ts-node, JXA)
	Perl        Lang = "perl"
	Ruby        Lang = "ruby"
	PHP         Lang = "php"
	Lua         Lang = "lua"
	R           Lang = "r"
	Julia       Lang = "julia"
	AppleScript Lang = "applescript"
)

// Lex returns the tokens of code in lang; truncated is true when a work
// bound stopped it (the tokens are then a prefix).
func Lex(lang Lang, code string) (toks []Token, truncated bool) {
	l := newLexer(code, 0, &truncated)
	switch g := grammars.Get()[lang]; {
	case lang == Node:
		lexJS(l)
	case g != nil:
		l.g = g
		l.run()
	default:
		return nil, false
	}
	return l.toks, truncated
}

// grammars are the hand-lexed languages (scan.go); JavaScript is lexed by
// tdewolff/parse (js.go).
var grammars = lazy.Value[map[Lang]*grammar]{New: func() map[Lang]*grammar {
	return map[Lang]*grammar{
		Python:      &pythonGrammar,
		Perl:        &perlGrammar,
		Ruby:        &rubyGrammar,
		PHP:         &phpGrammar,
		Lua:         &luaGrammar,
		R:           &rGrammar,
		Julia:       &juliaGrammar,
		AppleScript: &appleScriptGrammar,
	}
}}

// Options are the facts about the invocation the code needs.
type Options struct {
	// Argv are the script's own literal arguments (the words after the
	// inline code: Python's sys.argv[1:], Node's process.argv[1:] for -e,
	// Perl and Ruby ARGV, PHP $argv[1:], Lua arg[1…], Julia ARGS).
	Argv []string
	// ArgvKnown is true when Argv is known (every word literal).
	ArgvKnown bool
	// Env are the environment variables whose values are known (a prefix
	// assignment `C='rm -rf build' python3 -c …`): os.environ["C"],
	// os.getenv("C"), process.env.C, ENV["C"], $ENV{C} are C's value.
	Env map[string]string
}

// Code is interpreter code lexed once, with the call expressions found in
// it and what they do.
type Code struct {
	Lang Lang
	// Tokens are the code's tokens (comments dropped).
	Tokens []Token
	// Calls are every call expression, in source order.
	Calls []*Call
	// Execs are the commands the code runs: shell strings and argv lists.
	Execs []Exec
	// Files are the files it writes, appends to, deletes or links.
	Files []FileOp
	// Chmods are the permission changes it makes.
	Chmods []Chmod
	// TreeDeletes are the recursive deletes that cannot prompt
	// (shutil.rmtree, fs.rmSync(p, {recursive: true}), FileUtils.rm_rf,
	// File::Path::remove_tree, unlink(p, recursive=TRUE), rm(p; recursive=true)).
	TreeDeletes []FileOp
	// ForkLoop names the process-creating call the code makes in an
	// endless loop ("os.fork" in `while 1: os.fork()`), "" when none.
	ForkLoop string
	// Printed is what the code prints to stdout with print/puts/echo/
	// console.log calls of known strings, nil when it prints none.
	Printed *string
	// Truncated is true when a work bound stopped lexing or evaluation:
	// the lists may be incomplete and callers must not read the code as
	// harmless.
	Truncated bool
}

// Exec is one command the code runs.
type Exec struct {
	// Func is the call that runs it ("os.system", "``", "child_process.spawn").
	Func string
	// Shell is the command line handed to a shell; unknown parts read as
	// UnknownWord. Empty when Argv is set.
	Shell string
	// Argv is the program and arguments started without a shell.
	Argv []string
	// Admin: the command runs as root (AppleScript's `do shell script …
	// with administrator privileges`, JXA's doShellScript(…,
	// {administratorPrivileges: true})): a privilege escalation.
	Admin bool
}

// UnknownWord stands for a part of a shell string the code computes: a
// variable the shell walker does not know, so it never blocks on its own
// account.
const UnknownWord = "$__codelex_value"

// FileEffect is what a file operation does to its path.
type FileEffect uint8

// File operations.
const (
	// Write creates, truncates or rewrites the file (or directory entry).
	Write FileEffect = iota + 1
	// Append only appends to the file.
	Append
	// Delete removes one entry.
	Delete
	// Tree deletes or moves the entry and everything below it.
	Tree
)

// FileOp is one file the code changes.
type FileOp struct {
	// Func is the call ("open", "shutil.rmtree", "Path.write_text").
	Func string
	Op   FileEffect
	// Path is the path value (it may start with an environment variable or
	// the working directory; see Value.Env and Value.Cwd).
	Path Value
	// Link is set for a symbolic link the call creates at Path: the link's
	// target text.
	Link *Value
}

// Chmod is one permission change.
type Chmod struct {
	Func string
	// Path is the changed path (Unknown when not known).
	Path Value
	// Mode is the permission bits; ModeKnown is false when not known.
	Mode      int64
	ModeKnown bool
}

// Analyze lexes code once and extracts its calls and effects. Code given
// as a literal string to the language's own eval (Python exec/eval, Node
// eval / new Function, Perl and Ruby eval, PHP eval, Lua load, R
// eval(parse(text=…)), Julia eval(Meta.parse(…))) is analysed too, up to a
// small nesting depth, and its effects are merged.
func Analyze(lang Lang, code string, opts Options) *Code {
	if lang == Tcl {
		return analyzeTcl(code, opts) // a command language (tcl.go)
	}
	return analyze(lang, code, opts, 0)
}

// maxEvalNesting bounds code evaluated from string literals inside code.
const maxEvalNesting = 3

// evalFuncs are the calls that run a string as code of the same language.
var evalFuncs = lazy.Value[map[Lang]map[string]bool]{New: func() map[Lang]map[string]bool {
	return map[Lang]map[string]bool{
		Python: {"exec": true, "eval": true, "compile": true, "builtins.exec": true, "builtins.eval": true},
		Node:   {"eval": true, "Function": true, "vm.runInThisContext": true, "vm.runInNewContext": true, "setTimeout": true, "setInterval": true},
		Perl:   {"eval": true},
		Ruby:   {"eval": true, "instance_eval": true, "class_eval": true, "Kernel.eval": true, "binding.eval": true},
		PHP:    {"eval": true, "assert": true},
		Lua:    {"load": true, "loadstring": true},
		R:      {"parse": true, "str2lang": true, "str2expression": true},
		Julia:  {"Meta.parse": true, "include_string": true, "eval": true},
	}
}}

func analyze(lang Lang, code string, opts Options, depth int) *Code {
	toks, trunc := Lex(lang, code)
	c := &Code{Lang: lang, Tokens: toks, Truncated: trunc}
	if len(toks) == 0 {
		return c
	}
	p := &parser{lang: lang, toks: toks, argv: opts.Argv, argvKnown: opts.ArgvKnown, env: opts.Env}
	p.run()
	c.Calls = p.calls
	c.Truncated = c.Truncated || p.trunc
	c.effects(strings.Contains(code, "child_process"))
	c.ForkLoop = forkLoop(c)
	for _, call := range c.Calls {
		if !evalFuncs.Get()[lang][call.Func] {
			continue
		}
		v, ok := call.arg(0, "text")
		if !ok || !v.Known() {
			continue
		}
		if depth+1 > maxEvalNesting {
			c.Truncated = true
			break
		}
		sub := analyze(lang, v.S, opts, depth+1)
		c.Execs = append(c.Execs, sub.Execs...)
		c.Files = append(c.Files, sub.Files...)
		c.Chmods = append(c.Chmods, sub.Chmods...)
		c.TreeDeletes = append(c.TreeDeletes, sub.TreeDeletes...)
		if c.ForkLoop == "" {
			c.ForkLoop = sub.ForkLoop
		}
		c.Truncated = c.Truncated || sub.Truncated
	}
	return c
}
