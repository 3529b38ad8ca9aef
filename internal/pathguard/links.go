package pathguard

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// Symbolic links made by the command being judged (testdata/corpus/README.md §3.1:
// targets are resolved physically, "the way the kernel walks"). A link that
// an earlier part of the same command line creates does not exist yet when
// the guard runs, so `cd /tmp && ln -s ROOT r && echo x > r/schemas/a.json`
// would resolve r/schemas/a.json to nothing protected. ForCommand records
// those links in an overlay that resolution consults before the file system.

// madeLink is one name a command creates that resolves elsewhere the way a
// symbolic link does.
type madeLink struct {
	link  string // the new name: absolute, or relative to base
	base  string // directory a relative link name is joined to
	dest  string // the link text; a relative text is resolved from the link's directory
	known bool   // false when the link text is not literal (a variable, a substitution)
}

// overlayEntry is the link text of one created link ("" and !known when the
// text cannot be known).
type overlayEntry struct {
	dest  string
	known bool
}

// ForCommand returns the guard for the invocations of one Bash command
// (invs in the order shell.Parse found them; cwd as for CheckInvocation).
// bashguard.Decide calls it once per command, before CheckInvocation. The
// returned guard knows the symbolic links the command itself creates — `ln
// -s`/`-sf`/`-sfn`, `ln -s -t DIR`, `cp -s`, a link moved or copied as a
// link (`mv`, `cp -P/-d/-a/-R`),
// python os.symlink/Path.symlink_to, node fs.symlink(Sync), perl symlink,
// ruby File.symlink/FileUtils.ln_s — and resolves every later target through
// them as the kernel would once they exist (link text relative to the link's
// directory), in addition to resolving it on the file system as it is now;
// the stronger decision wins. A target below a created link whose text is
// not literal is refused (rule path.unresolvable): it could lead anywhere in
// the sprint root. Links are recorded regardless of where they occur in the
// command (a loop may run a later part first). g itself is returned when the
// command creates no link; g is never changed.
func (g *Guard) ForCommand(invs []shell.Invocation, cwd string) *Guard {
	if cwd == "" {
		cwd = g.rootLex
	}
	var n *Guard
	if g.feature != "" && cwd != g.sessionCwd && !samePath(cwd, g.rootLex) {
		cp := *g
		cp.sessionCwd = cwd // its .claude/ is read too (claude_config)
		cp.links = nil      // the links of this command only, below
		n = &cp
	}
	for _, inv := range invs {
		if elsewhere(inv.Via) || !mayLink(inv) {
			continue
		}
		cur := g
		if n != nil {
			cur = n
		}
		var made []madeLink
		c := collector{g: cur, inv: inv, cwd: cwd, base: invBase(cur.home(inv.Dir), cwd), made: &made}
		c.args = make([]string, len(inv.Args))
		for i, w := range inv.Args {
			c.args[i] = cur.wordValue(w, c.base)
		}
		c.program()
		for _, m := range made {
			if m.link == "" || strings.Contains(m.link, placeholder) {
				continue // a link whose own name is unknown cannot be placed
			}
			if n == nil {
				cp := *g
				cp.links = nil
				n = &cp
			}
			if n.links == nil {
				n.links = map[string]overlayEntry{}
			}
			key := n.linkKey(m.base, m.link)
			e := overlayEntry{dest: m.dest, known: m.known}
			if old, ok := n.links[key]; ok && old != e {
				e = overlayEntry{} // two different texts for one name: either may be in place
			}
			n.links[key] = e
		}
	}
	if n == nil {
		return g
	}
	return n
}

// linkKey is the overlay key of a link name: its directory resolved
// physically (through the links recorded so far), its own name appended,
// ASCII lower case (names compare case-insensitively, testdata/corpus/README.md §3.1).
func (g *Guard) linkKey(base, link string) string {
	abs := filepath.Clean(absJoin(base, link))
	dir, name := filepath.Dir(abs), filepath.Base(abs)
	phys, _, _ := g.physicalOverlay(dir)
	return foldName(filepath.Join(phys, name))
}

// mayLink is a cheap filter: only these invocations can create a link.
func mayLink(inv shell.Invocation) bool {
	switch p := inv.Program; {
	case p == "ln" || p == "gln" || p == "cp" || p == "gcp" || p == "mv" || p == "gmv":
		return true
	}
	if code := codeOf(inv); code != nil {
		for _, f := range code.Files {
			if f.Link != nil {
				return true
			}
		}
	}
	return false
}

// madeLinkAt records a link named link (relative to the invocation's
// directory) with text dest.
func (c *collector) madeLinkAt(link, dest string) {
	if c.made == nil || link == "" {
		return
	}
	switch path.Base(filepath.ToSlash(link)) {
	case ".", "..", "/":
		return // an existing directory: ln fails, no link is made there
	}
	known := dest != "" && !strings.Contains(dest, placeholder)
	if !known {
		dest = ""
	}
	*c.made = append(*c.made, madeLink{link: c.g.home(link), base: c.base, dest: c.g.home(dest), known: known})
}

// linkNames returns where a link to src is made when the command names
// dest: dest/<base of src> when dest is an existing directory (and -T is
// not given), dest itself otherwise; both when `-n` makes a symlink to a
// directory count as a file.
func (c *collector) linkNames(dest, src string, noTarget, noDeref bool) []string {
	if noTarget || !c.isDir(dest) {
		return []string{dest}
	}
	in := strings.TrimRight(dest, "/") + "/" + path.Base(filepath.ToSlash(src))
	if noDeref && !strings.HasSuffix(dest, "/") {
		return []string{in, dest}
	}
	return []string{in}
}

// symlinks records the links of `ln -s` / `cp -s`: ops are the operands,
// tdir the -t directory.
func (c *collector) symlinks(p shell.ParsedOpts, ops []string) {
	if c.made == nil {
		return
	}
	noTarget := p.Has("T", "no-target-directory")
	noDeref := p.Has("n", "no-dereference")
	if p.Has("r", "relative") {
		// ln -sr: the target is named relative to the working directory
		// (ln writes the equivalent text relative to the link)
		abs := make([]string, len(ops))
		for i, o := range ops {
			abs[i] = o
			if o != "" && !strings.Contains(o, placeholder) && i < len(ops)-1 {
				abs[i] = Normalize(c.base, c.g.home(o))
			}
		}
		if _, ok := p.Last("t", "target-directory"); ok || len(ops) == 1 {
			if len(ops) > 0 && ops[len(ops)-1] != "" && !strings.Contains(ops[len(ops)-1], placeholder) {
				abs[len(ops)-1] = Normalize(c.base, c.g.home(ops[len(ops)-1]))
			}
		}
		ops = abs
	}
	if tdir, ok := p.Last("t", "target-directory"); ok {
		for _, s := range ops {
			c.madeLinkAt(strings.TrimRight(tdir, "/")+"/"+path.Base(filepath.ToSlash(s)), s)
		}
		return
	}
	switch len(ops) {
	case 0:
		return
	case 1:
		c.madeLinkAt(path.Base(filepath.ToSlash(ops[0])), ops[0])
		return
	}
	dest, srcs := ops[len(ops)-1], ops[:len(ops)-1]
	for _, s := range srcs {
		if len(srcs) > 1 {
			c.madeLinkAt(strings.TrimRight(dest, "/")+"/"+path.Base(filepath.ToSlash(s)), s)
			continue
		}
		for _, l := range c.linkNames(dest, s, noTarget, noDeref) {
			c.madeLinkAt(l, s)
		}
	}
}

// movedLinks records the destinations of mv / cp -P (copy as link) whose
// source is a symbolic link, on disk or made earlier in the command: the
// destination becomes a link with the same text.
func (c *collector) movedLinks(p shell.ParsedOpts, ops []string) {
	if c.made == nil {
		return
	}
	dest, hasT := p.Last("t", "target-directory")
	srcs := ops
	if !hasT {
		if len(ops) < 2 {
			return
		}
		dest, srcs = ops[len(ops)-1], ops[:len(ops)-1]
	}
	noTarget := p.Has("T", "no-target-directory")
	for _, s := range srcs {
		if s == "" {
			continue
		}
		var names []string
		if hasT || len(srcs) > 1 {
			names = []string{strings.TrimRight(dest, "/") + "/" + path.Base(filepath.ToSlash(s))}
		} else {
			names = c.linkNames(dest, s, noTarget, false)
		}
		text, ok, isLink := c.linkText(s)
		if !isLink {
			c.treeLinks(s, names) // a directory (also one made earlier in the command) keeps its links
			continue
		}
		if !ok {
			text = placeholder
		}
		for _, l := range names {
			c.madeLinkAt(l, text)
		}
	}
}

// maxTreeEntries bounds the entries treeLinks looks at below one moved or
// copied directory (a larger tree is not searched further for links).
const maxTreeEntries = 1024

// treeLinks records, for a directory src moved or copied with its links
// (mv, cp -r/-a/-P), the links below it — on disk and made earlier in the
// command — under each new name: their texts stay the same, so a relative
// text now resolves from the new place, as the kernel would.
func (c *collector) treeLinks(src string, names []string) {
	abs := filepath.Clean(absJoin(c.base, c.g.home(src)))
	phys, loop, via := c.g.physicalOverlay(abs)
	if loop || via == viaUnknown {
		return
	}
	add := func(rel, text string) {
		for _, nm := range names {
			c.madeLinkAt(strings.TrimRight(nm, "/")+"/"+rel, text)
		}
	}
	n := 0
	_ = filepath.WalkDir(phys, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry: nothing to record
		}
		if n++; n > maxTreeEntries {
			return filepath.SkipAll
		}
		if p == phys || d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		text, err := os.Readlink(p)
		if err != nil {
			return nil
		}
		if rel, err := filepath.Rel(phys, p); err == nil {
			add(filepath.ToSlash(rel), text)
		}
		return nil
	})
	pfx := foldName(phys) + string(filepath.Separator)
	for k, e := range c.g.links {
		if rel, ok := strings.CutPrefix(k, pfx); ok {
			text := e.dest
			if !e.known {
				text = placeholder
			}
			add(filepath.ToSlash(rel), text)
		}
	}
}

// linkText returns the text of the symbolic link s (relative to the
// invocation's directory) when it is one, on disk or in the overlay: text,
// whether the text is known, whether s is a link at all.
func (c *collector) linkText(s string) (string, bool, bool) {
	abs := filepath.Clean(absJoin(c.base, c.g.home(s)))
	if c.g.links != nil {
		if e, ok := c.g.links[c.g.linkKey(c.base, c.g.home(s))]; ok {
			return e.dest, e.known, true
		}
	}
	dir, name := filepath.Dir(abs), filepath.Base(abs)
	phys, _, _ := c.g.physicalOverlay(dir)
	p := filepath.Join(phys, name)
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", false, false
	}
	text, err := os.Readlink(p)
	if err != nil {
		return "", false, true
	}
	return text, true, true
}

// judgeOverlay decides a Bash target through the links the command creates
// (ForCommand); the caller has judged it on the file system as it is now.
// A link the invocation creates itself (own, overlay keys) is not followed
// for its own name by the writer that creates it (createsLink): the new name replaces what was there (`ln -s
// ROOT/SKILL.md /tmp/l` writes /tmp/l, not SKILL.md).
func (g *Guard) judgeOverlay(base, p string, o op, what string, own map[string]bool) verdict.Decision {
	tool := "Bash (" + what + ")"
	abs := absJoin(base, p)
	var phys string
	var loop bool
	var via int
	clean := filepath.Clean(abs)
	dir, name := filepath.Dir(clean), filepath.Base(clean)
	if createsLink(what) && own[g.linkKey(base, p)] {
		phys, loop, via = g.physicalOverlay(dir)
		if !loop && via == viaKnown {
			phys, loop = physicalFrom(phys, name)
		} else {
			phys = filepath.Join(phys, name)
		}
	} else {
		phys, loop, via = g.physicalOverlay(abs)
	}
	if via == viaNone {
		return verdict.Decision{}
	}
	t := target{given: p, lex: clean, phys: phys, loop: loop, cwd: base}
	if via == viaUnknown {
		return g.block(unknownLinkRule(), t, o, tool, "", "")
	}
	return g.judge(t, o, tool, nil)
}

// createsLink reports a target that is the new name of a symbolic link its
// writer makes (ln, cp -s, an interpreter's symlink call) — by the `what`
// of the target, so that a write through that name by the same
// interpreter code is still followed.
func createsLink(what string) bool {
	switch what {
	case "ln", "ln (destination)", "cp -s (destination)", "python Path.symlink_to":
		return true
	}
	return strings.HasSuffix(what, " symlink")
}

// ownLinks returns the overlay keys of the links in made.
func (g *Guard) ownLinks(made []madeLink) map[string]bool {
	if len(made) == 0 {
		return nil
	}
	own := make(map[string]bool, len(made))
	for _, m := range made {
		if m.link != "" && !strings.Contains(m.link, placeholder) {
			own[g.linkKey(m.base, m.link)] = true
		}
	}
	return own
}

// unknownLinkRule is used for a target below a link the command creates
// with a text the guard cannot know.
func unknownLinkRule() Rule {
	return genUnknownLinkRule()
}

// How a resolution used the overlay of created links.
const (
	viaNone    = iota // no created link on the way
	viaKnown          // through created links with literal texts
	viaUnknown        // through a created link whose text is unknown
)

// physicalOverlay resolves p like physical, consulting the created links
// first (without any, exactly like physical).
func (g *Guard) physicalOverlay(p string) (string, bool, int) {
	resolved, rest := g.startBelowRoot(p)
	return physicalWalk(resolved, rest, g.links)
}
