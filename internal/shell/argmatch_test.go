package shell

import "testing"

func TestArgMatch(t *testing.T) {
	rm := [][2]string{{"never", "never"}, {"no", "never"}, {"none", "never"}, {"once", "once"}, {"always", "always"}, {"yes", "always"}}
	for v, want := range map[string]string{
		"never": "never", "nev": "never", "n": "never", "no": "never", "non": "never",
		"o": "once", "a": "always", "y": "always", "": "", "x": "", "nevermore": "",
	} {
		if got := ArgMatch(v, rm...); got != want {
			t.Errorf("ArgMatch(%q) = %q, want %q", v, got, want)
		}
	}
	// A prefix of two spellings of different values is ambiguous.
	if got := ArgMatch("s", [2]string{"simple", "simple"}, [2]string{"symlink", "symlink"}); got != "" {
		t.Errorf("ambiguous prefix: %q", got)
	}
}
