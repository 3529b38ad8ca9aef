package shell

import (
	"strings"
	"testing"
)

// TestMktempOutput: the name mktemp prints, by GNU coreutils' rules for
// the directory (no template: DIR, $TMPDIR, /tmp; -t: $TMPDIR first; -p /
// --tmpdir: DIR; a bare template: the current directory).
func TestMktempOutput(t *testing.T) {
	cases := []struct {
		cmd, want string
		known     bool
	}{
		{`mktemp`, "/tmp/tmp.XXXXXXXXXX", true},
		{`mktemp -d`, "/tmp/tmp.XXXXXXXXXX", true},
		{`mktemp -d -t x.XXX`, "/tmp/x.XXX", true},
		{`mktemp --directory --tmpdir=/var/tmp`, "/var/tmp/tmp.XXXXXXXXXX", true},
		{`mktemp -p /var/tmp y.XXX`, "/var/tmp/y.XXX", true},
		{`mktemp -p/var/tmp`, "/var/tmp/tmp.XXXXXXXXXX", true},
		{`mktemp -dp build`, "build/tmp.XXXXXXXXXX", true},
		{`mktemp --tmpdir z.XXX`, "/tmp/z.XXX", true},
		{`mktemp x.XXXX`, "x.XXXX", true},
		{`mktemp --suffix=.json`, "/tmp/tmp.XXXXXXXXXX.json", true},
		{`mktemp /abs/q.XXX`, "/abs/q.XXX", true},
		{`TMPDIR=/scratch; $(mktemp -d`, "/scratch/tmp.XXXXXXXXXX", true},
		{`TMPDIR=/scratch; $(mktemp -t -p /other a.XXX`, "/scratch/a.XXX", true},
		{`mktemp -t -p /other a.XXX`, "/other/a.XXX", true},
		{`TMPDIR=$X; $(mktemp -d`, "", false},
		{`mktemp -p "$D"`, "", false},
		// by the row's grammar (coreutils 9.1, run here): abbreviated long
		// options, options after the template; an ambiguous one is refused
		{`mktemp --tmp=/var/tmp x.XXX`, "/var/tmp/x.XXX", true},
		{`mktemp --suff=.sh -p /var/tmp`, "/var/tmp/tmp.XXXXXXXXXX.sh", true},
		{`mktemp --suffix .txt -p /var/tmp`, "/var/tmp/tmp.XXXXXXXXXX.txt", true},
		{`mktemp x.XXX -p /var/tmp`, "/var/tmp/x.XXX", true},
		{`mktemp --d x.XXX`, "", false},
	}
	for _, c := range cases {
		// "V=x; $(mktemp …": the assignment runs before the cd
		cmd := `cd "$(` + c.cmd + `)" && rm f`
		if pre, sub, ok := strings.Cut(c.cmd, "$("); ok {
			cmd = pre + `cd "$(` + sub + `)" && rm f`
		}
		r := Parse(cmd, Options{})
		inv := find(t, r, "rm")
		if c.known && inv.Dir != c.want || !c.known && inv.Dir != DirUnknown {
			t.Errorf("%s: dir %q, want %q (known %v)", c.cmd, inv.Dir, c.want, c.known)
		}
	}
}
