package pathguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestRedteamBash holds Bash writes that once got past the path guard (and
// the near misses next to them). Each comment names testdata/corpus/README.md rule.
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
		{`perl -e 'open(F, q(>>), q(.harness/features/f002/generator_log.md))'`, verdict.Allow}, // append (§3.2 Appends)
		{`perl -e 'open(F, q(<), q(spec/index.md))'`, verdict.Allow},
		// §2.1 ssh/containers: the remote command's paths are not the
		// workspace's; local redirections of the ssh command are.
		{`ssh host 'echo x > schemas/a.json'`, verdict.Allow},
		{`docker exec c sh -c 'echo > spec/index.md'`, verdict.Allow},
		{`kubectl exec p -- rm -r schemas`, verdict.Allow},
		{`ssh host 'cat' > schemas/a.json`, verdict.Block},
		{`docker exec c cat /etc/x > spec/index.md`, verdict.Block},
		// §3.2 "any write": archives written into a protected directory,
		// and local destinations of scp / docker cp / kubectl cp.
		{`zip spec/a.zip src/app.go`, verdict.Block},
		{`zip -r schemas/all.zip src`, verdict.Block},
		{`7z a spec/a.7z src`, verdict.Block},
		{`scp host:/x spec/x`, verdict.Block},
		{`docker cp c:/x spec/x`, verdict.Block},
		{`kubectl cp ns/pod:/x schemas/x.json`, verdict.Block},
		{`zip -r /tmp/a.zip spec`, verdict.Allow}, // reading spec
		{`scp spec/index.md host:/tmp/`, verdict.Allow},
		{`scp host:/x .`, verdict.Allow},
		{`docker cp spec/x c:/x`, verdict.Allow},
		{`kubectl cp spec/x ns/pod:/x`, verdict.Allow},
	}
	for _, c := range cases {
		if d := bashDecide(g, c.cmd, root, nil); d.Action != c.expect {
			t.Errorf("%q: expected %s, got %s (%s: %s)", c.cmd, c.expect, d.Action, d.Rule, d.Message)
		}
	}
}

// TestRedteamToolKeys: encoding/json matches keys case-insensitively and
// keeps the last duplicate, so a tool_input with a case-variant or repeated
// field could be judged on another path than the one Claude Code writes
// (hook protocol: tool_input is the exact tool object). Such input is
// refused (path.bad-input); exact keys work as before.
func TestRedteamToolKeys(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool, input string
		expect      verdict.Action
		rule        string
	}{
		{"Write", `{"file_path":"schemas/a.json","File_Path":"src/ok.go","content":"x"}`, verdict.Block, "path.bad-input"},
		{"Write", `{"FILE_PATH":"src/ok.go","content":"x"}`, verdict.Block, "path.bad-input"},
		{"Write", `{"file_path":"schemas/a.json","file_path":"src/ok.go","content":"x"}`, verdict.Block, "path.bad-input"},
		{"Edit", `{"file_path":"src/app.go","old_string":"a","Old_String":"b","new_string":"c"}`, verdict.Block, "path.bad-input"},
		{"MultiEdit", `{"file_path":"src/app.go","edits":[{"old_string":"a","new_string":"b","OLD_STRING":"c"}]}`, verdict.Block, "path.bad-input"},
		{"NotebookEdit", `{"notebook_path":"src/n.ipynb","Notebook_Path":"spec/n.ipynb","new_source":"x"}`, verdict.Block, "path.bad-input"},
		{"Write", `{"file_path":"src/ok.go","content":"x","extra":{"File_Path":1}}`, verdict.Allow, ""},
		{"Write", `{"file_path":"src/ok.go","content":"{\"FILE_PATH\":\"schemas/a.json\"}"}`, verdict.Allow, ""},
		{"MultiEdit", `{"file_path":"src/app.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`, verdict.Allow, ""},
		{"Write", `{"file_path":"schemas/a.json","content":"x"}`, verdict.Block, "path.readonly-dir"},
	}
	for _, c := range cases {
		d := g.CheckTool(c.tool, []byte(c.input), root)
		if d.Action != c.expect || d.Rule != c.rule {
			t.Errorf("%s %s: got %s %s (%s), want %s %s", c.tool, c.input, d.Action, d.Rule, d.Message, c.expect, c.rule)
		}
	}
}
