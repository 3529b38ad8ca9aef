package shell

import "strings"

// OptSpec is the option grammar of one program or subcommand: the one
// option model every guard reads (testdata/corpus/README.md §2.2, §9.1). Parse applies
// it the way the program's own parser would: bundled short options (`-rf`),
// a value attached to its letter or in the next word (`-n5`, `-n 5`),
// `--opt=value` and `--opt value`, long options abbreviated to a unique
// prefix where the program accepts that (GNU getopt_long, git
// parse-options: `rm --recurs`, `nice --adj 5`), `--` ending the options,
// GNU permutation (options after operands) or POSIX order (Stop).
type OptSpec struct {
	// Short lists the short option letters that take a value: the rest of
	// the cluster (`-n5`) or else the next word (`-n 5`). Other letters are
	// flags.
	Short string
	// ShortOpt lists letters whose value is optional and only attached
	// (`sed -i.bak`, `perl -i~`): the rest of the cluster is the value.
	ShortOpt string
	// Digits lists letters whose optional value is the digits attached to
	// them, the letter 0 also taking xHEX (perl -0777, -0x1FF, -l015); the
	// rest of the cluster is more options (`perl -lne CODE` is -l -n -e).
	Digits string
	// Long lists long option names without "--", separated by spaces; a
	// name ending in "=" takes a value (`--file F` or `--file=F`). Other
	// names take a value only when it is attached with "=".
	Long string
	// Abbrev: a unique prefix of a Long name stands for that name (an exact
	// name always wins; a prefix of several names is ambiguous and matches
	// none, as the program rejects it).
	Abbrev bool
	// Partial: Long is not every long option of the program. A long option
	// that is not listed is kept as written and matches a listed name it is
	// a prefix of (3 letters at least); an abbreviation of a listed name
	// must have 4 letters (a shorter one may be an option the table does
	// not list: --fix is not --fixable).
	Partial bool
	// Stop: options end at the first operand (POSIX getopt, and programs
	// whose operands are a command: env, nice, timeout, ssh …); otherwise
	// options are recognised anywhere before "--" (GNU permutation).
	Stop bool
	// Posixly: the program permutes with GNU getopt, which stops at the
	// first operand when POSIXLY_CORRECT is in its environment (any value,
	// even empty; checked with coreutils 9: `POSIXLY_CORRECT=1 rm d -rf`
	// removes the files d and -rf). ParseCommandIn sets Stop then.
	Posixly bool
	// Numeric: "-5"-style options (`nice -5`, `head -20`) are one option
	// named "#" with the digits as its value.
	Numeric bool
	// OldStyle: a first word without a dash is a cluster of option letters
	// whose value-taking letters consume the following words in order
	// (`tar xzf a.tgz -C dir`, `ar rcs lib.a`).
	OldStyle bool
	// EndAfter lists option names (letters or long names, space-separated)
	// after which every word is an operand (`python -c CODE ARGS…`,
	// `python -m MODULE ARGS…`).
	EndAfter string
	// Plus: "+x" words are option clusters too (`bash +x`, `set +o`).
	Plus bool
	// Dash: a lone "-" ends the options as "--" does (bash and sh: "A -
	// signals the end of options"; `bash - FILE` runs FILE, checked with
	// bash 5.2; sg takes no option after its leading "-" but a -c after the
	// group); otherwise "-" is an operand (stdin).
	Dash bool
	// Reopt (with Stop): options are read again after the first operand,
	// up to the next one (OpenSSH: `ssh HOST -l USER CMD…`).
	Reopt bool
	// GoFlags: Go's flag package grammar: "-name" and "--name" are the same
	// long option, no bundling, no abbreviation. With Abbrev it is GNU
	// getopt_long_only's (gdb: `gdb -arg PROG` is --args).
	GoFlags bool
	// Modes: a word that is a file mode starting with '-' (`chmod -w f`,
	// `chmod -x,g+w f`: letters of "rwxXstugoa", digits 0-7, ',', '+', '=',
	// '-') is an operand, as GNU chmod reads it; a cluster with any other
	// letter is options (`-R`, `-Rv`).
	Modes bool
	// Guess is the grammar of a program the table does not know
	// (ParseCommand): a one-dash word with "=" after two letters or more
	// (`-out=F`) is a long option with its value, as Go's flag package and
	// openssl read it, and in a cluster a byte that is no option letter
	// starts the value of the letter before it (`-O/dev/sdb`, `-o./x`: the
	// only reading getopt allows).
	Guess bool
	// Words maps whole words of several letters after one dash to the long
	// option they are ("TT=unzip-command", space-separated): zip reads
	// `-TT CMD` as `--unzip-command CMD`, not as the cluster -T -T. An
	// entry "KEY*=LONG" maps every longer word -KEY… to LONG with the rest
	// attached as its value (gcc's `-MFdeps.d` is --MF=deps.d).
	Words string
	// Extra lists long options whose value is followed by more words, as
	// NAME=N, space-separated: bubblewrap reads `--bind SRC DEST` and
	// `--overlay RWSRC WORKDIR DEST` ("bind=1 overlay=2"). The option's
	// Value is its first word; the N words after it are consumed with it.
	Extra string
}

// extra returns the number of words after its value that long option name
// consumes (Extra); 0 for any other option.
func (s OptSpec) extra(name string) int {
	for _, f := range strings.Fields(s.Extra) {
		if n, c, ok := strings.Cut(f, "="); ok && n == name && len(c) == 1 && c[0] >= '1' && c[0] <= '9' {
			return int(c[0] - '0')
		}
	}
	return 0
}

// word returns the long option name the one-dash word a stands for
// (Words), and its attached value for an entry "KEY*=LONG": a word -KEY
// followed by more bytes is LONG with them as its value (gcc's
// -MFdeps.d, -fsyntax-only). An exact entry wins over a prefix one.
func (s OptSpec) word(a string) (long, val string, hasVal, found bool) {
	if s.Words == "" || len(a) < 3 || a[0] != '-' || a[1] == '-' {
		return "", "", false, false
	}
	for _, e := range strings.Fields(s.Words) {
		if k, long, ok := strings.Cut(e, "="); ok && "-"+k == a {
			return long, "", false, true
		}
	}
	for _, e := range strings.Fields(s.Words) {
		if k, long, ok := strings.Cut(e, "="); ok && strings.HasSuffix(k, "*") {
			if v, ok := strings.CutPrefix(a[1:], strings.TrimSuffix(k, "*")); ok && v != "" {
				return long, v, true, true
			}
		}
	}
	return "", "", false, false
}

func (s OptSpec) isWord(a string) bool { _, _, _, ok := s.word(a); return ok }

// modeWord reports a '-'-led symbolic or octal file mode (OptSpec.Modes).
func modeWord(a string) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	perm := false
	for i := 1; i < len(a); i++ {
		c := a[i]
		switch {
		case strings.IndexByte("rwxXst01234567", c) >= 0:
			perm = true
		case strings.IndexByte("ugoa,+=-", c) >= 0:
		default:
			return false
		}
	}
	return perm
}

// Opt is one option found by OptSpec.Parse.
type Opt struct {
	// Name is the letter of a short option ("f"), the full name of a long
	// option ("force" for --forc when the spec resolves it), the name as
	// written when it does not resolve, or "#" for a numeric option.
	Name string
	// Long is true for a --name option.
	Long bool
	// Value is the option's value when HasValue.
	Value    string
	HasValue bool
	// Takes: the spec says the option takes a value (a Short letter, a
	// Long name with "=", a Go flag with "="), attached or in the next
	// word; false for a flag and for an optional value only attached
	// (ShortOpt, Digits, `--name=V` of a name without "=").
	Takes bool
	// Arg is the index of the word holding the option in the parsed words.
	Arg int
	// ValArg and ValOff locate the value: the index of the word holding it
	// and the byte offset where it starts in that word (Rebind).
	ValArg, ValOff int
	// Ambiguous: a prefix of several long names (the program rejects it).
	Ambiguous bool
	// Unknown: a long name the spec does not list.
	Unknown bool
}

// ParsedOpts is the result of OptSpec.Parse over a word list.
type ParsedOpts struct {
	// Opts are the options in order.
	Opts []Opt
	// Operands are the indexes (into the parsed words) of the operands, in
	// order, those after "--" included.
	Operands []int
	// End is the index of the "--" that ended the options, -1 when none.
	End int
	// words are the parsed words (Operand values).
	words   []string
	partial bool
}

// longState is the outcome of resolving a long option name.
type longState uint8

const (
	longExact longState = iota
	longPrefix
	longAmbiguous
	longUnknown
)

// eachLong calls fn for every name of s.Long (without a trailing "=")
// and whether it takes a value, until fn returns false.
func (s OptSpec) eachLong(fn func(name string, takes bool) bool) {
	l := s.Long
	for l != "" {
		var n string
		if k := strings.IndexByte(l, ' '); k >= 0 {
			n, l = l[:k], l[k+1:]
		} else {
			n, l = l, ""
		}
		if n == "" {
			continue
		}
		takes := strings.HasSuffix(n, "=")
		if !fn(strings.TrimSuffix(n, "="), takes) {
			return
		}
	}
}

// resolveLong resolves a long option name as written (without "--").
func (s OptSpec) resolveLong(name string) (full string, takes bool, st longState) {
	full, st = name, longUnknown
	n := 0
	exact := false
	s.eachLong(func(l string, t bool) bool {
		if l == name {
			full, takes, exact = l, t, true
			return false
		}
		if s.Abbrev && strings.HasPrefix(l, name) && name != "" {
			n++
			if n == 1 {
				full, takes = l, t
			}
		}
		return true
	})
	switch {
	case exact:
		return full, takes, longExact
	case n == 1 && (!s.Partial || len(name) >= 4):
		return full, takes, longPrefix
	case n > 1 && !s.Partial:
		return name, false, longAmbiguous
	}
	return name, false, longUnknown
}

// TakesLong reports whether the long option name (exact or abbreviated as
// the spec allows) takes a value in the next word.
func (s OptSpec) TakesLong(name string) bool {
	_, t, st := s.resolveLong(name)
	return t && (st == longExact || st == longPrefix)
}

// Parse applies the spec to words[from:] (the words after the program
// name, or after a subcommand). It never fails: an option missing its value
// at the end of the words has HasValue false.
func (s OptSpec) Parse(words []string, from int) ParsedOpts {
	p := ParsedOpts{End: -1, words: words, partial: s.Partial}
	rest := func(i int) {
		for ; i < len(words); i++ {
			p.Operands = append(p.Operands, i)
		}
	}
	for i := from; i < len(words); i++ {
		a := words[i]
		if n := len(p.Opts); n > 0 && s.EndAfter != "" && hasName(s.EndAfter, p.Opts[n-1].Name) {
			rest(i)
			return p
		}
		switch {
		case a == "--" || a == "-" && s.Dash:
			p.End = i
			rest(i + 1)
			return p
		case s.GoFlags && len(a) > 1 && a[0] == '-':
			i = s.goFlag(&p, words, i, strings.TrimPrefix(a[1:], "-"))
		case len(a) > 2 && a[0] == '-' && a[1] == '-', s.Words != "" && s.isWord(a):
			name, val, hasEq := strings.Cut(a[2:], "=")
			if long, v, hv, ok := s.word(a); ok {
				name, val, hasEq = long, v, hv
			}
			full, takes, st := s.resolveLong(name)
			o := Opt{Name: full, Long: true, Arg: i, Ambiguous: st == longAmbiguous, Unknown: st == longUnknown, Takes: takes}
			switch {
			case hasEq:
				o.Value, o.HasValue, o.ValArg, o.ValOff = val, true, i, len(a)-len(val)
			case takes && i+1 < len(words):
				i++
				o.Value, o.HasValue, o.ValArg = words[i], true, i
				i = min(i+s.extra(full), len(words)-1)
			}
			p.Opts = append(p.Opts, o)
		case s.Guess && len(a) > 3 && a[1] != '-' && a[0] == '-' && strings.IndexByte(a, '=') > 2:
			name, val, _ := strings.Cut(a[1:], "=")
			p.Opts = append(p.Opts, Opt{Name: name, Long: true, Unknown: true, Value: val, HasValue: true, Arg: i, ValArg: i, ValOff: len(a) - len(val)})
		case s.Modes && modeWord(a):
			if s.Stop {
				rest(i)
				return p
			}
			p.Operands = append(p.Operands, i)
		case len(a) > 1 && (a[0] == '-' || a[0] == '+' && s.Plus):
			if s.Numeric && a[1] >= '0' && a[1] <= '9' {
				p.Opts = append(p.Opts, Opt{Name: "#", Value: a[1:], HasValue: true, Arg: i, ValArg: i, ValOff: 1})
				continue
			}
			i = s.cluster(&p, words, i, a[1:], false)
		case s.OldStyle && i == from && a != "" && len(p.Opts) == 0:
			i = s.cluster(&p, words, i, a, true)
		default:
			if s.Stop && !(s.Reopt && len(p.Operands) == 0) {
				rest(i)
				return p
			}
			p.Operands = append(p.Operands, i)
		}
	}
	return p
}

// goFlag parses one Go-style flag (name without dashes) at index i and
// returns the index of the last word it consumed.
func (s OptSpec) goFlag(p *ParsedOpts, words []string, i int, a string) int {
	name, val, hasEq := strings.Cut(a, "=")
	o := Opt{Name: name, Long: true, Arg: i, Unknown: true}
	takes := false
	if s.Abbrev {
		full, t, st := s.resolveLong(name)
		o.Name, o.Unknown, o.Ambiguous, takes = full, st == longUnknown, st == longAmbiguous, t
	} else {
		s.eachLong(func(l string, t bool) bool {
			if l == name {
				o.Unknown, takes = false, t
				return false
			}
			return true
		})
	}
	o.Takes = takes
	switch {
	case hasEq:
		o.Value, o.HasValue, o.ValArg, o.ValOff = val, true, i, len(words[i])-len(val)
	case takes && i+1 < len(words):
		i++
		o.Value, o.HasValue, o.ValArg = words[i], true, i
	}
	p.Opts = append(p.Opts, o)
	return i
}

// cluster parses the letters of one short-option word at index i and
// returns the index of the last word it consumed. oldStyle: value letters
// take the following words in order (tar's first word).
func (s OptSpec) cluster(p *ParsedOpts, words []string, i int, letters string, oldStyle bool) int {
	next := i
	off := len(words[i]) - len(letters) // where letters start in the word
	for k := 0; k < len(letters); k++ {
		ch := letters[k]
		if s.Guess && k > 0 && !isWordByte(ch) {
			last := &p.Opts[len(p.Opts)-1]
			last.Value, last.HasValue, last.ValArg, last.ValOff = letters[k:], true, i, off+k
			return next
		}
		o := Opt{Name: letters[k : k+1], Arg: i}
		switch {
		case oldStyle && strings.IndexByte(s.Short, ch) >= 0:
			o.Takes = true
			if next+1 < len(words) {
				next++
				o.Value, o.HasValue, o.ValArg = words[next], true, next
			}
		case strings.IndexByte(s.Digits, ch) >= 0:
			n := digitsAt(letters[k+1:], ch == '0')
			o.Value, o.HasValue, o.ValArg, o.ValOff = letters[k+1:k+1+n], n > 0, i, off+k+1
			p.Opts = append(p.Opts, o)
			k += n
			continue
		case strings.IndexByte(s.ShortOpt, ch) >= 0:
			o.Value, o.HasValue, o.ValArg, o.ValOff = letters[k+1:], k+1 < len(letters), i, off+k+1
			p.Opts = append(p.Opts, o)
			return next
		case strings.IndexByte(s.Short, ch) >= 0:
			o.Takes = true
			if k+1 < len(letters) {
				o.Value, o.HasValue, o.ValArg, o.ValOff = letters[k+1:], true, i, off+k+1
			} else if next+1 < len(words) {
				next++
				o.Value, o.HasValue, o.ValArg = words[next], true, next
			}
			p.Opts = append(p.Opts, o)
			return next
		}
		p.Opts = append(p.Opts, o)
	}
	return next
}

// digitsAt is the length of the run of decimal digits that starts s
// (OptSpec.Digits), or with hex of "x" and the hex digits after it.
func digitsAt(s string, hex bool) int {
	if hex && len(s) > 1 && (s[0] == 'x' || s[0] == 'X') {
		n := 1
		for n < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0 {
			n++
		}
		return n
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// Rebind returns the parse with its words replaced by others of the same
// number, shape and literal option text (the path guard's expanded values
// of the same words): operands and option values are read from the new
// words. A value whose word got shorter than its offset is empty.
func (p ParsedOpts) Rebind(words []string) ParsedOpts {
	if len(words) != len(p.words) {
		return p
	}
	q := p
	q.words = words
	q.Opts = make([]Opt, len(p.Opts))
	for i, o := range p.Opts {
		if o.HasValue && o.ValArg < len(words) {
			if w := words[o.ValArg]; o.ValOff <= len(w) {
				o.Value = w[o.ValOff:]
			} else {
				o.Value = ""
			}
		}
		q.Opts[i] = o
	}
	return q
}

// matches reports whether option o is the short letter in shorts or one
// of the long names.
func (p ParsedOpts) matches(o *Opt, shorts string, longs []string) bool {
	if !o.Long {
		return len(o.Name) == 1 && strings.IndexByte(shorts, o.Name[0]) >= 0
	}
	if o.Ambiguous {
		return false
	}
	for _, l := range longs {
		if o.Name == l || o.Unknown && p.partial && len(o.Name) >= 3 && strings.HasPrefix(l, o.Name) {
			return true
		}
	}
	return false
}

// Has reports whether a short option whose letter is in shorts, or a long
// option named one of longs, was given.
func (p ParsedOpts) Has(shorts string, longs ...string) bool {
	for i := range p.Opts {
		if p.matches(&p.Opts[i], shorts, longs) {
			return true
		}
	}
	return false
}

// Values returns the values of every option (given with a value) whose
// letter is in shorts or whose name is one of longs, in order.
func (p ParsedOpts) Values(shorts string, longs ...string) []string {
	var vs []string
	for i := range p.Opts {
		if o := &p.Opts[i]; o.HasValue && p.matches(o, shorts, longs) {
			vs = append(vs, o.Value)
		}
	}
	return vs
}

// Last returns the value of the last such option (Values).
func (p ParsedOpts) Last(shorts string, longs ...string) (string, bool) {
	for i := len(p.Opts) - 1; i >= 0; i-- {
		if o := &p.Opts[i]; o.HasValue && p.matches(o, shorts, longs) {
			return o.Value, true
		}
	}
	return "", false
}

// First is the index of the first operand, len(words) when there is none.
func (p ParsedOpts) First() int {
	if len(p.Operands) == 0 {
		return len(p.words)
	}
	return p.Operands[0]
}

// OperandValues returns the operands' words, in order.
func (p ParsedOpts) OperandValues() []string {
	out := make([]string, len(p.Operands))
	for k, i := range p.Operands {
		out[k] = p.words[i]
	}
	return out
}

// Before returns the operands before "--" (all of them when there is none).
func (p ParsedOpts) Before() []string {
	var out []string
	for _, i := range p.Operands {
		if p.End >= 0 && i > p.End {
			break
		}
		out = append(out, p.words[i])
	}
	return out
}

// After returns the operands after "--" (nil when there is none).
func (p ParsedOpts) After() []string {
	if p.End < 0 {
		return nil
	}
	var out []string
	for _, i := range p.Operands {
		if i > p.End {
			out = append(out, p.words[i])
		}
	}
	return out
}

// String renders the parse for table examples and messages: options in
// order (`-f`, `-e=PAT`, `--force`, `--file=F`, `--forc?` when it does not
// resolve), then "|" and the operands.
func (p ParsedOpts) String() string {
	var b strings.Builder
	for _, o := range p.Opts {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if o.Long {
			b.WriteString("--")
		} else {
			b.WriteByte('-')
		}
		b.WriteString(o.Name)
		if o.Ambiguous || o.Unknown && !p.partial {
			b.WriteByte('?')
		}
		if o.HasValue {
			b.WriteByte('=')
			b.WriteString(o.Value)
		}
	}
	b.WriteString(" |")
	for _, i := range p.Operands {
		b.WriteByte(' ')
		b.WriteString(p.words[i])
	}
	return strings.TrimLeft(b.String(), " ")
}

// FirstOperand returns the index of the first operand in vals at or after
// start, skipping options (and their values) by spec; len(vals) when none.
// "--" ends the options (the operand after it is returned). Options are
// read in POSIX order: the spec's Stop is implied.
func (s OptSpec) FirstOperand(vals []string, start int) int {
	s.Stop = true
	p := s.Parse(vals, start)
	return p.First()
}

// Flags returns the set of short option letters and the long options
// (resolved names → value, "" when none) given before the first operand.
func (s OptSpec) Flags(vals []string, start int) (short map[byte]bool, long map[string]string) {
	s.Stop = true
	p := s.Parse(vals, start)
	short = map[byte]bool{}
	long = map[string]string{}
	for _, o := range p.Opts {
		if o.Long {
			long[o.Name] = o.Value
		} else if len(o.Name) == 1 {
			short[o.Name[0]] = true
		}
	}
	return short, long
}

// ArgMatch reads an option's value the way GNU's argmatch does (coreutils'
// rm --interactive, cp --sparse, --backup and the like): an exact spelling,
// else a prefix of spellings that all stand for one value. choices pairs
// each accepted spelling with the value it stands for ({"no", "never"});
// the result is that value, or "" when v matches none or is ambiguous (the
// program refuses to run). Checked with coreutils 9.1: rm --interactive=n
// is never, since never, no and none are synonyms.
func ArgMatch(v string, choices ...[2]string) string {
	found := ""
	for _, c := range choices {
		if c[0] == v {
			return c[1]
		}
		if v != "" && strings.HasPrefix(c[0], v) {
			if found != "" && found != c[1] {
				return ""
			}
			found = c[1]
		}
	}
	return found
}
