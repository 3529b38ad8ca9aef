package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/superagent-harness/harness/internal/verdict"
)

// Hard links (testdata/corpus/README.md §9.4 "Links"): a write to a path
// whose inode is a protected file's is a write to that file, whatever the
// path is called. Only a regular file with more than one link can be such
// an alias, so the common write (a new file, or a file with one name) costs
// one Lstat; for the rare multi-link target the guard looks for another name
// of the same file (os.SameFile) among the protected places, within a bound.

// maxLinkSearch bounds the entries visited looking for the other names of
// one hard-linked target.
const maxLinkSearch = 20000

// errLinkSearchBound stops the search at maxLinkSearch entries.
var errLinkSearchBound = errors.New("hard-link search bound reached")

// linkedName returns a protected place's name of the file t names when t is
// an existing regular file with more than one hard link: found is the other
// name (absolute), or gaveUp is true when the search hit its bound.
func (g *Guard) linkedName(t target) (found string, gaveUp bool) {
	p := t.phys
	if p == "" {
		p = t.lex
	}
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || linkCount(fi) < 2 {
		return "", false
	}
	visited := 0
	var hit string
	search := func(start string) bool {
		err := filepath.WalkDir(start, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable: nothing to compare there
			}
			if visited++; visited > maxLinkSearch {
				return errLinkSearchBound
			}
			if !d.Type().IsRegular() || q == p {
				return nil
			}
			if qi, err := d.Info(); err == nil && os.SameFile(fi, qi) {
				hit = q
				return fs.SkipAll
			}
			return nil
		})
		if errors.Is(err, errLinkSearchBound) {
			gaveUp = true
			return true
		}
		return hit != ""
	}
	for _, start := range g.protectedPlaces() {
		if search(start) {
			break
		}
	}
	return hit, gaveUp && hit == ""
}

// protectedPlaces are the files and folders whose files the rules protect:
// the root's entry points and read-only folders, .harness/, the root's
// .claude/, and the Claude Code settings and configuration directories
// outside the root.
func (g *Guard) protectedPlaces() []string {
	ps := []string{
		filepath.Join(g.rootPhys, "SKILL.md"), filepath.Join(g.rootPhys, "README.md"),
		filepath.Join(g.rootPhys, ".harness"), filepath.Join(g.rootPhys, ".claude"),
	}
	for _, d := range []string{"schemas", "templates", "spec", "protocols", "sub-skills"} {
		ps = append(ps, filepath.Join(g.rootPhys, d))
	}
	for _, d := range g.settingsDirs {
		ps = append(ps, d.phys())
	}
	if g.homeDir != "" {
		ps = append(ps, filepath.Join(g.homeDir, ".claude.json"))
	}
	if g.configDir != "" {
		ps = append(ps, g.configDir)
	}
	return ps
}

// judgeHardLink judges a write to t as a write to the protected file that
// shares its inode; ok is false when there is none. A search that hits its
// bound is refused: the file may be one.
func (g *Guard) judgeHardLink(t target, o op, tool string, edits []edit) (verdict.Decision, bool) {
	switch o {
	case opWrite, opAppend, opEdit, opNotebook:
	default:
		return verdict.Decision{}, false // removing or moving one name leaves the file's content alone
	}
	other, gaveUp := g.linkedName(t)
	switch {
	case gaveUp:
		return g.block(unresolvableRule(), t, o, tool, "", "the file has several hard links and the guard could not search all protected places for them"), true
	case other == "":
		return verdict.Decision{}, false
	}
	at := g.resolve(filepath.Dir(other), other)
	at.given, at.linked = t.given, true
	d := g.judge(at, o, tool, edits)
	if d.Action != verdict.Block {
		return verdict.Decision{}, false
	}
	d.Message += " (a hard link of " + other + ")"
	return d, true
}

// maxFollowWalk bounds the entries visited below one `find -L` start point.
const maxFollowWalk = 20000

// linksBelow returns the physical targets of the symbolic links found at or
// below the directory dir (`find -L` descends through them, the way the
// kernel resolves them: testdata/corpus/README.md §9.4). A link below a
// followed link is found when its target tree is judged in turn (a tree
// operation on it covers it). The walk stops after maxFollowWalk entries:
// links deeper in a larger tree are not looked for (a documented bound, not
// a silent one: docs/protocol.md §15 limits).
func (g *Guard) linksBelow(dir string) []string {
	var out []string
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maxFollowWalk {
			return fs.SkipAll
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if phys, loop := g.physical(p); !loop && phys != "" {
				out = append(out, phys)
			}
		}
		return nil
	})
	return out
}
