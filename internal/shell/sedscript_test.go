package shell

import (
	"slices"
	"testing"
)

// TestSedWrites: the files of w, W and s///w (GNU sed), after any address,
// in -e fragments and multi-line scripts; text in regexes, replacements and
// a/i/c is not a command.
func TestSedWrites(t *testing.T) {
	for _, c := range []struct {
		script string
		want   []string
	}{
		{"/x/w SKILL.md", []string{"SKILL.md"}},
		{"s/a/b/w spec/changes.txt", []string{"spec/changes.txt"}},
		{"s/a/b/gw out.txt", []string{"out.txt"}},
		{"1w .harness/runtime_state.json", []string{".harness/runtime_state.json"}},
		{"W templates/first.txt", []string{"templates/first.txt"}},
		{"1,/end/{\n  s|x|y|w a.txt\n  w b.txt\n}", []string{"a.txt", "b.txt"}},
		{"$!N; P; D", nil},
		{"s/w x/y/; p", nil},
		{"s/a/b/; 2!w c.txt", []string{"c.txt"}},
		{"\\,x,w d.txt", []string{"d.txt"}},
		{"a\\\nw not-a-file", nil},
		{"i w nope", nil},
		{"# w comment\np", nil},
		{"y/abc/xyz/;w e.txt", []string{"e.txt"}},
		{"s/a/b", nil}, // unterminated
		{"s/a/b/e", nil},
	} {
		if got := SedWrites(c.script); !slices.Equal(got, c.want) {
			t.Errorf("SedWrites(%q) = %q, want %q", c.script, got, c.want)
		}
	}
	cmds := ParseSed("s/x/rm -rf dist/e; 1e touch M")
	if len(cmds) != 2 || cmds[0].Flags != "e" || cmds[1].Name != 'e' || cmds[1].Arg != "touch M" {
		t.Errorf("ParseSed e: %+v", cmds)
	}
}

// FuzzParseSed: any script is read without panicking, in linear steps.
func FuzzParseSed(f *testing.F) {
	for _, s := range []string{"s/a/b/w x", "1,$!{w y\n}", "\\%a%d", "a\\", "s", "y/a/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = ParseSed(s)
		_ = SedWrites(s)
	})
}
