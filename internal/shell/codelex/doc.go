// Package codelex lexes the inline code that a Bash command hands to an
// interpreter (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`,
// `lua -e`, `Rscript -e`, `julia -e`, `osascript -e`, `expect -c`,
// `jimsh -e`, or a script on stdin) and finds what the code does: the call expressions in it with
// their literal arguments, and from those the shell strings and argv lists
// it runs, the files it writes, appends to, deletes or links, the
// recursive deletes and permission changes it makes, and whether it forks
// in an endless loop (testdata/corpus/README.md §2.1 "Interpreters", §3.3, §9.2–§9.4).
//
// Text inside the language's own string literals, comments, docstrings,
// POD and heredoc bodies is data: `print('os.system("rm -rf x") is
// banned')` runs nothing. A string counts only as the argument of a call
// in code, and it counts with its value: concatenation (`+`, `.`, `..`,
// `&`, Julia `*`), `%` and `.format` / sprintf formatting, f-strings and
// interpolation with known names, joins, `shlex.split`, base64 decoding of
// a literal, lists and tuples, keyword and option objects
// (`{recursive: true}`), simple literal assignments, imports and aliases
// (`from os import system as s`, `const {exec: run} = require(…)`,
// `use File::Path qw(rmtree)`), the script's own literal arguments
// (`sys.argv[1]`), and code evaluated from a literal string (`exec("…")`).
// A part the code computes stays unknown (UnknownWord in a shell string),
// so it never blocks on its own account.
//
// One call, Analyze, lexes the code once; internal/shell stores the result
// in shell.Invocation.Code and the guards read it from there.
//
// # Lexers: library or own tokenizer
//
// The hook binary must start within 1.5× a static Go program, so a lexer
// must do no work at init. Measured with GODEBUG=inittrace=1 and farm-bench
// (paired runs against an empty static Go binary, 40 runs, loaded 2-core
// machine, medians):
//
//	JavaScript/TypeScript  github.com/tdewolff/parse/v2/js v2.25.0 (the lexer of tdewolff/minify):
//	                       init 0.10 ms, 17 allocs; whole process 1.10× the empty binary. USED.
//	                       Its parser is the reference of the differential test (js_diff_test.go).
//	Python                 github.com/go-python/gpython v0.2.0 parser: init 0.50 ms, 1,860 allocs
//	                       (its py runtime registers types at init), 1.27× the empty binary, and
//	                       its grammar is Python 3.4 (no f-strings): rejected, own tokenizer.
//	all languages          github.com/alecthomas/chroma/v2 v2.27.0 lexers: init 14 ms, 2.7 MB,
//	                       31,441 allocs (every lexer registered at init), 7.6× the empty binary:
//	                       rejected. Re-measured with the scanner core (a program that lexes one
//	                       Python line with lexers.Get("python"), 15 paired runs, loaded): init
//	                       of chroma/v2/lexers 2.7 MB, 31,438 allocs; CPU 15.4× and wall 49.5× the
//	                       empty binary (medians). Its tokens are highlighting classes: no decoded
//	                       string values, holes lexed as code, or heredoc bodies.
//	Lua                    github.com/yuin/gopher-lua v1.1.2 parse: no init cost, but a Lua 5.1
//	                       parser whose scanner is driven by its yacc parser and reads an io.Reader;
//	                       Lua's lexical grammar is small (long brackets, two quote forms): own
//	                       tokenizer.
//	Ruby, Perl, PHP, R,    no maintained pure-Go lexer found: own tokenizers.
//	Julia, AppleScript
//	Tcl (tclsh, wish,      modernc.org/tcl is the C interpreter transpiled to Go (megabytes, and it
//	jimsh, expect)         runs the code); Tcl is a command language whose whole syntax is twelve
//	                       rules: own command parser (tcl.go), judged command by command.
//
// The own tokenizers share one scanner core (scan.go): each language is a
// grammar table (its blanks, line and block comments, end marker, where a
// newline or ";" ends a statement, its quoted literals with their escape
// and interpolation rules, heredocs, q{}/%q{} bracketed bodies) plus a
// special hook for the forms only it has, documented with the language
// (perl.go, ruby.go, php.go, python.go, small.go). token.go holds the
// tokens and the lexer state. Each language has a fuzz target (no panic,
// bounded tokens, deterministic) and table tests with real snippets
// (codelex_test.go).
//
// # Work bounds
//
// At most 65,536 tokens per code text, interpolation holes lexed to a depth
// of 8, expression nesting 200, evaluation steps linear in the tokens, and
// code evaluated from strings to a depth of 3. Past a bound, Code.Truncated
// is set and callers treat the code as too complex, never as harmless.
package codelex
