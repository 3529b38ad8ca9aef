package pathguard

import "testing"

func TestOtherWriters(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	decideWriters(t, g, root, []writerCase{
		{"gzip spec/index.md", "block", FamilyReadonlyDir},
		{"gzip -c spec/index.md > /tmp/x.gz", "allow", ""},
		{"gzip -k src/app.go", "allow", ""},
		{"gunzip .harness/logs/hook.log.gz", "block", FamilyHookLog},
		{"zstd spec/index.md", "block", FamilyReadonlyDir}, // keeps the original but writes spec/index.md.zst (a new entry in spec/)
		{"git archive -o /tmp/a.tar HEAD", "allow", ""},
		{"git archive --output=spec/a.zip HEAD", "block", FamilyReadonlyDir},
		{"git format-patch -1 --stdout > /tmp/p", "allow", ""},
		{"git format-patch -o templates HEAD~2", "block", FamilyReadonlyDir},
		{"git bundle verify spec/b.bundle", "allow", ""},
		{"git bundle create templates/b.bundle --all", "block", FamilyReadonlyDir},
		{"git config -f .harness/rules.yaml --get a.b", "allow", ""},
		{"git config --file SKILL.md --list", "allow", ""},
		{"git config --file SKILL.md x.y", "allow", ""},
		{"git config --file=SKILL.md x.y z", "block", FamilyReadonlyFile},
		{"git config -f README.md --unset x.y", "block", FamilyReadonlyFile},
		{"npm pack --pack-destination /tmp/out", "allow", ""},
		{"npm pack --pack-destination=spec", "block", FamilyReadonlyDir},
		{"python3 -m json.tool spec/index.md", "allow", ""},
		{"python3 -m json.tool --indent 2 /tmp/a.json SKILL.md", "block", FamilyReadonlyFile},
		{"git ls-files src | xargs mytool", "allow", ""},
		{"git ls-files templates | xargs unix2dos", "block", FamilyReadonlyDir},
		{"jq . .harness/feature_list.json | sponge .harness/feature_list.json", "block", FamilyStateViaCLI},
		{"echo x | sponge -a .harness/features/f002/generator_log.md", "allow", ""},
		{"uniq src/a README.md", "block", FamilyReadonlyFile},
		{"uniq README.md", "allow", ""},
		{"iconv -f latin1 -t utf8 -o SKILL.md x", "block", FamilyReadonlyFile},
		{"vim spec/index.md", "block", FamilyReadonlyDir},
		{"vim -R spec/index.md", "allow", ""},
		{"ed -s README.md <<< $'1d\\nw'", "block", FamilyReadonlyFile},
		{"nano src/app.go", "allow", ""},
		{"nano -i spec/index.md", "block", FamilyReadonlyDir}, // -i is nano's --autoindent, a flag
		{"nano -T 4 src/app.go", "allow", ""},
		{"mysqldump -r spec/d.sql app", "block", FamilyReadonlyDir},
		{"mysqldump -p -r /tmp/d.sql app", "allow", ""},
		{"git worktree add --orphan -b x spec/wt", "block", FamilyReadonlyDir},
		{"mktemp -p spec", "block", FamilyReadonlyDir},
		{"mktemp /tmp/x.XXXX", "allow", ""},
		{"fallocate -l 1M spec/x", "block", FamilyReadonlyDir},
		{"rename 's/md/txt/' spec/*.md", "block", FamilyReadonlyDir},
		{"go build -o spec/bin ./cmd/x", "block", FamilyReadonlyDir},
		{"go build -o build/x ./cmd/x", "allow", ""},
		{"go test ./...", "allow", ""},
		{"gcc -o templates/a a.c", "block", FamilyReadonlyDir},
		{"pandoc README.md -o /tmp/r.html", "allow", ""},
		{"pandoc x.md -o README.md", "block", FamilyReadonlyFile},
		{"openssl rand -out .harness/allow.jsonl 16", "block", FamilyReadonlyFile},
		{"esbuild src/a.ts --outfile=spec/a.js", "block", FamilyReadonlyDir},
		{"tsc --outDir templates", "block", FamilyReadonlyDir},
		{"cpio -idv < a.cpio", "allow", ""},
		{"cd spec && cpio -id < /tmp/a.cpio", "block", FamilyReadonlyDir},
		{"7z x a.7z -otemplates", "block", FamilyReadonlyDir},
		{"split -l 10 src/a spec/part-", "block", FamilyReadonlyDir},
		{"git clone https://x/y.git schemas/y", "block", FamilyReadonlyDir},
		{"git clone https://x/y.git", "allow", ""},
		{"cd spec && git clone https://x/y.git", "block", FamilyReadonlyDir},
		{"git worktree add .harness/features/f009 main", "block", FamilyOtherFeature},
		{"dd if=/dev/stdin of=.harness/features/f002/generator_log.md oflag=append conv=notrunc", "allow", ""},
		{"dd if=/dev/stdin of=.harness/eval_log.jsonl", "block", FamilyEvalLog},
	})
}

// TestWriterRowsIdentity: the writers of the program table are judged by
// the program's identity (shell.Lookup), so a versioned name, a path, an
// assignment before the command and an alias that the table names are
// the same program; a name switch in the path guard missed them.
func TestWriterRowsIdentity(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	decideWriters(t, g, root, []writerCase{
		{"/usr/bin/gcc-12 -o SKILL.md a.c", "block", FamilyReadonlyFile},
		{"x86_64-linux-gnu-gcc -o SKILL.md a.c", "block", FamilyReadonlyFile}, // unknown program: cautious default
		{"X=1 sponge SKILL.md", "block", FamilyReadonlyFile},
		{"uniq-9 in SKILL.md", "block", FamilyReadonlyFile},
		{"pigz -k spec/index.md", "block", FamilyReadonlyDir},
		{"gvim SKILL.md", "block", FamilyReadonlyFile},
		{"emacsclient -nw README.md", "block", FamilyReadonlyFile},
		{"pico README.md", "block", FamilyReadonlyFile},
		{"7za x a.7z -otemplates", "block", FamilyReadonlyDir},
		{"podman cp c:/etc/hosts SKILL.md", "block", FamilyReadonlyFile},
		{"oc cp ns/p:/tmp/x README.md", "block", FamilyReadonlyFile},
		{"kubectl cp README.md ns/p:/tmp/x", "allow", ""},
		{"scp h:/x SKILL.md", "block", FamilyReadonlyFile},
		{"scp SKILL.md h:/x", "allow", ""},
		{"xxd src/app.go README.md", "block", FamilyReadonlyFile},
		{"prename 's/md/txt/' spec/index.md", "block", FamilyReadonlyDir},
		{"zip -m /tmp/a.zip README.md", "block", FamilyReadonlyFile},
		{"zip /tmp/a.zip README.md", "allow", ""},
		{"7z a -sdel /tmp/a.7z README.md", "block", FamilyReadonlyFile},
		{"7z a /tmp/a.7z README.md", "allow", ""},
		{"csplit -f README -b '%.0d.md' /tmp/n.md 1", "block", FamilyReadonlyFile},
		{"python3 -m zipfile -e /tmp/a.zip spec", "block", FamilyReadonlyDir},
		{"exiftool -Title=x spec/a.jpg", "block", FamilyReadonlyDir},
		{"exiftool -ext jpg spec", "allow", ""},
		{"truncate-9 -s 0 SKILL.md", "block", FamilyReadonlyFile},
		{"sort-9 -o SKILL.md /tmp/x", "block", FamilyReadonlyFile},
		{"shred-9 -u README.md", "block", FamilyReadonlyFile},
		{"touch-9 spec/new.md", "block", FamilyReadonlyDir},
		{"base64 -d -i /tmp/x -o SKILL.md", "block", FamilyReadonlyFile},
		{"git ls-files spec | xargs touch", "block", FamilyReadonlyDir},
		{"echo build/stamp | xargs touch", "allow", ""}, // the literal input is its operand, not a listing of "."
		{"echo build/x | xargs fallocate -l 1M", "allow", ""},
	})
}

type writerCase struct{ cmd, want, family string }

// decideWriters checks the verdict (and family, when given) of each
// command.
func decideWriters(t *testing.T, g *Guard, root string, cases []writerCase) {
	t.Helper()
	for _, c := range cases {
		d := bashDecide(g, c.cmd, root, nil)
		if d.Action.String() != c.want || (c.family != "" && d.Family != c.family) {
			t.Errorf("%s: got %s %s (%s), want %s %s", c.cmd, d.Action, d.Family, d.Message, c.want, c.family)
		}
	}
}

// TestFormatterRows: the formatters are judged by their rows' WriteSpec
// (Tree with If/Unless/TreeIf/Through), so their identities come from the
// table too (`black-24`, `/usr/local/bin/prettier`).
func TestFormatterRows(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	decideWriters(t, g, root, []writerCase{
		{"black-24 spec", "block", FamilyReadonlyDir},
		{"gofmt-1.22 -w spec", "block", FamilyReadonlyDir},
		{"/usr/local/bin/prettier --write spec", "block", FamilyReadonlyDir},
		{"prettier --check spec", "allow", ""},
		{"ruff --fix spec", "block", FamilyReadonlyDir},
		{"ruff spec", "allow", ""},
		{"ruff format --check spec", "allow", ""},
		{"ruff check --fix --no-fix spec", "allow", ""},
		{"eslint -o SKILL.md src", "block", FamilyReadonlyFile},
		{"eslint src", "allow", ""},
		{"git ls-files spec | xargs eslint", "allow", ""},
		{"git ls-files spec | xargs eslint --fix", "block", ""}, // and "." (Here): the working directory
		{"cd spec && cargo fmt", "block", FamilyReadonlyDir},
		{"cd spec && cargo fmt -- --check", "allow", ""},
		{"cd spec && cargo fmt --check", "allow", ""},
		{"rustfmt --emit stdout spec/a.rs", "allow", ""},
		{"biome format --write spec", "block", FamilyReadonlyDir},
		{"dprint fmt --list spec/a.ts", "allow", ""},
		{"yapf -i spec/a.py", "block", FamilyReadonlyDir},
		{"clang-format spec/a.c", "allow", ""},
	})
}
