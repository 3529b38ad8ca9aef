package pathguard

import (
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestMktempDirectories: `mktemp -d` prints a new, empty directory under
// $TMPDIR or /tmp (or DIR of -p/--tmpdir, or the current directory for a
// bare template); a cd into it is a known directory, judged like any other
// (corpus README §3.3), and `$(mktemp)` is a known file target.
func TestMktempDirectories(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd  string
		vars map[string]string
		want verdict.Action
	}{
		// outside the root: allowed
		{`cd "$(mktemp -d)" && echo > README.md`, nil, verdict.Allow},
		{`cd "$(mktemp -d)" && : > .harness/feature_list.json`, nil, verdict.Allow},
		{`cd $(mktemp -d -t build.XXXXXX) && echo x > SKILL.md`, nil, verdict.Allow},
		{`cd "$(mktemp --directory)" && echo x > eval_log.jsonl`, nil, verdict.Allow},
		{`d=$(mktemp -d); cd "$d" && echo > README.md`, nil, verdict.Allow},
		{`cd "$(mktemp -d -p /var/tmp)" && echo > README.md`, nil, verdict.Allow},
		{`cd "$(mktemp -d --tmpdir=/var/tmp x.XXXX)" && echo > README.md`, nil, verdict.Allow},
		{`cd "$(mktemp -d --tmpdir)" && echo > README.md`, nil, verdict.Allow},
		{`cd "$(mktemp -d)" && echo > README.md`, map[string]string{"TMPDIR": "/var/tmp"}, verdict.Allow},
		{`echo x > "$(mktemp)"`, nil, verdict.Allow},
		{`f=$(mktemp --suffix=.json); echo '{}' > "$f"`, nil, verdict.Allow},
		// a base inside the root: the new directory is below it, judged
		{`cd "$(mktemp -d -p .harness/logs)" && echo x > notes.txt`, nil, verdict.Block},
		{`cd "$(mktemp -d -p .harness)" && echo x > notes.txt`, nil, verdict.Allow},
		{`cd "$(mktemp -d -p .harness)" && echo x > ../eval_log.jsonl`, nil, verdict.Block},
		{`cd "$(mktemp -d --tmpdir=schemas)" && echo x > a.json`, nil, verdict.Block},
		{`cd "$(mktemp -d -p build)" && echo x > README.md`, nil, verdict.Allow},
		{`cd spec && cd "$(mktemp -d x.XXXX)" && echo x > notes.txt`, nil, verdict.Block},
		{`cd "$(mktemp -d x.XXXX)" && echo x > notes.txt`, nil, verdict.Allow},
		{`TMPDIR=templates; cd "$(mktemp -d)" && echo x > notes.txt`, nil, verdict.Block},
		{`TMPDIR=$X; cd "$(mktemp -d)" && echo x > eval_log.jsonl`, nil, verdict.Block},
		{`cd "$(mktemp -d -t x.XXX)" && echo x > a`, map[string]string{"TMPDIR": "ROOT/.harness/features/f001"}, verdict.Block},
		{`echo x > "$(mktemp -p sub-skills)"`, nil, verdict.Block},
		{`echo x > "$(mktemp -p .harness)"`, nil, verdict.Allow},
		{`echo x > "$(mktemp -p src)"`, nil, verdict.Allow},
		// the directory the cd may have failed to leave is still judged
		{`cd "$(mktemp -d)"; echo > README.md`, nil, verdict.Block},
	}
	for _, c := range cases {
		vars := map[string]string{}
		for k, v := range c.vars {
			v = strings.ReplaceAll(v, "ROOT", root)
			vars[k] = v
		}
		if got := decideIn(g, c.cmd, root, vars).Action; got != c.want {
			t.Errorf("%q (vars %v): %v, want %v", c.cmd, c.vars, got, c.want)
		}
	}
}
