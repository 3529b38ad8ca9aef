package pathguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestMoreWriters: testdata/corpus/README.md §3.3 — interpreter writes through the
// command's own arguments (sys.argv, process.argv), PHP file functions,
// paths through /proc/<pid>/cwd, script's typescript, pip's install target,
// base64 -o, mknod and mkfifo are writes of the paths they name.
func TestMoreWriters(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want verdict.Action
	}{
		{`python3 -c "import sys; open(sys.argv[1],'w')" .harness/eval_log.jsonl`, verdict.Block},
		{`python3 -c "import sys; open(sys.argv[1],'a').write('x')" .harness/features/f002/generator_log.md`, verdict.Allow},
		{`python3 -c "import sys; open(sys.argv[1],'a').write('x')" .harness/eval_log.jsonl`, verdict.Block}, // a Generator appends only with harness eval append (§9.4)
		{`python3 -c "import sys; print(open(sys.argv[1]).read())" .harness/eval_log.jsonl`, verdict.Allow},
		{`python3 -c "import sys; open(sys.argv[2],'w')" src/a .harness/feature_list.json`, verdict.Block},
		{`node -e "require('fs').writeFileSync(process.argv[1],'')" .harness/eval_log.jsonl`, verdict.Block},
		{"python3 - .harness/eval_log.jsonl <<'EOF'\nimport sys\nopen(sys.argv[1], 'w').write('')\nEOF", verdict.Block},
		{"python3 - src/out.txt <<'EOF'\nimport sys\nopen(sys.argv[1], 'w').write('')\nEOF", verdict.Allow},
		{`node -e "require('fs').writeFileSync(process.argv[1],'')" src/out.txt`, verdict.Allow},
		{`php -r 'file_put_contents(".harness/feature_list.json","{}");'`, verdict.Block},
		{`php -r '$f = fopen("spec/x.md", "w");'`, verdict.Block},
		{`php -r '$p = "SKILL.md"; unlink($p);'`, verdict.Block},
		{`php -r 'rename("schemas", "/tmp/s");'`, verdict.Block},
		{`php -r 'copy("/tmp/x", "templates/x");'`, verdict.Block},
		{`php -r '$f = fopen("spec/x.md", "r");'`, verdict.Allow},
		{`php -r 'echo file_get_contents("SKILL.md");'`, verdict.Allow},
		{`php -r 'file_put_contents("src/out.txt", "x");'`, verdict.Allow},
		{`echo > /proc/$$/cwd/.harness/feature_list.json`, verdict.Block},
		{`echo > /proc/self/cwd/.harness/feature_list.json`, verdict.Block},
		{`cd spec && echo > /proc/self/cwd/index.md`, verdict.Block},
		{`echo > /proc/self/cwd/src/notes.txt`, verdict.Allow},
		{`script -q .harness/eval_log.jsonl`, verdict.Block},
		{`script -q -c ls spec/index.md`, verdict.Block},
		{`script -q /tmp/typescript`, verdict.Allow},
		{`pip install --target .harness requests`, verdict.Block},
		{`pip install -t schemas requests`, verdict.Block},
		{`python3 -m pip install -t spec requests`, verdict.Block},
		{`pip install -t vendor requests`, verdict.Allow},
		{`pip install requests`, verdict.Allow},
		{`base64 -d in -o .harness/feature_list.json`, verdict.Block},
		{`base64 -d in --output .harness/feature_list.json`, verdict.Block},
		{`base64 -d in -o out.bin`, verdict.Allow},
		{`mknod .harness/eval_log.jsonl p`, verdict.Block},
		{`mkfifo .harness/eval_log.jsonl`, verdict.Block},
		{`mkfifo -m 600 spec/pipe`, verdict.Block},
		{`mkfifo /tmp/f`, verdict.Allow},
	} {
		if d := decideIn(g, tc.cmd, root, nil); d.Action != tc.want {
			t.Errorf("%s: got %s %s (%s), want %s", tc.cmd, d.Action, d.Rule, d.Message, tc.want)
		}
	}
}
