package pathguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestRedteamBash holds Bash writes that once got past the path guard (and
// the near misses next to them). Each comment names the corpus README rule.
func TestRedteamBash(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd    string
		expect verdict.Action
	}{
		// §3.3 listings: "{}" of find -exec / xargs -I{} passed as a
		// positional argument to a shell script stands for the listed paths.
		{`find spec -exec sh -c 'echo > "$1"' _ {} \;`, verdict.Block},
		{`find spec -type f -exec sh -c 'cat "$1" > "$1.bak"' _ {} \;`, verdict.Block},
		{`find schemas -exec bash -c 'rm "$@"' _ {} +`, verdict.Block},
		{`ls spec | xargs -I{} sh -c 'sed -i s/a/b/ "$1"' _ {}`, verdict.Block},
		{`fd . spec -x sh -c 'echo > "$1"' _ {}`, verdict.Block},
		{`find src -exec sh -c 'echo > "$1"' _ {} \;`, verdict.Allow},
		{`find spec -exec sh -c 'cat "$1"' _ {} \;`, verdict.Allow},
		// §2.3 + §3.3: fd -x writers run over fd's search paths.
		{`fd . schemas -x sed -i s/a/b/`, verdict.Block},
		{`fd -e md . src -x sed -i s/a/b/`, verdict.Allow},
		// §3.3 interpreter writes: aliases of the write calls.
		{`python3 -c "from shutil import rmtree; rmtree('schemas')"`, verdict.Block},
		{`python3 -c "from os import remove as rm; rm('spec/index.md')"`, verdict.Block},
		{`python3 -c "import os; r = os.remove; r('spec/index.md')"`, verdict.Block},
		{`python3 -c "from pathlib import Path as P; P('spec/index.md').write_text('x')"`, verdict.Block},
		{`node -e "const {writeFileSync: w} = require('fs'); w('spec/index.md','x')"`, verdict.Block},
		{`node -e "const {rmSync} = require('node:fs'); rmSync('schemas', {recursive: true})"`, verdict.Block},
		{`node -e "const w = require('fs').writeFileSync; w('spec/index.md', 'x')"`, verdict.Block},
		{`python3 -c "from os.path import join; print(join('spec','x'))"`, verdict.Allow},
		{`node -e "const {readFileSync: r} = require('fs'); r('spec/index.md')"`, verdict.Allow},
		// §3.3 interpreter writes: Perl/Ruby quote operators are strings.
		{`perl -e 'open(my $f, q(>), q(spec/index.md))'`, verdict.Block},
		{`perl -e 'unlink q(spec/index.md)'`, verdict.Block},
		{`ruby -e 'File.write(%q(spec/index.md), "x")'`, verdict.Block},
		{`perl -e 'open(F, q(>), q(.harness/eval_log.jsonl))'`, verdict.Block},
		{`perl -e 'open(F, q(>>), q(.harness/eval_log.jsonl))'`, verdict.Allow}, // append (§3.2 Appends)
		{`perl -e 'open(F, q(<), q(spec/index.md))'`, verdict.Allow},
		// §2.1 ssh/containers: the remote command's paths are not the
		// workspace's; local redirections of the ssh command are.
		{`ssh host 'echo x > schemas/a.json'`, verdict.Allow},
		{`docker exec c sh -c 'echo > spec/index.md'`, verdict.Allow},
		{`kubectl exec p -- rm -r schemas`, verdict.Allow},
		{`ssh host 'cat' > schemas/a.json`, verdict.Block},
		{`docker exec c cat /etc/x > spec/index.md`, verdict.Block},
	}
	for _, c := range cases {
		if d := bashDecide(g, c.cmd, root, nil); d.Action != c.expect {
			t.Errorf("%q: expected %s, got %s (%s: %s)", c.cmd, c.expect, d.Action, d.Rule, d.Message)
		}
	}
}
