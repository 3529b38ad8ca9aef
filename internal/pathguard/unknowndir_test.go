package pathguard

import (
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// decideIn parses cmd with the payload cwd known (as bashguard.Decide does)
// and judges every invocation.
func decideIn(g *Guard, cmd, cwd string, vars map[string]string) verdict.Decision {
	res := shell.Parse(cmd, shell.Options{Vars: vars, Cwd: cwd})
	for _, inv := range res.Invocations {
		if d := g.CheckInvocation(inv, cwd); d.Action == verdict.Block {
			return d
		}
	}
	return verdict.Decision{}
}

// TestComputedAndUnknownDirectories: testdata/corpus/README.md §3.3, relative targets
// resolve against the directory the command runs in. A cd to a computed
// directory ($PWD, $(pwd), $(realpath X), …) is followed; a cd to a value
// the guard cannot know makes relative targets judged conservatively
// (path.unknown-directory): a protected folder or file name, or the whole
// undetermined directory, is refused; other names stay allowed.
func TestComputedAndUnknownDirectories(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd  string
		want verdict.Action
	}{
		{`cd "$(realpath .harness)" && : > eval_log.jsonl`, verdict.Block},
		{`cd "$PWD/.harness" && : > eval_log.jsonl`, verdict.Block},
		{`cd "${PWD}/.harness" && : > eval_log.jsonl`, verdict.Block},
		{`cd "$(pwd)/.harness" && : > eval_log.jsonl`, verdict.Block},
		{"cd \"`pwd`/.harness\" && : > eval_log.jsonl", verdict.Block},
		{`cd /tmp && cd $OLDPWD/.harness && : > eval_log.jsonl`, verdict.Block},
		{`cd "$(readlink -f .harness)" && : > eval_log.jsonl`, verdict.Block},
		{`cd "$(cd .harness && pwd)" && : > eval_log.jsonl`, verdict.Block},
		{`cd "$(realpath src)" && echo x > app.go`, verdict.Allow},
		{`cd "$(realpath .harness/features/f002)" && echo '-' >> generator_log.md`, verdict.Allow},
		{`cd "$(realpath .harness)" && echo '{}' >> eval_log.jsonl`, verdict.Block}, // a Generator appends only with harness eval append (§9.4)
		// unknown directory
		{`cd "$T" && : > eval_log.jsonl`, verdict.Block},
		{`cd "$T" && echo x > feature_list.json`, verdict.Block},
		{`cd "$T" && echo x > hermes_state.json`, verdict.Block},
		{`cd "$T" && echo x > sprint_contracts/s1/contract.json`, verdict.Block},
		{`cd "$T" && cp /tmp/a spec/x.md`, verdict.Block},
		{`cd "$T" && rm -r features`, verdict.Block},
		{`cd "$T" && rm -r .`, verdict.Block},
		{`cd "$T" && rm -r *`, verdict.Block},
		{`cd "$T" && rm *.md`, verdict.Block},
		{`cd "$T" && echo x > generator_log.md`, verdict.Block},
		{`cd "$T" && echo x >> generator_log.md`, verdict.Allow},
		{`cd "$T" && echo '{}' >> eval_log.jsonl`, verdict.Allow},
		{`cd "$T" && echo hi > notes.txt`, verdict.Allow},
		{`cd "$T" && cd features/f001 && echo > notes.md`, verdict.Block},
		{`cd "$T" && cd .harness && cd logs && echo x > a`, verdict.Block},
		{`cd "$T" && cd src && echo hi > notes.txt`, verdict.Allow},
		{`cd "$T" && cd /tmp && echo x > feature_list.json`, verdict.Allow},
		{`cd "$T" && rm -r build`, verdict.Allow},
		{`cd "$T" && git clone https://example.com/y.git`, verdict.Allow},
		{`cd "$T" && rm -r build/*`, verdict.Allow},
		{`cd "$T" && rm -r */`, verdict.Block},
		{`cd "$T" && rm -r */schemas`, verdict.Block},
		{`cd "$T" && cat SKILL.md`, verdict.Allow},
		{`cd "$T" && echo x > /tmp/feature_list.json`, verdict.Allow},
		// ~user: that home is unknown
		{`cp /tmp/x ~root/../tmp/r/schemas/x`, verdict.Block},
		{`echo x > ~nobody/notes.txt`, verdict.Allow},
		{`cd ~root/../tmp/r/.harness/features/f001 && echo x > notes.md`, verdict.Block},
		{`cd ~nobody/src && echo x > notes.md`, verdict.Allow},
	}
	for _, tc := range cases {
		d := decideIn(g, tc.cmd, root, nil)
		if d.Action != tc.want {
			t.Errorf("%s: got %s %s (%s), want %s", tc.cmd, d.Action, d.Rule, d.Message, tc.want)
		}
		if tc.want == verdict.Block && d.Rule == "path.unknown-directory" && !strings.Contains(d.Message, "could not be determined") {
			t.Errorf("%s: message does not say the directory is unknown: %s", tc.cmd, d.Message)
		}
	}
}

// TestRedirectTargetFromListing: testdata/corpus/README.md §3.3 listings — a listing
// substituted into a redirection target is the set of files written.
func TestRedirectTargetFromListing(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want verdict.Action
	}{
		{`echo > $(ls .harness/feature_list.json)`, verdict.Block},
		{`echo > "$(find .harness -name feature_list.json)"`, verdict.Block},
		{`echo > "$(realpath .harness/feature_list.json)"`, verdict.Block},
		{`echo > "$(readlink -f spec/index.md)"`, verdict.Block},
		{`echo > "$(echo SKILL.md)"`, verdict.Block},
		{`echo > "$(printf %s schemas/a.json)"`, verdict.Block},
		{`cp /tmp/x "$(find .harness -name feature_list.json)"`, verdict.Block},
		{`mv /tmp/x $(ls .harness/feature_list.json)`, verdict.Block},
		{`echo x | tee $(ls .harness/feature_list.json)`, verdict.Block},
		{`cp /tmp/x "$(find src -name app.go)"`, verdict.Allow},
		{`echo hi > "$(mktemp)"`, verdict.Allow},
		{`echo hi > "$(ls src/app.go)"`, verdict.Allow},
		{`echo hi > "$(find src -name app.go)"`, verdict.Allow},
	} {
		if d := decideIn(g, tc.cmd, root, nil); d.Action != tc.want {
			t.Errorf("%s: got %s %s (%s), want %s", tc.cmd, d.Action, d.Rule, d.Message, tc.want)
		}
	}
}

// TestAwkFileWrites: print/printf > / >> "FILE" inside awk code write FILE
// (testdata/corpus/README.md §3.3 interpreter writes); patterns and comparisons do not.
func TestAwkFileWrites(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want verdict.Action
	}{
		{`awk 'BEGIN{printf "" > ".harness/feature_list.json"}'`, verdict.Block},
		{`awk '{print $1 > "schemas/x.json"}' f`, verdict.Block},
		{`mawk '{print $1 > "spec/index.md"}' f`, verdict.Block},
		{`nawk '{print $1 > "spec/index.md"}' f`, verdict.Block},
		{`busybox awk '{print $1 > "spec/index.md"}' f`, verdict.Block},
		{`gawk -F: '{print $1 >> ".harness/features/f002/generator_log.md"}' f`, verdict.Allow},
		{`awk '{print $1 > "src/out.txt"}' f`, verdict.Allow},
		{`awk '$1 > "schemas" {print}' f`, verdict.Allow},
		{`awk '/rm -rf/ {print}' log`, verdict.Allow},
	} {
		if d := decideIn(g, tc.cmd, root, nil); d.Action != tc.want {
			t.Errorf("%s: got %s %s (%s), want %s", tc.cmd, d.Action, d.Rule, d.Message, tc.want)
		}
	}
}
