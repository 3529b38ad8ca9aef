package shell

import (
	"reflect"
	"testing"
)

// TestAltDirs: Invocation.AltDirs lists the directories a command may run in
// when an earlier cd may have failed, and is nil where the cd's success is
// certain.
func TestAltDirs(t *testing.T) {
	cases := []struct {
		cmd  string
		dir  string
		alts []DirAlt
	}{
		{"cd nope; rm f", "nope", []DirAlt{{}}},
		{"cd nope && rm f", "nope", nil},
		{"cd /x || exit; rm f", "/x", nil},
		{"if cd /x; then rm f; fi", "/x", nil},
		{"cd a; cd b && rm f", "a/b", []DirAlt{{Dir: "b"}}},
		{"cd a && cd b; rm f", "a/b", []DirAlt{{Dir: "a"}, {}}},
		{"cd /x; cd \"$T\"; rm f", DirUnknown, []DirAlt{{Dir: "/x"}, {}}},
		{"cd \"$T\"; cd sub; rm f", DirUnknown, []DirAlt{{Dir: "sub"}, {Dir: DirUnknown}, {}}},
		{"(cd /x); rm f", "", nil},
		{"cd /x | rm f", "", nil},
	}
	for _, c := range cases {
		r := Parse(c.cmd, Options{})
		var inv *Invocation
		for i := range r.Invocations {
			if r.Invocations[i].Program == "rm" {
				inv = &r.Invocations[i]
			}
		}
		if inv == nil {
			t.Fatalf("%q: no rm invocation", c.cmd)
		}
		if inv.Dir != c.dir || !reflect.DeepEqual(inv.AltDirs, c.alts) {
			t.Errorf("%q: dir %q alts %q, want %q %q", c.cmd, inv.Dir, inv.AltDirs, c.dir, c.alts)
		}
	}
}
