package pathguard

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// TestFoldMatchesXText checks foldRune against golang.org/x/text/cases
// (Unicode case folding) for every rune whose x/text folding is one rune:
// a rune and its x/text folding must fold to the same canonical rune, so
// every pair of names x/text calls equal the guard calls equal too. Runes
// whose full folding expands (ß → ss) are left to simple folding, like a
// case-insensitive file system's per-character comparison.
func TestFoldMatchesXText(t *testing.T) {
	n := 0
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		f := cases.Fold().String(string(r))
		fr, size := utf8.DecodeRuneInString(f)
		if size != len(f) {
			continue // expands to more than one rune
		}
		n++
		if foldRune(r) != foldRune(fr) {
			t.Errorf("U+%04X folds to U+%04X in x/text, but foldRune gives U+%04X and U+%04X", r, fr, foldRune(r), foldRune(fr))
		}
	}
	if n < 1000000 {
		t.Fatalf("only %d runes compared", n)
	}
	for _, c := range []struct{ a, b string }{
		{"\u017fchemas", "schemas"}, {"S\u212aILL.md", "skill.md"}, {"ΣΊΣΥΦΟΣ", "σίσυφος"}, {"ſpec", "SPEC"},
	} {
		if !namesEqual(c.a, c.b) {
			t.Errorf("namesEqual(%q, %q) = false", c.a, c.b)
		}
	}
	for _, c := range []struct{ a, b string }{{"sp\u0435c", "spec"}, {"schemas", "schema"}} {
		if namesEqual(c.a, c.b) {
			t.Errorf("namesEqual(%q, %q) = true", c.a, c.b)
		}
	}
}

// TestFoldWithoutSimpleMapping: a rune with no simple case folding is its
// own fold (U+0130 has only the full folding i + U+0307), while the runes
// with one still fold to ASCII.
func TestFoldWithoutSimpleMapping(t *testing.T) {
	for in, want := range map[string]string{
		"SK\u0130LL.md":  "sk\u0130ll.md",
		"\u0130ndex.md":  "\u0130ndex.md",
		"S\u212AILL.md":  "skill.md",
		"\u017Fchemas":   "schemas",
		"TEMPLATE\u017F": "templates",
	} {
		if got := foldName(in); got != want {
			t.Errorf("foldName(%q) = %q, want %q", in, got, want)
		}
	}
}
