package pathguard

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/verdict"
)

// maxLinks bounds the symlinks followed while resolving one path, like the
// kernel's MAXSYMLINKS (40 on Linux). A path that needs more is a loop.
const maxLinks = 40

// maxSteps bounds the components walked (and Lstat calls made) for one
// path; the kernel refuses paths longer than PATH_MAX (4096 bytes) anyway.
// A path that needs more is treated like a loop: unresolvable.
const maxSteps = 4096

// target is one path the guard judges, in the two forms of testdata/corpus/README.md §3.1.
type target struct {
	// given is the path as the tool call or command named it (for messages).
	given string
	// lex is the lexical form L: absolute, `.`/`..`/`//` normalised as text.
	lex string
	// phys is the physical form F: symlinks resolved component by component
	// the way the kernel walks (a `..` after a link goes to the parent of the
	// link's target); a missing tail is appended to the longest existing prefix.
	phys string
	// loop is true when resolution gave up on a symlink loop (more than
	// maxLinks links); phys then holds the path as far as it was resolved
	// with the unresolved rest appended.
	loop bool
	// linked marks a target found as another name of a hard-linked file
	// (judgeHardLink): it is not searched again.
	linked bool
	// cwd is the directory a relative path was joined to (the payload's
	// cwd, or the directory a Bash command has cd'd to): Claude Code reads
	// its .claude/ too (rule claude_config).
	cwd string
}

// absJoin makes p absolute against base (the cwd); base itself is made
// absolute against the process working directory only as a last resort.
func absJoin(base, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if vol := filepath.VolumeName(p); vol != "" {
		// Windows "C:foo" (drive-relative) or "\\host\share" forms: no cwd join.
		return p
	}
	if base == "" {
		base = "."
	}
	if !filepath.IsAbs(base) {
		if a, err := filepath.Abs(base); err == nil {
			base = a
		}
	}
	return base + string(filepath.Separator) + p
}

// resolve computes both forms of p (joined to base when relative).
func (g *Guard) resolve(base, p string) target {
	abs := absJoin(base, p)
	t := target{given: p, lex: filepath.Clean(abs), cwd: base}
	t.phys, t.loop = g.physical(abs)
	return t
}

// physical resolves symlinks in the absolute path p component by component.
// It starts below the root when p begins with one of the root's forms (the
// root's physical form is computed once by New), so a target inside the
// workspace costs one Lstat per component below the root and none above it.
func (g *Guard) physical(p string) (string, bool) {
	resolved, rest := g.startBelowRoot(p)
	return physicalFrom(resolved, rest)
}

// startBelowRoot returns an already-resolved prefix and the rest of p.
func (g *Guard) startBelowRoot(p string) (string, string) {
	if g != nil {
		for _, r := range [...]string{g.rootPhys, g.rootLex} {
			if r == "" {
				continue
			}
			if p == r {
				return g.rootPhys, ""
			}
			if strings.HasPrefix(p, r) && isSep(p[len(r)]) {
				return g.rootPhys, p[len(r)+1:]
			}
			if len(r) > 0 && isSep(r[len(r)-1]) && strings.HasPrefix(p, r) {
				return g.rootPhys, p[len(r):]
			}
		}
	}
	vol := filepath.VolumeName(p)
	return vol + string(filepath.Separator), p[len(vol):]
}

// physicalFrom walks rest below the symlink-free directory resolved.
func physicalFrom(resolved, rest string) (string, bool) {
	p, loop, _ := physicalWalk(resolved, rest, nil)
	return p, loop
}

// physicalWalk walks rest below the symlink-free directory resolved. made
// holds the symbolic links the judged command creates (ForCommand; keys are
// ASCII-lower-case physical paths): a component found there is followed
// with its recorded text before the file system is asked, also below a
// directory that does not exist yet. The third result tells whether a
// created link was followed (viaKnown) or one with an unknown text was
// reached (viaUnknown, where the walk stops).
func physicalWalk(resolved, rest string, made map[string]overlayEntry) (string, bool, int) {
	comps := splitComponents(rest)
	links, steps := 0, 0
	missing := false
	via := viaNone
	for len(comps) > 0 {
		c := comps[0]
		comps = comps[1:]
		if steps++; steps > maxSteps && !missing {
			return filepath.Join(append([]string{resolved, c}, comps...)...), true, via
		}
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, c)
		var dest string
		e, ok := overlayEntry{}, false
		if made != nil {
			e, ok = made[foldName(next)]
		}
		if ok {
			if !e.known {
				return filepath.Join(append([]string{next}, comps...)...), false, viaUnknown
			}
			via = viaKnown
			if links++; links > maxLinks {
				return filepath.Join(append([]string{next}, comps...)...), true, via
			}
			dest, missing = e.dest, false
		} else {
			if missing {
				resolved = next
				continue
			}
			fi, err := os.Lstat(next)
			if err != nil {
				missing = true
				resolved = next
				continue
			}
			if fi.Mode()&os.ModeSymlink == 0 {
				resolved = next
				continue
			}
			links++
			if links > maxLinks {
				return filepath.Join(append([]string{next}, comps...)...), true, via
			}
			dest, err = os.Readlink(next)
			if err != nil || dest == "" {
				missing = true
				resolved = next
				continue
			}
		}
		if filepath.IsAbs(dest) || filepath.VolumeName(dest) != "" {
			vol := filepath.VolumeName(dest)
			resolved = vol + string(filepath.Separator)
			dest = dest[len(vol):]
		}
		comps = append(splitComponents(dest), comps...)
	}
	return resolved, false, via
}

// splitComponents splits a path on every separator the OS accepts.
func splitComponents(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r < 0x80 && isSep(byte(r)) })
}

func isSep(c byte) bool { return c == '/' || c == filepath.Separator }

// relTo returns p relative to base as a slash-separated path ("." for base
// itself) when p is base or lies below it on a component boundary. Names are
// compared case-insensitively (testdata/corpus/README.md §3.1), with Unicode
// case folding when either path is not ASCII (§9.4, relToFold).
func relTo(base, p string) (string, bool) {
	if base == "" {
		return "", false
	}
	if !isASCII(base) || !isASCII(p) {
		return relToFold(base, p)
	}
	if len(p) < len(base) {
		return "", false
	}
	if !asciiEqualFold(p[:len(base)], base) {
		return "", false
	}
	if len(p) == len(base) {
		return ".", true
	}
	if isSep(base[len(base)-1]) { // base is a volume root such as "/" or `C:\`
		return filepath.ToSlash(p[len(base):]), true
	}
	if !isSep(p[len(base)]) {
		return "", false
	}
	return filepath.ToSlash(p[len(base)+1:]), true
}

// Normalize returns the lexical form of p joined to base: absolute, with
// `.`, `..` and repeated separators removed as text (testdata/corpus/README.md §3.1
// step 2). It never touches the file system.
func Normalize(base, p string) string {
	return filepath.Clean(absJoin(base, p))
}

// asciiEqualFold compares two strings of equal length ASCII
// case-insensitively: the fast path of namesEqual for ASCII names.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Physical returns the absolute path abs with its symbolic links resolved
// the way the kernel walks it (a `..` after a link goes to the parent of the
// link's target; a missing tail is appended), or "" on a link loop. The Bash
// parser uses it for `cd -P` (shell.Options.Physical).
func (g *Guard) Physical(abs string) string {
	if !filepath.IsAbs(abs) {
		return ""
	}
	p, loop := g.physical(abs)
	if loop {
		return ""
	}
	return filepath.ToSlash(p)
}

// backslashSeparated returns p with every backslash read as a directory
// separator, the way Windows reads a path, and whether p has a backslash.
// Every target with one is judged in that reading too, on every OS, so
// that a verdict does not depend on where the guard runs (the rule
// testdata/corpus/README.md §3.1 states for the case of names): on Linux
// `templates\page.md` is a root file of that name, on Windows it is
// templates/page.md, and the stronger verdict wins.
func backslashSeparated(p string) (string, bool) {
	if !strings.Contains(p, `\`) {
		return "", false
	}
	return strings.ReplaceAll(p, `\`, "/"), true
}

// backslashReading says in a block's message that it comes from the
// backslash reading (backslashSeparated).
func backslashReading(d verdict.Decision) verdict.Decision {
	d.Message += " (its backslashes read as directory separators, as Windows reads them)"
	return d
}
