package shell

import (
	"strings"
	"testing"
)

// TestCodeCalls: the shell strings and mapped commands codeCalls finds in
// REPL and editor code, and the text it leaves alone.
func TestCodeCalls(t *testing.T) {
	spec := "system shell-command, delete-directory+=rm -r -f, REMOVE_RECURSE=rm -r -f"
	for _, c := range []struct{ src, want string }{
		{`call system("rm -rf b")`, "sh:rm -rf b"},
		{`call system('it''s')`, "sh:it's"},
		{`system "a \"b\" c"`, `sh:a "b" c`},
		{`(shell-command "x")`, "sh:x"},
		{`(delete-directory "d" t)`, "argv:rm -r -f d"},
		{`(delete-directory "d")`, ""},
		{`(delete-directory "d" nil)`, ""},
		{`file(REMOVE_RECURSE a b)`, "argv:rm -r -f a b"},
		{`echo "system('x')"`, ""},
		{`mysystem("x")`, ""},
		{`system(x)`, ""},
		{`system("unterminated`, ""},
	} {
		var got []string
		for _, cl := range codeCalls(spec, c.src) {
			if cl.argv != nil {
				got = append(got, "argv:"+strings.Join(cl.argv, " "))
			} else {
				got = append(got, "sh:"+cl.shell)
			}
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%q: got %q, want %q", c.src, g, c.want)
		}
	}
}

// FuzzCodeCalls: the scanner never panics and stays within its bound.
func FuzzCodeCalls(f *testing.F) {
	for _, s := range []string{`call system("rm -rf b")`, `(delete-directory "d" t)`, `file(REMOVE_RECURSE a)`, `"\`, `system(`, `system '`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if n := len(codeCalls("system, delete-directory+=rm -r -f, REMOVE=rm -f", src)); n > maxCodeCalls {
			t.Fatalf("%d calls", n)
		}
	})
}
