package pathguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// newWorkspace builds a small sprint workspace (testdata/corpus/README.md §5
// skeleton, trimmed) and returns its root.
func newWorkspace(t testing.TB) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	for _, d := range []string{"schemas", "templates", "spec/guides", "protocols", "sub-skills", "src", "research", "docs",
		"build", ".claude", ".harness/logs", ".harness/checkpoints", ".harness/sprint_contracts/s1",
		".harness/features/f001", ".harness/features/f002/.claude", ".harness/features/f003"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"SKILL.md", "README.md", "spec/index.md", "schemas/a.json", ".harness/eval_log.jsonl",
		".harness/feature_list.json", ".harness/runtime_state.json", ".harness/logs/hook.log", ".claude/settings.json",
		".harness/features/f002/generator_log.md", ".harness/features/f001/generator_log.md", "src/app.go",
		".harness/sprint_contracts/s1/contract.json"} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(f)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tooling := "# T\n\n## 5. x\n\n- a\n\n" + Section6Heading + "(y)\n\n- TBD\n"
	if err := os.WriteFile(filepath.Join(root, ".harness/sprint_contracts/s1/tooling.md"), []byte(tooling), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// bashDecide parses cmd and judges every invocation like the hook does.
func bashDecide(g *Guard, cmd, cwd string, vars map[string]string) verdict.Decision {
	res := shell.Parse(cmd, shell.Options{Vars: vars})
	for _, inv := range res.Invocations {
		if d := g.CheckInvocation(inv, cwd); d.Action == verdict.Block {
			return d
		}
	}
	return verdict.Decision{}
}

func TestCheckInvocationWriters(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	diff := "--- a/spec/index.md\n+++ b/spec/index.md\n@@ -1 +1 @@\n-a\n+b\n"
	if err := os.WriteFile(filepath.Join(root, "build", "fix.diff"), []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	srcDiff := strings.ReplaceAll(diff, "spec/index.md", "src/app.go")
	if err := os.WriteFile(filepath.Join(root, "build", "src.diff"), []byte(srcDiff), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd, cwd, want, family string
	}{
		// redirections
		{"echo x >> .harness/feature_list.json", "", "block", FamilyStateViaCLI},
		{"echo x >&SKILL.md", "", "block", FamilyReadonlyFile},
		{"exec 5<>README.md", "", "block", FamilyReadonlyFile},
		{"cat <<EOF > .harness/runtime_state.json\n{}\nEOF", "", "block", FamilyReadonlyFile},
		{"echo x 2>> .harness/features/f002/generator_log.md", "", "allow", ""},
		{"echo x &>> .harness/features/f002/generator_log.md", "", "allow", ""},
		{"echo x > /dev/null 2>&1", "", "allow", ""},
		{"bash -c 'echo x > spec/index.md'", "", "block", FamilyReadonlyDir},
		{`echo x > "$(pwd)/schemas/x.json"`, "", "block", FamilyReadonlyDir},
		{`echo '{}' > spec/$NAME.json`, "", "block", FamilyReadonlyDir},
		{`echo x > "$UNKNOWN"`, "", "allow", ""},
		{`echo x > "$HARNESS_ROOT/SKILL.md"`, "src", "block", FamilyReadonlyFile},
		{`echo x > ${HARNESS_ROOT}/.harness/eval_log.jsonl`, "src", "block", FamilyEvalLog},
		{`echo x > "$HARNESS_ROOT_OLD/SKILL.md"`, "src", "allow", ""},
		{`echo x > "$PWD/SKILL.md"`, "", "block", FamilyReadonlyFile},
		{"echo x > ../../.harness/logs/hook.log", ".harness/features", "block", FamilyHookLog},
		{"echo x > .harness/checkpoints/cp.json", "", "allow", ""},
		{"echo x > schemas-draft/a.json", "", "allow", ""},
		{"echo x > SCHEMAS/a.json", "", "block", FamilyReadonlyDir},
		// tee
		{"printf x | tee schemas/b.json", "", "block", FamilyReadonlyDir},
		{"echo x | tee --append .harness/features/f002/generator_log.md", "", "allow", ""},
		{"echo x | tee -a .harness/feature_list.json", "", "block", FamilyStateViaCLI},
		{"echo x | tee /tmp/a .harness/eval_log.jsonl", "", "block", FamilyEvalLog},
		{"echo x | tee --output-error spec/x", "", "block", FamilyReadonlyDir},
		{"rm --interactive SKILL.md", "", "block", FamilyReadonlyFile},
		// in-place editors
		{"sed -i.bak s/a/b/ spec/index.md", "", "block", FamilyReadonlyDir},
		{"sed -ni s/a/b/p spec/index.md", "", "block", FamilyReadonlyDir},
		{"sed --in-place=.bak -e s/a/b/ spec/index.md", "", "block", FamilyReadonlyDir},
		{"sed -E -i 's/a/b/' .harness/features/f002/generator_log.md", "", "block", FamilyGeneratorLog},
		{"sed -n 1p spec/index.md", "", "allow", ""},
		{"sed -i s/a/b/ src/app.go", "", "allow", ""},
		{"perl -0pi -e 's/a/b/' templates/x.md", "", "block", FamilyReadonlyDir},
		{"perl -i.orig -pe 's/a/b/' SKILL.md", "", "block", FamilyReadonlyFile},
		{"perl -ne 'print' spec/index.md", "", "allow", ""},
		{"ruby -pi -e 'gsub(/a/, \"b\")' spec/index.md", "", "block", FamilyReadonlyDir},
		{"awk -i inplace '{print}' spec/index.md", "", "block", FamilyReadonlyDir},
		{"gawk --include=inplace '{print}' spec/index.md", "", "block", FamilyReadonlyDir},
		{"awk '{print}' spec/index.md > /tmp/x", "", "allow", ""},
		{"yq -i '.a = 1' spec/x.yaml", "", "block", FamilyReadonlyDir},
		{"yq eval -i '.a = 1' .claude/settings.json", "", "block", FamilyReadonlyFile},
		{"yq '.a' spec/x.yaml", "", "allow", ""},
		{"sort -o .harness/eval_log.jsonl .harness/eval_log.jsonl", "", "block", FamilyEvalLog},
		{"sort spec/index.md", "", "allow", ""},
		{"sort --out=README.md src/a", "", "block", FamilyReadonlyFile},
		// create / truncate / delete
		{"truncate --size=0 .harness/logs/hook.log", "", "block", FamilyHookLog},
		{"touch .harness/features/f001/x", "", "block", FamilyOtherFeature},
		{"touch .harness", "", "allow", ""},
		{"mkdir -m 755 protocols/new", "", "block", FamilyReadonlyDir},
		{"mkdir -p build/out", "", "allow", ""},
		{"mkdir --context spec/x", "", "block", FamilyReadonlyDir},
		{"rsync -a --mkpath build/x spec/", "", "block", FamilyReadonlyDir},
		{"dd of=SKILL.md", "", "block", FamilyReadonlyFile},
		{"unlink SKILL.md", "", "block", FamilyReadonlyFile},
		{"shred -u .harness/eval_log.jsonl", "", "block", FamilyEvalLog},
		{"rmdir spec/guides", "", "block", FamilyReadonlyDir},
		{"rm -r src/old build", "", "allow", ""},
		{"rm --recursive .claude", "", "block", FamilyProtectedAncestor},
		{"rm -r ..", "src", "block", FamilyProtectedAncestor},
		{"rm -r .harness/sprint_contracts/s1", "", "block", FamilyProtectedAncestor},
		{"rm -r .harness/checkpoints", "", "allow", ""},
		{"rm .harness/features/f002/notes.md", "", "allow", ""},
		// copies and moves
		{"cp x.md .harness/features/f003", "", "block", FamilyOtherFeature},
		{"cp -t spec a.md b.md", "", "block", FamilyReadonlyDir},
		{"cp --target-directory=spec a.md", "", "block", FamilyReadonlyDir},
		{"cp /tmp/x .harness/", "", "allow", ""},
		{"cp /tmp/feature_list.json .harness/", "", "block", FamilyStateViaCLI},
		{"cp spec/index.md /tmp/", "", "allow", ""},
		{"cp -r spec research/", "", "allow", ""},
		{"install -D x schemas/sub/y.json", "", "block", FamilyReadonlyDir},
		{"install -d templates/x", "", "block", FamilyReadonlyDir},
		{"ln -sf /tmp/x README.md", "", "block", FamilyReadonlyFile},
		{"ln -s ../spec docs/spec-link", "", "allow", ""},
		{"ln .harness/eval_log.jsonl src/log", "", "block", FamilyEvalLog},
		{"ln -s ../.harness/eval_log.jsonl src/log", "", "allow", ""},
		{"cp -l SKILL.md src/", "", "block", FamilyReadonlyFile},
		{"ln src/app.go build/app.go", "", "allow", ""},
		{"ln -s /tmp/x", "spec", "block", FamilyReadonlyDir},
		{"rsync -a --delete build/ .harness/", "", "block", FamilyProtectedAncestor},
		{"rsync -a x .claude/settings.json", "", "block", FamilyReadonlyFile},
		{"rsync -a spec/ /tmp/spec/", "", "allow", ""},
		{"rsync -a build/ host:/srv/", "", "allow", ""},
		{"mv README.md README.old", "", "block", FamilyReadonlyFile},
		{"mv build/a build/b", "", "allow", ""},
		{"mv build .harness/features/f009", "", "block", FamilyOtherFeature},
		{"cp -r src .harness/features/f009", "", "block", FamilyOtherFeature},
		{"cp src/app.go .harness/features/f009", "", "allow", ""},
		{"cp -r src .harness/features/f002/src-copy", "", "allow", ""},
		{"mv -t /tmp spec/index.md", "", "block", FamilyReadonlyDir},
		{"mv .harness/features/f002 /tmp/x", "", "block", FamilyProtectedAncestor},
		// git
		{"git checkout HEAD~1 -- spec/index.md", "", "block", FamilyReadonlyDir},
		{"git -C spec checkout -- index.md", "", "block", FamilyReadonlyDir},
		{"git restore --source=HEAD~1 schemas/", "", "block", FamilyReadonlyDir},
		{"git restore --staged spec/index.md", "", "allow", ""},
		{"git rm -r templates", "", "block", FamilyReadonlyDir},
		{"git rm --cached SKILL.md", "", "allow", ""},
		{"git mv spec/index.md docs/index.md", "", "block", FamilyReadonlyDir},
		{"git mv docs/a.md spec/", "", "block", FamilyReadonlyDir},
		{"git checkout main", "", "allow", ""},
		{"git checkout -b feature/x", "", "allow", ""},
		{"git diff spec/", "", "allow", ""},
		{"git checkout -- .", "", "block", FamilyProtectedAncestor},
		{"git checkout -- src/", "", "allow", ""},
		// patch / git apply
		{"git apply <<'EOF'\ndiff --git a/spec/x.md b/spec/x.md\n--- a/spec/x.md\n+++ b/spec/x.md\n@@ -1 +1 @@\n-a\n+b\nEOF", "", "block", FamilyReadonlyDir},
		{"patch spec/index.md < build/fix.diff", "", "block", FamilyReadonlyDir},
		{"patch -p1 < build/fix.diff", "", "block", FamilyReadonlyDir},
		{"patch -p1 -i build/fix.diff", "", "block", FamilyReadonlyDir},
		{"git apply build/fix.diff", "", "block", FamilyReadonlyDir},
		{"git apply build/src.diff", "", "allow", ""},
		{"patch -p1 < build/src.diff", "", "allow", ""},
		{"git apply --check build/fix.diff", "", "allow", ""},
		{"patch --dry-run -p1 < build/fix.diff", "", "allow", ""},
		{"patch -p1 < build/missing.diff", "", "allow", ""},
		{"cat build/fix.diff | git apply", "", "allow", ""}, // stdin from a file reader is not literal: not visible
		// downloads and archives
		{"curl -sSo .harness/eval_log.jsonl https://x/y", "", "block", FamilyEvalLog},
		{"curl -O https://example.com/README.md", "", "block", FamilyReadonlyFile},
		{"curl --output-dir spec -O https://example.com/a.md", "", "block", FamilyReadonlyDir},
		{"curl -s https://example.com/a.json | jq .", "", "allow", ""},
		{"curl -o /tmp/x https://example.com/a", "", "allow", ""},
		{"wget https://example.com/README.md", "", "block", FamilyReadonlyFile},
		{"wget https://example.com/x.md", "templates", "block", FamilyReadonlyDir},
		{"wget -P templates https://example.com/a", "", "block", FamilyReadonlyDir},
		{"wget -qO- https://example.com/a", "", "allow", ""},
		{"wget https://example.com/x.tgz", "build", "allow", ""},
		{"tar -xzf a.tgz -C schemas", "", "block", FamilyReadonlyDir},
		{"tar xf /tmp/a.tar -C spec", "", "block", FamilyReadonlyDir},
		{"cd spec && tar xf /tmp/a.tar", "", "block", FamilyReadonlyDir},
		{"tar -tzf a.tgz", "spec", "allow", ""},
		{"tar czf /tmp/x.tgz spec", "", "allow", ""},
		{"tar czf spec/x.tgz src", "", "block", FamilyReadonlyDir},
		{"tar -xzf a.tgz -C build", "", "allow", ""},
		{"unzip a.zip -d templates", "", "block", FamilyReadonlyDir},
		{"unzip -l a.zip", "templates", "allow", ""},
		// interpreters
		{`python3 -c "import os; os.remove('SKILL.md')"`, "", "block", FamilyReadonlyFile},
		{`python3 -c "import shutil; shutil.rmtree('.harness')"`, "", "block", FamilyProtectedAncestor},
		{"python3 - <<'EOF'\nwith open('.harness/eval_log.jsonl', 'w') as f:\n    pass\nEOF", "", "block", FamilyEvalLog},
		{"python3 - <<'EOF'\nwith open('.harness/features/f002/generator_log.md', 'a') as f:\n    f.write('x')\nEOF", "", "allow", ""},
		{`python3 -c "from pathlib import Path; Path('spec/index.md').write_text('x')"`, "", "block", FamilyReadonlyDir},
		{`python3 -c "import os; p=os.path.join('spec','index.md'); open(p,'w')"`, "", "block", FamilyReadonlyDir},
		{`python3 -c "d='spec/'; open(d + 'index.md', mode='w')"`, "", "block", FamilyReadonlyDir},
		{`python3 -c "print(open('spec/index.md').read())"`, "", "allow", ""},
		{`python3 -c "open('/tmp/x','w').write('1')"`, "", "allow", ""},
		{`python3 -c "import os; os.rename('README.md', 'R.md')"`, "", "block", FamilyReadonlyFile},
		{`python3 -c "import shutil; shutil.copy('/tmp/x', 'templates/y')"`, "", "block", FamilyReadonlyDir},
		{`node -e "fs.appendFileSync('.harness/feature_list.json','x')"`, "", "block", FamilyStateViaCLI},
		{`node -e "require('fs').rmSync('.harness', {recursive: true})"`, "", "block", FamilyProtectedAncestor},
		{`node -e "require('fs').appendFileSync('.harness/features/f002/generator_log.md','x')"`, "", "allow", ""},
		{`node -e "const p = 'spec/index.md'; require('fs').writeFileSync(p, 'x')"`, "", "block", FamilyReadonlyDir},
		{`node -e "fs.createWriteStream('.harness/features/f002/generator_log.md', {flags: 'a'})"`, "", "allow", ""},
		{`node -e "console.log(require('fs').readFileSync('spec/index.md','utf8'))"`, "", "allow", ""},
		{`perl -e 'open(my $f, ">>", ".harness/logs/hook.log")'`, "", "block", FamilyHookLog},
		{`perl -e 'unlink "SKILL.md"'`, "", "block", FamilyReadonlyFile},
		{`perl -e 'open(F, ">>.harness/features/f002/generator_log.md"); print F "x"'`, "", "allow", ""},
		{`perl -e 'my $p = "spec/index.md"; open(my $fh, ">", $p)'`, "", "block", FamilyReadonlyDir},
		{`ruby -e 'File.write("README.md", "x")'`, "", "block", FamilyReadonlyFile},
		{`ruby -e 'File.open("spec/index.md", "w") { |f| f.puts 1 }'`, "", "block", FamilyReadonlyDir},
		{`ruby -e 'puts File.read("spec/index.md")'`, "", "allow", ""},
		// formatters
		{"prettier --write .", "", "block", FamilyProtectedAncestor},
		{"prettier --check .", "", "allow", ""},
		{"black .", "", "block", FamilyProtectedAncestor},
		{"black --check .", "", "allow", ""},
		{"ruff format", "", "block", FamilyProtectedAncestor},
		{"ruff format --check", "", "allow", ""},
		{"ruff check --fix spec", "", "block", FamilyReadonlyDir},
		{"ruff check .", "", "allow", ""},
		{"eslint --fix .", "", "block", FamilyProtectedAncestor},
		{"eslint .", "", "allow", ""},
		{"shfmt -w spec", "", "block", FamilyReadonlyDir},
		{"isort .", "", "block", FamilyProtectedAncestor},
		{"python -m black src", "", "allow", ""},
		{"python3 -m black .", "", "block", FamilyProtectedAncestor},
		{"gofmt -l .", "", "allow", ""},
		{"cd src && gofmt -w .", "", "allow", ""},
		{"goimports -w src/app.go", "", "allow", ""},
		{`ruby -e 'FileUtils.rm_rf(".harness")'`, "", "block", FamilyProtectedAncestor},
		{"npx --yes prettier@3 --write .", "", "block", FamilyProtectedAncestor},
		{"pnpm exec eslint --fix spec", "", "block", FamilyReadonlyDir},
		{"uvx ruff format spec", "", "block", FamilyReadonlyDir},
		{"uv run --with black black .", "", "block", FamilyProtectedAncestor},
		{"npm run build", "", "allow", ""},
		{"cargo fmt", "", "block", FamilyProtectedAncestor},
		{"cargo fmt --check", "", "allow", ""},
		{"clang-format -i spec/x.c", "", "block", FamilyReadonlyDir},
		{"clang-format spec/x.c", "", "allow", ""},
		{"terraform fmt", "", "block", FamilyProtectedAncestor},
		{"terraform fmt -check", "", "allow", ""},
		{"mkdir .harness/features/f004", "", "block", FamilyOtherFeature},
		{"mkdir -p .harness/features/f002/notes", "", "allow", ""},
		// whole trees and listings
		{"find . -name '*.md' | xargs sed -i s/a/b/", "", "block", FamilyProtectedAncestor},
		{"git ls-files | xargs sed -i s/a/b/", "", "block", FamilyProtectedAncestor},
		{"find src -name '*.go' | xargs gofmt -w", "", "allow", ""},
		{"echo a.txt | xargs rm", "", "allow", ""},
		{"echo SKILL.md | xargs rm", "", "block", FamilyReadonlyFile},
		{"cat list | xargs rm", "build", "allow", ""},
		{"find spec -type f -delete", "", "block", FamilyReadonlyDir},
		{"find . -delete", "build", "allow", ""},
		{"find spec -exec cat {} +", "", "allow", ""},
		{"grep -rl x spec | xargs cat", "", "allow", ""},
		{"find .harness/features/f002 -name '*.tmp' -exec rm {} +", "", "block", FamilyProtectedAncestor},
		{"find build -name '*.o' -exec rm {} +", "", "allow", ""},
		{"sed -i s/a/b/ spec/*.md", "", "block", FamilyReadonlyDir},
		{"sed -i s/a/b/ *.md", "", "block", FamilyReadonlyFile},
		{"sed -i s/a/b/ src/*.go", "", "allow", ""},
		// cd tracking
		{"cd .harness; rm eval_log.jsonl", "", "block", FamilyEvalLog},
		{"cd src && cd .. && echo x > README.md", "", "block", FamilyReadonlyFile},
		{"(cd spec && echo x > index.md)", "", "block", FamilyReadonlyDir},
		{"(cd spec); echo x > index.md", "", "allow", ""},
		{"pushd .harness/features/f001 && touch x", "", "block", FamilyOtherFeature},
		{`cd "$X" && echo x > README.md`, "", "block", FamilyReadonlyFile},
		// tooling appends
		{"echo '- x' >> .harness/sprint_contracts/s1/tooling.md", "", "allow", ""},
		{"echo '- x' > .harness/sprint_contracts/s1/tooling.md", "", "block", FamilyTooling},
		{"echo '- x' >> .harness/sprint_contracts/s2/tooling.md", "", "block", FamilyTooling},
		// reads
		{"cat README.md SKILL.md | wc -l", "", "allow", ""},
		{"jq . .harness/feature_list.json", "", "allow", ""},
		{"diff spec/index.md README.md", "", "allow", ""},
		{"", "", "allow", ""},
		{"   \n\t", "", "allow", ""},
	}
	for _, c := range cases {
		cwd := filepath.Join(root, filepath.FromSlash(c.cwd))
		d := bashDecide(g, c.cmd, cwd, nil)
		if d.Action.String() != c.want || (c.family != "" && d.Family != c.family) {
			t.Errorf("%q (cwd %s): got %s %s (%s), want %s %s", c.cmd, c.cwd, d.Action, d.Family, d.Message, c.want, c.family)
		}
		if d.Action == verdict.Block && (d.Message == "" || d.Hint == "" || !strings.HasPrefix(d.Rule, "path.") || strings.ContainsRune(d.Message+d.Subject, '\x01')) {
			t.Errorf("%q: block without rule/message/hint: %+v", c.cmd, d)
		}
	}
}

// TestCheckInvocationNoFeature: without a running feature every feature
// directory is another feature's (testdata/corpus/README.md §3.0).
func TestCheckInvocationNoFeature(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "")
	if err != nil {
		t.Fatal(err)
	}
	d := bashDecide(g, "echo x >> .harness/features/f002/generator_log.md", root, nil)
	if d.Action != verdict.Block || d.Family != FamilyOtherFeature {
		t.Fatalf("got %+v", d)
	}
}

// TestCheckInvocationHome: "~" expands only with a known home directory.
func TestCheckInvocationHome(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	if d := bashDecide(g, "echo x > ~/SKILL.md", root, nil); d.Action != verdict.Allow {
		t.Fatalf("without a home: %+v", d)
	}
	// Without a home, a "~" path that names the root's trailing components
	// is still mapped into the root.
	parent := filepath.Base(filepath.Dir(root))
	for _, c := range []struct{ cmd, want string }{
		{"echo x > ~/" + parent + "/sprint_20260421_1/SKILL.md", "block"},
		{"echo x > ~/sprint_20260421_1/spec/x", "block"},
		{"echo x > ~/sprint_20260421_1/src/x", "allow"},
		{"echo x > ~/other/SKILL.md", "allow"},
	} {
		if d := bashDecide(g, c.cmd, filepath.Join(root, "src"), nil); d.Action.String() != c.want {
			t.Errorf("%s: got %s, want %s", c.cmd, d.Action, c.want)
		}
	}
	gh := g.WithHome(root)
	if d := bashDecide(gh, "echo x > ~/SKILL.md", filepath.Join(root, "src"), nil); d.Action != verdict.Block {
		t.Fatalf("with the root as home: %+v", d)
	}
}

func bashParse(cmd string) []shell.Invocation { return shell.Parse(cmd, shell.Options{}).Invocations }

func TestCheckInvocationElsewhereAndListingDest(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	for _, c := range []struct{ cmd, want string }{
		{"ssh host 'echo x > README.md'", "allow"},
		{"ssh host cat /etc/hosts > README.md", "block"},
		{"docker exec app sh -c 'rm -r /w/.harness'", "allow"},
		{"find spec -name '*.md' -exec cp /tmp/x {} \\;", "block"},
		{"find src -name '*.go' -exec cp {} /tmp/ \\;", "allow"},
	} {
		if d := bashDecide(g, c.cmd, root, nil); d.Action.String() != c.want {
			t.Errorf("%q: got %s %s, want %s", c.cmd, d.Action, d.Message, c.want)
		}
	}
}
