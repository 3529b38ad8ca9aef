package shell

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// field is one word under construction during expansion.
type field struct {
	val    string
	known  bool
	unkEnd int  // offset in val just after the last unknown part; 0 when none
	quoted bool // some part was quoted (an empty quoted word stays a field)
	raw    string
	// proc is the literal output of a lone process substitution `<(…)`;
	// procPart the known pieces of it when the whole is unknown (walker.part).
	proc, procPart *string
	// sink is the process of a lone output process substitution `>(…)`:
	// what a program writes to the path is its stdin (sinks.go).
	sink *sink
	// listing is set when a command substitution in the word is a listing producer.
	listing *Listing
	started bool
	// aliasable is set on the first word of a simple command in the source
	// text when bash would look it up as an alias: an unquoted literal with
	// no backslash (`\x`, `'x'`, `$x` and a wrapper's operand never are).
	aliasable bool
}

func (fl *field) word() Word {
	return Word{Value: fl.val, Known: fl.known, Raw: fl.raw}
}

// maxBraceWords bounds the words one brace expansion may make
// (`for i in {1..1000}` stays within; `{a,b}` ×40 does not).
const maxBraceWords = 4096

// baseStart is where the last path segment of the value starts.
func (fl *field) nameKnown() (string, bool) {
	v := fl.val
	if fl.known {
		return v, true
	}
	i := strings.LastIndexByte(v, '/')
	if i >= 0 && i+1 >= fl.unkEnd {
		return v[i+1:], true
	}
	return v, false
}

type expander struct {
	w      *walker
	f      *frame
	st     *state
	fields []field
	cur    *field
	raw    string
	// nosplit: no field splitting (assignment values, redirection targets),
	// but unquoted parts keep their unquoted meaning.
	nosplit bool
	// unkMask, set by lookup for `${a[@]}` of an array with unknown
	// elements, marks which of the values are unknown (consumed by param).
	unkMask []bool
	// b owns the work budget expanded text is charged to (the walker, also
	// when w is nil because substitutions must not be walked twice).
	b *walker
}

// charge spends n bytes of expanded text (parameter values, replacement
// results) from the walker's budget before the text is built; false when
// the budget is exhausted (Result.Overflow is then set and the caller
// leaves the part unknown instead of building it).
func (e *expander) charge(n int) bool {
	if e.b == nil {
		return true
	}
	return e.b.spend(n)
}

func (e *expander) ensure() *field {
	if e.cur == nil {
		e.fields = append(e.fields, field{known: true, raw: e.raw})
		e.cur = &e.fields[len(e.fields)-1]
	}
	e.cur.started = true
	return e.cur
}

func (e *expander) lit(s string, quoted bool) {
	fl := e.ensure()
	fl.val += s
	if quoted {
		fl.quoted = true
	}
}

func (e *expander) unknown(quoted bool) {
	fl := e.ensure()
	fl.known = false
	fl.unkEnd = len(fl.val)
	if quoted {
		fl.quoted = true
	}
}

// split adds unquoted expansion text, splitting it on IFS white space.
func (e *expander) split(s string) {
	if e.nosplit {
		e.lit(s, false)
		return
	}
	sep := isIFS
	if v, ok := e.st.vars["IFS"]; ok && v.known && v.val != " \t\n" {
		ifs := v.val
		sep = func(b byte) bool { return strings.IndexByte(ifs, b) >= 0 }
	}
	i := 0
	for i < len(s) {
		if sep(s[i]) {
			for i < len(s) && sep(s[i]) {
				i++
			}
			e.cur = nil
			continue
		}
		j := i
		for j < len(s) && !sep(s[j]) {
			j++
		}
		e.lit(s[i:j], false)
		i = j
	}
}

func isIFS(b byte) bool { return b == ' ' || b == '\t' || b == '\n' }

// expandWord expands one word into fields (brace expansion, quote removal,
// escapes, literal variables, literal command substitutions, IFS splitting)
// and walks every substitution in it.
func (w *walker) expandWord(f *frame, st *state, word *syntax.Word) []field {
	if word == nil {
		return nil
	}
	raw := w.raw(f, word)
	if len(word.Parts) == 1 {
		// fast path: a plain literal word
		if l, ok := word.Parts[0].(*syntax.Lit); ok && strings.IndexByte(l.Value, '\\') < 0 && strings.IndexByte(l.Value, '{') < 0 && !strings.HasPrefix(l.Value, "~") {
			if l.Value == "" {
				return nil
			}
			return []field{{val: l.Value, known: true, raw: raw, started: true}}
		}
	}
	words := []*syntax.Word{word}
	if hasBrace(word) {
		cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
		if syntax.SplitBraces(cp) {
			words = words[:0]
			n := 0
			for bw, err := range expand.BracesSeq(nil, cp) {
				if err != nil {
					break
				}
				if n >= maxBraceWords {
					// words past the bound would go unseen (`rm -rf
					// {x,…,/}`): the command is too complex to judge
					w.overflow(fmt.Sprintf("a brace expansion makes more than %d words", maxBraceWords))
					break
				}
				n++
				if !w.spend(len(raw) + 8) {
					break
				}
				words = append(words, bw)
			}
			if len(words) == 0 {
				words = []*syntax.Word{word}
			} else {
				// substitutions are walked once, from the original word
				e := &expander{w: w, f: f, st: st, raw: raw, b: w}
				e.parts(word.Parts, false)
				var out []field
				for _, bw := range words {
					e2 := &expander{w: nil, f: f, st: st, raw: raw, b: w}
					e2.parts(bw.Parts, false)
					out = append(out, e2.done()...)
				}
				return out
			}
		}
	}
	e := &expander{w: w, f: f, st: st, raw: raw, b: w}
	e.parts(word.Parts, false)
	return e.done()
}

func (e *expander) done() []field {
	out := e.fields[:0]
	for _, fl := range e.fields {
		if len(fl.val) == 0 && !fl.quoted && fl.known && fl.proc == nil {
			continue
		}
		out = append(out, fl)
	}
	return out
}

func hasBrace(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 && strings.IndexByte(l.Value, '}') >= 0 {
			return true
		}
	}
	return false
}

// singleWord expands a word without field splitting (assignment values,
// redirection targets, heredoc delimiters).
func (w *walker) singleWord(f *frame, st *state, word *syntax.Word, _ bool) Word {
	if word == nil {
		return Word{Known: true}
	}
	e := &expander{w: w, f: f, st: st, raw: w.raw(f, word), nosplit: true, b: w}
	e.parts(word.Parts, false)
	if len(e.fields) == 0 {
		return Word{Known: true, Raw: e.raw}
	}
	var b strings.Builder
	known := true
	for i, fl := range e.fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fl.val)
		if !fl.known {
			known = false
		}
	}
	return Word{Value: b.String(), Known: known, Raw: e.raw}
}

// parts expands word parts; quoted means inside double quotes (no splitting).
func (e *expander) parts(parts []syntax.WordPart, quoted bool) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if quoted {
				e.lit(unescapeDquote(p.Value), true)
			} else if d, rest, ok := e.tildeDir(p.Value); ok {
				e.lit(d, true)
				e.lit(unescapeUnquoted(rest), false)
			} else {
				e.lit(unescapeUnquoted(p.Value), false)
			}
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				v = ansiC(v)
			}
			e.lit(v, true)
		case *syntax.DblQuoted:
			e.ensure().quoted = true
			e.parts(p.Parts, true)
		case *syntax.ParamExp:
			e.param(p, quoted)
		case *syntax.CmdSubst:
			var out *string
			var lst *Listing
			if e.w != nil {
				out, lst = e.w.substitution(e.f, e.st, p)
			}
			if out != nil {
				v := strings.TrimRight(*out, "\n")
				if quoted {
					e.lit(v, true)
				} else {
					e.split(v)
				}
			} else {
				e.unknown(quoted)
			}
			if lst != nil {
				e.ensure().listing = lst
			}
		case *syntax.ProcSubst:
			var out *string
			if e.w != nil {
				nf := e.f.child("<( )")
				e.w.lastListing = nil
				out = e.w.stmts(nf, e.st.captured(), p.Stmts, ioCtx{})
			}
			fl := e.ensure()
			fl.val += "/dev/fd/63"
			fl.proc = out
			if p.Op == syntax.CmdOut {
				fl.proc = nil
				fl.sink = &sink{f: e.f, stmts: p.Stmts, via: ">( )"}
			}
			if out == nil && e.w != nil {
				fl.procPart = e.w.part
			}
			if e.w != nil {
				// a word that keeps only the path (`BASH_ENV=<(…)`, an
				// option value) reads the latest substitution's output
				e.w.lastProc, e.w.hasProc = out, true
			}
		case *syntax.ArithmExp:
			if e.w != nil {
				nf := e.f.child("$(( ))")
				e.w.generic(nf, e.st, p.X)
				e.w.arithNode(nf, e.st, p.X)
			}
			if n, ok := arithConst(p.X); ok {
				// `$((777))`, `$((0x1ff))`: a literal's value
				e.lit(strconv.FormatInt(n, 10), quoted)
				continue
			}
			e.unknown(quoted)
		case *syntax.ExtGlob:
			e.lit(p.Op.String()+p.Pattern.Value+")", quoted)
		case *syntax.BraceExp:
			e.lit("{", quoted)
			for i, el := range p.Elems {
				if i > 0 {
					if p.Sequence {
						e.lit("..", quoted)
					} else {
						e.lit(",", quoted)
					}
				}
				e.parts(el.Parts, quoted)
			}
			e.lit("}", quoted)
		default:
			e.unknown(quoted)
		}
	}
}

func (e *expander) param(p *syntax.ParamExp, quoted bool) {
	// walk substitutions nested in the expansion's operands
	if e.w != nil {
		if p.Exp != nil && p.Exp.Word != nil {
			e.w.expandWord(e.f, e.st, p.Exp.Word)
		}
		if p.Repl != nil {
			if p.Repl.Orig != nil {
				e.w.expandWord(e.f, e.st, p.Repl.Orig)
			}
			if p.Repl.With != nil {
				e.w.expandWord(e.f, e.st, p.Repl.With)
			}
		}
		if p.Index != nil {
			e.w.generic(e.f, e.st, p.Index)
			if p.Param != nil && e.st.indexed(p.Param.Value) && !isAll(p.Index) {
				e.w.arithNode(e.f, e.st, p.Index)
			}
		}
		if p.Slice != nil {
			if p.Slice.Offset != nil { // ${x::N} has none: it starts at 0
				e.w.generic(e.f, e.st, p.Slice.Offset)
				e.w.arithNode(e.f, e.st, p.Slice.Offset)
			}
			if p.Slice.Length != nil {
				e.w.generic(e.f, e.st, p.Slice.Length)
				e.w.arithNode(e.f, e.st, p.Slice.Length)
			}
		}
	}
	if p.Param == nil || (p.Excl && (p.Names != 0 || p.Index != nil)) || p.Length || p.Names != 0 || p.Width || p.IsSet {
		e.unknown(quoted)
		return
	}
	name := p.Param.Value
	if p.Excl && p.Names == 0 && p.Index == nil {
		// ${!ref}: indirection through a known variable
		ref, ok := e.lookup(name, nil)
		if !ok || len(ref) != 1 || ref[0] == "" {
			e.unknown(quoted)
			return
		}
		name = ref[0]
	}
	if e.w != nil {
		// a reference to an array element, by ${!ref} or by a nameref
		// (declare -n r='a[SUB]'), expands and evaluates SUB each time it
		// is expanded (bash 5.2: x='a[$(touch m)]'; echo ${!x} made m)
		if r := e.st.vars[name].ref; r != "" {
			e.w.arithName(e.f, e.st, r)
		} else if strings.IndexByte(name, '[') > 0 {
			e.w.arithName(e.f, e.st, name)
		}
	}
	if name == "IFS" && p.Exp == nil && p.Index == nil && p.Slice == nil && p.Repl == nil {
		if quoted || e.nosplit {
			e.lit(" ", true)
		} else {
			e.cur = nil
		}
		return
	}
	e.unkMask = nil
	vals, ok := e.lookup(name, p.Index)
	mask := e.unkMask
	e.unkMask = nil
	if !ok && p.Exp != nil && p.Exp.Word != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			// the variable is not set in this command: its default is what
			// the shell uses (unless the environment sets it).
			sub := &expander{f: e.f, st: e.st, nosplit: true, b: e.b}
			sub.parts(p.Exp.Word.Parts, false)
			if len(sub.fields) <= 1 && (len(sub.fields) == 0 || sub.fields[0].known) {
				v := ""
				if len(sub.fields) == 1 {
					v = sub.fields[0].val
				}
				vals, ok = []string{v}, true
			}
		}
		if p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull {
			// `: ${SU:=sudo}` assigns the default: later `$SU` is it
			e.assignDefault(name, p.Index, vals, ok)
		}
	} else if ok && p.Exp != nil {
		if p.Exp.Op == syntax.AssignUnsetOrNull && len(vals) == 1 && vals[0] == "" {
			v, known := e.literalOperand(p.Exp.Word)
			e.assignDefault(name, p.Index, []string{v}, known)
		}
		vals, ok = e.applyOp(vals, p.Exp)
		mask = nil
	}
	if p.Slice != nil && p.Index == nil && (name == "@" || name == "*") && ok {
		// `${@:2}` slices the positional parameters, $0 being offset 0
		vals = append([]string{e.st.arg0}, vals...)
		vals, ok = applySlice(vals, p.Slice, true)
		p = &syntax.ParamExp{Param: p.Param, Repl: p.Repl}
	}
	if !ok && p.Slice != nil && p.Slice.Length != nil && p.Index == nil && p.Exp == nil && name != "@" && name != "*" {
		// `${PATH:0:0}`: a substring of length 0 is empty whatever the value
		if n, lit := arithLit(p.Slice.Length); lit && n == 0 {
			vals, ok, mask = []string{""}, true, nil
			p = &syntax.ParamExp{Param: p.Param, Repl: p.Repl}
		}
	}
	if mask != nil && (p.Slice != nil || p.Repl != nil) {
		ok = false
	}
	if ok && p.Slice != nil {
		vals, ok = applySlice(vals, p.Slice, p.Index != nil && isAll(p.Index))
	}
	if ok && p.Repl != nil {
		vals, ok = e.applyRepl(vals, p.Repl)
	}
	if ok {
		// the value is copied into the word: charge it before building
		// (`x=…; echo $x$x$x…`, doubling assignments in loops)
		n := 0
		for _, v := range vals {
			n += len(v) + 1
		}
		ok = e.charge(n)
	}
	if !ok {
		e.unknown(quoted)
		return
	}
	all := p.Index != nil && isAll(p.Index) || name == "@" || name == "*"
	for i, v := range vals {
		if i > 0 {
			if quoted && all && (name == "@" || isAt(p.Index)) {
				e.cur = nil
				e.ensure().quoted = true
			} else if quoted || e.nosplit {
				e.lit(" ", true)
			} else {
				e.cur = nil
			}
		}
		switch {
		case i < len(mask) && mask[i]:
			e.unknown(quoted)
		case quoted:
			e.lit(v, true)
		default:
			e.split(v)
		}
	}
}

// assignDefault sets a plain variable to the default `${NAME:=WORD}`
// assigns (unknown when the default is not literal).
func (e *expander) assignDefault(name string, idx syntax.ArithmExpr, vals []string, known bool) {
	if e.w == nil || idx != nil || len(name) == 0 || name[0] >= '0' && name[0] <= '9' || name == "@" || name == "*" {
		return
	}
	if !known || len(vals) != 1 {
		e.st.unsetVar(name)
		return
	}
	e.st.setVar(name, varVal{val: vals[0], known: true})
}

func isAll(idx syntax.ArithmExpr) bool {
	if w, ok := idx.(*syntax.Word); ok {
		l := w.Lit()
		return l == "@" || l == "*"
	}
	return false
}

func isAt(idx syntax.ArithmExpr) bool {
	if w, ok := idx.(*syntax.Word); ok {
		return w.Lit() == "@"
	}
	return false
}

// lookup returns the literal value(s) of a parameter: a variable, an array
// element or all elements, or a positional parameter.
func (e *expander) lookup(name string, idx syntax.ArithmExpr) ([]string, bool) {
	if name == "" {
		return nil, false
	}
	switch name {
	case "@", "*":
		if e.st.argsKnown {
			return e.st.args, true
		}
		return nil, false
	case "0":
		if e.st.argsKnown {
			return []string{e.st.arg0}, true
		}
		return nil, false
	case "BASH_ALIASES", "BASH_CMDS":
		// bash's tables: ${BASH_ALIASES[NAME]} is the alias text,
		// ${BASH_CMDS[NAME]} the program hash -p bound NAME to
		if w, isWord := idx.(*syntax.Word); isWord {
			if key, ok := literalWord(w); ok {
				if name == "BASH_CMDS" {
					if p, set := e.st.hashed[key]; set {
						return []string{p}, true
					}
				} else if a, set := e.st.aliases[key]; set {
					return []string{a.val}, true
				}
			}
		}
	case "FUNCNAME":
		// inside a function body, $FUNCNAME / ${FUNCNAME[0]} is its name
		// (`f(){ $FUNCNAME & }` calls itself, §2.4 forkbomb)
		if e.f != nil && e.f.fn != "" && (idx == nil || isZero(idx)) {
			return []string{e.f.fn}, true
		}
	}
	if name[0] >= '1' && name[0] <= '9' {
		n, err := strconv.Atoi(name)
		if err != nil || !e.st.argsKnown {
			return nil, false
		}
		if n-1 < len(e.st.args) {
			return []string{e.st.args[n-1]}, true
		}
		return []string{""}, true
	}
	v, ok := e.st.vars[name]
	for hops := 0; ok && v.ref != "" && hops < 8; hops++ {
		// a nameref stands for the variable it names
		name = v.ref
		v, ok = e.st.vars[name]
	}
	if !ok && (name == "PWD" || name == "OLDPWD") {
		return e.dirVar(name)
	}
	if !ok && name == "IFS" {
		v, ok = varVal{val: " \t\n", known: true}, true
	}
	if !ok || v.ref != "" || !v.known && !v.isArr {
		return nil, false
	}
	if v.isAssoc {
		if idx == nil {
			return []string{v.assoc["0"]}, true
		}
		if isAll(idx) {
			keys := make([]string, 0, len(v.assoc))
			for k := range v.assoc {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			out := make([]string, len(keys))
			for i, k := range keys {
				out[i] = v.assoc[k]
			}
			return out, true
		}
		w, isWord := idx.(*syntax.Word)
		if !isWord {
			return nil, false
		}
		key, ok := literalWord(w)
		if !ok {
			return nil, false
		}
		val, set := v.assoc[key]
		return []string{val}, set
	}
	if idx == nil {
		if !v.known {
			return nil, false
		}
		return []string{v.val}, true
	}
	if isAll(idx) {
		if v.isArr {
			if v.unk != nil {
				// some elements are not known: the caller marks them
				e.unkMask = v.unk
			}
			return v.arr, true
		}
		return []string{v.val}, v.known
	}
	// an indexed array's subscript is arithmetic: `${a[-1]}` (from the
	// end), `${a[1-2]}`, `${a[0x1]}`
	n64, lit := arithConst(idx)
	if !lit || n64 < -(1<<31) || n64 > 1<<31 {
		return nil, false
	}
	n := int(n64)
	if !v.isArr {
		if n == 0 {
			return []string{v.val}, v.known
		}
		return []string{""}, true
	}
	if n < 0 {
		n += len(v.arr)
	}
	if n >= 0 && n < len(v.arr) {
		return []string{v.arr[n]}, v.unk == nil || !v.unk[n]
	}
	return []string{""}, true
}

// literalOperand expands an operator's word when it is fully literal.
func (e *expander) literalOperand(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	sub := &expander{f: e.f, st: e.st, nosplit: true, b: e.b}
	sub.parts(w.Parts, false)
	if len(sub.fields) == 0 {
		return "", true
	}
	if len(sub.fields) != 1 || !sub.fields[0].known {
		return "", false
	}
	return sub.fields[0].val, true
}

func (e *expander) applyOp(vals []string, exp *syntax.Expansion) ([]string, bool) {
	arg, ok := e.literalOperand(exp.Word)
	if !ok {
		return nil, false
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		switch exp.Op {
		case syntax.DefaultUnset, syntax.AssignUnset, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			out[i] = v
		case syntax.DefaultUnsetOrNull, syntax.AssignUnsetOrNull:
			if v == "" {
				v = arg
			}
			out[i] = v
		case syntax.AlternateUnset:
			out[i] = arg
		case syntax.AlternateUnsetOrNull:
			if v != "" {
				out[i] = arg
			}
		case syntax.OtherParamOps:
			switch arg {
			case "Q":
				// the value quoted for reuse as shell input
				out[i] = "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
			case "E":
				out[i] = ansiC(v)
			case "P":
				// prompt expansion: the guard knows no prompt escapes' values;
				// plain text stays itself
				if e.w != nil {
					// its command substitutions run (`x='$(rm -rf b)'; : ${x@P}`)
					e.w.promptText(e.f.child("${ @P}"), e.st, v)
				}
				if strings.ContainsRune(v, '\\') {
					return nil, false
				}
				out[i] = v
			case "U":
				out[i] = strings.ToUpper(v)
			case "L":
				out[i] = strings.ToLower(v)
			case "u":
				if v != "" {
					out[i] = strings.ToUpper(v[:1]) + v[1:]
				}
			default:
				return nil, false
			}
		case syntax.UpperAll:
			out[i] = strings.ToUpper(v)
		case syntax.LowerAll:
			out[i] = strings.ToLower(v)
		case syntax.UpperFirst:
			if v != "" {
				out[i] = strings.ToUpper(v[:1]) + v[1:]
			}
		case syntax.LowerFirst:
			if v != "" {
				out[i] = strings.ToLower(v[:1]) + v[1:]
			}
		case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			if strings.ContainsAny(arg, "*?[") {
				return nil, false
			}
			if exp.Op == syntax.RemSmallPrefix || exp.Op == syntax.RemLargePrefix {
				out[i] = strings.TrimPrefix(v, arg)
			} else {
				out[i] = strings.TrimSuffix(v, arg)
			}
		default:
			return nil, false
		}
	}
	return out, true
}

func (e *expander) applyRepl(vals []string, r *syntax.Replace) ([]string, bool) {
	orig, ok1 := e.literalOperand(r.Orig)
	with, ok2 := e.literalOperand(r.With)
	// `${v/#P/R}` replaces P only at the start, `${v/%P/R}` only at the
	// end; the anchor is an unquoted first # or % of a single-slash
	// pattern (`${v//#P/R}`, `${v/"#P"/R}`, `${v/\#P/R}` match a literal #,
	// checked with bash 5.2)
	var anchor byte
	if !r.All && r.Orig != nil && len(r.Orig.Parts) > 0 {
		if l, isLit := r.Orig.Parts[0].(*syntax.Lit); isLit && l.Value != "" && (l.Value[0] == '#' || l.Value[0] == '%') {
			anchor, orig = l.Value[0], orig[1:]
		}
	}
	if !ok1 || !ok2 || strings.ContainsAny(orig, "*?[") || orig == "" && anchor == 0 {
		return nil, false
	}
	// size the result before building it: ${x//a/$x} squares the length
	grow := max(len(with)-len(orig), 0)
	for _, v := range vals {
		k := 1
		if r.All {
			k = strings.Count(v, orig)
		}
		if k > 0 && grow > (1<<40)/k {
			e.charge(1 << 40)
			return nil, false
		}
		if !e.charge(len(v) + k*grow) {
			return nil, false
		}
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		switch {
		case anchor == '#':
			out[i] = v
			if strings.HasPrefix(v, orig) {
				out[i] = with + v[len(orig):]
			}
		case anchor == '%':
			out[i] = v
			if strings.HasSuffix(v, orig) {
				out[i] = v[:len(v)-len(orig)] + with
			}
		case r.All:
			out[i] = strings.ReplaceAll(v, orig, with)
		default:
			out[i] = strings.Replace(v, orig, with, 1)
		}
	}
	return out, true
}

// arithConst is the value of a literal arithmetic expression as bash
// reads it (0NNN octal, 0xNN hex, unary minus, parentheses, + - * of
// literals); ok is false for anything else.
func arithConst(x syntax.ArithmExpr) (int64, bool) {
	switch x := x.(type) {
	case *syntax.Word:
		lit := strings.TrimSpace(x.Lit())
		if lit == "" {
			return 0, false
		}
		n, err := strconv.ParseInt(lit, 0, 64)
		return n, err == nil
	case *syntax.UnaryArithm:
		if n, ok := arithConst(x.X); ok && x.Op == syntax.Minus {
			return -n, true
		}
	case *syntax.ParenArithm:
		return arithConst(x.X)
	case *syntax.BinaryArithm:
		a, ok1 := arithConst(x.X)
		b, ok2 := arithConst(x.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch x.Op {
		case syntax.Add:
			return a + b, true
		case syntax.Sub:
			return a - b, true
		case syntax.Mul:
			return a * b, true
		}
	}
	return 0, false
}

func arithLit(x syntax.ArithmExpr) (int, bool) {
	if x == nil {
		return 0, false
	}
	switch x := x.(type) {
	case *syntax.Word:
		n, err := strconv.Atoi(strings.TrimSpace(x.Lit()))
		return n, err == nil
	case *syntax.UnaryArithm:
		if x.Op == syntax.Minus {
			n, ok := arithLit(x.X)
			return -n, ok
		}
	case *syntax.ParenArithm:
		return arithLit(x.X)
	}
	return 0, false
}

func applySlice(vals []string, sl *syntax.Slice, array bool) ([]string, bool) {
	off, ok := 0, true // ${x::N}: no offset is 0
	if sl.Offset != nil {
		off, ok = arithLit(sl.Offset)
	}
	if !ok {
		return nil, false
	}
	length, hasLen := 0, sl.Length != nil
	if hasLen {
		if length, ok = arithLit(sl.Length); !ok {
			return nil, false
		}
	}
	if array {
		if off < 0 {
			off += len(vals)
		}
		if off < 0 || off > len(vals) {
			return []string{}, true
		}
		end := len(vals)
		if hasLen && length >= 0 && off+length < end {
			end = off + length
		}
		return vals[off:end], true
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		r := []rune(v)
		o := off
		if o < 0 {
			o += len(r)
		}
		if o < 0 || o > len(r) {
			out[i] = ""
			continue
		}
		end := len(r)
		if hasLen {
			if length >= 0 {
				if o+length < end {
					end = o + length
				}
			} else {
				end = len(r) + length
			}
		}
		if end < o {
			end = o
		}
		out[i] = string(r[o:end])
	}
	return out, true
}

// unescapeUnquoted removes backslash escapes and line continuations from an
// unquoted literal (testdata/corpus/README.md §2.2).
func unescapeUnquoted(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
			b = append(b, s[i])
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// unescapeDquote handles backslashes inside double quotes: only \$ \` \" \\
// and \newline are escapes.
func unescapeDquote(s string) string { return unescapeOnly(s, "$`\"\\") }

// unescapeHeredoc handles backslashes in an unquoted heredoc body: only \$
// \` \\ and \newline are escapes (a \" stays as it is).
func unescapeHeredoc(s string) string { return unescapeOnly(s, "$`\\") }

// unescapeOnly removes the backslash before the bytes of escapable and
// drops backslash-newline; every other backslash stays.
func unescapeOnly(s, escapable string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			if n := s[i+1]; n == '\n' {
				i++
				continue
			} else if strings.IndexByte(escapable, n) >= 0 {
				b = append(b, n)
				i++
				continue
			}
		}
		b = append(b, c)
	}
	return string(b)
}

// ansiC decodes the body of a $'…' string.
func ansiC(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j > i+1 {
				n, _ := strconv.ParseUint(s[i+1:j], 16, 8)
				b.WriteByte(byte(n))
				i = j - 1
			} else {
				b.WriteString("\\x")
			}
		case 'u', 'U':
			max := 4
			if s[i] == 'U' {
				max = 8
			}
			j := i + 1
			for j < len(s) && j < i+1+max && isHex(s[j]) {
				j++
			}
			if j > i+1 {
				n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
				var buf [4]byte
				k := utf8.EncodeRune(buf[:], rune(n))
				b.Write(buf[:k])
				i = j - 1
			} else {
				b.WriteByte('\\')
				b.WriteByte(s[i])
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		case 'c':
			if i+1 < len(s) {
				b.WriteByte(s[i+1] & 0x1f)
				i++
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// heredoc expands a heredoc body: literal when the delimiter was quoted (the
// parser then gives one Lit), otherwise parameters and substitutions run.
func (w *walker) heredoc(f *frame, st *state, body *syntax.Word) string {
	var b strings.Builder
	for _, p := range body.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if len(body.Parts) == 1 {
				// could be quoted or unquoted; unescaping a quoted body would be
				// wrong only for backslashes, which do not change commands much.
				b.WriteString(p.Value)
			} else {
				b.WriteString(unescapeHeredoc(p.Value))
			}
		default:
			e := &expander{w: w, f: f, st: st, b: w}
			e.parts([]syntax.WordPart{p}, true)
			for _, fl := range e.fields {
				b.WriteString(fl.val)
			}
		}
	}
	return b.String()
}

// isZero reports the literal array index 0.
func isZero(idx syntax.ArithmExpr) bool {
	w, ok := idx.(*syntax.Word)
	return ok && w.Lit() == "0"
}

// tildeDir expands `~+` ($PWD) and `~-` ($OLDPWD) at the start of a word
// (lit is its first part, unquoted) when the directory is known: the rest
// of lit and true, else false (the word keeps its text).
func (e *expander) tildeDir(lit string) (string, string, bool) {
	if e.cur != nil || len(e.fields) > 0 || len(lit) < 2 || lit[0] != '~' || lit[1] != '+' && lit[1] != '-' || len(lit) > 2 && lit[2] != '/' {
		return "", "", false
	}
	name := "PWD"
	if lit[1] == '-' {
		name = "OLDPWD"
	}
	vs, ok := e.lookup(name, nil)
	if !ok || len(vs) != 1 || !strings.HasPrefix(vs[0], "/") {
		return "", "", false
	}
	return vs[0], lit[2:], true
}
