package pathguard

import (
	"path/filepath"
	"testing"
)

// TestRound6Readers: programs that only read in the mode given have rows
// (testdata/corpus/README.md §9.1: the cautious default judges a protected
// path handed to an unknown program as written), and their writing modes
// are still writes: pax -w archives to stdout while -r extracts into the
// working directory, python -m zipfile -c writes only its archive,
// formatters and spelling checkers rewrite unless they check (or only
// when told to write), dos2unix -n writes only the OUTFILE of each pair.
func TestRound6Readers(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"pax -w spec > /tmp/s.pax", "allow"},
		{"pax -w -f /tmp/t.pax templates schemas", "allow"},
		{"pax -wf spec/a.pax src", "block"},
		{"pax -f /tmp/a.pax", "allow"},
		{"pax -rw spec /tmp/copy", "allow"},
		{"pax -rw src templates", "block"},
		{"cd spec && pax -r < /tmp/a.pax", "block"},
		{"cd src && pax -r -f /tmp/a.pax", "allow"},
		{"python3 -m zipfile -c /tmp/s.zip spec", "allow"},
		{"python3 -m zipfile --create /tmp/t.zip templates SKILL.md", "allow"},
		{"python3 -m zipfile -c spec/s.zip src", "block"},
		{"python3 -m zipfile -l /tmp/s.zip", "allow"},
		{"python3 -m zipfile -e /tmp/s.zip spec", "block"},
		{"python3 -m zipfile -e /tmp/s.zip /tmp/out", "allow"},
		{"python3 -m tarfile -c /tmp/s.tar schemas", "allow"},
		{"cd templates && python3 -m tarfile -e /tmp/s.tar", "block"},
		{"python3 -m http.server -d spec 8000", "allow"},
		{"python -m http.server --directory templates --bind 127.0.0.1", "allow"},
		{"mdformat --check README.md", "allow"},
		{"mdformat --wrap 80 --check spec", "allow"},
		{"mdformat README.md", "block"},
		{"mdformat --wrap 80 spec/index.md", "block"},
		{"mdformat research/n.md", "allow"},
		{"codespell spec", "allow"},
		{"codespell -S '*.json' templates SKILL.md", "allow"},
		{"codespell -w spec", "block"},
		{"codespell --write-changes", "block"},
		{"codespell -w src", "allow"},
		{"typos templates", "allow"},
		{"typos --format brief", "allow"},
		{"typos -w templates", "block"},
		{"typos --write-changes README.md", "block"},
		{"stylua --check templates", "allow"},
		{"stylua -c spec", "allow"},
		{"stylua templates", "block"},
		{"stylua src", "allow"},
		{"unix2dos -n spec/index.md /tmp/index.txt", "allow"},
		{"dos2unix --newfile README.md /tmp/r.md SKILL.md /tmp/s.md", "allow"},
		{"dos2unix -n README.md spec/x.md", "block"},
		{"unix2dos spec/index.md", "block"},
		{"dos2unix -n /tmp/a /tmp/b -o SKILL.md", "block"},
		{"dos2unix -i SKILL.md", "allow"},
		{"unix2dos src/app.go", "allow"},
		{"curl --output-dir /tmp -O https://example.com/a.json", "allow"},
		{"curl -O --output-dir /tmp/dl https://example.com/x/settings.json", "allow"},
		{"curl --output-dir spec -O https://example.com/a.json", "block"},
	})
	home := filepath.Join(t.TempDir(), "home")
	gh := mustGuard(t, root, "f002").WithHome(home)
	vars := map[string]string{"HOME": home}
	for _, c := range []bashCase{
		{"mdformat --check ~/.claude/agents/reviewer.md", "allow"},
		{"mdformat ~/.claude/agents/reviewer.md", "block"},
		{"codespell ~/.claude/CLAUDE.md", "allow"},
	} {
		if d := bashDecide(gh, c.cmd, root, vars); d.Action.String() != c.want {
			t.Errorf("%s: got %s %s (%s), want %s", c.cmd, d.Action, d.Rule, d.Message, c.want)
		}
	}
}

// TestRound6Writers: writes by an option or a mode the model missed: git's
// diff option --output=FILE, 7z a -sdel (deletes the sources), cargo
// vendor DIR, formatters that rewrite the working directory's tree without
// an operand (deno fmt, go fmt ./..., taplo fmt), and dd oflag=append
// without conv=notrunc, which truncates first (GNU dd 9.1: printf x |
// dd of=F oflag=append leaves F = "x"); their neighbours stay allowed.
func TestRound6Writers(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"git diff --output=protocols/changes.diff", "block"},
		{"git show HEAD --output spec/x.patch", "block"},
		{"git log -p -1 --output=.harness/eval_log.jsonl", "block"},
		{"git diff --output=/tmp/x", "allow"},
		{"git log -1 --stat", "allow"},
		{"7z a -sdel /tmp/t.7z templates", "block"},
		{"7z a -tzip -sdel /tmp/c.zip SKILL.md", "block"},
		{"7z a /tmp/t.7z spec", "allow"},
		{"cargo vendor templates/vendor", "block"},
		{"cargo vendor --versioned-dirs spec/v", "block"},
		{"cargo vendor /tmp/v", "allow"},
		{"deno fmt", "block"},
		{"deno fmt spec", "block"},
		{"deno fmt --check", "allow"},
		{"deno fmt src", "allow"},
		{"go fmt ./...", "block"},
		{"go fmt ./spec/...", "block"},
		{"cd src && go fmt", "allow"},
		{"go fmt ./src/...", "allow"},
		{"go fmt -n ./...", "allow"},
		{"taplo fmt spec/config.toml", "block"},
		{"taplo format templates", "block"},
		{"taplo fmt --check spec/config.toml", "allow"},
		{"taplo lint spec/config.toml", "allow"},
		{"printf '{}\\n' | dd of=.harness/eval_log.jsonl oflag=append status=none", "block"},
		{"dd of=.harness/sprint_contracts/s1/tooling.md oflag=append,sync < /tmp/x", "block"},
		{"printf x | dd of=research/n.md oflag=append conv=notrunc", "allow"},
		{"printf x | dd of=research/n.md oflag=append", "allow"},
	})
}
