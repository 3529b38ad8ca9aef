package pathguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestFailedCd: a cd may fail (missing directory, no permission) and bash
// then stays where it was and runs on after `;`, a newline, `||` and `&`.
// A relative target is judged in every directory the command may run in
// (shell.Invocation.AltDirs); only `cd X && …`, `if cd X; then …` and
// `cd X || exit` make X certain (corpus README §3.3).
func TestFailedCd(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd  string
		want verdict.Action
	}{
		// the cd may fail: the root stays possible
		{"cd nope 2>/dev/null; rm .harness/feature_list.json", verdict.Block},
		{"cd /nonexistent; echo x > SKILL.md", verdict.Block},
		{"cd /nonexistent\necho x > SKILL.md", verdict.Block},
		{"cd /nonexistent || true; echo x > SKILL.md", verdict.Block},
		{"cd /nonexistent || echo failed; echo x > SKILL.md", verdict.Block},
		{"cd /nonexistent & echo x > SKILL.md", verdict.Block},
		{"cd /nonexistent || echo x > SKILL.md", verdict.Block},
		{"cd /tmp && cd nope; rm -f .harness/feature_list.json", verdict.Block},
		{"cd /tmp && true; echo x > SKILL.md", verdict.Block},
		{"cd src; cd ..; : > .harness/eval_log.jsonl", verdict.Block},
		{"pushd /nonexistent; echo x > README.md", verdict.Block},
		{"if cd /tmp; then :; fi; echo x > SKILL.md", verdict.Block},
		{"cd /tmp; (true) && echo x > SKILL.md", verdict.Block},
		{"cd /a; cd /b; cd /c; cd /d; cd /e; cd /f; cd /g; cd /h; cd /i; cd /j; echo x > SKILL.md", verdict.Block},
		{"cd a; cd b; cd c; cd d; cd e; echo > .harness/eval_log.jsonl", verdict.Block},
		// relative cds move every possible directory along
		{"cd nope; cd .harness; : > eval_log.jsonl", verdict.Block},
		{"cd /tmp; cd " + root + "/.harness && : > eval_log.jsonl", verdict.Block},
		// the cd's success is certain
		{"cd /tmp && echo x > SKILL.md", verdict.Allow},
		{"cd /tmp && rm -f .harness/feature_list.json", verdict.Allow},
		{"if cd /tmp; then echo x > SKILL.md; fi", verdict.Allow},
		{"cd /tmp || exit 1; echo x > SKILL.md", verdict.Allow},
		{"cd /tmp || { echo no /tmp >&2; exit 1; }\necho x > SKILL.md", verdict.Allow},
		{"cd /tmp && cd /var && echo x > SKILL.md", verdict.Allow},
		{"cd /tmp; cd /var && echo x > SKILL.md", verdict.Allow},
		{"cd /tmp; cd .harness && : > eval_log.jsonl", verdict.Block},
		// unprotected targets stay allowed wherever the command runs
		{"cd build; make", verdict.Allow},
		{"cd build; echo x > out.txt", verdict.Allow},
		{"cd build 2>/dev/null; rm -f out.o; cd ..; echo done > build.log", verdict.Allow},
		{"cd src\ngo build ./... > build.log 2>&1", verdict.Allow},
		{"cd nope; echo x > /tmp/SKILL.md", verdict.Allow},
	}
	for _, c := range cases {
		if got := decideIn(g, c.cmd, root, nil).Action; got != c.want {
			t.Errorf("%q: %v, want %v", c.cmd, got, c.want)
		}
	}
}
