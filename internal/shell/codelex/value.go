package codelex

import (
	"strconv"
	"strings"
)

// VKind is the class of a Value.
type VKind uint8

// Value kinds.
const (
	// Unknown is a value the evaluator cannot know (a computed result, an
	// unassigned name).
	Unknown VKind = iota
	// Str is a string; Env and Cwd say what it starts with.
	Str
	// List is a list, tuple or array.
	List
	// Obj is an object, dict, hash or table with string keys.
	Obj
	// Ref is a reference to a named thing: a module, function or global
	// ("os", "os.system", "child_process.execSync"); Value.S is the name.
	Ref
	// Num is an integer.
	Num
	// Bool is true or false (also None/nil/null as false).
	Bool
)

// unknownMark stands for an unknown part inside a partly known string.
const unknownMark = "\x00?\x00"

// maxValueLen bounds the length of a string value the evaluator builds.
const maxValueLen = 1 << 16

// Value is what an expression of the code evaluates to.
type Value struct {
	Kind VKind
	// S is the text of a Str (unknown parts as unknownMark when Partial) or
	// the name of a Ref.
	S string
	// Env, when set, names the environment variable whose value comes
	// before S (`os.environ['HARNESS_ROOT'] + '/spec'`).
	Env string
	// Cwd is true when the working directory comes before S (os.getcwd()).
	Cwd bool
	// Partial is true when S has unknown parts.
	Partial bool
	// Path is true for a path object (pathlib.Path, Pathname).
	Path bool
	// Cmd is true for a Julia command object (`…`, Cmd([…])): the text
	// runs when handed to run/read/success/pipeline.
	Cmd bool
	// List holds the elements of a List (and the positional entries of an
	// Obj such as a Lua table).
	List []Value
	// Obj holds the entries of an Obj.
	Obj map[string]Value
	// N is the value of a Num; B of a Bool.
	N int64
	B bool
	// Call is the call whose result this value is (a file handle from
	// open(), a Path from Path()), nil otherwise.
	Call *Call
}

// Known reports a fully known string.
func (v Value) Known() bool { return v.Kind == Str && !v.Partial && v.Env == "" && !v.Cwd }

// String renders the value for a message: a string with "…" for unknown
// parts and $NAME / $PWD for an environment variable or the working
// directory it starts with; other kinds as "a computed value".
func (v Value) String() string {
	if v.Kind != Str {
		return "a computed value"
	}
	s := strings.ReplaceAll(v.S, unknownMark, "…")
	switch {
	case v.Env != "":
		s = "$" + v.Env + s
	case v.Cwd:
		s = "$PWD" + s
	}
	return s
}

// Text returns the string value with unknown parts replaced by repl; ok is
// false when v is not a string or starts with an environment variable or
// the working directory.
func (v Value) Text(repl string) (string, bool) {
	if v.Kind != Str || v.Env != "" || v.Cwd {
		return "", false
	}
	if v.Partial {
		return strings.ReplaceAll(v.S, unknownMark, repl), true
	}
	return v.S, true
}

// Strings returns the elements of a List of known strings (or a known Str
// as one element); ok is false when an element is not a known string.
func (v Value) Strings() ([]string, bool) {
	switch v.Kind {
	case Str:
		if v.Known() {
			return []string{v.S}, true
		}
	case List:
		out := make([]string, 0, len(v.List))
		for _, e := range v.List {
			if !e.Known() {
				return nil, false
			}
			out = append(out, e.S)
		}
		return out, true
	}
	return nil, false
}

// Truthy reports a value known to be true (a non-zero number, true, a
// non-empty string or list); known is false when it cannot be told.
func (v Value) Truthy() (truth, known bool) {
	switch v.Kind {
	case Bool:
		return v.B, true
	case Num:
		return v.N != 0, true
	case Str:
		if v.Partial || v.Env != "" || v.Cwd {
			return true, v.S != ""
		}
		return v.S != "", true
	case List:
		return len(v.List) > 0, true
	case Obj:
		return true, true
	}
	return false, false
}

func str(s string) Value { return Value{Kind: Str, S: s} }

func unknown() Value { return Value{} }

// concat joins two values as strings; the result is Partial where a side
// is unknown, and Unknown when neither side is a string.
func concat(a, b Value) Value {
	if a.Kind == Num && b.Kind == Str {
		a = str(strconv.FormatInt(a.N, 10))
	}
	if b.Kind == Num && a.Kind == Str {
		b = str(strconv.FormatInt(b.N, 10))
	}
	if a.Kind != Str && b.Kind != Str {
		return unknown()
	}
	if b.Kind == Str && (b.Env != "" || b.Cwd) {
		if a.Kind == Str && a.S == "" && !a.Partial && a.Env == "" && !a.Cwd {
			return b
		}
		// a variable part in the middle: the text before it stays known
		b = Value{Kind: Str, S: unknownMark + b.S, Partial: true}
	}
	out := Value{Kind: Str}
	if a.Kind == Str {
		out.S, out.Env, out.Cwd, out.Partial, out.Path = a.S, a.Env, a.Cwd, a.Partial, a.Path
	} else {
		out.S, out.Partial = unknownMark, true
	}
	if b.Kind == Str {
		out.S += b.S
		out.Partial = out.Partial || b.Partial
	} else {
		out.S += unknownMark
		out.Partial = true
	}
	if len(out.S) > maxValueLen {
		return unknown()
	}
	return out
}

// joinPath joins path values the way os.path.join does: an absolute part
// restarts the path.
func joinPath(parts []Value) Value {
	out := Value{Kind: Str}
	for i, p := range parts {
		if p.Kind != Str {
			return unknown()
		}
		if i > 0 && (p.Env != "" || p.Cwd) {
			return unknown()
		}
		if strings.HasPrefix(p.S, "/") || i == 0 {
			out = p
			continue
		}
		if out.S != "" && !strings.HasSuffix(out.S, "/") || out.S == "" && (out.Env != "" || out.Cwd) {
			out.S += "/"
		}
		out.S += p.S
		out.Partial = out.Partial || p.Partial
	}
	return out
}

// printf applies a printf-style format (%s %d %r %i %f %x %o, %%) to args;
// the result is Partial where an argument is unknown.
func printf(format string, args []Value) Value {
	out := str("")
	k := 0
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = concat(out, str(lit.String()))
			lit.Reset()
		}
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			lit.WriteByte(c)
			continue
		}
		j := i + 1
		if format[j] == '%' {
			lit.WriteByte('%')
			i = j
			continue
		}
		if format[j] == '(' { // %(name)s
			if e := strings.IndexByte(format[j:], ')'); e > 0 {
				j += e + 1
			}
		}
		for j < len(format) && strings.IndexByte("-+ #0123456789.*", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			lit.WriteString(format[i:])
			break
		}
		flush()
		var a Value
		if k < len(args) {
			a = args[k]
		}
		k++
		switch {
		case a.Kind == Num:
			a = str(strconv.FormatInt(a.N, 10))
		case a.Kind == Bool && a.B:
			a = str("True")
		}
		out = concat(out, a)
		i = j
	}
	flush()
	return out
}

// pyFormat applies str.format: {} {0} {name} fields; unknown arguments
// make the result Partial.
func pyFormat(format string, args []Value, kw map[string]Value) Value {
	out := str("")
	var lit strings.Builder
	auto := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '{' && i+1 < len(format) && format[i+1] == '{' {
			lit.WriteByte('{')
			i++
			continue
		}
		if c == '}' && i+1 < len(format) && format[i+1] == '}' {
			lit.WriteByte('}')
			i++
			continue
		}
		if c != '{' {
			lit.WriteByte(c)
			continue
		}
		e := strings.IndexByte(format[i:], '}')
		if e < 0 {
			lit.WriteString(format[i:])
			break
		}
		field := fieldExpr(format[i+1 : i+e])
		if lit.Len() > 0 {
			out = concat(out, str(lit.String()))
			lit.Reset()
		}
		var a Value
		if field == "" {
			if auto < len(args) {
				a = args[auto]
			}
			auto++
		} else if n, err := strconv.Atoi(field); err == nil {
			if n >= 0 && n < len(args) {
				a = args[n]
			}
		} else if v, ok := kw[field]; ok {
			a = v
		}
		if a.Kind == Num {
			a = str(strconv.FormatInt(a.N, 10))
		}
		out = concat(out, a)
		i += e
	}
	if lit.Len() > 0 {
		out = concat(out, str(lit.String()))
	}
	return out
}

// splitWords splits a command line into words the way shlex.split does for
// simple input: blanks separate, quotes group and are removed.
func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q = c
			in = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// parseInt reads an integer literal; octal is 0o17 everywhere and 017 in
// languages where a leading zero means octal.
func parseInt(s string, leadingZeroOctal bool) (int64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	s = strings.TrimRight(s, "lLuUn")
	base := 10
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O'):
		base, s = 8, s[2:]
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
	case len(s) > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0' && leadingZeroOctal:
		base, s = 8, s[1:]
	}
	n, err := strconv.ParseInt(s, base, 64)
	return n, err == nil
}
