package pathguard

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names compare with Unicode case folding (testdata/corpus/README.md §9.4,
// overriding the ASCII-only comparison of §3.1): a case-insensitive volume
// such as APFS treats `ſchemas/` (U+017F LATIN SMALL LETTER LONG S) as
// `schemas/` and `S\u212AILL.md` (U+212A KELVIN SIGN) as `SKILL.md`.
//
// The folding is Unicode simple case folding from the standard library's
// tables (unicode.SimpleFold), checked rune by rune against
// golang.org/x/text/cases in TestFoldMatchesXText. x/text itself is not
// linked into the hook: its packages' init (cases, language and their
// internals) added about 0.12 ms, 13–18 page faults and 4–12 % CPU to every
// harness-hook process, ASCII names or not (docs/performance.md), while the
// standard tables are in the binary already. A name that is all ASCII takes
// the ASCII path and never reaches the Unicode tables.

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// foldName returns s case-folded: ASCII lower case when s is ASCII,
// Unicode simple case folding (foldRune) otherwise. Patterns of the rules table are lower-case
// ASCII, so a folded path matches them whatever its spelling.
func foldName(s string) string {
	if isASCII(s) {
		return asciiLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune maps r to the canonical member of its Unicode simple case
// folding orbit (unicode.SimpleFold): the lower case of the orbit's
// smallest rune, so that 'S', 's' and U+017F fold to 's', 'K', 'k' and
// U+212A to 'k'.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	if unicode.SimpleFold(r) == r {
		// no simple folding: the rune is its own fold. U+0130 LATIN
		// CAPITAL LETTER I WITH DOT ABOVE has only a full folding (i +
		// U+0307), so `SKİLL.md` is another name, though unicode.ToLower
		// maps it to a plain i
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return unicode.ToLower(m)
}

// namesEqual reports whether a and b name the same entry on a
// case-insensitive volume.
func namesEqual(a, b string) bool {
	if isASCII(a) && isASCII(b) {
		return asciiEqualFold(a, b)
	}
	return foldName(a) == foldName(b)
}

// relToFold is relTo for paths with non-ASCII names: base and p are compared
// component by component under case folding (folding may change a name's
// length, so the byte offsets of relTo do not apply). The rest of p is
// returned as it is spelt, slash-separated.
func relToFold(base, p string) (string, bool) {
	vb, vp := filepath.VolumeName(base), filepath.VolumeName(p)
	if !namesEqual(vb, vp) {
		return "", false
	}
	bc, pc := splitComponents(base[len(vb):]), splitComponents(p[len(vp):])
	if len(pc) < len(bc) {
		return "", false
	}
	for i, c := range bc {
		if !namesEqual(c, pc[i]) {
			return "", false
		}
	}
	if len(pc) == len(bc) {
		return ".", true
	}
	return strings.Join(pc[len(bc):], "/"), true
}
