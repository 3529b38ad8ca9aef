package records

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// TestTrimSpaceIsStringsTrimSpace holds trimSpace to strings.TrimSpace on
// every rune unicode.IsSpace knows and its neighbours at either end, on
// invalid bytes there, and on random strings of such pieces.
func TestTrimSpaceIsStringsTrimSpace(t *testing.T) {
	var pieces []string
	for r := rune(0); r <= 0x3100; r++ {
		if unicode.IsSpace(r) || unicode.IsSpace(r-1) || unicode.IsSpace(r+1) {
			pieces = append(pieces, string(r))
		}
	}
	for c := 0x80; c <= 0xff; c++ {
		pieces = append(pieces, string([]byte{byte(c)}))
	}
	pieces = append(pieces, "a", "第", "毕", "通过", "ok", "\x7f", "\u2000\u3000", "\xe3\x80", "\xe2\x80")
	check := func(s string) {
		if got, want := trimSpace(s), strings.TrimSpace(s); got != want {
			t.Fatalf("trimSpace(%q) = %q, strings.TrimSpace %q", s, got, want)
		}
	}
	check("")
	for _, a := range pieces {
		check(a)
		for _, b := range pieces {
			check(a + "x" + b)
			check(a + b)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		var sb strings.Builder
		for k := r.IntN(6); k >= 0; k-- {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		check(sb.String())
	}
}
