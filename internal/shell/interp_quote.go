package shell

import (
	"regexp"
	"strings"
	"sync"
)

// quoteOps rewrites the quote-like operators of Perl (`q(…)`, `qq{…}`,
// `qw[…]`, any delimiter) and Ruby (`%q(…)`, `%Q{…}`, `%(…)`, `%w[…]`,
// `%W<…>`) into plain double-quoted literals (`qw`/`%w` into a
// comma-separated list of them), so `system q(rm -rf /)` is read like
// `system "rm -rf /"` (testdata/corpus/README.md §2.1 "Interpreters": Perl and Ruby
// system/exec with one string). Existing string literals are copied
// unchanged; `qx`/`%x` are left to the backtick scan.
func quoteOps(code, lang string) string {
	if lang != "perl" && lang != "ruby" {
		return code
	}
	if !strings.ContainsAny(code, "q%") {
		return code
	}
	var b strings.Builder
	i := 0
	for i < len(code) {
		ch := code[i]
		if ch == '\'' || ch == '"' || ch == '`' {
			end := quotedEnd(code, i)
			b.WriteString(code[i:end])
			i = end
			continue
		}
		op, n := quoteOpAt(code, i, lang)
		if n == 0 {
			b.WriteByte(ch)
			i++
			continue
		}
		open := code[i+n]
		closer := open
		switch open {
		case '(':
			closer = ')'
		case '{':
			closer = '}'
		case '[':
			closer = ']'
		case '<':
			closer = '>'
		}
		body, end := delimited(code, i+n+1, open, closer)
		if end < 0 {
			b.WriteString(code[i:])
			break
		}
		if op == "w" {
			for k, f := range strings.Fields(body) {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(dquote(f))
			}
		} else {
			b.WriteString(dquote(body))
		}
		i = end + 1
	}
	return b.String()
}

// quoteOpAt reports the quote operator starting at code[i]: op is "q"
// (single or double quoting) or "w" (word list), n the length up to the
// opening delimiter; n is 0 when there is none.
func quoteOpAt(code string, i int, lang string) (op string, n int) {
	if i > 0 {
		p := code[i-1]
		if isIdentByte(p) || p == '%' && lang == "perl" || p == '&' || p == '>' || p == ':' || p == '-' || p == ')' || p == ']' {
			return "", 0
		}
	}
	j := i
	switch lang {
	case "perl":
		if code[j] != 'q' {
			return "", 0
		}
		j++
		op = "q"
		if j < len(code) && (code[j] == 'q' || code[j] == 'w') {
			if code[j] == 'w' {
				op = "w"
			}
			j++
		}
	case "ruby":
		if code[j] != '%' {
			return "", 0
		}
		j++
		op = "q"
		if j < len(code) && strings.IndexByte("qQwW", code[j]) >= 0 {
			if code[j] == 'w' || code[j] == 'W' {
				op = "w"
			}
			j++
		} else if j < len(code) && strings.IndexByte("({[<", code[j]) < 0 {
			// a bare % is the modulo operator unless a bracket follows
			return "", 0
		}
	}
	if j < len(code) && isIdentByte(code[j]) {
		return "", 0 // an identifier such as `quit` or `qwerty`
	}
	k := j
	for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
		k++
	}
	if k >= len(code) {
		return "", 0
	}
	d := code[k]
	if k > j && strings.IndexByte("({[<", d) < 0 {
		return "", 0 // `q => 1`, `q = …`: only a bracket may follow blanks
	}
	if d <= ' ' || d >= 0x7f || isIdentByte(d) || strings.IndexByte("=,;)]}\\'\"`", d) >= 0 {
		return "", 0
	}
	return op, k - i
}

// delimited returns the text from start up to the closing delimiter
// (nesting brackets, skipping backslash escapes) and the closer's index, or
// end -1 when the text ends first.
func delimited(code string, start int, open, closer byte) (body string, end int) {
	depth := 0
	for k := start; k < len(code); k++ {
		c := code[k]
		switch {
		case c == '\\':
			k++
		case c == closer && depth == 0:
			return code[start:k], k
		case c == closer:
			depth--
		case c == open && open != closer:
			depth++
		}
	}
	return "", -1
}

// dquote writes s as a double-quoted literal that unquoteLit reads back.
func dquote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

var (
	fromImportRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bfrom\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n;]+)`)
	})
	destructRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\{([^{}]*)\}\s*=\s*(?:await\s+)?(?:require|import)\s*\(\s*['"]([^'"]+)['"]`)
	})
	requireAliasRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\b(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=\s*require\s*\(\s*['"]([^'"]+)['"]\s*\)\s*\.\s*([A-Za-z_$][\w$]*)\s*(?:[;\n]|$)`)
	})
	funcAliasRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\b(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)+)\s*(?:[;\n]|$)`)
	})
)

// CanonicalCalls rewrites calls made through a local alias of an imported
// or assigned function into calls of the function's qualified name, so code
// scanners that look for `os.system(`, `shutil.rmtree(`, `pathlib.Path(`,
// `fs.writeFileSync(` or `child_process.exec(` see them (testdata/corpus/README.md §2.1
// "Interpreters", §3.3 interpreter writes). It handles Python
// `from M import f [as a]` (`a(` → `M.f(`) and `a = M.f`, Node
// `const { f: a } = require('m')` (`a(` → `m.f(`) and `const a = m.f`; for
// Perl and Ruby it also turns quote operators into plain literals
// (quoteOps), and it undoes dynamic spellings (dynamicCalls). Other text is
// unchanged.
func CanonicalCalls(code, lang string) string {
	code = quoteOps(code, lang)
	code = dynamicCalls(code, lang)
	if lang != "python" && lang != "node" {
		return code
	}
	al := callAliases(code)
	if len(al) == 0 {
		return code
	}
	var b strings.Builder
	i := 0
	for i < len(code) {
		ch := code[i]
		if ch == '\'' || ch == '"' || ch == '`' {
			end := quotedEnd(code, i)
			b.WriteString(code[i:end])
			i = end
			continue
		}
		if !isIdentByte(ch) || i > 0 && (isIdentByte(code[i-1]) || code[i-1] == '.') {
			b.WriteByte(ch)
			i++
			continue
		}
		j := i
		for j < len(code) && isIdentByte(code[j]) {
			j++
		}
		k := j
		for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
			k++
		}
		if q, ok := al[code[i:j]]; ok && k < len(code) && code[k] == '(' {
			b.WriteString(q)
		} else {
			b.WriteString(code[i:j])
		}
		i = j
	}
	return b.String()
}

// callAliases maps local names bound to imported or assigned functions to
// their qualified names (see CanonicalCalls).
func callAliases(code string) map[string]string {
	var al map[string]string
	set := func(alias, name string) {
		alias, name = strings.TrimSpace(alias), strings.Join(strings.Fields(name), "")
		if alias == "" || alias == name || !isIdent(alias) || name == "" {
			return
		}
		if al == nil {
			al = map[string]string{}
		}
		al[alias] = name
	}
	if strings.Contains(code, "import") {
		for _, m := range fromImportRe().FindAllStringSubmatch(code, -1) {
			for _, item := range strings.Split(strings.Trim(m[2], "() \t"), ",") {
				name, alias, ok := strings.Cut(strings.TrimSpace(item), " as ")
				if !ok {
					alias = name
				}
				name = strings.TrimSpace(name)
				if isIdent(name) {
					set(alias, m[1]+"."+name)
				}
			}
		}
	}
	if strings.Contains(code, "{") {
		for _, m := range destructRe().FindAllStringSubmatch(code, -1) {
			mod := moduleIdent(m[2])
			for _, item := range strings.Split(m[1], ",") {
				name, alias, ok := strings.Cut(item, ":")
				if !ok {
					alias = name
				}
				name = strings.TrimSpace(name)
				if isIdent(name) {
					set(alias, mod+"."+name)
				}
			}
		}
	}
	if strings.Contains(code, "=") {
		for _, m := range funcAliasRe().FindAllStringSubmatch(code, -1) {
			set(m[1], m[2])
		}
		if strings.Contains(code, "require") {
			for _, m := range requireAliasRe().FindAllStringSubmatch(code, -1) {
				set(m[1], moduleIdent(m[2])+"."+m[3])
			}
		}
	}
	return al
}

// moduleIdent turns a Node module specifier into the name code usually
// binds it to: "node:fs" → "fs", "fs/promises" → "fs", "child_process".
func moduleIdent(spec string) string {
	spec = strings.TrimPrefix(spec, "node:")
	if k := strings.IndexByte(spec, '/'); k > 0 {
		spec = spec[:k]
	}
	var b strings.Builder
	for i := 0; i < len(spec); i++ {
		if isIdentByte(spec[i]) {
			b.WriteByte(spec[i])
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) || s[i] == '@' {
			return false
		}
	}
	return true
}

var argvRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bsys\s*\.\s*argv\s*\[\s*(\d+)\s*(:)?\s*\]|\bprocess\s*\.\s*argv\s*\.\s*slice\s*\(\s*(\d+)\s*\)|\bprocess\s*\.\s*argv\s*\[\s*(\d+)\s*\]|\$ARGV\s*\[\s*(\d+)\s*\]|@ARGV\b|\*ARGV\b|\bARGV\s*\[\s*(\d+)\s*\]`)
})

// substArgv replaces the interpreter's references to its own command-line
// arguments (Python sys.argv[N] and sys.argv[N:], Node process.argv[N] and
// process.argv.slice(N), Perl $ARGV[N] and @ARGV, Ruby ARGV[N] and *ARGV)
// with the literal arguments given after the code, so
// `python3 -c 'os.system(sys.argv[1])' 'rm -rf x'` is judged like the
// literal call (testdata/corpus/README.md §2.1 "Interpreters": literals handed to a
// process-starting call). argv are the words after the code (Python's
// sys.argv[1:], Node's process.argv[1:] for -e, Perl/Ruby ARGV).
func substArgv(code, lang string, argv []string) string {
	if len(argv) == 0 || !strings.Contains(code, "argv") && !strings.Contains(code, "ARGV") {
		return code
	}
	list := func(from int) string {
		var b strings.Builder
		for k := from; k < len(argv); k++ {
			if k > from {
				b.WriteString(", ")
			}
			b.WriteString(dquote(argv[k]))
		}
		return b.String()
	}
	one := func(s string, off int) (string, bool) {
		n := 0
		for _, ch := range s {
			n = n*10 + int(ch-'0')
			if n > len(argv)+1 {
				return "", false
			}
		}
		n -= off
		if n < 0 || n >= len(argv) {
			return "", false
		}
		return dquote(argv[n]), true
	}
	return argvRe().ReplaceAllStringFunc(code, func(m string) string {
		sm := argvRe().FindStringSubmatch(m)
		switch {
		case sm[1] != "" && lang == "python":
			if sm[2] == ":" {
				k := 0
				for _, ch := range sm[1] {
					k = k*10 + int(ch-'0')
				}
				if k >= 1 && k <= len(argv)+1 {
					return "[" + list(k-1) + "]"
				}
				return m
			}
			if v, ok := one(sm[1], 1); ok {
				return v
			}
		case sm[3] != "" && lang == "node":
			k := 0
			for _, ch := range sm[3] {
				k = k*10 + int(ch-'0')
			}
			if k >= 1 && k <= len(argv)+1 {
				return "[" + list(k-1) + "]"
			}
		case sm[4] != "" && lang == "node":
			if v, ok := one(sm[4], 1); ok {
				return v
			}
		case sm[5] != "" && lang == "perl":
			if v, ok := one(sm[5], 0); ok {
				return v
			}
		case m == "@ARGV" && lang == "perl", m == "*ARGV" && lang == "ruby":
			return list(0)
		case sm[6] != "" && lang == "ruby":
			if v, ok := one(sm[6], 0); ok {
				return v
			}
		}
		return m
	})
}

// codeArgv returns the literal words after the inline code word (the
// script's own arguments); ok is false when the code came from stdin or an
// argument is not literal.
func codeArgv(args []Word, code string) ([]string, bool) {
	for k := len(args) - 1; k >= 0; k-- {
		v := args[k].Value
		if v != code && !(strings.HasPrefix(v, "-") && strings.HasSuffix(v, code) && len(v) > len(code)) {
			continue
		}
		rest := args[k+1:]
		if len(rest) > 0 && rest[0].Value == "--" {
			rest = rest[1:]
		}
		out := make([]string, len(rest))
		for i, a := range rest {
			if !a.Known {
				return nil, false
			}
			out[i] = a.Value
		}
		return out, true
	}
	return nil, false
}

var (
	getattrRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bgetattr\s*\(\s*(?:__import__\s*\(\s*['"]([\w.]+)['"]\s*\)|([A-Za-z_][\w.]*))\s*,\s*['"]([A-Za-z_]\w*)['"]\s*\)\s*\(`)
	})
	indexCallRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([A-Za-z_$][\w$]*(?:\s*\(\s*['"][\w:/]+['"]\s*\))?)\s*\[\s*['"]([A-Za-z_$][\w$]*)['"]\s*\]\s*\(`)
	})
	pyJoinRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:'([^'\\\n]*)'|"([^"\\\n]*)")\s*\.\s*join\s*\(\s*[\[(]([^\])]*)[\])]\s*\)`)
	})
	jsJoinRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[([^\]]*)\]\s*\.\s*join\s*\(\s*(?:'([^'\\\n]*)'|"([^"\\\n]*)")\s*\)`)
	})
	litItemRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:'([^'\\\n]*)'|"([^"\\\n]*)")\s*$`)
	})
	perlPipeOpenRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bopen\s*\(?\s*(?:my\s+|our\s+|local\s+)?[\$\w:]+\s*,\s*(?:'\s*(?:\|-|-\|)\s*'|"\s*(?:\|-|-\|)\s*")\s*,\s*|\bopen\s*\(?\s*(?:my\s+|our\s+|local\s+)?[\$\w:]+\s*,\s*(?:"\s*\|\s*([^"|]+)"|"([^"|]+?)\s*\|\s*"|'\s*\|\s*([^'|]+)'|'([^'|]+?)\s*\|\s*')`)
	})
)

// dynamicCalls rewrites dynamic spellings of a call into the plain one:
// Python `getattr(os, 'system')(` and `getattr(__import__('os'),
// 'system')(` → `os.system(`; `obj['name'](` → `obj.name(` (Node
// `cp['execSync'](`); a literal join (`' '.join(['rm', '-rf', 'x'])`,
// `['rm', '-rf', 'x'].join(' ')`) → the joined literal; Perl pipe opens
// (`open(F, '|-', 'cmd')`, `open(F, "cmd |")`) → `system(…)`.
func dynamicCalls(code, lang string) string {
	if strings.Contains(code, "getattr") {
		code = getattrRe().ReplaceAllStringFunc(code, func(m string) string {
			sm := getattrRe().FindStringSubmatch(m)
			obj := sm[1]
			if obj == "" {
				obj = sm[2]
			}
			return obj + "." + sm[3] + "("
		})
	}
	if strings.Contains(code, "[") {
		code = indexCallRe().ReplaceAllString(code, "$1.$2(")
	}
	if strings.Contains(code, "join") {
		lits := func(list string) ([]string, bool) {
			var out []string
			for _, it := range strings.Split(list, ",") {
				if strings.TrimSpace(it) == "" {
					continue
				}
				m := litItemRe().FindStringSubmatch(it)
				if m == nil {
					return nil, false
				}
				out = append(out, m[1]+m[2])
			}
			return out, len(out) > 0
		}
		re := pyJoinRe()
		if lang == "node" {
			re = jsJoinRe()
		}
		code = re.ReplaceAllStringFunc(code, func(m string) string {
			sm := re.FindStringSubmatch(m)
			sep, list := sm[1]+sm[2], sm[3]
			if lang == "node" {
				list, sep = sm[1], sm[2]+sm[3]
			}
			items, ok := lits(list)
			if !ok {
				return m
			}
			return dquote(strings.Join(items, sep))
		})
	}
	if lang == "perl" && strings.Contains(code, "open") && strings.Contains(code, "|") {
		code = perlPipeOpenRe().ReplaceAllStringFunc(code, func(m string) string {
			sm := perlPipeOpenRe().FindStringSubmatch(m)
			for _, g := range sm[1:] {
				if g != "" {
					return "system(" + dquote(strings.TrimSpace(g)) + ")"
				}
			}
			return "system(" // three-argument pipe open: the command list follows
		})
	}
	return code
}

// quotedEnd returns the index just past the '…', "…" or `…` literal that
// starts at code[i] (a backslash escapes the next byte), or len(code) when
// the literal is not closed: the rest of the code is then inside it.
func quotedEnd(code string, i int) int {
	q := code[i]
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(code)
}
