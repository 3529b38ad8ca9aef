package shell

import (
	"slices"
	"testing"
)

// TestFallbackEscapedQuote: an escaped quote followed by a quote with no
// partner (`0\""`, found by fuzzing) panicked the token scan with a slice
// out of range; the scan must still find the commands around it.
func TestFallbackEscapedQuote(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want []string // programs, in order
	}{
		{"x; 0\\\"\"", []string{"x", "0\"\""}},
		{"rm -rf a; echo \\\"\"", []string{"rm", "echo"}},
		{"echo '\\'' ; rm -rf b \"", []string{"echo", "rm"}},
	} {
		r := Parse(c.cmd, Options{})
		if r.ParseError == nil {
			t.Errorf("%q: expected a syntax error (the token scan is under test)", c.cmd)
		}
		var got []string
		for _, inv := range r.Invocations {
			got = append(got, inv.Program)
		}
		if len(got) == 0 || got[0] != c.want[0] || !slices.Contains(got, c.want[1]) {
			t.Errorf("%q: programs %q, want %q first and %q among them", c.cmd, got, c.want[0], c.want[1])
		}
	}
}

// FuzzParse: Parse never panics and is deterministic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"x; 0\\\"\"", `cd nope; rm f`, `echo "a\"b`, "cat <<EOF\nx\nEOF", `a 'b`, `$(`, "cd \"$(mktemp -d)\" && echo > f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 1<<12 {
			t.Skip()
		}
		a, b := Parse(cmd, Options{Cwd: "/w"}), Parse(cmd, Options{Cwd: "/w"})
		if len(a.Invocations) != len(b.Invocations) || a.Overflow != b.Overflow {
			t.Fatalf("non-deterministic parse of %q", cmd)
		}
	})
}
