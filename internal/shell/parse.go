package shell

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/superagent-harness/harness/internal/shell/codelex"
	"mvdan.cc/sh/v3/syntax"
)

// Options tunes Parse. The zero value is ready to use.
type Options struct {
	// Vars holds variables whose literal values are known before the command
	// runs (e.g. "HARNESS_ROOT" → the sprint root, testdata/corpus/README.md §3.3). They
	// are substituted like literal assignments; they are not exported.
	Vars map[string]string
	// Cwd is the absolute directory the command starts in (the hook
	// payload's cwd); "" when unknown. $PWD, $(pwd), $(realpath X) … are
	// computed from it and the directory earlier `cd`s moved to; without it
	// they are relative to the starting directory.
	Cwd string
	// MaxDepth bounds nested re-parses (`bash -c`, eval, stdin scripts, ssh,
	// interpreter shell strings, …). 0 means DefaultMaxDepth.
	MaxDepth int
	// Physical resolves the symbolic links of an absolute path the way the
	// kernel walks it; `cd -P DIR` moves to Physical(DIR), so later relative
	// paths are joined to the link's target (testdata/corpus/README.md §9.4).
	// nil: `cd -P` is followed like `cd`. The parser itself never touches
	// the file system; the path guard supplies this.
	Physical func(abs string) string
	// Identify says which harness binary (HarnessCLI, HarnessHook) a file
	// is by what it is, not by its name (testdata/corpus/README.md §9.1): file is an
	// absolute path, or a bare command name to look up in dirs ($PATH as
	// the command set it; nil: the caller's own PATH). id is "" when the
	// file is neither; found is false when there is no such file (its name
	// then decides, as without Identify). nil: only names and copies made
	// in the command count. The hook supplies it (internal/binid).
	Identify func(file string, dirs []string) (id string, found bool)
}

// DefaultMaxDepth is the default bound on nested re-parses.
const DefaultMaxDepth = 12

// maxNest bounds the syntactic nesting (compound commands, substitutions)
// the walker descends into within one parse.
const maxNest = 200

// Function is a shell function definition found anywhere in the command
// (checked whether or not it is called, testdata/corpus/README.md §2.1, §2.4 forkbomb).
type Function struct {
	// Name is the function name.
	Name string
	// SelfBackground is true when the body runs the function itself in the
	// background (`f | f &`, `f &`), or another function that does so back
	// (`a(){ b & }; b(){ a & }`): the fork-bomb shape.
	SelfBackground bool
	// BgCalls are the programs and functions the body starts in the
	// background; FgCalls those it runs in the foreground (a cycle of
	// calls with one background step is unbounded too).
	BgCalls, FgCalls []string
	// Via is the nesting path to the definition.
	Via []string
}

// Result is what Parse found.
type Result struct {
	// Invocations are every simple command the shell would run, in source
	// order (wrappers before the command they run).
	Invocations []Invocation
	// Functions are the function definitions, in source order.
	Functions []Function
	// ParseError is the first syntax error met (top level or in a nested
	// script); the token fallback of testdata/corpus/README.md §2.6 was used for that text.
	ParseError error
	// BackgroundLoops describe endless loops whose body starts a job in the
	// background (`while true; do x & done`, `for ((;;)); do … & done`):
	// unbounded process creation (testdata/corpus/README.md §9.3 forkbomb).
	BackgroundLoops []string
	// Overflow is non-empty when a work bound was hit (nesting depth, parse
	// budget): the walk is incomplete and callers must not treat the result
	// as an allow. It says which bound.
	Overflow string
}

// Parse parses cmd as Bash and walks every place the shell would execute a
// command (testdata/corpus/README.md §2.1–§2.3, §2.6). It never fails: syntax errors are
// reported in Result.ParseError and the token fallback is used instead. Work
// is bounded: nesting past Options.MaxDepth or maxNest and re-parsing more than
// a few times the input size set Result.Overflow.
func Parse(cmd string, opts Options) Result {
	w := &walker{opts: opts, maxDepth: opts.MaxDepth}
	if w.maxDepth <= 0 {
		w.maxDepth = DefaultMaxDepth
	}
	w.budget = 4*len(cmd) + 1<<20
	w.loopBudget = 64
	w.callBudget = 64
	// most commands are one invocation per statement: size for that
	w.res.Invocations = make([]Invocation, 0, min(1024, 1+strings.Count(cmd, "\n")+strings.Count(cmd, ";")+strings.Count(cmd, "|")+strings.Count(cmd, "&")))
	st := newState()
	for k, v := range opts.Vars {
		st.setVar(k, varVal{val: v, known: true})
	}
	w.script(&frame{}, st, cmd, ioCtx{})
	markMutualBackground(w.res.Functions)
	return w.res
}

// markMutualBackground marks functions that run each other in the
// background in a cycle (`ping(){ pong & }; pong(){ ping & }`) as
// SelfBackground.
func markMutualBackground(fns []Function) {
	if len(fns) < 2 {
		return
	}
	byName := map[string]int{}
	for i, f := range fns {
		byName[f.Name] = i
	}
	type node struct {
		fn int
		bg int // background calls taken on the way (up to 2)
	}
	for i := range fns {
		// depth-first search from fns[i] along calls; a cycle back to i
		// that took two background calls is unbounded process creation
		// (`a(){ b; }; b(){ c & }; c(){ a & }`); one alone is a chain of
		// single processes (`f(){ g & }; g(){ f; }`)
		seen := map[node]bool{}
		stack := []node{{i, 0}}
		for len(stack) > 0 && !fns[i].SelfBackground {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for k, calls := range [2][]string{fns[n.fn].BgCalls, fns[n.fn].FgCalls} {
				for _, callee := range calls {
					j, ok := byName[callee]
					if !ok {
						continue
					}
					next := node{j, n.bg}
					if k == 0 && next.bg < 2 {
						next.bg++
					}
					if j == i {
						if next.bg == 2 {
							fns[i].SelfBackground = true
							break
						}
						continue // one turn of the cycle is enough
					}
					if !seen[next] {
						seen[next] = true
						stack = append(stack, next)
					}
				}
			}
		}
	}
}

// parsedPrefix walks the longest prefix of src before a syntax error that
// parses: bash runs the lines before the error (testdata/corpus/README.md §2.6), and the
// prefix keeps structure the token scan cannot see (function definitions,
// fork bombs). It supplements the token scan, never replaces it.
func (w *walker) parsedPrefix(f *frame, st *state, src string, err error) {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return
	}
	off := int(pe.Pos.Offset())
	if off <= 0 || off > len(src) {
		return
	}
	cands := []string{src[:off]}
	if nl := strings.LastIndexByte(src[:off], '\n'); nl > 0 {
		cands = append(cands, src[:nl])
	}
	for _, pre := range cands {
		if strings.TrimSpace(pre) == "" || !w.spend(len(pre)) {
			continue
		}
		p := syntax.NewParser(syntax.Variant(syntax.LangBash))
		file, perr := p.Parse(strings.NewReader(pre), "")
		if perr != nil {
			continue
		}
		nf := *f
		nf.src = pre
		w.stmts(&nf, st.clone(), file.Stmts, ioCtx{})
		return
	}
}

// frame is the context of one parsed source text.
type frame struct {
	src   string
	via   []string
	depth int
	nest  int
	// fn is the function whose body is being walked ("" outside), bg
	// whether the current statement runs in the background.
	fn string
	bg bool
	// calls counts nested function-call walks.
	calls int
	// srcID numbers the parsed source text (aliases expand in later lines
	// of the text that defined them); alias is the alias whose text is
	// being walked ("" outside one).
	srcID int
	alias string
	// inferred is the unknown program whose words this command was found
	// in (the cautious default, Invocation.Inferred); "" otherwise.
	inferred string
	// inferredCode: inferred's code held the command (unknownCode), not
	// its words (Invocation.InferredCode).
	inferredCode bool
	// runtime: the source text is parsed when the shell runs it (eval), so
	// aliases defined by commands before it expand in it
	runtime bool
	// runAt are the places (source text, line) of the commands that ran
	// this text in the same shell (eval, source, a function call),
	// outermost first: an alias it defines expands on the later lines of
	// those texts too (`eval "alias x=…"⏎x`).
	runAt []srcLine
	// listing is the listing a shell's -c script gets its positional
	// arguments from (`find D -exec sh -c '… "$1"' _ {} \;`): commands in
	// the script whose words hold "{}" are run over it.
	listing *Listing
}

func (f *frame) child(via string) *frame {
	if via == "" {
		n := *f
		n.nest++
		return &n
	}
	v := make([]string, len(f.via), len(f.via)+1)
	copy(v, f.via)
	return &frame{src: f.src, srcID: f.srcID, alias: f.alias, via: append(v, via), depth: f.depth, nest: f.nest + 1, fn: f.fn, bg: f.bg, calls: f.calls, listing: f.listing, inferred: f.inferred, inferredCode: f.inferredCode, runAt: f.runAt}
}

// srcLine is a line of a parsed source text (frame.srcID).
type srcLine struct {
	src  int
	line uint
}

// ranFrom is child(via) for a text the current shell runs from the
// command at line of f's text (frame.runAt).
func (f *frame) ranFrom(via string, line uint) *frame {
	n := f.child(via)
	n.runAt = append(slices.Clone(f.runAt), srcLine{f.srcID, line})
	return n
}

type varVal struct {
	val   string
	known bool
	// arr holds the elements of an indexed array when isArr; unk marks the
	// elements whose value is not known (nil: all known).
	arr   []string
	unk   []bool
	isArr bool
	// assoc holds an associative array's elements (declare -A) when isAssoc.
	assoc   map[string]string
	isAssoc bool
	// ref is the variable a nameref (declare -n NAME=REF) stands for.
	ref string
}

// aliasDef is one alias definition: its text and where it was made (the
// source text and line: it expands only on later lines of that text).
type aliasDef struct {
	val  string
	src  int
	line uint
	// outer are the places of the commands that ran the defining text in
	// the same shell (frame.runAt): later lines there expand it too.
	outer []srcLine
}

// expandsAt reports whether the alias expands in a command at line of
// source text src: a later line of the text that defined it or of a text
// that ran that one.
func (a aliasDef) expandsAt(src int, line uint) bool {
	if a.src == src && line > a.line {
		return true
	}
	for _, o := range a.outer {
		if o.src == src && line > o.line {
			return true
		}
	}
	return false
}

type state struct {
	vars map[string]varVal
	// exported are the names in the environment view of later commands:
	// true when surely exported, false when the export may have been taken
	// back (declare +x, export -n: kept in the view so that rules about
	// environment changes see them, but not trusted to relax a verdict;
	// cmdCtx.maybe).
	exported map[string]bool
	dir      string
	// prevDir is the directory before the last cd ($OLDPWD, `cd -`), valid
	// when prevSet.
	prevDir string
	prevSet bool
	// unkRel is the relative path cd'd into while dir is DirUnknown.
	unkRel string
	// dirStack is pushd's directory stack (dir, unkRel pairs; shared
	// between clones, never appended to in place).
	dirStack [][2]string
	// alts are the other directories the shell may be in (a cd that may
	// have failed; Invocation.AltDirs); never holds (dir, unkRel) itself.
	// okAlts are the alternatives left if the last cd succeeded, valid when
	// cdLast: the last command run was that cd, so `&&` after it narrows
	// alts to okAlts. Both slices are shared between clones, never
	// appended to in place.
	alts   []DirAlt
	okAlts []DirAlt
	cdLast bool
	// optPos is getopts' hidden position inside an option cluster: the
	// word index (0-based) and the byte of the next letter (`-ab`: after
	// -a, [k 2]); zero when the next call starts at a word boundary.
	// Assigning or unsetting OPTIND resets it, as in bash.
	optPos [2]int
	// optEnd is set by a getopts call that returned false (no option
	// left, or its arguments unknown): a `while getopts` loop ends.
	optEnd bool
	// funcs maps function names defined so far to their bodies.
	funcs map[string]*syntax.Stmt
	// args are the positional parameters ($1…) when known (bash -c, function calls).
	args      []string
	argsKnown bool
	arg0      string
	// owned is false while vars/exported are shared with a clone.
	owned bool
	// aliases are the alias definitions seen so far (shared between
	// clones, copied before a change).
	aliases map[string]aliasDef
	// aliasOff is where `shopt -u expand_aliases` switched alias expansion
	// off (nil: on, as in Claude Code's Bash tool); lines after it in the
	// same source text no longer expand aliases.
	aliasOff *aliasDef
	// fds are the input descriptors `exec N<…` opened in this shell and
	// their literal contents (nil: unknown); shared between clones, copied
	// before a change.
	fds map[string]*string
	// cmdVars is set once a command-valued variable (envCommands) was
	// assigned: the parent environment commonly exports PAGER, EDITOR,
	// GIT_EDITOR …, so an assignment without export reaches the programs
	// too (envRuns).
	cmdVars bool
	// xtrace is set while `set -x` is on: bash expands PS4 before each
	// command it traces.
	xtrace bool
	// hashed are the names `hash -p PATH NAME` bound to a program file
	// (shared between clones, copied before a change).
	hashed map[string]string
	// attrs are the attribute letters `declare` gave variables: 'i'
	// integer (a value assigned is evaluated as arithmetic), 'A'
	// associative (subscripts are strings). Shared between clones, copied
	// before a change.
	attrs map[string]string
	// sinks are the output descriptors that processes started earlier
	// read (sinks.go): `exec N> >(CMD)`, a coprocess's input. Shared
	// between clones, copied before a change.
	sinks map[string]*sink
	// history is bash's history list as `history -s ARGS…` filled it,
	// oldest first (a Word whose Known is false: an entry not known);
	// `fc -s` re-runs an entry (histEntry). Shared between clones, never
	// appended to in place.
	history []Word
	// lastpipe is set by `shopt -s lastpipe`: job control is off in a
	// non-interactive shell, so the last stage of a pipeline runs in this
	// shell (`echo CMD | read c; $c`), checked with bash 5.2.
	lastpipe bool
}

// setAttr gives variable name the attribute letter a.
func (s *state) setAttr(name string, a byte) {
	if strings.IndexByte(s.attrs[name], a) >= 0 {
		return
	}
	m := make(map[string]string, len(s.attrs)+1)
	maps.Copy(m, s.attrs)
	m[name] += string(a)
	s.attrs = m
}

// hasAttr reports whether variable name has the attribute letter a.
func (s *state) hasAttr(name string, a byte) bool {
	return strings.IndexByte(s.attrs[name], a) >= 0
}

// indexed reports whether subscripts of name are arithmetic: it is not an
// associative array.
func (s *state) indexed(name string) bool {
	v, ok := s.vars[name]
	return !(ok && v.isAssoc) && !s.hasAttr(name, 'A')
}

// hash binds name to the program file path (`hash -p`); "" removes the
// binding (`hash -d`).
func (s *state) hash(name, path string) {
	m := make(map[string]string, len(s.hashed)+1)
	maps.Copy(m, s.hashed)
	if path == "" {
		delete(m, name)
	} else {
		m[name] = path
	}
	s.hashed = m
}

// aliasName reports whether a command word is one bash looks up as an
// alias: a plain literal, no quoting, no backslash, no expansion.
func aliasName(wd *syntax.Word) bool {
	lit := wd.Lit()
	return lit != "" && !strings.ContainsAny(lit, "\\'\"$`{}=/")
}

// aliasesOn reports whether alias expansion is on for a command at line
// of source text src.
func (s *state) aliasesOn(src int, line uint) bool {
	o := s.aliasOff
	return o == nil || o.src != src || line <= o.line
}

func newState() *state {
	return &state{vars: map[string]varVal{}, exported: map[string]bool{}, owned: true}
}

// clone returns a copy for a subshell, substitution or nested script. The
// maps are shared copy-on-write, so nesting costs O(1) however many
// variables are set (bounded work).
func (s *state) clone() *state {
	n := *s
	n.owned = false
	s.owned = false
	return &n
}

// own makes the maps private before a write.
func (s *state) own() {
	if s.owned {
		return
	}
	vars := make(map[string]varVal, len(s.vars)+1)
	for k, v := range s.vars {
		vars[k] = v
	}
	exp := make(map[string]bool, len(s.exported))
	for k, v := range s.exported {
		exp[k] = v
	}
	s.vars, s.exported, s.owned = vars, exp, true
}

func (s *state) setVar(name string, v varVal) {
	if name == "OPTIND" {
		s.optPos = [2]int{} // bash resets getopts' position in a cluster
	}
	if old, ok := s.vars[name]; ok && old.known == v.known && old.val == v.val && !old.isArr && !v.isArr && !old.isAssoc && !v.isAssoc && old.ref == v.ref {
		return
	}
	if !s.cmdVars && envCommand(name) != nil {
		s.cmdVars = true
	}
	s.own()
	s.vars[name] = v
}

func (s *state) unsetVar(name string) {
	if name == "OPTIND" {
		s.optPos = [2]int{}
	}
	if _, ok := s.vars[name]; !ok {
		return
	}
	s.own()
	delete(s.vars, name)
}

// unexport removes name from the environment of later commands (`unset
// NAME` unsets an exported variable: a later assignment is not exported).
func (s *state) unexport(name string) {
	if _, ok := s.exported[name]; !ok {
		return
	}
	s.own()
	delete(s.exported, name)
}

func (s *state) export(name string) {
	if s.exported[name] {
		return
	}
	s.own()
	s.exported[name] = true
}

// exportMaybe keeps name in the environment view but no longer as surely
// exported (declare +x NAME, export -n NAME).
func (s *state) exportMaybe(name string) {
	if v, ok := s.exported[name]; ok && !v {
		return
	}
	s.own()
	s.exported[name] = false
}

// maybeExported are the names of the environment view whose export may
// have been taken back and that no prefix assignment of the command sets
// again (nil: none).
func (s *state) maybeExported(prefix map[string]string) []string {
	var out []string
	for k, sure := range s.exported {
		if _, set := prefix[k]; !sure && !set {
			out = append(out, k)
		}
	}
	return out
}

// ioCtx is what a statement inherits from its surroundings.
type ioCtx struct {
	// pipe is the literal input the statement has before its own
	// redirections (a pipeline stage's, a group's here-string): command
	// substitutions in its words read it (they run before the command's
	// redirections, inside a stage's subshell): `{ $(</dev/stdin); } <<<
	// CMD` runs CMD.
	pipe    *string
	stdin   *string
	listing *Listing
	redirs  []Redirect
	// fds are the literal contents of input descriptors other than 0
	// opened by the statement's redirections (`3<<<'…'`, `4< <(…)`,
	// `5<<EOF`); a nil value is an open descriptor of unknown content.
	fds map[string]*string
	// guess is, when stdin is unknown because it is piped from a producer
	// the walker cannot compute, the producer's literal text (its words
	// with a blank, its known stdin): what a shell reading the pipe may
	// run (producerLiterals).
	guess *string
	// part is, when stdin is unknown, the known pieces of it (walker.part):
	// text the reader gets whatever the unknown rest holds.
	part *string
	// endless: stdin is a pipe from a producer that never ends (`yes`,
	// `cat /dev/zero`): a `while read` loop on it never ends either.
	endless bool
	// from is, when stdin is a pipe from one simple command whose output
	// is unknown, that command's invocation (Invocation.PipedFrom).
	from *Invocation
}

// pipeProducer is the invocation of the pipeline stage x when x is one
// simple command (after its wrappers: `sudo git diff` is git diff),
// recorded from invocation index from on; nil otherwise.
func (w *walker) pipeProducer(x *syntax.Stmt, from int) *Invocation {
	if x == nil || x.Background || x.Negated {
		return nil
	}
	call, ok := x.Cmd.(*syntax.CallExpr)
	if !ok {
		return nil
	}
	for i := len(w.res.Invocations) - 1; i >= from; i-- {
		if inv := w.res.Invocations[i]; inv.Pos == call.Pos() && inv.Program != "" {
			inv.PipedFrom = nil
			return &inv
		}
	}
	return nil
}

// maxGuess bounds the literal text kept for producerLiterals.
const maxGuess = 1 << 16

// producerLiterals is the literal text of the commands recorded from
// invocation index from on (a pipeline stage whose output is unknown):
// every known argument that holds a blank (a possible command line) and
// every known stdin. The cautious default of testdata/corpus/README.md
// §9.1 for a shell reading such a pipe: the text it runs is made from
// these literals (`sed -n 1p <<<'rm -rf x' | sh`, `awk 'BEGIN{print "rm
// -rf x"}' | sh`), so they are judged as its script. Nil when there is none.
func (w *walker) producerLiterals(from int) *string {
	var b strings.Builder
	for i := from; i < len(w.res.Invocations); i++ {
		inv := &w.res.Invocations[i]
		for _, a := range inv.Args {
			if a.Known && strings.ContainsAny(a.Value, " \t\n") && b.Len()+len(a.Value) < maxGuess {
				b.WriteString(a.Value)
				b.WriteByte('\n')
				quotedPieces(&b, a.Value)
			}
		}
		if inv.Code != nil {
			// interpreter code: its string literals joined (`'rm -rf ' + 'x'`)
			var j strings.Builder
			for _, t := range inv.Code.Tokens {
				if t.Kind == codelex.String && j.Len()+len(t.Text) < maxGuess {
					j.WriteString(t.Text)
				}
			}
			if j.Len() > 0 && b.Len()+j.Len() < maxGuess {
				b.WriteString(j.String())
				b.WriteByte('\n')
			}
		}
		if inv.Stdin != nil && b.Len()+len(*inv.Stdin) < maxGuess {
			b.WriteString(*inv.Stdin)
			b.WriteByte('\n')
			quotedPieces(&b, *inv.Stdin)
		}
	}
	if b.Len() == 0 {
		return nil
	}
	s := b.String()
	return &s
}

// quotedPieces appends to b, one a line, the text of every '…' or "…"
// quoted piece of s that holds a blank: the string values of a data or
// query language a producer may print (`jq -r '.cmd|…' <<< '{"cmd":"rm
// -rf x"}'`, SQL 'rm -rf x'), part of producerLiterals' cautious guess.
func quotedPieces(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '\'' && q != '"' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != q {
			if s[j] == '\\' && q == '"' {
				j++
			}
			j++
		}
		if j >= len(s) {
			return
		}
		if p := s[i+1 : j]; strings.ContainsAny(p, " \t") && b.Len()+len(p) < maxGuess {
			if q == '"' {
				p = unescapeOnly(p, "\"\\/")
			}
			b.WriteString(p)
			b.WriteByte('\n')
		}
		i = j
	}
}

// withFd returns fds with descriptor fd holding content (copied: the map
// may be shared with the enclosing statement or the shell's state).
func withFd(fds map[string]*string, fd string, content *string) map[string]*string {
	n := make(map[string]*string, len(fds)+1)
	for k, v := range fds {
		n[k] = v
	}
	n[fd] = content
	return n
}

// fdContent is the literal content of input descriptor fd for a command:
// 0 is its stdin; others come from its redirections, then from the
// shell's `exec N<…` (state.fds).
func fdContent(st *state, stdin *string, fds map[string]*string, fd string) (*string, bool) {
	if fd == "0" {
		return stdin, stdin != nil
	}
	if v, ok := fds[fd]; ok {
		return v, v != nil
	}
	v, ok := st.fds[fd]
	return v, ok && v != nil
}

type walker struct {
	// envRan are the command-valued variables already walked (envRuns):
	// NAME=VALUE and the directory.
	envRan map[string]bool
	// lastProc is the output of the latest process substitution `<(…)`
	// (hasProc: one was expanded), the content /dev/fd/63 names.
	lastProc    *string
	hasProc     bool
	opts        Options
	maxDepth    int
	budget      int
	loopBudget  int
	callBudget  int
	res         Result
	lastListing *Listing
	// binaries are the files an earlier part of the command made a copy,
	// link or rename of a harness binary (binaries.go): path → identity.
	binaries map[string]string
	// substStdin is the pipe input command substitutions of the current
	// command's words read.
	substStdin *string
	funcStack  []int
	// wrapped is the literal stdout of the command an exec-style wrapper
	// (timeout, nohup, env, …) just ran, handed back by run.
	wrapped *string
	// files are the literal contents written to files earlier in the
	// command (`echo 'rm -rf x' > x.sh; bash x.sh`), by path (scriptfile.go).
	files map[string]string
	// pending are the readers of files whose content was unknown when they
	// read them (scriptfile.go): a later write of literal text to the file
	// runs them with it (`sh < fifo & echo CMD > fifo`).
	pending map[string][]func(src string)
	// pkgScripts are package.json scripts set earlier in the command
	// (`npm pkg set scripts.NAME=TEXT`): package.json path → name → text.
	pkgScripts map[string]map[string]string
	// srcSeq numbers the source texts parsed (frame.srcID).
	srcSeq int
	// gitSet is the git configuration `git config KEY VALUE` set earlier
	// in the command (lower-cased keys; gitrun.go).
	gitSet map[string]string
	// sinkWrites counts the writes walked into sinks (sinks.go).
	sinkWrites int
	// part is, right after stmt returns an unknown output, the known
	// pieces of that output (a list, group or subshell some of whose
	// statements print literal text: `(crontab -l; echo '…')`), or nil.
	part *string
}

// spend charges n bytes of re-walked or expanded text to the work budget;
// false (and Overflow set) once it is exhausted.
func (w *walker) spend(n int) bool {
	w.budget -= n
	if w.budget < 0 {
		w.overflow("the command expands to more text than the guard analyses")
		return false
	}
	return true
}

func nodeLen(n syntax.Node) int {
	if n == nil {
		return 0
	}
	return int(n.End().Offset()) - int(n.Pos().Offset())
}

func (w *walker) overflow(reason string) {
	if w.res.Overflow == "" {
		w.res.Overflow = reason
	}
}

// script parses src as a new source text (one nesting level deeper than f)
// and walks it; on a syntax error it uses the token fallback.
func (w *walker) script(f *frame, st *state, src string, io ioCtx) *string {
	return w.scriptText(f, st, src, io, false)
}

// quietScript walks src like script when it parses as shell code and
// drops it otherwise (a candidate of unknownCode that was not a command
// line: no parse error, no token scan).
func (w *walker) quietScript(f *frame, st *state, src string) {
	w.scriptText(f, st, src, ioCtx{}, true)
}

func (w *walker) scriptText(f *frame, st *state, src string, io ioCtx, quiet bool) *string {
	if quiet && (f.depth > w.maxDepth || w.budget < len(src)) {
		return nil
	}
	if f.depth > w.maxDepth {
		w.overflow(fmt.Sprintf("nested shell code deeper than %d levels", w.maxDepth))
		return nil
	}
	w.budget -= len(src)
	if w.budget < 0 {
		w.overflow("nested shell code larger than the parse budget")
		return nil
	}
	w.srcSeq++
	nf := &frame{src: src, srcID: w.srcSeq, alias: f.alias, via: f.via, depth: f.depth + 1, nest: f.nest + 1, fn: f.fn, bg: f.bg, calls: f.calls, listing: f.listing, inferred: f.inferred, inferredCode: f.inferredCode, runtime: f.runtime, runAt: f.runAt}
	if strings.TrimSpace(src) == "" {
		return nil
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	file, err := p.Parse(strings.NewReader(src), "")
	if err != nil && quiet {
		return nil // not shell code: not a command line (unknownCode)
	}
	if err != nil {
		if w.res.ParseError == nil {
			w.res.ParseError = err
		}
		w.parsedPrefix(nf, st, src, err)
		w.fallback(nf, st, src)
		return nil
	}
	return w.stmts(nf, st, file.Stmts, io)
}

func (w *walker) stmts(f *frame, st *state, list []*syntax.Stmt, io ioCtx) *string {
	var out strings.Builder
	allKnown := len(list) > 0
	for _, s := range list {
		o := w.stmt(f, st, s, io)
		if k := st.sinks["1"]; k != nil && o != nil && *o != "" && !stdoutRedirected(s.Redirs) {
			// `exec > >(CMD)` earlier: the shell's output goes to CMD
			w.feed(st, k, *o)
		}
		if o == nil {
			allKnown = false
			o = w.part
		}
		// the known pieces are kept even after an unknown one: they reach
		// the reader whatever the unknown output holds (w.part)
		if o != nil && (allKnown || out.Len()+len(*o) < maxGuess) {
			out.WriteString(*o)
		}
	}
	r := out.String()
	if !allKnown {
		w.part = nil
		if r != "" {
			w.part = &r
		}
		return nil
	}
	return &r
}

// stmt walks one statement and returns its literal stdout when known.
func (w *walker) stmt(f *frame, st *state, s *syntax.Stmt, io ioCtx) *string {
	w.part = nil
	if s == nil {
		return nil
	}
	if f.nest > maxNest {
		w.overflow(fmt.Sprintf("command nested deeper than %d levels", maxNest))
		return nil
	}
	if s.Background && f.fn != "" && !f.bg {
		nf := *f
		nf.bg = true
		f = &nf
	}
	// Redirections: heredocs and here-strings give stdin; others are
	// recorded for the command(s) of the statement.
	readFrom := ""
	io.pipe = io.stdin
	if len(s.Redirs) > 0 {
		redirs := make([]Redirect, 0, len(io.redirs)+len(s.Redirs))
		redirs = append(redirs, io.redirs...)
		for _, r := range s.Redirs {
			rd := Redirect{Op: r.Op.String()}
			if r.N != nil {
				rd.Fd = r.N.Value
			}
			inFd := rd.Fd == "" || rd.Fd == "0"
			switch r.Op {
			case syntax.Hdoc, syntax.DashHdoc:
				if r.Word != nil {
					rd.Target = w.singleWord(f, st, r.Word, false)
				}
				body := ""
				if r.Hdoc != nil {
					body = w.heredoc(f, st, r.Hdoc)
				}
				if inFd {
					io.stdin = &body
					io.listing, io.part, io.guess, io.from = nil, nil, nil, nil
				} else {
					io.fds = withFd(io.fds, rd.Fd, &body)
				}
			case syntax.WordHdoc:
				rd.Target = w.singleWord(f, st, r.Word, false)
				v := rd.Target.Value + "\n"
				var in *string
				if rd.Target.Known {
					in = &v
				}
				if inFd {
					io.stdin = in
					io.listing, io.part, io.guess, io.from = nil, nil, nil, nil
				} else {
					io.fds = withFd(io.fds, rd.Fd, in)
				}
			default:
				if r.Word != nil {
					rd.Target, rd.Listing = w.targetWord(f, st, r.Word)
				}
				switch {
				case r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut:
					// `< <(producer)` feeds the producer's output; a file
					// written earlier in the command feeds its text
					var in *string
					if r.Word != nil && len(r.Word.Parts) == 1 {
						if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
							in = w.stmts(f.child("<( )"), st.clone(), ps.Stmts, ioCtx{})
						}
					}
					if in == nil {
						if src, ok := w.writtenScript(st, rd.Target.Value); ok && rd.Target.Known {
							in = &src
						} else if fd, ok := fdPath(rd.Target.Value); ok && rd.Target.Known {
							in, _ = fdContent(st, io.stdin, io.fds, fd)
						}
					}
					if inFd {
						readFrom = ""
					}
					if in == nil && inFd && rd.Target.Known && rd.Target.Value != "" && !strings.HasPrefix(rd.Target.Value, "/dev/") {
						// read before it is written: a FIFO's text (readFile)
						readFrom = rd.Target.Value
					}
					if inFd {
						io.stdin = in
						io.listing, io.part, io.guess, io.from = nil, nil, nil, nil
					} else {
						io.fds = withFd(io.fds, rd.Fd, in)
					}
				case r.Op == syntax.DplIn:
					// `<&3`, `0<&3`, `4<&3`: a copy of another descriptor
					var in *string
					if rd.Target.Known {
						in, _ = fdContent(st, io.stdin, io.fds, rd.Target.Value)
					}
					if inFd {
						io.stdin = in
						io.listing, io.part, io.guess, io.from = nil, nil, nil, nil
					} else {
						io.fds = withFd(io.fds, rd.Fd, in)
					}
				}
			}
			redirs = append(redirs, rd)
		}
		io.redirs = redirs
	}
	if readFrom != "" {
		later := io
		w.readFile(st, readFrom, func(src string) {
			later.stdin = &src
			w.command(f.child("< "+readFrom), st.clone(), s.Cmd, later)
		})
	}
	out := w.command(f, st, s.Cmd, io)
	part := w.part
	if out != nil || !partsCmd(s.Cmd) || stdoutRedirected(s.Redirs) {
		part = nil
	}
	if len(s.Redirs) > 0 {
		w.noteWrites(st, io.redirs, out)
		w.writeSinks(f, st, s, io.redirs, out)
	}
	w.part = part
	return out
}

// partsCmd reports a command whose unknown output may still have known
// pieces (walker.part): a group, a subshell, or a pipeline (its last
// stage's).
func partsCmd(c syntax.Command) bool {
	switch c := c.(type) {
	case *syntax.Block, *syntax.Subshell:
		return true
	case *syntax.BinaryCmd:
		return c.Op == syntax.Pipe || c.Op == syntax.PipeAll
	}
	return false
}

// stdoutRedirected reports redirections that send a statement's stdout
// elsewhere (`> f`, `>> f`, `&> f`, `>&2`).
func stdoutRedirected(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.N != nil && r.N.Value != "1" {
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.DplOut:
			return true
		}
	}
	return false
}

func (w *walker) command(f *frame, st *state, c syntax.Command, io ioCtx) *string {
	switch c := c.(type) {
	case nil:
		// a statement that is only redirections (`> file`) still opens them
		if len(io.redirs) > 0 {
			w.record(f, st, Invocation{Redirects: io.redirs, Dir: st.dir, Env: w.envOf(st, nil)})
		}
		return nil
	case *syntax.CallExpr:
		return w.call(f, st, c, io)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			lio := io
			rio := io
			// each pipeline stage runs in a subshell: cd and assignments do not leak
			w.lastListing = nil
			from := len(w.res.Invocations)
			out := w.stmt(f, st.clone(), c.X, lio)
			rio.stdin = out
			rio.pipe = out
			rio.endless = endlessProducer(c.X)
			rio.guess = nil
			rio.part = nil
			rio.from = nil
			if out == nil {
				rio.part = w.part
				rio.guess = w.producerLiterals(from)
				rio.from = w.pipeProducer(c.X, from)
			}
			rio.listing = w.lastListing
			w.lastListing = nil
			if st.lastpipe {
				// shopt -s lastpipe: the last stage runs in this shell
				// (`a | b | c` is `(a | b) | c`: c is this Y)
				return w.stmt(f, st, c.Y, rio)
			}
			return w.stmt(f, st.clone(), c.Y, rio)
		case syntax.AndStmt:
			// `a && b && c` parses as `(a && b) && c`: walk the chain as one
			// list. A failing step skips every later step of the chain, so
			// where the shell is when a step fails (a cd that may not have
			// happened) rejoins only after the whole chain — never for the
			// later steps (`cd src && ls && echo x > README.md` writes in src
			// only). `cd X && pwd` prints what the steps print.
			var failed []DirAlt
			out := new(string)
			parts := andChain(c)
			for i, part := range parts {
				st.cdLast = false
				r := w.stmt(f, st, part, io)
				if out != nil && r != nil {
					joined := *out + *r
					out = &joined
				} else {
					out = nil
				}
				if i < len(parts)-1 {
					failed = append(failed, st.possibleDirs()...) // where the shell is when this step fails
					st.cdSucceeded()
				}
			}
			st.addAlts(failed)
			return out
		default:
			st.cdLast = false
			w.stmt(f, st, c.X, io)
			if st.cdLast && exits(c.Y) {
				// `cd X || exit 1`: the commands after it run only in X
				st.cdSucceeded()
				w.stmt(f, st, c.Y, io)
				st.cdLast = false
				return nil
			}
			after := st.possibleDirs()
			st.cdLast = false
			w.stmt(f, st, c.Y, io)
			st.addAlts(after)
			st.cdLast = false
			return nil
		}
	case *syntax.Block:
		return w.stmts(f.child(""), st, c.Stmts, io)
	case *syntax.Subshell:
		return w.stmts(f.child(""), st.clone(), c.Stmts, io)
	case *syntax.IfClause:
		nf := f.child("")
		for ic := c; ic != nil; ic = ic.Else {
			st.cdLast = false
			w.stmts(nf, st, ic.Cond, io)
			failed := st.possibleDirs()
			st.cdSucceeded() // `if cd X; then …`: the branch runs in X
			w.stmts(nf, st, ic.Then, io)
			st.addAlts(failed)
		}
		return nil
	case *syntax.WhileClause:
		nf := f.child("")
		if (endlessCond(c.Cond, c.Until) || io.endless && !c.Until && readCond(c.Cond)) && backgrounds(c.Do) {
			w.res.BackgroundLoops = append(w.res.BackgroundLoops, strings.TrimSpace(w.raw(f, c)))
		}
		if !c.Until && getoptsCond(c.Cond) {
			// `while getopts SPEC NAME …; do …; done`: one walk of the
			// body per option read (at most 8, the loop budget), each
			// with that option's NAME and OPTARG; a body the first call
			// does not enter (no option, unknown arguments) is walked
			// once all the same, as any other loop's
			for k := 0; k < 8 && w.loopBudget > 0 && w.spend(nodeLen(c)); k++ {
				w.loopBudget--
				st.optEnd = false
				w.stmts(nf, st, c.Cond, io)
				if st.optEnd && k > 0 {
					return nil
				}
				w.stmts(nf, st, c.Do, io)
				if st.optEnd {
					return nil
				}
			}
			return nil
		}
		w.stmts(nf, st, c.Cond, io)
		w.stmts(nf, st, c.Do, io)
		return nil
	case *syntax.ForClause:
		nf := f.child("")
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			var items []field
			for _, it := range l.Items {
				items = append(items, w.expandWord(nf, st, it)...)
			}
			name := l.Name.Value
			allKnown := true
			for _, it := range items {
				if !it.known {
					allKnown = false
				}
			}
			walked := 0
			if allKnown && len(l.Items) > 0 {
				for _, it := range items {
					if w.loopBudget <= 0 || walked >= 8 {
						break
					}
					w.loopBudget--
					if !w.spend(nodeLen(c)) {
						break
					}
					walked++
					st.setVar(name, varVal{val: it.val, known: true})
					w.stmts(nf, st, c.Do, io)
				}
			}
			if walked == 0 || walked < len(items) {
				st.unsetVar(name)
				w.stmts(nf, st, c.Do, io)
			}
		case *syntax.CStyleLoop:
			if l.Cond == nil && backgrounds(c.Do) {
				w.res.BackgroundLoops = append(w.res.BackgroundLoops, strings.TrimSpace(w.raw(f, c)))
			}
			w.generic(nf, st, l)
			for _, x := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
				if x != nil {
					w.arithNode(nf, st, x)
				}
			}
			w.stmts(nf, st, c.Do, io)
		}
		return nil
	case *syntax.CaseClause:
		nf := f.child("")
		w.expandWord(nf, st, c.Word)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.expandWord(nf, st, p)
			}
			w.stmts(nf, st, it.Stmts, io)
		}
		return nil
	case *syntax.FuncDecl:
		name := ""
		if c.Name != nil {
			name = c.Name.Value
		}
		if name != "" {
			if st.funcs == nil {
				st.funcs = map[string]*syntax.Stmt{}
			}
			st.funcs[name] = c.Body
		}
		w.res.Functions = append(w.res.Functions, Function{Name: name, Via: f.via})
		idx := len(w.res.Functions) - 1
		nf := f.child("function " + name)
		nf.fn = name
		nf.bg = false
		w.funcStack = append(w.funcStack, idx)
		w.stmt(nf, st.clone(), c.Body, ioCtx{})
		w.funcStack = w.funcStack[:len(w.funcStack)-1]
		return nil
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		nf := f.child("")
		w.generic(nf, st, c)
		switch c := c.(type) {
		case *syntax.ArithmCmd:
			w.arithNode(nf, st, c.X)
		case *syntax.LetClause:
			for _, x := range c.Exprs {
				w.arithNode(nf, st, x)
			}
		case *syntax.TestClause:
			w.arithTest(nf, st, c.X)
		}
		return nil
	case *syntax.DeclClause:
		w.decl(f, st, c)
		return nil
	case *syntax.TimeClause:
		return w.stmt(f.child("time"), st, c.Stmt, io)
	case *syntax.CoprocClause:
		w.stmt(f.child("coproc"), st.clone(), c.Stmt, io)
		w.coproc(f, st, c)
		return nil
	default:
		w.generic(f.child(""), st, c)
		return nil
	}
}

// generic finds command and process substitutions in nodes that are not
// walked field by field (arithmetic, [[ ]], let, C-style for headers).
func (w *walker) generic(f *frame, st *state, n syntax.Node) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(f.child("$( )"), st.clone(), n.Stmts, ioCtx{})
			return false
		case *syntax.ProcSubst:
			w.stmts(f.child("<( )"), st.clone(), n.Stmts, ioCtx{})
			return false
		}
		return true
	})
}

func (w *walker) decl(f *frame, st *state, c *syntax.DeclClause) {
	variant := c.Variant.Value
	export := variant == "export"
	// unsure: the names stay in the environment view but are not surely
	// exported (declare +x, export -n; state.exportMaybe)
	unsure := false
	assoc, nameref, integer := false, variant == "nameref", false
	for _, a := range c.Args {
		if a.Name == nil {
			if a.Value != nil {
				v := w.singleWord(f, st, a.Value, false)
				if strings.HasPrefix(v.Value, "-") {
					assoc = assoc || strings.Contains(v.Value, "A")
					integer = integer || strings.Contains(v.Value, "i")
					if variant == "export" {
						// export -n NAME removes the export attribute
						unsure = unsure || strings.Contains(v.Value, "n")
					} else {
						nameref = nameref || strings.Contains(v.Value, "n")
					}
				}
				if variant == "declare" || variant == "typeset" {
					// +x removes the export attribute: the variable is kept
					// in the environment view (Invocation.Env) so that rules
					// about environment changes see it (harness.session-env),
					// as not surely exported (state.exportMaybe)
					if (strings.HasPrefix(v.Value, "-") || strings.HasPrefix(v.Value, "+")) && strings.Contains(v.Value, "x") {
						export = true
						unsure = unsure || strings.HasPrefix(v.Value, "+")
					}
				}
				if variant == "declare" || variant == "typeset" || variant == "local" {
					// a quoted `declare 'a[SUB]=V'` assigns the element:
					// SUB is expanded and, for an indexed array, evaluated
					// (bash 5.2: its command substitutions ran; without
					// "=V", and for export and readonly, they did not)
					if j := strings.IndexByte(v.Value, '['); j > 0 && isName(v.Value[:j]) {
						if k := closeBracket(v.Value, j); k > 0 && strings.HasPrefix(strings.TrimPrefix(v.Value[k+1:], "+"), "=") {
							w.arithName(f, st, v.Value)
						}
					}
				}
			}
			continue
		}
		name := a.Name.Value
		if integer {
			st.setAttr(name, 'i')
		}
		if assoc {
			st.setAttr(name, 'A')
		}
		if a.Naked && a.Value == nil {
			if export && unsure {
				st.exportMaybe(name)
			} else if export {
				st.export(name)
			}
			continue
		}
		switch {
		case nameref && a.Value != nil && a.Array == nil:
			// declare -n NAME=REF: NAME stands for the variable REF
			if ref := w.singleWord(f, st, a.Value, false); ref.Known && (isName(ref.Value) || elementName(ref.Value)) {
				// (the reference may be computed: `local -n p=$1`)
				st.setVar(name, varVal{ref: ref.Value, known: true})
			} else {
				st.unsetVar(name)
			}
		case assoc && a.Array != nil && name != "BASH_CMDS" && name != "BASH_ALIASES":
			w.assignAssoc(f, st, a)
		default:
			w.assign(f, st, a)
		}
		if export && unsure {
			st.exportMaybe(name)
		} else if export {
			st.export(name)
		}
	}
}

// elementName reports an array element's name NAME[SUB] (a nameref may
// stand for one; its SUB is evaluated when the nameref is used).
func elementName(s string) bool {
	j := strings.IndexByte(s, '[')
	return j > 0 && isName(s[:j]) && closeBracket(s, j) == len(s)-1
}

// isName reports a shell variable name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// assignAssoc assigns `declare -A NAME=([key]=value …)`; elements whose
// key or value is not literal are left out.
func (w *walker) assignAssoc(f *frame, st *state, a *syntax.Assign) {
	m := map[string]string{}
	for _, el := range a.Array.Elems {
		if el.Value != nil {
			w.expandWord(f, st, el.Value) // walk substitutions
		}
		key, ok := "", false
		if iw, isWord := el.Index.(*syntax.Word); isWord {
			key, ok = literalWord(iw)
		}
		if !ok || el.Value == nil {
			continue
		}
		if v := w.singleWord(f, st, el.Value, false); v.Known {
			m[key] = v.Value
		}
	}
	st.setVar(a.Name.Value, varVal{known: true, assoc: m, isAssoc: true})
}

func (w *walker) assign(f *frame, st *state, a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	if ref := st.vars[name].ref; ref != "" {
		// assigning through a nameref to an element evaluates its
		// subscript (`declare -n r='a[SUB]'; r=1`, words.go param)
		w.arithName(f, st, ref)
	}
	if a.Array != nil && (name == "BASH_CMDS" || name == "BASH_ALIASES") {
		// bash's tables as a whole: `BASH_CMDS=([ls]=/bin/rm)`, `+=(…)`
		for _, el := range a.Array.Elems {
			if el.Index != nil && el.Value != nil {
				w.tableEntry(f, st, name, &syntax.Word{Parts: indexParts(el.Index)}, el.Value, a.Pos().Line())
			}
		}
		return
	}
	if a.Array != nil {
		// indexed array: elements in order, [N]=value at literal indexes;
		// unknown values are kept as unknown elements
		var elems []string
		var unk []bool
		anyUnk := false
		put := func(i int, v string, u bool) {
			for len(elems) <= i {
				elems = append(elems, "")
				unk = append(unk, false)
			}
			elems[i], unk[i] = v, u
			anyUnk = anyUnk || u
		}
		if a.Append {
			if old, ok := st.vars[name]; ok && old.isArr {
				for i, v := range old.arr {
					put(i, v, i < len(old.unk) && old.unk[i])
				}
			} else if ok {
				put(0, old.val, !old.known)
			}
		}
		for _, el := range a.Array.Elems {
			next := len(elems)
			if el.Index != nil {
				n := -1
				if iw, isWord := el.Index.(*syntax.Word); isWord {
					if s, ok := literalWord(iw); ok {
						if k, err := strconv.Atoi(s); err == nil && k >= 0 && k < 4096 {
							n = k
						}
					}
				}
				if n < 0 {
					st.unsetVar(name)
					return
				}
				next = n
			}
			if el.Value == nil {
				put(next, "", false)
				continue
			}
			for _, fl := range w.expandWord(f, st, el.Value) {
				put(next, fl.val, !fl.known)
				next++
			}
		}
		if len(elems) > 4096 {
			st.unsetVar(name)
			return
		}
		if !anyUnk {
			unk = nil
		}
		v0, k0 := "", true
		if len(elems) > 0 {
			v0, k0 = elems[0], unk == nil || !unk[0]
		}
		st.setVar(name, varVal{val: v0, known: k0, arr: elems, unk: unk, isArr: true})
		return
	}
	if a.Index != nil {
		w.generic(f, st, a.Index)
		if st.indexed(name) {
			w.arithNode(f, st, a.Index)
		}
		if (name == "BASH_ALIASES" || name == "BASH_CMDS") && a.Value != nil {
			w.tableEntry(f, st, name, &syntax.Word{Parts: indexParts(a.Index)}, a.Value, a.Pos().Line())
		}
		return
	}
	v := Word{Known: true}
	if a.Value != nil {
		v = w.singleWord(f, st, a.Value, false)
	}
	if a.Append {
		old, ok := st.vars[name]
		if !ok || !old.known {
			v.Known = false
		}
		v.Value = old.val + v.Value
	}
	if st.hasAttr(name, 'i') && v.Known {
		// a `declare -i` variable: the value is evaluated (arith.go)
		w.arithText(f, st, v.Value, 0)
	}
	st.setVar(name, varVal{val: v.Value, known: v.Known})
	if name == "PS4" && st.xtrace {
		w.tracePS4(f, st, st.vars[name])
	}
}

// tableEntry assigns key of one of bash's tables: BASH_ALIASES[NAME]=TEXT
// defines an alias as `alias NAME=TEXT` does, BASH_CMDS[NAME]=PATH binds
// NAME to the program PATH as `hash -p PATH NAME` does (checked with bash
// 5.2: `BASH_CMDS[ls]=/usr/bin/touch; ls m` made m).
func (w *walker) tableEntry(f *frame, st *state, table string, key, val *syntax.Word, line uint) {
	k := w.singleWord(f, st, key, false)
	v := w.singleWord(f, st, val, false)
	if !k.Known || !v.Known || k.Value == "" {
		return
	}
	if table == "BASH_CMDS" {
		st.hash(k.Value, v.Value)
		return
	}
	w.defineAlias(f, st, k.Value, v.Value, line)
}

func (w *walker) raw(f *frame, n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s >= 0 && e <= len(f.src) && s <= e {
		return f.src[s:e]
	}
	return ""
}

// call handles one simple command.
func (w *walker) call(f *frame, st *state, c *syntax.CallExpr, io ioCtx) *string {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			w.assign(f, st, a)
		}
		if len(io.redirs) > 0 {
			w.record(f, st, Invocation{Redirects: io.redirs, Dir: st.dir, Pos: c.Pos(), Env: w.envOf(st, nil)})
		}
		return nil
	}
	var prefix map[string]string
	var prefixUnknown map[string]bool
	for _, a := range c.Assigns {
		if a.Name == nil {
			continue
		}
		v := Word{Known: true}
		if a.Value != nil {
			v = w.singleWord(f, st, a.Value, false)
		}
		if prefix == nil {
			prefix = map[string]string{}
		}
		prefix[a.Name.Value] = v.Value
		if !v.Known || a.Append || a.Index != nil || a.Array != nil {
			if prefixUnknown == nil {
				prefixUnknown = map[string]bool{}
			}
			prefixUnknown[a.Name.Value] = true
		} else {
			delete(prefixUnknown, a.Name.Value)
		}
	}
	var fields []field
	w.substStdin = io.pipe
	for i, a := range c.Args {
		n := len(fields)
		fields = append(fields, w.expandWord(f, st, a)...)
		if i == 0 && len(fields) == n+1 && len(st.aliases) > 0 && aliasName(a) {
			fields[n].aliasable = true
		}
	}
	w.substStdin = nil
	if len(fields) == 0 {
		if len(io.redirs) > 0 {
			w.record(f, st, Invocation{Redirects: io.redirs, Dir: st.dir, Pos: c.Pos(), Env: w.envOf(st, prefix)})
		}
		return nil
	}
	words := make([]Word, len(fields))
	var listing *Listing
	for i, fl := range fields {
		words[i] = fl.word()
		if fl.listing != nil && listing == nil {
			listing = fl.listing
		}
	}
	cc := cmdCtx{
		words:       words,
		fields:      fields,
		env:         w.envOf(st, prefix),
		knownEnv:    knownEnvOf(st, prefix, prefixUnknown),
		maybe:       st.maybeExported(prefix),
		redirs:      io.redirs,
		stdin:       io.stdin,
		fds:         io.fds,
		guess:       io.guess,
		part:        io.part,
		endless:     io.endless,
		from:        io.from,
		listing:     listing,
		pipeListing: io.listing,
		pos:         c.Pos(),
	}
	return w.run(f, st, cc)
}

// knownEnvOf names the variables of envOf(st, prefix) whose value is
// known: the exported variables with known values and the prefix
// assignments not in unknown.
func knownEnvOf(st *state, prefix map[string]string, unknown map[string]bool) map[string]bool {
	var known map[string]bool
	add := func(k string) {
		if known == nil {
			known = map[string]bool{}
		}
		known[k] = true
	}
	for k := range st.exported {
		if v, ok := st.vars[k]; ok && v.known && !v.isArr && !v.isAssoc && v.ref == "" {
			add(k)
		}
	}
	for k := range prefix {
		if unknown[k] {
			delete(known, k)
		} else {
			add(k)
		}
	}
	return known
}

func (w *walker) envOf(st *state, prefix map[string]string) map[string]string {
	if len(st.exported) == 0 && len(prefix) == 0 {
		return nil
	}
	env := make(map[string]string, len(st.exported)+len(prefix))
	for k := range st.exported {
		if v, ok := st.vars[k]; ok {
			env[k] = v.val
		} else {
			env[k] = ""
		}
	}
	for k, v := range prefix {
		env[k] = v
	}
	return env
}

func (w *walker) record(f *frame, st *state, inv Invocation) int {
	inv.Command()
	if f.inferred != "" && inv.Inferred == "" {
		inv.Inferred = f.inferred
		inv.InferredCode = f.inferredCode
	}
	if len(f.via) > 0 {
		inv.Via = f.via
	}
	if inv.Dir == DirUnknown && inv.UnknownSub == "" {
		inv.UnknownSub = st.unkRel
	}
	if len(st.alts) > 0 && inv.Dir == st.dir {
		inv.AltDirs = st.alts
	}
	st.cdLast = false
	w.res.Invocations = append(w.res.Invocations, inv)
	// fork-bomb shape: the function being defined runs itself in the background.
	if f.fn != "" && f.bg && len(w.funcStack) > 0 {
		fn := &w.res.Functions[w.funcStack[len(w.funcStack)-1]]
		if inv.Program == f.fn {
			fn.SelfBackground = true
		} else if inv.Program != "" && len(fn.BgCalls) < 16 && !slices.Contains(fn.BgCalls, inv.Program) {
			fn.BgCalls = append(fn.BgCalls, inv.Program)
		}
	} else if f.fn != "" && len(w.funcStack) > 0 && inv.Program != "" && inv.Program != f.fn {
		fn := &w.res.Functions[w.funcStack[len(w.funcStack)-1]]
		if len(fn.FgCalls) < 16 && !slices.Contains(fn.FgCalls, inv.Program) {
			fn.FgCalls = append(fn.FgCalls, inv.Program)
		}
	}
	return len(w.res.Invocations) - 1
}

// endlessProducer reports a pipeline stage whose output never ends: `yes
// [WORD]`, `cat /dev/zero|/dev/urandom|/dev/random` (ioCtx.endless).
func endlessProducer(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	ws, ok := callLiterals(c)
	if !ok {
		return false
	}
	switch Identity(ws[0]) {
	case "yes":
		return true
	case "seq", "jot":
		// seq inf, seq 1 inf: numbers that never end
		switch strings.ToLower(ws[len(ws)-1]) {
		case "inf", "infinity", "+inf":
			return true
		}
	case "cat":
		if len(ws) == 2 {
			switch ws[1] {
			case "/dev/zero", "/dev/urandom", "/dev/random":
				return true
			}
		}
	}
	return false
}

// callLiterals returns the words of call expression c when every one is a
// literal (literalWord), else false.
func callLiterals(c *syntax.CallExpr) ([]string, bool) {
	ws := make([]string, 0, len(c.Args))
	for _, a := range c.Args {
		v, ok := literalWord(a)
		if !ok {
			return nil, false
		}
		ws = append(ws, v)
	}
	return ws, true
}

// readCond reports a loop condition that is one `read` of stdin (no -u FD).
func readCond(cond []*syntax.Stmt) bool {
	if len(cond) != 1 || cond[0].Negated || len(cond[0].Redirs) > 0 {
		return false
	}
	c, ok := cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	if v, ok := literalWord(c.Args[0]); !ok || v != "read" {
		return false
	}
	for _, a := range c.Args[1:] {
		if v, ok := literalWord(a); ok && strings.HasPrefix(v, "-") && strings.ContainsAny(v, "ut") {
			return false // another descriptor, or a timeout
		}
	}
	return true
}

// endlessCond reports a loop condition that never ends the loop: `true`,
// `:`, `[ 1 ]`, `test 1`, `((1))` for while; `false` for until.
func endlessCond(cond []*syntax.Stmt, until bool) bool {
	if len(cond) != 1 || cond[0].Negated {
		return false
	}
	switch c := cond[0].Cmd.(type) {
	case *syntax.CallExpr:
		ws, ok := callLiterals(c)
		if !ok {
			return false
		}
		if until {
			return len(ws) == 1 && ws[0] == "false"
		}
		switch strings.Join(ws, " ") {
		case "true", ":", "[ 1 ]", "test 1", "[ true ]", "[ 1 -eq 1 ]":
			return true
		}
		// a command that always succeeds (`while sleep 0`, `while sleep 1`)
		if len(ws) == 2 && Identity(ws[0]) == "sleep" {
			return true
		}
	case *syntax.ArithmCmd:
		if l, ok := c.X.(*syntax.Word); ok && !until {
			v := l.Lit()
			return v != "" && strings.Trim(v, "0123456789") == "" && strings.Trim(v, "0") != ""
		}
	}
	return false
}

// backgrounds reports a statement list that starts a job in the
// background anywhere in it (function definitions aside).
func backgrounds(list []*syntax.Stmt) bool {
	found := false
	for _, s := range list {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.FuncDecl:
				return false
			case *syntax.Stmt:
				if n.Background {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// andChain flattens a left-nested `a && b && c` into its steps in order. A
// nested step with its own redirections, negation or background stays one
// step (it is not part of the same list).
func andChain(c *syntax.BinaryCmd) []*syntax.Stmt {
	var parts []*syntax.Stmt
	if x, ok := c.X.Cmd.(*syntax.BinaryCmd); ok && x.Op == syntax.AndStmt && len(c.X.Redirs) == 0 && !c.X.Negated && !c.X.Background && !c.X.Coprocess {
		parts = andChain(x)
	} else {
		parts = append(parts, c.X)
	}
	return append(parts, c.Y)
}

// indexParts returns the word parts of an array index (a literal key of
// an associative array: `BASH_ALIASES[x]`).
func indexParts(x syntax.ArithmExpr) []syntax.WordPart {
	if wd, ok := x.(*syntax.Word); ok {
		return wd.Parts
	}
	return nil
}
