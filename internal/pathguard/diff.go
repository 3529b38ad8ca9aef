package pathguard

import (
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/shell"
)

// maxDiffSize bounds how much of a diff file named on a patch/git apply
// command line is read (testdata/corpus/README.md §3.3, §3.4).
const maxDiffSize = 4 << 20

// patch handles `patch [opts] [ORIGFILE [PATCHFILE]]`: an explicit target
// operand (or -o OUTFILE) is the target; otherwise the files named in the
// diff, read from -i FILE, a `<` redirection, or inline stdin (heredoc,
// here-string), after -pN stripping.
func (c *collector) patch(args []string) {
	p := c.parsed()
	if p.Has("", "dry-run") {
		return
	}
	base := c.base
	if d, ok := p.Last("d", "directory"); ok {
		base = absJoin(base, d)
	}
	for _, f := range p.Values("r", "reject-file") {
		c.addAt(base, f, opWrite, "patch -r")
	}
	if out, ok := p.Last("o", "output"); ok {
		c.addAt(base, out, opWrite, "patch -o")
		return
	}
	ops := p.OperandValues()
	if len(ops) >= 1 {
		c.addReplaced(base, ops[0], "patch")
		return
	}
	var text string
	if in, ok := p.Last("i", "input"); ok {
		text = c.readDiff(in)
	} else {
		text = c.stdinDiff()
	}
	strip := -1
	if v, ok := p.Last("p", "strip"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			strip = n
		}
	}
	for _, name := range diffNames(text) {
		for _, cand := range stripCandidates(name, strip, false) {
			c.addReplaced(base, cand, "patch")
		}
	}
}

// gitApply handles `git apply [opts] [PATCH…]` (default -p1; --cached and
// the report-only options write no worktree file).
func (c *collector) gitApply(p shell.ParsedOpts) {
	if p.Has("", "cached") {
		return
	}
	if p.Has("", "check", "stat", "numstat", "summary") && !p.Has("", "apply") {
		return
	}
	strip := 1
	if v, ok := p.Last("p"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			strip = n
		}
	}
	prefix, _ := p.Last("", "directory")
	var texts []string
	ops := p.OperandValues()
	if len(ops) == 0 {
		texts = append(texts, c.stdinDiff())
	}
	for _, f := range ops {
		if f == "-" {
			texts = append(texts, c.stdinDiff())
			continue
		}
		texts = append(texts, c.readDiff(f))
	}
	for _, text := range texts {
		for _, name := range diffNames(text) {
			for _, cand := range stripCandidates(name, strip, true) {
				if prefix != "" {
					cand = path.Join(prefix, cand)
				}
				c.add(cand, opWrite, "git apply")
			}
		}
	}
}

// stdinDiff is the diff text on the command's stdin: inline text, or the
// file of a `<` redirection.
func (c *collector) stdinDiff() string {
	if c.inv.Stdin != nil {
		return *c.inv.Stdin
	}
	for i := len(c.inv.Redirects) - 1; i >= 0; i-- {
		r := c.inv.Redirects[i]
		if r.Op == "<" && (r.Fd == "" || r.Fd == "0") {
			return c.readDiff(c.g.wordValue(r.Target, c.base))
		}
	}
	return ""
}

// readDiff reads a diff file named on the command line (relative to the
// base); a file that cannot be read yields no names.
func (c *collector) readDiff(name string) string {
	if name == "" || strings.Contains(name, placeholder) {
		return ""
	}
	f, _, err := fsutil.OpenRegular(absJoin(c.base, c.g.home(name))) // never blocks on a FIFO
	if err != nil {
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxDiffSize))
	if err != nil {
		return ""
	}
	return string(b)
}

// diffNames returns the file names a unified, context or git diff touches
// (before -p stripping): `--- X`, `+++ Y`, `diff --git a/X b/Y`, `*** X`,
// `Index: X`, and git's `rename to`/`copy to` (marked with a leading "\x00"
// because they carry no prefix to strip).
func diffNames(text string) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		n = strings.TrimSpace(n)
		if n == "" || n == "/dev/null" || strings.HasSuffix(n, "\x00/dev/null") || seen[n] {
			return
		}
		seen[n] = true
		names = append(names, n)
	}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "diff --git "):
			rest := line[len("diff --git "):]
			if i := strings.Index(rest, " b/"); i >= 0 {
				add(unquoteDiffName(rest[:i]))
				add(unquoteDiffName(rest[i+1:]))
			} else if f := strings.Fields(rest); len(f) == 2 {
				add(unquoteDiffName(f[0]))
				add(unquoteDiffName(f[1]))
			}
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "*** "):
			rest := line[4:]
			if strings.HasSuffix(strings.TrimSpace(rest), "****") || strings.HasSuffix(strings.TrimSpace(rest), "----") {
				continue // context diff hunk ranges
			}
			if i := strings.IndexByte(rest, '\t'); i >= 0 {
				rest = rest[:i]
			}
			add(unquoteDiffName(rest))
		case strings.HasPrefix(line, "Index: "):
			add(line[len("Index: "):])
		default:
			for _, pfx := range [...]string{"rename to ", "rename from ", "copy to "} {
				if rest, ok := strings.CutPrefix(line, pfx); ok {
					add("\x00" + unquoteDiffName(rest))
				}
			}
		}
	}
	return names
}

func unquoteDiffName(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// stripCandidates returns the names a diff entry may be written to: with
// -pN stripping when strip ≥ 0; without -p (patch), the name as is, with
// one component stripped and its base name, so that none is missed.
func stripCandidates(name string, strip int, git bool) []string {
	if rest, ok := strings.CutPrefix(name, "\x00"); ok {
		return []string{rest}
	}
	if strip >= 0 {
		return []string{stripN(name, strip)}
	}
	_ = git
	return []string{name, stripN(name, 1), path.Base(name)}
}

// stripN removes the smallest prefix containing n slashes (patch -pN).
func stripN(name string, n int) string {
	s := name
	for i := 0; i < n; i++ {
		j := strings.IndexByte(s, '/')
		if j < 0 {
			return ""
		}
		s = s[j+1:]
	}
	return s
}
