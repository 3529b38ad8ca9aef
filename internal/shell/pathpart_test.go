package shell

import (
	"strings"
	"testing"
)

// TestPathPart compares pathPart with GNU coreutils basename/dirname
// outputs (checked by running them).
func TestPathPart(t *testing.T) {
	cases := []struct {
		dir  bool
		args string
		want string
		ok   bool
	}{
		{false, "/bin/rm", "rm\n", true},
		{false, "rm", "rm\n", true},
		{false, "/", "/\n", true},
		{false, "//", "/\n", true},
		{false, "a/b/", "b\n", true},
		{false, "x.sh .sh", "x\n", true},
		{false, ".sh .sh", ".sh\n", true},
		{false, "-a /x/y z/", "y\nz\n", true},
		{false, "-s .go a.go b/c.go", "a\nc\n", true},
		{false, "-- -rm", "-rm\n", true},
		{false, "a b c", "", false},
		{false, "-q a", "", false},
		{true, "/bin/rm", "/bin\n", true},
		{true, "rm", ".\n", true},
		{true, "/", "/\n", true},
		{true, "/a", "/\n", true},
		{true, "a/b c/d/", "a\nc\n", true},
	}
	for _, c := range cases {
		got, ok := pathPart(c.dir, strings.Fields(c.args))
		if got != c.want || ok != c.ok {
			t.Errorf("pathPart(%v, %q) = %q, %v; want %q, %v", c.dir, c.args, got, ok, c.want, c.ok)
		}
	}
}
