package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// judgedIn is judged with the command starting in cwd (the payload's cwd).
func judgedIn(t *testing.T, cwd string, cases map[string]verdict.Action) {
	t.Helper()
	for cmd, want := range cases {
		d := Decide(cmd, Context{Feature: "f002", Cwd: cwd}).Decision
		if d.Action != want {
			t.Errorf("in %s: %q: %s (%s), want %s", cwd, cmd, d.Action, d.Rule, want)
		}
	}
}

// TestWrittenFileRelativeAndAbsoluteName: a file written earlier in the
// command is the same file whether it is named relative to the starting
// directory or by its absolute path, in either direction, and after a cd.
func TestWrittenFileRelativeAndAbsoluteName(t *testing.T) {
	judgedIn(t, "/r", map[string]verdict.Action{
		`printf 'rm -rf d' > s.sh && bash /r/s.sh`:                                              verdict.Block,
		`printf 'rm -rf d' > /r/s.sh && bash ./s.sh`:                                            verdict.Block,
		`printf 'git reset --hard' > /r/x/s.sh; cd x; sh s.sh`:                                  verdict.Block,
		`printf '[alias]\n\tx = !rm -rf d\n' > src/g.cfg && git -c include.path=/r/src/g.cfg x`: verdict.Block,
		`printf '[alias]\n\tx = !rm -rf d\n' > /r/src/g.cfg && git -c include.path=src/g.cfg x`: verdict.Block,
		`cd /r/src && printf 'rm -rf d' > s.sh && bash /r/src/s.sh`:                             verdict.Block,

		`printf 'rm -rf d' > s.sh && bash /q/s.sh`:                                              verdict.Allow,
		`printf '[alias]\n\tx = !rm -rf d\n' > src/g.cfg && git -c include.path=/q/src/g.cfg x`: verdict.Allow,
		`printf 'rm -rf d' > /r/s.sh && cd sub && bash s.sh`:                                    verdict.Allow,
	})
}
