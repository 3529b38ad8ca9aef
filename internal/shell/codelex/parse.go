package codelex

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

// Arg is one argument of a call: positional (Key "") or named (a keyword
// argument `shell=True`, `recursive: true`, `force => 1`).
type Arg struct {
	Key string
	V   Value
}

// Call is one call expression in the code.
type Call struct {
	// Func is the called name, qualified through imports and aliases
	// ("os.system", "child_process.execSync", "FileUtils.rm_rf"; Perl's
	// and R's "::" read as "."). For a method called on a value that is
	// not a name (`Path('x').write_text`, `open(p,'a').truncate`) it is
	// "." + the method name and Recv holds the value.
	Func string
	// Recv is the receiver of a method called on a value, nil otherwise.
	Recv *Value
	// Args are the arguments in order (splats expanded when known).
	Args []Arg
	// Bound are arguments bound to a command-module program before the
	// call (plumbum `git["push", "--force"]()`), nil otherwise.
	Bound []Value
	// Tok is the index of the call's first token in Code.Tokens.
	Tok int
	// End is the index just after the call's last token.
	End int
	// Line is the 0-based line of the call.
	Line int
}

// Method returns the last component of Func.
func (c *Call) Method() string {
	if k := strings.LastIndexByte(c.Func, '.'); k >= 0 {
		return c.Func[k+1:]
	}
	return c.Func
}

// Pos returns the positional arguments.
func (c *Call) Pos() []Value {
	var out []Value
	for _, a := range c.Args {
		if a.Key == "" {
			out = append(out, a.V)
		}
	}
	return out
}

// Kw returns the named argument key (ok false when absent).
func (c *Call) Kw(key string) (Value, bool) {
	for _, a := range c.Args {
		if a.Key == key {
			return a.V, true
		}
	}
	return Value{}, false
}

// arg returns positional argument i, or the named argument key when the
// positional one is absent.
func (c *Call) arg(i int, key string) (Value, bool) {
	if key != "" {
		if v, ok := c.Kw(key); ok {
			return v, true
		}
	}
	pos := c.Pos()
	if i < len(pos) {
		return pos[i], true
	}
	return Value{}, false
}

// nodePath is the prefix of Node's path module functions (path.join,
// path.resolve, path.normalize).
const nodePath = "path."

// parser evaluates the token stream: it records every call, tracks simple
// literal assignments, imports and aliases.
type parser struct {
	lang  Lang
	toks  []Token
	i     int
	vars  map[string]Value
	final map[string]Value // values after the first pass (names used before their assignment)
	calls []*Call
	// stars are modules imported whole (`from subprocess import *`,
	// Ruby `include FileUtils`): their functions are called by bare name.
	stars []string
	argv  []string
	// argvKnown is true when the script's own arguments are known literals.
	argvKnown bool
	// env are the environment variables with known values (Options.Env).
	env      map[string]string
	steps    int
	maxSteps int
	depth    int
	trunc    bool
	record   bool
}

const maxDepth = 200

func (p *parser) tok() *Token {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return nil
}

func (p *parser) peek(k int) *Token {
	if p.i+k < len(p.toks) && p.i+k >= 0 {
		return &p.toks[p.i+k]
	}
	return nil
}

// isOp reports an Op token spelled one of ops.
func (p *parser) isOp(t *Token, ops ...string) bool { return isToken(t, Op, ops) }

// isName reports a Name token spelled one of names.
func (p *parser) isName(t *Token, names ...string) bool { return isToken(t, Name, names) }

func isToken(t *Token, k Kind, texts []string) bool {
	return t != nil && t.Kind == k && slices.Contains(texts, t.Text)
}

func (p *parser) spend() bool {
	p.steps++
	if p.steps > p.maxSteps {
		p.trunc = true
		return false
	}
	return true
}

// run evaluates the whole token stream twice: the first pass learns the
// final value of every assigned name (for code that uses a name before its
// assignment, e.g. in a function body), the second records the calls.
func (p *parser) run() {
	p.maxSteps = 64*len(p.toks) + 4096
	for pass := 0; pass < 2; pass++ {
		p.i = 0
		p.record = pass == 1
		if pass == 1 {
			p.final = p.vars
			p.vars = make(map[string]Value, len(p.final))
			p.stars = nil
		} else {
			p.vars = map[string]Value{}
		}
		for p.i < len(p.toks) && !p.trunc {
			if p.stmt() {
				continue
			}
			start := p.i
			v := p.expr()
			if p.i == start {
				p.i++
			} else if p.isName(p.tok(), "as") && p.peek(1) != nil && p.peek(1).Kind == Name {
				// Python `with open(p, 'a') as f:`
				p.assign(p.peek(1).Text, v)
				p.i += 2
			}
		}
	}
}

// lookup returns the value of a name: assigned earlier, or finally.
func (p *parser) lookup(name string) (Value, bool) {
	if v, ok := p.vars[name]; ok {
		return v, true
	}
	if v, ok := p.final[name]; ok {
		return v, true
	}
	return Value{}, false
}

// varName strips a sigil ("$x" → "x").
func varName(s string) string {
	return strings.TrimLeft(s, "$@%&*")
}

// boundary reports whether the token before index i ends a statement.
func (p *parser) boundary(i int) bool {
	if i <= 0 {
		return true
	}
	t := p.toks[i-1]
	if p.lang == Node && t.Line != p.toks[i].Line {
		return true // automatic semicolon insertion at a line break
	}
	switch t.Kind {
	case Newline, HoleOpen:
		return true
	case Op:
		return t.Text == ";" || t.Text == "{" || t.Text == "}" || t.Text == ":" && p.lang == Python
	case Name:
		switch t.Text {
		case "then", "do", "else", "begin", "in", "BEGIN", "END":
			return true
		}
	}
	return false
}

var declWords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"const": true, "let": true, "var": true, "my": true, "our": true, "local": true, "set": true, "global": true, "export": true}
}}

// stmt handles statements that bind names: imports, `use`, `include`,
// assignments. It reports whether it consumed tokens.
func (p *parser) stmt() bool {
	t := p.tok()
	if t == nil || t.Kind != Name || !p.boundary(p.i) {
		return false
	}
	switch {
	case p.lang == Python && (t.Text == "import" || t.Text == "from"):
		return p.pyImport()
	case p.lang == Node && t.Text == "import" && !p.isOp(p.peek(1), "("):
		return p.jsImport()
	case p.lang == Perl && t.Text == "use":
		return p.perlUse()
	case p.lang == Ruby && (t.Text == "include" || t.Text == "extend"):
		if n := p.peek(1); n != nil && n.Kind == Name {
			p.stars = append(p.stars, n.Text)
			p.i += 2
			return true
		}
	}
	start := p.i
	if declWords.Get()[t.Text] && !(p.lang == AppleScript && t.Text != "set") && !(p.lang == Python && (t.Text == "local" || t.Text == "set")) {
		p.i++
		if p.lang == AppleScript {
			return p.appleSet(start)
		}
		// JS destructuring: const { a, b: c } = require('m')
		if p.lang == Node && p.isOp(p.tok(), "{") {
			return p.jsDestructure(start)
		}
		if p.lang == Perl && p.isOp(p.tok(), "(") {
			p.i = start
			return false
		}
	}
	n := p.tok()
	if n == nil || n.Kind != Name {
		p.i = start
		return false
	}
	op := p.peek(1)
	if op == nil || op.Kind != Op {
		p.i = start
		return false
	}
	if op.Text == ":" && p.lang == Node && p.i > start {
		// TypeScript: const x: T = …
		depth := 0
		for k := p.i + 2; k < len(p.toks) && k < p.i+64; k++ {
			t := p.toks[k]
			if t.Kind == Op && (t.Text == "<" || t.Text == "(" || t.Text == "[" || t.Text == "{") {
				depth++
			} else if t.Kind == Op && (t.Text == ">" || t.Text == ")" || t.Text == "]" || t.Text == "}") {
				depth--
			} else if t.Kind == Op && t.Text == "=" && depth == 0 {
				name := varName(n.Text)
				p.i = k + 1
				p.assign(name, p.expr())
				return true
			} else if t.Kind == Op && t.Text == ";" {
				break
			}
		}
	}
	switch op.Text {
	case "=", "<-", ":=", "+=", ".=", "..=", "<<-":
	default:
		p.i = start
		return false
	}
	if op.Text == "=" && p.isOp(p.peek(2), "=", "~") {
		p.i = start
		return false
	}
	name := varName(n.Text)
	p.i += 2
	v := p.expr()
	switch op.Text {
	case "+=", ".=", "..=":
		old, _ := p.lookup(name)
		v = concat(old, v)
	}
	p.assign(name, v)
	// Python `a = b = 'x'`, chained
	return true
}

func (p *parser) assign(name string, v Value) {
	if name == "" {
		return
	}
	p.vars[name] = v
}

// pyImport handles `import a.b as c, d` and `from m import x as y, *`.
func (p *parser) pyImport() bool {
	from := ""
	if p.isName(p.tok(), "from") {
		p.i++
		from = p.dotted()
		if !p.isName(p.tok(), "import") {
			return true
		}
	}
	p.i++
	paren := p.isOp(p.tok(), "(")
	if paren {
		p.i++
	}
	for p.i < len(p.toks) && p.spend() {
		t := p.tok()
		if t.Kind == Newline || p.isOp(t, ")") {
			if paren && p.isOp(t, ")") {
				p.i++
			}
			break
		}
		if p.isOp(t, ",") {
			p.i++
			continue
		}
		if p.isOp(t, "*") {
			p.stars = append(p.stars, from)
			p.i++
			continue
		}
		if t.Kind != Name {
			p.i++
			continue
		}
		name := p.dotted()
		alias := name
		if k := strings.IndexByte(name, '.'); k >= 0 && from == "" {
			alias = name[:k] // `import os.path` binds os
			if p.isName(p.tok(), "as") {
				alias = name
			} else {
				name = alias
			}
		}
		if p.isName(p.tok(), "as") {
			p.i++
			if a := p.tok(); a != nil && a.Kind == Name {
				alias = a.Text
				p.i++
			}
		}
		q := name
		if from != "" {
			q = from + "." + name
		}
		p.assign(alias, Value{Kind: Ref, S: q})
	}
	return true
}

// dotted reads a.b.c at p.i.
func (p *parser) dotted() string {
	var b strings.Builder
	for p.i < len(p.toks) {
		t := p.tok()
		if t.Kind == Name {
			b.WriteString(t.Text)
			p.i++
			if p.isOp(p.tok(), ".") {
				if n := p.peek(1); n != nil && n.Kind == Name {
					b.WriteByte('.')
					p.i++
					continue
				}
			}
		} else if p.isOp(t, ".") {
			b.WriteByte('.') // relative import
			p.i++
			continue
		}
		break
	}
	return b.String()
}

// jsImport handles import x from 'm', import * as x from 'm',
// import {a as b, c} from 'm', import 'm'.
func (p *parser) jsImport() bool {
	p.i++
	var binds []bind
	def, ns := "", ""
	for p.i < len(p.toks) && p.spend() {
		t := p.tok()
		switch {
		case t.Kind == String:
			mod := moduleIdent(t.Text)
			p.i++
			if def != "" {
				p.assign(def, Value{Kind: Ref, S: mod})
			}
			if ns != "" {
				p.assign(ns, Value{Kind: Ref, S: mod})
			}
			for _, b := range binds {
				p.assign(b.local, Value{Kind: Ref, S: mod + "." + b.name})
			}
			return true
		case p.isOp(t, "*"):
			p.i++
			if p.isName(p.tok(), "as") {
				p.i++
				if n := p.tok(); n != nil && n.Kind == Name {
					ns = n.Text
					p.i++
				}
			}
		case p.isOp(t, "{"):
			binds = append(binds, p.bindList(func(t *Token) bool { return p.isName(t, "as") })...)
		case t.Kind == Name && t.Text != "from" && t.Text != "type":
			def = t.Text
			p.i++
		case t.Kind == Newline || p.isOp(t, ";"):
			return true
		default:
			p.i++
		}
	}
	return true
}

// bind is one name a JavaScript import or destructuring binds: local
// names the member name of the module or object.
type bind struct{ local, name string }

// bindList reads `{ a, b <rename> c, … }` (p.i at "{") up to and past its
// "}": rename reports the token that renames (import's "as",
// destructuring's ":").
func (p *parser) bindList(rename func(*Token) bool) []bind {
	p.i++
	var binds []bind
	for p.i < len(p.toks) && !p.isOp(p.tok(), "}") && p.spend() {
		n := p.tok()
		if n.Kind != Name {
			p.i++
			continue
		}
		b := bind{local: n.Text, name: n.Text}
		p.i++
		if rename(p.tok()) {
			p.i++
			if a := p.tok(); a != nil && a.Kind == Name {
				b.local = a.Text
				p.i++
			}
		}
		binds = append(binds, b)
	}
	p.i++
	return binds
}

// jsDestructure handles const { a, b: c } = EXPR (p.i at "{").
func (p *parser) jsDestructure(start int) bool {
	binds := p.bindList(func(t *Token) bool { return p.isOp(t, ":") })
	if !p.isOp(p.tok(), "=") {
		return p.i > start
	}
	p.i++
	v := p.expr()
	for _, b := range binds {
		switch v.Kind {
		case Ref:
			p.assign(b.local, Value{Kind: Ref, S: v.S + "." + b.name})
		case Obj:
			if e, ok := v.Obj[b.name]; ok {
				p.assign(b.local, e)
			}
		}
	}
	return true
}

// perlUse handles `use Module qw(f g);` / `use Module 'f';`: imported
// functions are called by bare name.
func (p *parser) perlUse() bool {
	p.i++
	t := p.tok()
	if t == nil || t.Kind != Name {
		return true
	}
	mod := strings.ReplaceAll(t.Text, "::", ".")
	p.i++
	for p.i < len(p.toks) && p.spend() {
		t := p.tok()
		if t.Kind == Newline {
			break
		}
		switch t.Kind {
		case Words:
			for _, w := range t.List {
				p.assign(strings.TrimPrefix(w, "&"), Value{Kind: Ref, S: mod + "." + strings.TrimPrefix(w, "&")})
			}
		case String:
			p.assign(t.Text, Value{Kind: Ref, S: mod + "." + t.Text})
		}
		p.i++
	}
	p.stars = append(p.stars, mod)
	return true
}

// AdminKey is the keyword argument of an AppleScript `do shell script`
// call that runs its script as root: `with administrator privileges`,
// `administrator privileges true` (or a value the guard cannot read).
const AdminKey = "administrator privileges"

// adminPrivileges reports whether the parameters of a `do shell script`
// after its command (p.i, up to the end of the line) ask for
// administrator privileges (AppleScript Language Guide, "do shell script":
// the script then runs as root after an administrator's password):
// `administrator privileges` after "with" or followed by a value other
// than false or no, not after "without". Keywords compare case-insensitively.
func (p *parser) adminPrivileges() bool {
	admin := false
	for k := p.i; k < len(p.toks) && p.toks[k].Kind != Newline; k++ {
		t := &p.toks[k]
		if t.Kind != Name || !strings.EqualFold(t.Text, "administrator") || k+1 >= len(p.toks) || !strings.EqualFold(p.toks[k+1].Text, "privileges") {
			continue
		}
		switch {
		case k > p.i && strings.EqualFold(p.toks[k-1].Text, "without"):
		case k+2 < len(p.toks) && p.toks[k+2].Kind == Name && (strings.EqualFold(p.toks[k+2].Text, "false") || strings.EqualFold(p.toks[k+2].Text, "no")):
		default:
			admin = true
		}
	}
	return admin
}

// appleSet handles AppleScript `set NAME to EXPR` (p.i after "set").
func (p *parser) appleSet(start int) bool {
	n := p.tok()
	if n == nil || n.Kind != Name || !p.isName(p.peek(1), "to") {
		return p.i > start
	}
	p.i += 2
	p.assign(n.Text, p.expr())
	return true
}

// moduleIdent turns a Node module specifier into the name the code binds
// it to: "node:fs" → "fs", "fs/promises" → "fs", "fs-extra" → "fs_extra".
func moduleIdent(spec string) string {
	spec = strings.TrimPrefix(spec, "node:")
	if k := strings.IndexByte(spec, '/'); k > 0 && spec[0] != '@' {
		spec = spec[:k]
	}
	return strings.NewReplacer("-", "_", "/", "_", "@", "").Replace(spec)
}

// stopWords end an expression (and a paren-less argument list).
var stopWords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"if": true, "unless": true, "while": true, "until": true, "or": true, "and": true,
		"do": true, "then": true, "else": true, "for": true, "in": true, "as": true, "end": true, "foreach": true,
		"elsif": true, "elif": true, "when": true, "rescue": true, "ensure": true, "to": true, "is": true, "not": true}
}}

// binOps are the binary operators the evaluator walks over.
var binOps = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, ".": true, "..": true, "&": true,
		"|": true, "^": true, "==": true, "!=": true, "===": true, "!==": true, "<": true, ">": true, "<=": true, ">=": true,
		"&&": true, "||": true, "**": true, "//": true, "<<": true, ">>": true, "??": true, "<>": true, "=~": true, "!~": true, "x": true}
}}

// expr evaluates one expression at p.i and returns its value.
func (p *parser) expr() Value {
	if p.depth > maxDepth || !p.spend() {
		p.trunc = p.trunc || p.depth > maxDepth
		return unknown()
	}
	p.depth++
	defer func() { p.depth-- }()
	v := p.unary()
	for p.i < len(p.toks) && p.spend() {
		t := p.tok()
		opText := ""
		switch {
		case t.Kind == Op && binOps.Get()[t.Text]:
			opText = t.Text
			if opText == "." && p.lang != Perl && p.lang != PHP {
				return v
			}
		case t.Kind == Name && (t.Text == "and" || t.Text == "or") && (p.lang == Python || p.lang == Lua || p.lang == Ruby || p.lang == Perl):
			opText = t.Text
		case t.Kind == Name && t.Text == "x" && p.lang == Perl:
			opText = "x"
		default:
			return v
		}
		start := p.i
		p.i++
		r := p.unary()
		if p.i == start+1 && r.Kind == Unknown && p.tok() != nil && p.tok().Kind == Newline {
			return v
		}
		v = p.binop(opText, v, r)
	}
	return v
}

func (p *parser) binop(op string, a, b Value) Value {
	switch op {
	case "+":
		if p.lang == Perl || p.lang == PHP || p.lang == Lua {
			return unknown()
		}
		if a.Kind == List && b.Kind == List {
			return Value{Kind: List, List: append(append([]Value{}, a.List...), b.List...)}
		}
		return concat(a, b)
	case ".":
		return concat(a, b)
	case "..":
		if p.lang == Lua {
			return concat(a, b)
		}
	case "&":
		if p.lang == AppleScript {
			return concat(a, b)
		}
	case "*":
		if p.lang == Julia {
			return concat(a, b)
		}
	case "%":
		if a.Kind == Str && (p.lang == Python || p.lang == Ruby) {
			if b.Kind == List {
				return printf(a.S, b.List)
			}
			return printf(a.S, []Value{b})
		}
	case "/":
		if a.Kind == Str && a.Path {
			return joinPath([]Value{a, b})
		}
	case "|":
		a, b = modeConst(a), modeConst(b)
		if a.Kind == Num && b.Kind == Num {
			return Value{Kind: Num, N: a.N | b.N}
		}
	case "or", "||", "??":
		if t, ok := a.Truthy(); ok && t {
			return a
		}
		if t, ok := a.Truthy(); ok && !t {
			return b
		}
	}
	return unknown()
}

// unaryWords are prefix words the evaluator steps over.
var unaryWords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"not": true, "new": true, "await": true, "typeof": true, "void": true, "delete": true,
		"my": true, "our": true, "local": true, "yield": true, "return": true, "print": false, "lambda": false, "defined": true,
		"scalar": true, "do": false, "async": true, "go": false, "clone": true}
}}

func (p *parser) unary() Value {
	t := p.tok()
	if t == nil {
		return unknown()
	}
	if t.Kind == Op {
		switch t.Text {
		case "!", "-", "+", "~", "\\":
			p.i++
			v := p.unary()
			if t.Text == "!" {
				if b, ok := v.Truthy(); ok {
					return Value{Kind: Bool, B: !b}
				}
			}
			if t.Text == "-" && v.Kind == Num {
				return Value{Kind: Num, N: -v.N}
			}
			if t.Text == "\\" {
				return v
			}
			return unknown()
		case "*", "**", "...":
			// a splat: the caller expands a known list
			p.i++
			return p.unary()
		}
	}
	if t.Kind == Name && unaryWords.Get()[t.Text] && !(p.lang == Python && t.Text == "local") && p.peek(1) != nil && p.peek(1).Kind != Newline && !p.isOp(p.peek(1), "(", ".", ",", ")", "=") {
		p.i++
		v := p.unary()
		if t.Text == "not" {
			if b, ok := v.Truthy(); ok {
				return Value{Kind: Bool, B: !b}
			}
			return unknown()
		}
		return v
	}
	return p.postfix(p.primary())
}

// primary evaluates a literal, a name or a bracketed group.
func (p *parser) primary() Value {
	t := p.tok()
	if t == nil {
		return unknown()
	}
	switch t.Kind {
	case String:
		p.i++
		v := p.literal(t, false)
		// Python and Ruby join adjacent string literals ('r' 'm -rf x')
		for (p.lang == Python || p.lang == Ruby) && p.tok() != nil && p.tok().Kind == String {
			n := p.tok()
			p.i++
			v = concat(v, p.literal(n, false))
		}
		return v
	case Command:
		p.i++
		v := p.literal(t, true)
		if p.lang == Julia {
			v.Cmd = true
			return v
		}
		p.addCall(&Call{Func: "``", Args: []Arg{{V: v}}, Tok: p.i - 1, End: p.i, Line: t.Line})
		return unknown()
	case Words:
		p.i++
		out := Value{Kind: List}
		for _, w := range t.List {
			out.List = append(out.List, str(w))
		}
		return out
	case Number:
		p.i++
		oct := p.lang == Perl || p.lang == Ruby || p.lang == PHP || p.lang == Node
		if n, ok := parseInt(t.Text, oct); ok {
			return Value{Kind: Num, N: n}
		}
		return unknown()
	case Name:
		return p.name()
	case Op:
		switch t.Text {
		case "(":
			p.i++
			elems, clean, comma := p.group(")")
			if clean && len(elems) == 1 && !comma && elems[0].Key == "" {
				return elems[0].V
			}
			if clean {
				return listOf(elems)
			}
			return unknown()
		case "[":
			p.i++
			elems, clean, _ := p.group("]")
			if clean {
				return listOf(elems)
			}
			return unknown()
		case "{":
			p.i++
			elems, clean, _ := p.group("}")
			if clean {
				return objOf(elems)
			}
			return unknown()
		}
	}
	return unknown()
}

// listOf makes a List (or, when every element is named, an Obj).
func listOf(elems []Arg) Value {
	named := 0
	for _, e := range elems {
		if e.Key != "" {
			named++
		}
	}
	if named > 0 {
		return objOf(elems)
	}
	out := Value{Kind: List, List: make([]Value, 0, len(elems))}
	for _, e := range elems {
		out.List = append(out.List, e.V)
	}
	return out
}

func objOf(elems []Arg) Value {
	out := Value{Kind: Obj, Obj: map[string]Value{}}
	for _, e := range elems {
		if e.Key == "" {
			out.List = append(out.List, e.V)
			continue
		}
		out.Obj[e.Key] = e.V
	}
	return out
}

// literal evaluates a String or Command token with its holes (p.i after
// the token).
func (p *parser) literal(t *Token, cmd bool) Value {
	if t.Parts == nil {
		return str(t.Text)
	}
	out := str(t.Parts[0])
	for k := 1; k < len(t.Parts); k++ {
		hv := unknown()
		if p.tok() != nil && p.tok().Kind == HoleOpen {
			p.i++
			first := true
			for p.i < len(p.toks) && p.tok().Kind != HoleClose && p.spend() {
				start := p.i
				v := p.expr()
				if first {
					hv = v
					first = false
				} else {
					hv = unknown()
				}
				if p.i == start {
					p.i++
				}
			}
			p.i++ // HoleClose
		}
		if hv.Kind == Num {
			hv = str(itoa(hv.N))
		}
		if hv.Kind == List && (p.lang == Perl || p.lang == Julia) {
			if ss, ok := hv.Strings(); ok {
				hv = str(strings.Join(ss, " "))
			}
		}
		out = concat(out, hv)
		out = concat(out, str(t.Parts[k]))
	}
	return out
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [24]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// group reads comma-separated elements up to the closer; clean is false
// when something other than elements and separators was met (a
// comprehension, a block). comma reports a separator was seen.
func (p *parser) group(close string) (elems []Arg, clean, comma bool) {
	clean = true
	for p.i < len(p.toks) && p.spend() {
		t := p.tok()
		if p.isOp(t, close) {
			p.i++
			return elems, clean, comma
		}
		if p.isOp(t, ")", "]", "}") {
			// a stray closer: the group ends here
			clean = false
			return elems, clean, comma
		}
		if p.isOp(t, ",") || t.Kind == Newline || p.isOp(t, ";") {
			if p.isOp(t, ",") {
				comma = true
			}
			p.i++
			continue
		}
		a, ok := p.element()
		if !ok {
			clean = false
			start := p.i
			p.expr()
			if p.i == start {
				p.i++
			}
			continue
		}
		elems = append(elems, a...)
		n := p.tok()
		if n != nil && !p.isOp(n, ",", close) && n.Kind != Newline && !p.isOp(n, ";") {
			clean = false
		}
	}
	return elems, false, comma
}

// element reads one element of a group or argument list: a value, a
// named value (`k=v`, `k: v`, `'k' => v`), a splat.
func (p *parser) element() ([]Arg, bool) {
	t := p.tok()
	n := p.peek(1)
	if (t.Kind == Name || t.Kind == String || t.Kind == Number) && n != nil && n.Kind == Op {
		key := varName(t.Text)
		switch {
		case n.Text == "=" && !p.isOp(p.peek(2), "=") && t.Kind == Name && p.lang != Node && p.lang != Perl && p.lang != PHP,
			n.Text == ":" && (p.lang == Node || p.lang == Ruby || p.lang == Python && t.Kind != Name),
			n.Text == "=>":
			p.i += 2
			return []Arg{{Key: key, V: p.expr()}}, true
		}
	}
	if p.isOp(t, "[") && p.lang == Lua {
		// Lua table entry [k] = v
		return nil, false
	}
	splat := p.isOp(t, "*", "...") && p.lang != Perl
	kwSplat := p.isOp(t, "**")
	start := p.i
	v := p.expr()
	if p.i == start {
		return nil, false
	}
	if splat && v.Kind == List {
		out := make([]Arg, 0, len(v.List))
		for _, e := range v.List {
			out = append(out, Arg{V: e})
		}
		return out, true
	}
	if kwSplat && v.Kind == Obj {
		var out []Arg
		for k, e := range v.Obj {
			out = append(out, Arg{Key: k, V: e})
		}
		return out, true
	}
	if p.lang == Perl && v.Kind == List && !p.isOp(t, "[") {
		// Perl lists flatten
		out := make([]Arg, 0, len(v.List))
		for _, e := range v.List {
			out = append(out, Arg{V: e})
		}
		return out, true
	}
	return []Arg{{V: v}}, true
}

// name evaluates a name: a constant, an assigned name, an argv or env
// reference, or a Ref to a global.
func (p *parser) name() Value {
	t := p.tok()
	p.i++
	switch t.Text {
	case "True", "true", "TRUE":
		return Value{Kind: Bool, B: true}
	case "False", "false", "FALSE", "None", "nil", "null", "undefined", "NULL", "nothing":
		return Value{Kind: Bool, B: false}
	case "T", "F":
		if p.lang == R {
			return Value{Kind: Bool, B: t.Text == "T"}
		}
	}
	if p.lang == Node && t.Text == "$" {
		if v, ok := p.lookup("$"); ok {
			return v
		}
		// a global named $ (zx, jQuery, JXA's ObjC bridge): `$.system(…)`
		// is the call "$.system"
		return Value{Kind: Ref, S: "$"}
	}
	name := varName(t.Text)
	if p.lang == Perl && strings.HasPrefix(t.Text, "@") && name == "ARGV" || p.lang == Ruby && t.Text == "ARGV" && !p.isOp(p.tok(), "[") {
		if p.argvKnown {
			return strList(p.argv)
		}
		return unknown()
	}
	if p.lang == Perl && strings.HasPrefix(t.Text, "$") && name == "ARGV" && !p.isOp(p.tok(), "[") {
		return unknown()
	}
	if v, ok := p.lookup(name); ok && (first(t.Text) == '$' || first(t.Text) == '@' || first(t.Text) == '%' || !p.calledHere()) {
		return v
	} else if ok && v.Kind == Ref {
		return v
	}
	if first(t.Text) == '$' || first(t.Text) == '@' || first(t.Text) == '%' {
		switch name {
		case "ENV", "_ENV", "_SERVER", "argv", "ARGV":
			return Value{Kind: Ref, S: name}
		}
		return unknown()
	}
	if p.lang == AppleScript && t.Text == "do" && p.isName(p.tok(), "shell") && p.isName(p.peek(1), "script") {
		p.i += 2
		start := p.i - 3
		v := p.expr()
		args := []Arg{{V: v}}
		if p.adminPrivileges() {
			args = append(args, Arg{Key: AdminKey, V: str("true")})
		}
		p.addCall(&Call{Func: "do shell script", Args: args, Tok: start, End: p.i, Line: t.Line})
		return unknown()
	}
	if p.lang == AppleScript && t.Text == "quoted" && p.isName(p.tok(), "form") && p.isName(p.peek(1), "of") {
		p.i += 2
		v := p.unary()
		if s, ok := v.Text(""); ok && v.Known() {
			return str("'" + strings.ReplaceAll(s, "'", `'\''`) + "'")
		}
		return unknown()
	}
	return Value{Kind: Ref, S: strings.ReplaceAll(t.Text, "::", ".")}
}

// envValue is the value of environment variable name: its text when the
// invocation's environment sets it to a known value, else a string
// starting with the variable.
func (p *parser) envValue(name string) Value {
	if v, ok := p.env[name]; ok {
		return str(v)
	}
	return Value{Kind: Str, Env: name}
}

// calledHere reports that the name just read is followed by a call's "(".
func (p *parser) calledHere() bool { return p.isOp(p.tok(), "(") }

func strList(ss []string) Value {
	out := Value{Kind: List}
	for _, s := range ss {
		out.List = append(out.List, str(s))
	}
	return out
}

// postfix applies member access, calls and subscripts to v.
func (p *parser) postfix(v Value) Value {
	for p.i < len(p.toks) && p.spend() {
		t := p.tok()
		start := p.i - 1
		switch {
		case p.isOp(t, ".", "->", "::", "?.") && p.peek(1) != nil && p.peek(1).Kind == Name && !(p.lang == Perl && t.Text == "." || p.lang == PHP && t.Text == "."):
			name := p.peek(1).Text
			p.i += 2
			v = p.member(v, name)
		case p.isOp(t, ":") && p.lang == Lua && p.peek(1) != nil && p.peek(1).Kind == Name:
			name := p.peek(1).Text
			p.i += 2
			v = p.member(v, name)
		case p.isOp(t, "(") && v.Kind == Ref && controlWords.Get()[v.S]:
			return v // if (…), for (…), while (…): not a call
		case p.isOp(t, "("):
			callTok := p.callStart(start)
			p.i++
			args, _, _ := p.group(")")
			v = p.call(v, args, callTok, t.Line)
		case p.lang == Perl && p.isOp(t, "{") && v.Kind == Ref && perlBlockArg.Get()[strings.TrimPrefix(v.S, "CORE.")] != "":
			// exec { PROG } LIST, system { PROG } LIST, print { FH } LIST:
			// the block is the program (or filehandle), LIST the argv (or text)
			callTok := p.callStart(start)
			p.i++
			obj := p.expr()
			for p.i < len(p.toks) && !p.isOp(p.tok(), "}") && p.spend() {
				p.i++
			}
			p.i++
			args := append([]Arg{{Key: perlBlockArg.Get()[strings.TrimPrefix(v.S, "CORE.")], V: obj}}, p.bareArgs(t.Line)...)
			return p.call(v, args, callTok, t.Line)
		case p.lang == Perl && v.Kind == Ref && perlBlockArg.Get()[v.S] == "fh" && p.perlHandle(t):
			// print $fh LIST / print FH LIST: the handle has no comma after it
			callTok := p.callStart(start)
			fh := p.name()
			args := append([]Arg{{Key: "fh", V: fh}}, p.bareArgs(t.Line)...)
			return p.call(v, args, callTok, t.Line)
		case p.isOp(t, "[") || p.isOp(t, "{") && (p.lang == Perl || p.lang == PHP) && v.Kind == Ref:
			cl := "]"
			if t.Text == "{" {
				cl = "}"
			}
			if t.Space && p.lang != Perl {
				return v
			}
			p.i++
			v = p.index(v, cl)
		case p.lang == Lua && (t.Kind == String || p.isOp(t, "{")) && v.Kind == Ref:
			// f"str", f[[str]], f{table}
			arg := p.primary()
			v = p.call(v, []Arg{{V: arg}}, p.callStart(start), t.Line)
		case (v.Kind == Ref || p.lang == Ruby && v.Kind == Unknown && len(v.List) == 1 && v.List[0].Call != nil && strings.HasPrefix(v.S, ".")) && p.parenless(t):
			// Ruby: a paren-less method of a call's result too (io.puts "…")
			callTok := p.callStart(start)
			args := p.bareArgs(t.Line)
			v = p.call(v, args, callTok, t.Line)
			return v
		default:
			return p.bareCall(v, start)
		}
	}
	return p.bareCall(v, p.i-1)
}

// perlBlockArg names the key of the indirect object of the Perl calls that
// take one (`exec { "rm" } "rm", "-rf", "x"`, `print $fh "…"`, `print {$fh} "…"`).
var perlBlockArg = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{"exec": "prog", "system": "prog", "print": "fh", "printf": "fh", "say": "fh"}
}}

// perlHandle reports that t, after print/printf/say, is a filehandle: a
// scalar or bareword followed, on the same line and without a comma, by
// the start of the printed list.
func (p *parser) perlHandle(t *Token) bool {
	if t.Kind != Name || stopWords.Get()[t.Text] || !t.Space {
		return false
	}
	if first(t.Text) != '$' && strings.ToUpper(t.Text) != t.Text {
		return false // a bareword handle is written in capitals (STDERR, FH)
	}
	n := p.peek(1)
	if n == nil || n.Line != t.Line || !n.Space {
		return false
	}
	switch n.Kind {
	case String, Name, Number, Words:
		return n.Kind != Name || !stopWords.Get()[n.Text]
	}
	return false
}

// controlWords are keywords that a parenthesis may follow without a call.
var controlWords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"if": true, "elif": true, "elsif": true, "else": true, "for": true, "foreach": true,
		"while": true, "until": true, "unless": true, "switch": true, "case": true, "catch": true, "function": true,
		"return": true, "typeof": true, "with": true, "do": true, "async": true, "await": true, "yield": true, "void": true,
		"in": true, "of": true, "and": true, "or": true, "not": true, "when": true, "match": true, "then": true, "fn": true,
		"lambda": true, "def": true, "sub": true, "my": true, "our": true, "local": true, "isset": true, "empty": true, "list": false}
}}

// zeroArgCalls are functions Ruby and Perl call without parentheses or
// arguments (`fork while 1`, `loop { Process.fork }`, `Dir.pwd`).
var zeroArgCalls = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"fork": true, "Process.fork": true, "Kernel.fork": true, "Dir.pwd": true, "Dir.getwd": true, "getcwd": true, "cwd": true, "CORE.fork": true, "POSIX.fork": true}
}}

// bareCall records a zero-argument call written without parentheses.
func (p *parser) bareCall(v Value, last int) Value {
	if v.Kind != Ref || p.lang != Ruby && p.lang != Perl || !zeroArgCalls.Get()[v.S] || last < 0 || last >= len(p.toks) || p.toks[last].Kind != Name {
		return v
	}
	return p.call(v, nil, p.callStart(last), p.toks[last].Line)
}

// callStart returns the index of the first token of the callee that ends
// just before index end+1 (the name chain), for Call.Tok.
func (p *parser) callStart(end int) int {
	i := end
	for i > 0 && (p.toks[i-1].Kind == Op && (p.toks[i-1].Text == "." || p.toks[i-1].Text == "->" || p.toks[i-1].Text == "::")) && i >= 2 && p.toks[i-2].Kind == Name {
		i -= 2
	}
	if i < 0 {
		return 0
	}
	return i
}

// parenless reports a paren-less call of the Ref just read: Ruby, Perl
// and PHP `system "…"`, `puts x`, `unlink $f`, `echo "…"`.
func (p *parser) parenless(t *Token) bool {
	prev := p.toks[p.i-1]
	if prev.Kind != Name || stopWords.Get()[prev.Text] || !t.Space || t.Line != prev.Line {
		return false
	}
	switch p.lang {
	case Ruby, Perl:
	case PHP:
		if prev.Text != "echo" && prev.Text != "print" {
			return false
		}
	default:
		return false
	}
	if p.lang == Perl && first(prev.Text) == '$' || p.lang == Ruby && (first(prev.Text) == '@' || first(prev.Text) == '$') {
		return false
	}
	switch t.Kind {
	case String, Command, Words, Number:
		return true
	case Name:
		if stopWords.Get()[t.Text] {
			return false
		}
		if p.lang == Perl {
			if prev.Text == "open" && (t.Text == "my" || t.Text == "our" || t.Text == "local") {
				return true // open my $fh, …
			}
			_, mode := modeBits.Get()[t.Text]
			return first(t.Text) == '$' || first(t.Text) == '@' || p.isOp(p.peek(1), "(", ",") || strings.Contains(t.Text, "::") || mode
		}
		return true
	case Op:
		return (t.Text == "*" || t.Text == "[" || t.Text == ":" || t.Text == "%" || t.Text == "-") && p.peek(1) != nil && !p.peek(1).Space
	}
	return false
}

// bareArgs reads a paren-less argument list up to the end of the statement.
func (p *parser) bareArgs(line int) []Arg {
	var args []Arg
	for p.i < len(p.toks) && p.spend() {
		t := p.tok()
		if t.Kind == Newline || p.isOp(t, ";", ")", "]", "}", "{") || t.Kind == Name && stopWords.Get()[t.Text] || t.Kind == HoleClose {
			break
		}
		if p.isOp(t, ",") {
			p.i++
			continue
		}
		a, ok := p.element()
		if !ok {
			break
		}
		args = append(args, a...)
		if n := p.tok(); n == nil || !p.isOp(n, ",") {
			break
		}
	}
	return args
}

// member applies `.name` (or -> / ::) to v.
func (p *parser) member(v Value, name string) Value {
	switch v.Kind {
	case Ref:
		q := v.S + "." + name
		switch q {
		case "process.env", "os.environ":
			return Value{Kind: Ref, S: q}
		}
		if v.S == "process.env" {
			return p.envValue(name)
		}
		if len(v.List) > 0 {
			// a command with bound arguments (plumbum git["push"].run):
			// the method keeps them
			return Value{Kind: Unknown, S: "." + name, List: []Value{v}}
		}
		return Value{Kind: Ref, S: q}
	case Obj:
		if e, ok := v.Obj[name]; ok && !p.isOp(p.tok(), "(") {
			return e
		}
	}
	// a method of a value: remembered for the call
	return Value{Kind: Unknown, S: "." + name, List: []Value{v}}
}

// index applies a subscript [k] / {k} (p.i after the opener).
func (p *parser) index(v Value, cl string) Value {
	var k Value
	slice := false
	start := p.i
	if v.Kind == Ref && isCommandRef(p.lang, v.S) && cl == "]" {
		// plumbum cmd["arg", …]: the subscript binds arguments
		bound := append([]Value(nil), v.List...)
		for p.i < len(p.toks) && !p.isOp(p.tok(), "]") && p.spend() {
			if p.isOp(p.tok(), ",") {
				p.i++
				continue
			}
			at := p.i
			bound = append(bound, p.expr())
			if p.i == at {
				p.i++
			}
		}
		p.i++
		return Value{Kind: Ref, S: v.S, List: bound}
	}
	if t := p.tok(); cl == "}" && t != nil && t.Kind == Name && p.isOp(p.peek(1), "}") {
		k = str(t.Text) // $ENV{HOME}: a bareword key
		p.i++
	} else if !p.isOp(p.tok(), ":") {
		k = p.expr()
	}
	if p.isOp(p.tok(), ":") {
		slice = true
		p.i++
		if !p.isOp(p.tok(), cl) {
			p.expr()
		}
	}
	for p.i < len(p.toks) && !p.isOp(p.tok(), cl) && p.spend() {
		p.expr()
		if p.i == start {
			p.i++
		}
		start = p.i
	}
	p.i++
	if v.Kind == Ref {
		switch v.S {
		case "os.environ", "process.env", "ENV", "_ENV", "_SERVER":
			if k.Known() {
				return p.envValue(k.S)
			}
			return unknown()
		}
		if n, ok := p.argvIndex(v.S, k, slice); ok {
			return n
		}
		if k.Known() && isIdentString(k.S) {
			return Value{Kind: Ref, S: v.S + "." + k.S}
		}
		return unknown()
	}
	switch v.Kind {
	case List:
		if k.Kind == Num && !slice {
			i := int(k.N)
			if p.lang == Lua || p.lang == R || p.lang == Julia {
				i--
			}
			if i >= 0 && i < len(v.List) {
				return v.List[i]
			}
		}
		if slice && k.Kind == Num && int(k.N) >= 0 && int(k.N) <= len(v.List) {
			return Value{Kind: List, List: v.List[k.N:]}
		}
	case Obj:
		if k.Known() {
			if e, ok := v.Obj[k.S]; ok {
				return e
			}
		}
	}
	return unknown()
}

// argvIndex evaluates the script's own arguments: sys.argv[N] and
// sys.argv[N:], process.argv[N], $ARGV[N], ARGV[N], $argv[N], arg[N],
// ARGS[N].
func (p *parser) argvIndex(name string, k Value, slice bool) (Value, bool) {
	off := 0
	switch {
	case name == "sys.argv" && p.lang == Python, name == "process.argv" && p.lang == Node, name == "argv" && p.lang == PHP:
		off = 1 // [0] is the interpreter or "-c"
	case name == "ARGV" && (p.lang == Perl || p.lang == Ruby):
	case name == "arg" && p.lang == Lua, name == "ARGS" && p.lang == Julia:
		off = 1 // 1-based
	default:
		return Value{}, false
	}
	if !p.argvKnown || k.Kind != Num {
		return unknown(), true
	}
	i := int(k.N) - off
	if slice {
		if i < 0 {
			i = 0
		}
		if i > len(p.argv) {
			return unknown(), true
		}
		return strList(p.argv[i:]), true
	}
	if i < 0 || i >= len(p.argv) {
		return unknown(), true
	}
	return str(p.argv[i]), true
}

func isIdentString(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) && s[i] != '$' {
			return false
		}
	}
	return true
}

// call records a call of callee with args and returns its value: the
// result of the pure helpers the evaluator knows (path joins, string
// methods, decoders, require), else Unknown carrying the Call.
func (p *parser) call(callee Value, args []Arg, tok, line int) Value {
	c := &Call{Args: args, Tok: tok, End: p.i, Line: line}
	switch {
	case callee.Kind == Ref:
		c.Func = p.qualify(callee.S)
		c.Bound = callee.List
	case p.lang == PHP && callee.Known() && phpFuncName(callee.S):
		// a variable function: `$f = "system"; $f(…)` calls system
		c.Func = callee.S
	case callee.Kind == Unknown && strings.HasPrefix(callee.S, ".") && len(callee.List) == 1:
		recv := callee.List[0]
		if recv.Kind == Ref {
			c.Func = p.qualify(recv.S) + callee.S
			c.Bound = recv.List
		} else {
			c.Func = callee.S
			c.Recv = &recv
		}
	default:
		p.addCall(c)
		return unknown()
	}
	indirect(c)
	v := p.pure(c)
	p.addCall(c)
	if v.Kind == Unknown {
		v.Call = c
	}
	if (c.Func == "open" || c.Func == "sysopen") && (p.lang == Perl || p.lang == PHP) {
		// open(FH, …) / open(my $fh, …) makes FH the handle
		k := tok + 1
		if k < len(p.toks) && p.isOp(&p.toks[k], "(") {
			k++
		}
		if k < len(p.toks) && p.isName(&p.toks[k], "my", "our", "local") {
			k++
		}
		if k < len(p.toks) && p.toks[k].Kind == Name {
			p.assign(varName(p.toks[k].Text), Value{Call: c})
		}
	}
	if p.lang == Ruby {
		// File.open(p, 'a') { |f| … } / do |f| … end: f is the result
		k := p.i
		if k+3 < len(p.toks) && (p.isOp(&p.toks[k], "{") || p.isName(&p.toks[k], "do")) && p.isOp(&p.toks[k+1], "|") && p.toks[k+2].Kind == Name {
			p.assign(p.toks[k+2].Text, v)
		}
	}
	return v
}

// phpFuncName reports a string that names a PHP function (letters,
// digits, '_' and namespace '\\', not starting with a digit).
func phpFuncName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c == '\\' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (p *parser) addCall(c *Call) {
	if p.record && len(p.calls) < maxTokens {
		p.calls = append(p.calls, c)
	}
}

// qualify resolves a name through star imports of bare names.
func (p *parser) qualify(name string) string {
	if strings.IndexByte(name, '.') >= 0 || len(p.stars) == 0 {
		return name
	}
	for _, m := range p.stars {
		if m != "" && knownIn(p.lang, m+"."+name) {
			return m + "." + name
		}
	}
	return name
}

// pure evaluates the calls whose result the guard needs to know.
func (p *parser) pure(c *Call) Value {
	fn := c.Func
	pos := c.Pos()
	arg := argAt(pos)
	if c.Recv != nil {
		return p.method(c, *c.Recv, c.Method(), pos)
	}
	last := c.Method()
	switch fn {
	case "sh.Command", "plumbum.local.get", "plumbum.machines.local.get":
		// sh.Command("rm")(…) / local.get("rm")(…): the named program
		if a := arg(0); a.Known() && a.S != "" && !strings.ContainsAny(a.S, ". ") {
			return Value{Kind: Ref, S: fn[:strings.LastIndexByte(fn, '.')] + "." + a.S}
		}
	case "require", "import", "__import__", "importlib.import_module", "require_relative", "process.getBuiltinModule":
		if a := arg(0); a.Known() {
			if p.lang == Node && (a.S == "shelljs/global" || a.S == "shx/global") {
				// require('shelljs/global'): the commands become globals
				p.stars = append(p.stars, moduleIdent(a.S))
			}
			if p.lang == Node {
				return Value{Kind: Ref, S: moduleIdent(a.S)}
			}
			return Value{Kind: Ref, S: a.S}
		}
	case "getattr":
		if o, n := arg(0), arg(1); o.Kind == Ref && n.Known() {
			return Value{Kind: Ref, S: o.S + "." + n.S}
		}
	case "os.path.join", "posixpath.join", "File.join", "catfile", "File.Spec.catfile",
		"File.Spec.catdir", "joinpath", "file.path", "Path.join", nodePath + "join", nodePath + "resolve", nodePath + "posix.join":
		return joinPath(pos)
	case "Path", "pathlib.Path", "PurePath", "pathlib.PurePath", "PosixPath", "pathlib.PosixPath", "Pathname", "Pathname.new":
		if len(pos) == 0 {
			return Value{Kind: Str, Cwd: true, Path: true}
		}
		v := joinPath(pos)
		if v.Kind == Str {
			v.Path = true
			v.Call = c
		}
		return v
	case "os.path.abspath", "os.path.realpath", "os.path.normpath", nodePath + "normalize", "File.expand_path", "realpath", "abspath", "normalizePath", "os.path.expanduser":
		a := arg(0)
		if a.Kind == Str && (a.S == "." || a.S == "") && a.Env == "" && !a.Cwd {
			return Value{Kind: Str, Cwd: true}
		}
		return a
	case "os.getcwd", "process.cwd", "Path.cwd", "pathlib.Path.cwd", "Dir.pwd", "Dir.getwd", "getcwd", "cwd", "pwd", "getwd", "Cwd.getcwd", "Cwd.cwd", "os.getcwdb":
		return Value{Kind: Str, Cwd: true}
	case "os.getenv", "os.environ.get", "getenv", "ENV.fetch", "Sys.getenv", "process.env.get", "Deno.env.get", "ENV.get":
		if a := arg(0); a.Known() {
			return p.envValue(a.S)
		}
	case "base64.b64decode", "b64decode", "base64.decodebytes", "base64.standard_b64decode", "base64.urlsafe_b64decode",
		"atob", "Base64.decode64", "Base64.strict_decode64", "decode_base64", "MIME.Base64.decode_base64", "base64_decode", "Buffer.from":
		a := arg(0)
		if fn == "Buffer.from" {
			if e := arg(1); !e.Known() || e.S != "base64" {
				return a
			}
		}
		if a.Known() {
			enc := strings.Join(strings.Fields(a.S), "")
			if b, err := base64.StdEncoding.DecodeString(enc); err == nil {
				return str(string(b))
			}
			if b, err := base64.URLEncoding.DecodeString(enc); err == nil {
				return str(string(b))
			}
			if b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(enc, "=")); err == nil {
				return str(string(b))
			}
		}
	case "shlex.split":
		if a := arg(0); a.Known() {
			return strList(splitWords(a.S))
		}
	case "str", "String", "string", "bytes", "strval", "tostring", "as.character", "String.new":
		if len(pos) == 1 && pos[0].Kind == Str {
			return pos[0]
		}
		if p.lang == Julia && len(pos) > 0 {
			out := str("")
			for _, a := range pos {
				out = concat(out, a)
			}
			return out
		}
	case "sprintf", "format", "string.format", "Kernel.format", "Kernel.sprintf", "util.format", "gettextf", "@sprintf":
		if a := arg(0); a.Kind == Str {
			return printf(a.S, pos[1:])
		}
	case "join", "implode":
		if p.lang == Perl || p.lang == PHP {
			if len(pos) >= 2 && pos[0].Known() {
				var items []Value
				for _, e := range pos[1:] {
					if e.Kind == List {
						items = append(items, e.List...)
					} else {
						items = append(items, e)
					}
				}
				return joinValues(items, pos[0].S)
			}
		}
		if p.lang == Julia && len(pos) >= 1 && pos[0].Kind == List {
			sep := ""
			if len(pos) > 1 && pos[1].Known() {
				sep = pos[1].S
			}
			return joinValues(pos[0].List, sep)
		}
	case "table.concat":
		if len(pos) >= 1 && pos[0].Kind == Obj || len(pos) >= 1 && pos[0].Kind == List {
			sep := ""
			if len(pos) > 1 && pos[1].Known() {
				sep = pos[1].S
			}
			return joinValues(pos[0].List, sep)
		}
	case "paste", "paste0":
		sep := " "
		if fn == "paste0" {
			sep = ""
		}
		if s, ok := c.Kw("sep"); ok && s.Known() {
			sep = s.S
		}
		return joinValues(flatten(pos), sep)
	case "c", "list", "array", "vector", "Array":
		if p.lang == R || p.lang == PHP || fn == "Array" {
			return listOf(c.Args)
		}
	case "Cmd":
		if p.lang == Julia {
			if ss, ok := arg(0).Strings(); ok {
				v := str(strings.Join(ss, " "))
				v.Cmd = true
				v.List = strList(ss).List
				return v
			}
		}
	}
	if fn == "process.argv.slice" {
		if !p.argvKnown {
			return unknown()
		}
		if a := arg(0); a.Kind == Num && int(a.N) >= 1 && int(a.N)-1 <= len(p.argv) {
			return strList(p.argv[a.N-1:])
		}
	}
	if p.lang == Julia && fn == "Base.Cmd" {
		return p.pure(&Call{Func: "Cmd", Args: c.Args})
	}
	_ = last
	return unknown()
}

func flatten(vs []Value) []Value {
	var out []Value
	for _, v := range vs {
		if v.Kind == List {
			out = append(out, v.List...)
		} else {
			out = append(out, v)
		}
	}
	return out
}

func joinValues(items []Value, sep string) Value {
	out := str("")
	for i, it := range items {
		if i > 0 {
			out = concat(out, str(sep))
		}
		if it.Kind == Num {
			it = str(itoa(it.N))
		}
		out = concat(out, it)
	}
	return out
}

// argAt returns the positional arguments pos as a function of the index,
// Unknown past the end.
func argAt(pos []Value) func(int) Value {
	return func(i int) Value {
		if i < len(pos) {
			return pos[i]
		}
		return unknown()
	}
}

// method evaluates a method called on a value.
func (p *parser) method(c *Call, recv Value, name string, pos []Value) Value {
	arg := argAt(pos)
	switch recv.Kind {
	case Str:
		switch name {
		case "format":
			kw := map[string]Value{}
			for _, a := range c.Args {
				if a.Key != "" {
					kw[a.Key] = a.V
				}
			}
			return pyFormat(recv.S, pos, kw)
		case "join":
			if a := arg(0); a.Kind == List {
				return joinValues(a.List, recv.S)
			}
		case "split":
			if recv.Known() {
				if a := arg(0); a.Known() && a.S != " " && a.S != "" {
					return strList(strings.Split(recv.S, a.S))
				}
				return strList(strings.Fields(recv.S))
			}
		case "strip", "trim", "chomp", "rstrip", "lstrip", "trimEnd", "trimStart", "toString", "decode", "encode", "to_s", "dup", "freeze", "resolve", "absolute", "expanduser", "as_posix":
			if name == "resolve" || name == "absolute" {
				if recv.S == "." || recv.S == "" {
					return Value{Kind: Str, Cwd: true, Path: recv.Path}
				}
			}
			if name == "strip" || name == "trim" || name == "chomp" {
				if recv.Known() {
					return str(strings.TrimSpace(recv.S))
				}
			}
			return recv
		case "concat":
			out := recv
			for _, a := range pos {
				out = concat(out, a)
			}
			return out
		case "joinpath", "join_path":
			if recv.Path {
				v := joinPath(append([]Value{recv}, pos...))
				v.Path = true
				return v
			}
		case "cwd":
			if recv.Path {
				return Value{Kind: Str, Cwd: true, Path: true}
			}
		case "parent":
		}
	case List:
		switch name {
		case "join":
			sep := ","
			if p.lang == Ruby {
				sep = ""
			}
			if a := arg(0); a.Known() {
				sep = a.S
			}
			return joinValues(recv.List, sep)
		case "slice":
			if a := arg(0); a.Kind == Num && int(a.N) >= 0 && int(a.N) <= len(recv.List) {
				return Value{Kind: List, List: recv.List[a.N:]}
			}
		}
	case Ref:
	}
	if recv.Kind == Ref && recv.S == "process.argv" && name == "slice" {
		if !p.argvKnown {
			return unknown()
		}
		if a := arg(0); a.Kind == Num && int(a.N) >= 1 && int(a.N)-1 <= len(p.argv) {
			return strList(p.argv[a.N-1:])
		}
	}
	return unknown()
}

// first returns the first byte of s, 0 when empty.
func first(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

// indirect rewrites a call made through a dispatcher into the call it
// makes: Ruby `obj.send(:name, …)` / public_send / __send__ and PHP
// call_user_func('name', …) / call_user_func_array('name', [...]).
func indirect(c *Call) {
	m := c.Method()
	pos := c.Pos()
	if len(pos) == 0 || !pos[0].Known() || !isIdentString(pos[0].S) {
		return
	}
	name := pos[0].S
	rest := c.Args[1:]
	switch {
	case c.Recv == nil && (m == "send" || m == "public_send" || m == "__send__") && c.Func != m:
		c.Func = strings.TrimSuffix(c.Func, m) + name
	case c.Recv == nil && (m == "send" || m == "public_send" || m == "__send__"):
		c.Func = name
	case c.Func == "call_user_func":
		c.Func = name
	case c.Func == "call_user_func_array" && len(pos) > 1 && pos[1].Kind == List:
		c.Func = name
		rest = nil
		for _, e := range pos[1].List {
			rest = append(rest, Arg{V: e})
		}
	default:
		return
	}
	c.Args = append([]Arg(nil), rest...)
}
