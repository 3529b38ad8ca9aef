package pathguard

import (
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// dirCase is a Bash command judged in a fresh workspace with the payload
// cwd at the root; "ROOT" in vars values stands for the root.
type dirCase struct {
	cmd  string
	vars map[string]string
	want verdict.Action
}

func checkDirCases(t *testing.T, cases []dirCase) {
	t.Helper()
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		vars := map[string]string{}
		for k, v := range c.vars {
			vars[k] = strings.ReplaceAll(v, "ROOT", root)
		}
		if got := decideIn(g, c.cmd, root, vars).Action; got != c.want {
			t.Errorf("%q (vars %v): %v, want %v", c.cmd, c.vars, got, c.want)
		}
	}
}

// TestFailedCd: a cd may fail (missing directory, no permission) and bash
// then stays where it was and runs on after `;`, a newline, `||` and `&`.
// A relative target is judged in every directory the command may run in
// (shell.Invocation.AltDirs); only `cd X && …`, `if cd X; then …` and
// `cd X || exit` make X certain (testdata/corpus/README.md §3.3).
func TestFailedCd(t *testing.T) {
	checkDirCases(t, []dirCase{
		// the cd may fail: the root stays possible
		{"cd nope 2>/dev/null; rm .harness/feature_list.json", nil, verdict.Block},
		{"cd /nonexistent; echo x > SKILL.md", nil, verdict.Block},
		{"cd /nonexistent\necho x > SKILL.md", nil, verdict.Block},
		{"cd /nonexistent || true; echo x > SKILL.md", nil, verdict.Block},
		{"cd /nonexistent || echo failed; echo x > SKILL.md", nil, verdict.Block},
		{"cd /nonexistent & echo x > SKILL.md", nil, verdict.Block},
		{"cd /nonexistent || echo x > SKILL.md", nil, verdict.Block},
		{"cd /tmp && cd nope; rm -f .harness/feature_list.json", nil, verdict.Block},
		{"cd /tmp && true; echo x > SKILL.md", nil, verdict.Block},
		{"cd src; cd ..; : > .harness/eval_log.jsonl", nil, verdict.Block},
		{"pushd /nonexistent; echo x > README.md", nil, verdict.Block},
		{"if cd /tmp; then :; fi; echo x > SKILL.md", nil, verdict.Block},
		{"cd /tmp; (true) && echo x > SKILL.md", nil, verdict.Block},
		{"cd /a; cd /b; cd /c; cd /d; cd /e; cd /f; cd /g; cd /h; cd /i; cd /j; echo x > SKILL.md", nil, verdict.Block},
		{"cd a; cd b; cd c; cd d; cd e; echo > .harness/eval_log.jsonl", nil, verdict.Block},
		// `cd X && a && b`: a step that fails skips the rest of the chain,
		// so every later step runs in X only (a && b && c parses as
		// (a && b) && c); the old directory rejoins after the chain
		{"cd src && ls && echo x > README.md", nil, verdict.Allow},
		{"cd src && go mod init x && touch README.md", nil, verdict.Allow},
		{"cd src && echo x > a.txt && echo y > README.md && echo z > SKILL.md", nil, verdict.Allow},
		{"(cd src && ls && touch README.md)", nil, verdict.Allow},
		{"pushd src && ls && touch README.md", nil, verdict.Allow},
		{"cd .harness && ls && echo x > eval_log.jsonl", nil, verdict.Block},
		{"cd src && ls && echo x > README.md; echo y > SKILL.md", nil, verdict.Block}, // after the chain the root is possible again
		{"cd src && ls && cd ../spec && touch x.md", nil, verdict.Block},
		// relative cds move every possible directory along
		{"cd nope; cd .harness; : > eval_log.jsonl", nil, verdict.Block},
		{"cd /tmp; cd \"$R/.harness\" && : > eval_log.jsonl", map[string]string{"R": "ROOT"}, verdict.Block},
		// listings follow the producer's possible directories
		{"cd /tmp; find spec -type f | xargs rm", nil, verdict.Block},
		{"cd /tmp; find spec -type f -exec rm {} +", nil, verdict.Block},
		{"cd /tmp; sed -i s/a/b/ $(grep -rl a spec)", nil, verdict.Block},
		{"cd /tmp; echo > $(ls spec/index.md)", nil, verdict.Block},
		{"cd /tmp && find spec -type f | xargs rm", nil, verdict.Allow},
		{"cd build && find . -name '*.o' | xargs rm", nil, verdict.Allow},
		{"cd build; find . -name '*.o' | xargs rm", nil, verdict.Block}, // the cd may fail: find . lists the root
		// a function body runs in the calling shell: its cd moves the caller
		{"f(){ cd .harness; }; f; : > eval_log.jsonl", nil, verdict.Block},
		{"f(){ cd /tmp; }; f && echo x > SKILL.md", nil, verdict.Allow},
		{"f(){ cd /tmp; }; f; echo x > SKILL.md", nil, verdict.Block},
		{"f() ( cd .harness ); f; : > eval_log.jsonl", nil, verdict.Allow},
		// the cd's success is certain
		{"cd /tmp && echo x > SKILL.md", nil, verdict.Allow},
		{"cd /tmp && rm -f .harness/feature_list.json", nil, verdict.Allow},
		{"if cd /tmp; then echo x > SKILL.md; fi", nil, verdict.Allow},
		{"cd /tmp || exit 1; echo x > SKILL.md", nil, verdict.Allow},
		{"cd /tmp || { echo no /tmp >&2; exit 1; }\necho x > SKILL.md", nil, verdict.Allow},
		{"cd /tmp && cd /var && echo x > SKILL.md", nil, verdict.Allow},
		{"cd /tmp; cd /var && echo x > SKILL.md", nil, verdict.Allow},
		{"cd /tmp; cd .harness && : > eval_log.jsonl", nil, verdict.Block},
		// unprotected targets stay allowed wherever the command runs
		{"cd build; make", nil, verdict.Allow},
		{"cd build; echo x > out.txt", nil, verdict.Allow},
		{"cd build 2>/dev/null; rm -f out.o; cd ..; echo done > build.log", nil, verdict.Allow},
		{"cd src\ngo build ./... > build.log 2>&1", nil, verdict.Allow},
		{"cd nope; echo x > /tmp/SKILL.md", nil, verdict.Allow},
	})
}

// TestMktempDirectories: `mktemp -d` prints a new, empty directory under
// $TMPDIR or /tmp (or DIR of -p/--tmpdir, or the current directory for a
// bare template); a cd into it is a known directory, judged like any other
// (testdata/corpus/README.md §3.3), and `$(mktemp)` is a known file target.
func TestMktempDirectories(t *testing.T) {
	checkDirCases(t, []dirCase{
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
	})
}

// TestCdPhysical: `cd -P LINK/..` lands in the parent of the link's target
// (testdata/corpus/README.md §9.4), so a relative write after it is judged
// there; plain `cd LINK/..` (logical, bash's default) and `cd -P -L`
// (the last option wins) stay in the link's own directory.
func TestCdPhysical(t *testing.T) {
	root := newWorkspace(t)
	symlink(t, "../spec/guides", root+"/research/g")
	g := mustGuard(t, root, "f002")
	for _, c := range []struct {
		cmd  string
		want verdict.Action
	}{
		{"cd -P research/g/.. && echo x > index.md", verdict.Block},
		{"cd -P research/g && cd .. && touch new.md", verdict.Block},
		{"cd -LP research/g/.. && echo x > index.md", verdict.Block},
		{"cd research/g/.. && echo x > notes2.md", verdict.Allow},
		{"cd -P -L research/g/.. && echo x > notes2.md", verdict.Allow},
		{"cd -P src && echo x > a.go", verdict.Allow},
	} {
		res := shell.Parse(c.cmd, shell.Options{Cwd: root, Physical: g.Physical})
		got := verdict.Decision{}
		for _, inv := range res.Invocations {
			if d := g.CheckInvocation(inv, root); d.Action == verdict.Block {
				got = d
				break
			}
		}
		if got.Action != c.want {
			t.Errorf("%s: got %s %s, want %s", c.cmd, got.Action, got.Rule, c.want)
		}
	}
}

// TestFindFollowsLinks: `find -L` descends through symbolic links, so its
// -delete and its -exec writers reach the links' targets (testdata/corpus/
// README.md §9.4); without -L (or with a later -P) only the tree itself.
func TestFindFollowsLinks(t *testing.T) {
	root := newWorkspace(t)
	symlink(t, "../spec", root+"/research/sp")
	g := mustGuard(t, root, "f002")
	for _, c := range []struct {
		cmd  string
		want verdict.Action
	}{
		{"find -L research -name '*.md' -delete", verdict.Block},
		{"find -L research -type f -exec sed -i s/a/b/ {} +", verdict.Block},
		{"find -L docs -name '*.bak' -delete", verdict.Allow},
		{"find -L -P docs -delete", verdict.Allow},
	} {
		if got := decideIn(g, c.cmd, root, nil); got.Action != c.want {
			t.Errorf("%s: got %s %s, want %s", c.cmd, got.Action, got.Rule, c.want)
		}
	}
}
