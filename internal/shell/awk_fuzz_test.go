package shell

import "testing"

// FuzzAwkScan: the awk scan never panics and only reports commands and
// writes built from the program's text.
func FuzzAwkScan(f *testing.F) {
	for _, s := range []string{`BEGIN{system("rm -rf x")}`, `{print $1 > "f"}`, `"cmd" | getline`, `c="a" "b"; system(c)`, `/re/ {print}`, `print >`, `system(`, `"unterminated`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		s := AwkScanVars(code, map[string]string{"v": "x"})
		for _, c := range s.Commands {
			if c == "" {
				t.Fatalf("empty command from %q", code)
			}
		}
		_ = AwkPrograms([]string{"-v", code, code})
	})
}
