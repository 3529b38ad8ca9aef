package shell

import (
	"strings"
	"testing"
)

// TestExpansionBudget: expansions that would build strings past the work
// budget (4× input + 1 MB) are left unknown and set Overflow, so the guard
// blocks (shell.too-complex) instead of spending seconds and gigabytes —
// past Claude Code's hook timeout, which fails open. The commands after the
// bomb are still walked. The verdict is asserted, not the time: each case
// must finish well under a second of CPU.
func TestExpansionBudget(t *testing.T) {
	a50k := strings.Repeat("a", 50000)
	cases := []struct {
		name, cmd string
		overflow  bool
	}{
		{"pattern replacement squares the length", "x=" + a50k + "; echo ${x//a/$x}; rm -rf /", true},
		{"quoted replacement", "x=" + a50k + `; echo "${x//a/$x}"; rm -rf /`, true},
		{"nested replacement", "x=" + strings.Repeat("a", 2000) + `; echo "${x//a/${x//a/$x}}"; rm -rf /`, true},
		{"doubling assignments", "x=" + strings.Repeat("a", 1000) + strings.Repeat("; x=$x$x", 40) + "; rm -rf /", true},
		{"doubling in a loop", "x=" + strings.Repeat("a", 1000) + "; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do x=$x$x; done; rm -rf /", false},
		{"array of copies", "x=" + strings.Repeat("a", 100000) + "; a=(" + strings.Repeat("$x ", 200) + `); echo "${a[@]}" "${a[@]}"; rm -rf /`, true},
		{"brace expansion bomb", "echo " + strings.Repeat("{a,b}", 40) + "; rm -rf /", true},
		{"brace alternatives past the bound", "echo {" + strings.Repeat("x,", 5000) + "/}; rm -rf /", true},
		{"a thousand-word sequence is walked", "for i in {1..1000}; do echo $i; done; rm -rf /", false},
		{"small replacement is exact", "x=abc; rm -rf ${x//b/-}; rm -rf /", false},
		{"printf reusing a long format", "x=" + strings.Repeat("a", 20000) + `; y=$(printf "$x%s" ` + strings.Repeat("{1..4000} ", 5) + "); rm -rf /", true},
		{"printf -v reusing a long format", "x=" + strings.Repeat("a", 20000) + `; printf -v y "$x%s" ` + strings.Repeat("{1..4000} ", 5) + "; rm -rf /", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse(tc.cmd, Options{})
			if (r.Overflow != "") != tc.overflow {
				t.Fatalf("Overflow = %q, want overflow %v", r.Overflow, tc.overflow)
			}
			found := false
			for _, inv := range r.Invocations {
				if inv.Program == "rm" && len(inv.Args) == 2 && inv.Args[1].Value == "/" {
					found = true
				}
			}
			if !found {
				t.Fatalf("rm -rf / after the expansion not found: %v", progs(r))
			}
		})
	}
	r := Parse("x=abc; rm ${x//b/-}", Options{})
	if got := find(t, r, "rm").Args[0]; got.Value != "a-c" || !got.Known {
		t.Fatalf("${x//b/-} = %+v, want known a-c", got)
	}
}
