package pathguard

import "testing"

// TestDefaultOutputNames (round 15 fp0001 fp0009 fp0023 fp0025 fp0028
// fp0032 fp0085 fp0090): known programs write outputs of a default name in
// the directory they run in when no option or operand names them
// (shell.WriteSpec.Cwd, CwdIn): gcc's a.out (-c BASE.o, -S BASE.s; -E,
// -fsyntax-only and -M write nothing), go test -c's PKG.test and go
// build's BINARY, cargo init's Cargo.toml and src/, npm init's
// package.json, npm pack's NAME-VERSION.tgz, git format-patch's
// NNNN-SUBJECT.patch, hg clone's directory named after the URL.
func TestDefaultOutputNames(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"cd spec && gcc ../src/main.c", "block"},
		{"cd spec && cc -O2 ../src/main.c -lm", "block"},
		{"cd templates && clang -c ../src/x.c", "block"},
		{"cd templates && gcc -S ../src/x.c", "block"},
		{"gcc -c src/x.c -MD -MF templates/x.d", "block"},
		{"gcc -c src/x.c -MMD -MFtemplates/x.d", "block"},
		{"gcc src/main.c", "allow"},
		{"gcc -c src/x.c", "allow"},
		{"cd spec && gcc -E ../src/main.c", "allow"},
		{"cd spec && gcc -fsyntax-only ../src/main.c", "allow"},
		{"cd spec && gcc -M ../src/main.c", "allow"},
		{"cd spec && gcc -o ../build/app ../src/main.c", "allow"},
		{"cd spec && gcc -c -o ../build/x.o ../src/x.c", "allow"},
		{"gcc -c spec/x.c", "allow"},
		{"cd templates && go test -c ../internal/render", "block"},
		{"cd templates && go build ../cmd/x", "block"},
		{"go test -c ./internal/render", "allow"},
		{"cd templates && go test -c -o ../build/r.test ../internal/render", "allow"},
		{"cd templates && go test ../internal/render", "allow"},
		{"go build ./cmd/x", "allow"},
		{"cd templates && go vet ../internal/render", "allow"},
		{"cargo new spec/cli", "block"},
		{"cd schemas && cargo init --lib", "block"},
		{"cargo init --lib templates/x", "block"},
		{"cargo new build/cli", "allow"},
		{"cargo init build/x", "allow"},
		{"cd spec && npm init -y", "block"},
		{"npm init -y --prefix protocols", "block"},
		{"npm init -y", "allow"},
		{"cd sub-skills && npm pack ../packages/ui", "block"},
		{"cd sub-skills && npm pack --dry-run ../packages/ui", "allow"},
		{"cd sub-skills && npm pack --pack-destination ../build ../packages/ui", "allow"},
		{"npm pack", "allow"},
		{"cd spec && git format-patch -1", "block"},
		{"cd spec && git format-patch --stdout -1", "allow"},
		{"cd spec && git format-patch -o ../build -1", "allow"},
		{"git format-patch -1", "allow"},
		{"cd templates && hg clone https://hg.example.org/theme", "block"},
		{"hg clone https://hg.example.org/spec", "block"},
		{"hg clone https://hg.example.org/theme", "allow"},
		{"cd templates && hg clone https://hg.example.org/theme ../build/theme", "allow"},
		{"cd spec && rustc ../src/x.rs", "block"},
		{"cd spec && rustc --crate-type lib ../src/l.rs", "block"},
		{"rustc src/x.rs", "allow"},
		{"cd spec && rustc --out-dir ../build ../src/x.rs", "allow"},
		{"python3 -m venv spec/.venv", "block"},
		{"python3 -m venv .venv", "allow"},
		{"cd spec && git clone https://example.com/r.git", "block"},
		{"git clone https://example.com/r.git", "allow"},
	})
}

// TestEnvironmentOutputs (round 15 fp0033 fp0042 fp0043 fp0119 fp0123
// fp0124 fp0142): outputs named by the command's environment or its input
// (shell.WriteSpec.EnvDirs VAR@OPTS, EnvUnless, Temp, Cwd's $VAR and
// {begin}): mktemp's $TMPDIR, npm -g's npm_config_prefix,
// PYTHONPYCACHEPREFIX for any python run and for compileall (which then
// writes nothing beside its sources), history -w/-a FILE and $HISTFILE,
// uudecode's `begin MODE NAME` line.
func TestEnvironmentOutputs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"TMPDIR=spec mktemp", "block"},
		{"TMPDIR=spec mktemp -t x.XXXX", "block"},
		{"export TMPDIR=templates; mktemp -d", "block"},
		{"TMPDIR=spec mktemp -u", "allow"},
		{"TMPDIR=spec mktemp -p build", "allow"},
		{"TMPDIR=spec mktemp x.XXXX", "allow"},
		{"mktemp", "allow"},
		{"npm_config_prefix=$PWD/spec npm install -g left-pad", "block"},
		{"NPM_CONFIG_PREFIX=spec npm i --global x", "block"},
		{"npm_config_prefix=$PWD/spec npm install left-pad", "allow"},
		{"npm_config_prefix=build/g npm install -g left-pad", "allow"},
		{"PYTHONPYCACHEPREFIX=$PWD/templates/pyc python3 -m compileall -q src", "block"},
		{"PYTHONPYCACHEPREFIX=spec/pyc python3 tools/x.py", "block"},
		{"python3 -m compileall -q spec", "block"},
		{"PYTHONPYCACHEPREFIX=/tmp/pyc python3 -m compileall -q spec", "allow"},
		{"PYTHONPYCACHEPREFIX=spec/pyc python3 -B tools/x.py", "allow"},
		{"python3 -m compileall -q src", "allow"},
		{"PYTHONPYCACHEPREFIX=/tmp/pyc python3 tools/x.py", "allow"},
		{"HISTFILE=.harness/logs/hook.jsonl bash -c 'set -o history; history -w'", "block"},
		{"bash -c 'history -w schemas/hist.txt'", "block"},
		{"history -a spec/h", "block"},
		{"HISTFILE=.harness/logs/hook.jsonl bash -c 'history -r'", "allow"},
		{"bash -c 'history -r schemas/hist.txt'", "allow"},
		{"history -w /tmp/h", "allow"},
		{"history -s rm -rf spec", "allow"},
		{"uudecode <<'EOF'\nbegin 644 SKILL.md\n!80``\n`\nend\nEOF", "block"},
		{"cd spec && uudecode /tmp/x.uu", "block"},
		{"uudecode -o /tmp/x <<'EOF'\nbegin 644 SKILL.md\n`\nend\nEOF", "allow"},
		{"uudecode <<'EOF'\nbegin 644 build/x.md\n`\nend\nEOF", "allow"},
	})
}

// TestScriptArguments (round 15 fp0110): a script file run by an
// interpreter or a shell is a program the guard does not know, so its
// arguments get the cautious default of testdata/corpus/README.md §9.1
// (unknownProgram); the script itself, inline code and modules do not.
func TestScriptArguments(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"node scripts/build-docs.js --out-dir spec/", "block"},
		{"python3 tools/gen.py templates/x.md", "block"},
		{"ruby gen.rb --output=SKILL.md", "block"},
		{"perl tools/x.pl spec/out", "block"},
		{"php gen.php protocols/a", "block"},
		{"bash build.sh sub-skills/x", "block"},
		{"sh ./gen.sh -ospec/x.md", "block"},
		{"node scripts/build-docs.js --out-dir build/", "allow"},
		{"python3 spec/tools/check.py", "allow"},
		{"node scripts/x.js", "allow"},
		{"python3 -c 'print(1)' spec/x", "allow"},
		{"bash -c 'echo hi' spec", "allow"},
		{"node x.js < spec/in.json", "allow"},
		{"python3 -m json.tool spec/a.json", "allow"},
	})
}

// TestMoreDefaultOutputs: more programs whose default output lands in the
// directory they run in or beside their inputs (shell.WriteSpec.Cwd with
// "@WORD" for a row whose first operand is its command, Beside): pip
// download/wheel (-d/--dest, -w/--wheel-dir), tsc SRC (SRC.js beside
// it unless --outDir/--outFile/--noEmit/-p), cmake SRCDIR or -S without
// -B (the build tree is the cwd). From documentation: pip's network
// commands, tsc and cmake were not run here.
func TestMoreDefaultOutputs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"cd spec && pip download requests", "block"},
		{"cd spec && pip3 wheel ../src", "block"},
		{"pip download -d templates requests", "block"},
		{"pip wheel --wheel-dir=spec ../src", "block"},
		{"cd spec && pip download -d ../build requests", "allow"},
		{"cd spec && pip install requests", "allow"},
		{"pip download requests", "allow"},
		{"tsc spec/x.ts", "block"},
		{"tsc --declaration templates/a.ts", "block"},
		{"tsc --outDir build spec/x.ts", "allow"},
		{"tsc --noEmit spec/x.ts", "allow"},
		{"tsc src/x.ts", "allow"},
		{"cd spec && cmake ../src", "block"},
		{"cd templates && cmake -S ../src", "block"},
		{"cd spec && cmake -S ../src -B ../build", "allow"},
		{"cd spec && cmake --build ../build", "allow"},
		{"cd spec && cmake -E echo hi", "allow"},
		{"cmake -S src -B build", "allow"},
	})
}
