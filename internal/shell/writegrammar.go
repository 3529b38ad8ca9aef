package shell

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Appends reports whether the files the command writes (Written) are
// appended to (WriteSpec.Append: `sponge -a F`).
func (c *Command) Appends() bool {
	return c != nil && c.Row != nil && c.Row.Writes.Append != "" && optGiven(c.ParsedOpts, c.Row.Writes.Append)
}

// Removes reports whether the command removes its input operands
// (WriteSpec.Remove, Keep), whatever they are: the paths xargs hands it
// too.
func (c *Command) Removes() bool {
	if c == nil || c.Row == nil || c.Row.Writes.Remove == "" {
		return false
	}
	ws, p := &c.Row.Writes, c.ParsedOpts
	return ws.applies(p) && optGiven(p, ws.Remove) && !hasOpt(p, ws.Keep)
}

// Removed returns the input operands the command removes once it has
// written them elsewhere (WriteSpec.Remove: `gzip F`, `zip -m A F…`, `7z a
// -sdel A F…`); nil when it removes none.
func (c *Command) Removed() []string {
	if !c.Removes() {
		return nil
	}
	ops := c.ParsedOpts.OperandValues()
	if c.Row.Writes.First && len(ops) > 0 {
		ops = ops[1:]
	}
	var out []string
	for _, f := range ops {
		if f != "-" && f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Extracted returns the directories the command extracts an archive into
// (WriteSpec.Extract: `cpio -i -D DIR`, `7z x -oDIR`, `pax -r`: "." the
// directory it runs in); nil when it extracts nothing.
func (c *Command) Extracted() []string {
	if c == nil || c.Row == nil {
		return nil
	}
	ws, p := &c.Row.Writes, c.ParsedOpts
	if ws.Grammar != "" {
		return grammarWrites(ws.Grammar, p).extracted
	}
	// Extract is its own condition: If is the other writes' (cpio -p)
	if ws.Extract == "" || !optGiven(p, ws.Extract) || ws.Unless != "" && optGiven(p, ws.Unless) {
		return nil
	}
	dir, ok := "", false
	for i := range p.Opts {
		if o := &p.Opts[i]; optNamed(p, o, ws.ExtractDir) {
			dir, ok = o.Value, true
		}
	}
	if ops := p.OperandValues(); !ok && ws.ExtractOperand > 0 && ws.ExtractOperand <= len(ops) {
		dir, ok = ops[ws.ExtractOperand-1], true
	}
	if !ok {
		dir = "."
	}
	return []string{dir}
}

// NamePrefixes returns the prefixes of file names the command writes
// beyond the files Written lists (split and csplit write PREFIX+SUFFIX
// for suffixes past those it lists): the caller judges a file of unknown
// name with each prefix.
func (c *Command) NamePrefixes() []string {
	if c == nil || c.Row == nil {
		return nil
	}
	switch g := c.Row.Writes.Grammar; g {
	case "split", "csplit":
		return []string{splitPrefix(g, c.ParsedOpts)}
	}
	return nil
}

// optGiven reports whether p has an option of names: a letter or long
// name, NAME=VALUE for that option with that value (7z -sdel: "s=del"),
// or "*" for always.
func optGiven(p ParsedOpts, names string) bool {
	for _, n := range strings.Fields(names) {
		if n == "*" {
			return true
		}
		name, val, withVal := strings.Cut(n, "=")
		for i := range p.Opts {
			if o := &p.Opts[i]; optNamed(p, o, name) && (!withVal || o.HasValue && o.Value == val) {
				return true
			}
		}
	}
	return false
}

// names reports whether operand a names a remote file in the form r.
func (r RemoteForm) names(a string) bool {
	switch r {
	case RemoteHost:
		return RemoteOperand(a)
	case RemoteColon:
		return strings.Contains(a, ":")
	}
	return false
}

// RemoteOperand reports an scp operand that names a remote file
// (`host:path`, `user@host:path`, `scp://…`); a colon after a slash is part
// of a local path.
func RemoteOperand(a string) bool {
	if strings.HasPrefix(a, "scp://") {
		return true
	}
	k := strings.IndexByte(a, ':')
	if k <= 0 {
		return false
	}
	return !strings.Contains(a[:k], "/")
}

// grammarOut is what a program of its own grammar writes: files,
// directories written below, trees it rewrites or renames (Trees), and
// directories it extracts into (Extracted).
type grammarOut struct {
	files, dirs, trees, extracted []string
}

// grammarWrites returns what a program of its own grammar
// (WriteSpec.Grammar) writes: the one place that reads a Grammar name.
func grammarWrites(g string, p ParsedOpts) grammarOut {
	var out grammarOut
	switch g {
	case "ar":
		out.files, out.dirs = arWrites(p)
	case "pax":
		out = paxWrites(p)
	case "rename":
		out.trees = renamed(p)
	case "split", "csplit":
		prefix := splitPrefix(g, p)
		for _, suf := range splitSuffixes(g, p) {
			out.files = append(out.files, prefix+suf)
		}
	}
	return out
}

// renamed returns the files a perl or util-linux rename renames: after
// the perl expression (none with -e), or after FROM TO when the first
// operand looks like neither a path nor an expression (util-linux `rename
// FROM TO FILE…`).
func renamed(p ParsedOpts) []string {
	ops := p.OperandValues()
	skip := 1 // perl rename: the expression
	if !p.Has("e") && len(ops) >= 3 && !strings.ContainsAny(ops[0], "/(") {
		skip = 2 // util-linux rename FROM TO FILE…
	}
	if p.Has("e") {
		skip = 0
	}
	if len(ops) <= skip {
		return nil
	}
	return ops[skip:]
}

// paxWrites: -w writes the archive (-f FILE, else stdout); -r -w copies
// into the last operand (a directory, written below); -r alone extracts
// into the working directory (Extracted); neither lists.
func paxWrites(p ParsedOpts) grammarOut {
	r, w := p.Has("r"), p.Has("w")
	ops := p.OperandValues()
	switch {
	case r && w:
		if len(ops) > 0 {
			return grammarOut{files: ops[len(ops)-1:], dirs: ops[len(ops)-1:]}
		}
	case r:
		return grammarOut{extracted: []string{"."}}
	case w:
		return grammarOut{files: p.Values("f")}
	}
	return grammarOut{}
}

// arWrites judges GNU ar by its operation letter (the first operand, an
// optional '-' before it): t and p only read the archive; r q d m s write
// it; x extracts the members named (every member without one: a directory
// written below) into the working directory or --output DIR. Modifiers a
// b i take a RELPOS operand before the archive, N a COUNT. Checked with
// GNU ar 2.40 under /tmp: `ar t lib.a` wrote nothing, `ar x lib.a
// README.md` wrote ./README.md, `ar x --output=o lib.a` wrote o/a.o and
// o/README.md. An operation the guard cannot read writes the archive and
// the members.
func arWrites(p ParsedOpts) (files, dirs []string) {
	ops := p.OperandValues()
	if len(ops) == 0 {
		return nil, nil
	}
	key := strings.TrimPrefix(ops[0], "-")
	op := strings.IndexAny(key, "dmpqrstx")
	rest := ops[1:]
	skip := 0
	if strings.ContainsAny(key, "abi") && strings.ContainsAny(key, "mrq") {
		skip++
	}
	if strings.Contains(key, "N") {
		skip++
	}
	rest = rest[min(skip, len(rest)):]
	if len(rest) == 0 {
		return nil, nil
	}
	archive, members := rest[0], rest[1:]
	dir := "."
	if v, ok := p.Last("", "output"); ok && v != "" {
		dir = v
	}
	letter := byte('?')
	if op >= 0 {
		letter = key[op]
	}
	switch letter {
	case 't', 'p':
	case 'x':
		if len(members) == 0 {
			dirs = append(dirs, dir)
		}
		for _, m := range members {
			files = append(files, path.Join(dir, m))
		}
	case 'd', 'm', 'q', 'r', 's':
		files = append(files, archive)
	default:
		files = append(files, archive)
		for _, m := range members {
			files = append(files, path.Join(dir, m))
		}
	}
	return files, dirs
}

// splitPrefix is the prefix of the pieces split and csplit write: split's
// second operand (default "x"), csplit's -f/--prefix (default "xx").
func splitPrefix(g string, p ParsedOpts) string {
	if g == "csplit" {
		if v, ok := p.Last("f", "prefix"); ok {
			return v
		}
		return "xx"
	}
	if ops := p.OperandValues(); len(ops) >= 2 {
		return ops[1]
	}
	return "x"
}

// splitSuffixes are the suffixes of the first pieces split and csplit name
// PREFIX+SUFFIX, so that a piece landing on a protected name is seen:
// csplit's -b/--suffix-format is a printf format of the piece number
// (default %0Nd, N from -n/--digits, 2), `csplit -f README -b '%.0d.md'`
// writes README.md for piece 0 (checked under /tmp with coreutils 9);
// split's are -a/--suffix-length (2) letters, or digits with
// -d/--numeric-suffixes[=FROM] or hex digits with -x/--hex-suffixes, then
// --additional-suffix (checked: `split -l1 -d -a3 --additional-suffix=.md
// n.md P` writes P000.md …). Pieces 0..99 for csplit; for split every
// suffix of its length when there are at most 1000, else none (the
// caller's NamePrefixes stand for them).
func splitSuffixes(g string, p ParsedOpts) []string {
	var out []string
	if g == "csplit" {
		format := "%02d"
		if v, ok := p.Last("n", "digits"); ok {
			format = "%0" + v + "d"
		}
		if v, ok := p.Last("b", "suffix-format"); ok {
			format = v
		}
		gofmt, ok := cFormat(format)
		if !ok {
			return nil
		}
		for n := 0; n < 100; n++ {
			out = append(out, fmt.Sprintf(gofmt, n))
		}
		return out
	}
	alphabet := "abcdefghijklmnopqrstuvwxyz"
	if p.Has("d", "numeric-suffixes") {
		alphabet = "0123456789"
	}
	if p.Has("x", "hex-suffixes") {
		alphabet = "0123456789abcdef"
	}
	length := 2
	if v, ok := p.Last("a", "suffix-length"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			length = n
		}
	}
	extra, _ := p.Last("", "additional-suffix")
	total := 1
	for i := 0; i < length; i++ {
		if total *= len(alphabet); total > 1000 {
			return nil
		}
	}
	for n := 0; n < total; n++ {
		suf, k := make([]byte, length), n
		for i := length - 1; i >= 0; i-- {
			suf[i] = alphabet[k%len(alphabet)]
			k /= len(alphabet)
		}
		out = append(out, string(suf)+extra)
	}
	return out
}

// cFormat turns a C printf format with one integer conversion
// (%[flags][width][.prec]d|i|u|o|x|X, csplit's -b) into Go's; false for
// anything else.
func cFormat(f string) (string, bool) {
	var b strings.Builder
	convs := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			b.WriteString("%%")
			i++
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ 0#'", f[j]) >= 0 {
			j++
		}
		for j < len(f) && (f[j] >= '0' && f[j] <= '9' || f[j] == '.') {
			j++
		}
		if j >= len(f) || strings.IndexByte("diuoxX", f[j]) < 0 {
			return "", false
		}
		verb := f[j]
		if verb == 'i' || verb == 'u' {
			verb = 'd'
		}
		b.WriteString(strings.ReplaceAll(f[i:j], "'", ""))
		b.WriteByte(verb)
		convs++
		i = j
	}
	return b.String(), convs == 1
}
