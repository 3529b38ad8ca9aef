package pathguard

import "testing"

// TestOpensslOutputSpellings: openssl writes its -out and -keyout files in every spelling its own
// parser takes: -opt VALUE, -opt=VALUE, --opt VALUE, --opt=VALUE.
func TestOpensslOutputSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"openssl rand -out SKILL.md 16", "block"},
		{"openssl rand -out=SKILL.md 16", "block"},
		{"openssl rand --out SKILL.md 16", "block"},
		{"openssl rand --out=SKILL.md 16", "block"},
		{"openssl req -new -keyout spec/k.pem -out build/r.csr", "block"},
		{"openssl req -new -keyout=spec/k.pem -out build/r.csr", "block"},
		{`openssl rand -out "$HARNESS_ROOT/SKILL.md" 16`, "block"},
		{`openssl rand -out="$HARNESS_ROOT/SKILL.md" 16`, "block"},
		{"openssl rand -out build/r 16", "allow"},
		{"openssl enc -in SKILL.md -out build/x", "allow"},
	})
}

// TestPythonModuleSpellings: python -m MODULE runs the module as its own program (the option model
// reads -m in its cluster, attached or not, after -u or -W VALUE).
func TestPythonModuleSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"python3 -m black spec/x.py", "block"},
		{"python3 -mblack spec/x.py", "block"},
		{"python3 -u -m black spec/x.py", "block"},
		{"python3 -W ignore -m black spec/x.py", "block"},
		{"python3 -Wignore -m isort spec/x.py", "block"},
		{"python3 -m black --check spec/x.py", "allow"},
		{"python3 -m pip install --target spec x", "block"},
		{"python3 -m pip install --target build x", "allow"},
		{"python3 -c 'print(1)' -m black spec/x.py", "allow"},
		{"python3 script.py -m black spec/x.py", "block"}, // the script's own -m and its argument (§9.1 scriptArgs)
		{"python3 script.py -m black build/x.py", "allow"},
	})
}

// TestPerlRubyInPlaceSpellings: perl/ruby -i edit the file operands in place, whatever options come
// before (value letters attached or in the next word, -0/-l digits).
func TestPerlRubyInPlaceSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"perl -pi -e 's/a/b/' SKILL.md", "block"},
		{"perl -i.bak -pe 's/a/b/' SKILL.md", "block"},
		{"perl -i -pe 's/a/b/' spec/index.md", "block"},
		{"perl -lpi -e 's/a/b/' SKILL.md", "block"},
		{"perl -0777 -pi -e 's/a/b/' SKILL.md", "block"},
		{"perl -l015 -pi -e 's/a/b/' SKILL.md", "block"},
		{"perl -I lib -pi -e 's/a/b/' SKILL.md", "block"},
		{"perl -Ilib -pi -e 's/a/b/' SKILL.md", "block"},
		{"perl -Mstrict -pi -e 's/a/b/' SKILL.md", "block"},
		{"perl -pi s.pl SKILL.md", "block"},
		{"perl -pi -- s.pl SKILL.md", "block"},
		{"perl -pe 's/a/b/' SKILL.md", "allow"},
		{"perl -lne 'print' SKILL.md", "allow"},
		{"perl -pi -e 's/a/b/' build/x", "allow"},
		{"ruby -pi -e 'sub(/a/,\"b\")' SKILL.md", "block"},
		{"ruby -i.bak -pe 'x' SKILL.md", "block"},
		{"ruby -W0 -pi -e 'x' SKILL.md", "block"},
		{"ruby -I lib -pi -e 'x' SKILL.md", "block"},
		{"ruby -rjson -pi -e 'x' SKILL.md", "block"},
		{"ruby -pe 'x' SKILL.md", "allow"},
		{"ruby -pi -e 'x' build/x", "allow"},
	})
}

// TestPackageManagerDirSpellings: npm --prefix/-C, pnpm --dir/-C and yarn --cwd make install and its
// synonyms write DIR/node_modules; npm pack --pack-destination writes into
// DIR; other subcommands write neither.
func TestPackageManagerDirSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"npm install --prefix spec x", "block"},
		{"npm install --prefix=spec x", "block"},
		{"npm --prefix spec install x", "block"},
		{"npm i -C spec x", "block"},
		{"npm ci --prefix templates", "block"},
		{"npm install --prefix build x", "allow"},
		{"npm run build --prefix spec", "allow"},
		{"npm view spec install", "allow"},
		{"npm view x install --prefix spec", "allow"},
		{"pnpm add --dir spec x", "block"},
		{"pnpm --dir=spec install", "block"},
		{"pnpm -C spec install", "block"},
		{"yarn --cwd spec add x", "block"},
		{"yarn add --cwd=spec x", "block"},
		{"yarn --cwd spec run build", "allow"},
		{"npm pack --pack-destination spec", "block"},
		{"npm pack --pack-destination=spec", "block"},
		{"npm pack --pack-destination /tmp/out", "allow"},
	})
}

// TestUnknownProgramOneDashValue: a program without a row is read by the
// guessing grammar (shell.OptSpec.Guess): `-name=VALUE` is a long option
// with its value, judged as written like `--name=VALUE`.
func TestUnknownProgramOneDashValue(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"mytool --config=SKILL.md", "block"},
		{"mytool -config=SKILL.md", "block"},
		{"mytool -config=build/x", "allow"},
		{"mytool -- -config=build/x", "allow"},
	})
}

// TestContainerCopySpellings: docker/kubectl cp write a local destination,
// whatever global options come before the subcommand.
func TestContainerCopySpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"docker cp web:/etc/x SKILL.md", "block"},
		{"docker cp -a web:/etc/x SKILL.md", "block"},
		{"docker -H tcp://h:2375 cp web:/etc/x SKILL.md", "block"},
		{"docker --context prod cp web:/etc/x spec/x", "block"},
		{"podman cp web:/etc/x SKILL.md", "block"},
		{"kubectl cp -c web pod:/x SKILL.md", "block"},
		{"kubectl -n ns cp pod:/x SKILL.md", "block"},
		{"docker cp SKILL.md web:/tmp/x", "allow"},
		{"docker cp web:/etc/x build/x", "allow"},
		{"kubectl cp -c web SKILL.md pod:/x", "allow"},
		{"docker ps cp SKILL.md", "allow"},
	})
}

// Test7zSpellings: 7z's command and archive are its first operands and
// -oDIR its extraction directory, whatever switches come between.
func Test7zSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"7z a spec/a.7z src", "block"},
		{"7z a -tzip spec/a.zip src", "block"},
		{"7z u -psecret spec/a.7z src", "block"},
		{"7z -y a spec/a.7z src", "block"},
		{"7z x a.7z -otemplates", "block"},
		{"7z x -y a.7z -ospec", "block"},
		{"7z e /tmp/a.7z -y", "allow"},
		{"cd spec && 7z e /tmp/a.7z", "block"},
		{"7z x a.7z -obuild", "allow"},
		{"7z a build/a.7z spec", "allow"},
		{"7z l spec/a.7z", "allow"},
	})
}

// TestExiftoolSpellings: a tag assignment makes exiftool rewrite its file
// operands (or write -o OUT); the values of its other options are no files.
func TestExiftoolSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"exiftool -Artist=me SKILL.md", "block"},
		{"exiftool -all= spec/a.jpg", "block"},
		{"exiftool -Title+=x -overwrite_original spec/a.jpg", "block"},
		{"exiftool -overwrite_original spec/a.jpg", "block"},
		{"exiftool -Artist=me -o spec/b.jpg build/a.jpg", "block"},
		{"exiftool -Artist=me -ext jpg build", "allow"},
		{"exiftool -Artist=me -o build/b.jpg build/a.jpg", "allow"},
		{"exiftool -Artist=me -if '$Make' -ext spec build", "allow"},
		{"exiftool SKILL.md", "allow"},
		{"exiftool -s -G spec/a.jpg", "allow"},
	})
}

// TestOneWordOptionSpellings: cargo fmt --check (also rustfmt's, after
// "--"), xxd -r/-revert and ssh-keygen -Y are read from the option model,
// attached, bundled or after a toolchain or global option.
func TestOneWordOptionSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"cd spec && cargo fmt", "block"},
		{"cd spec && cargo +nightly fmt", "block"},
		{"cd spec && cargo fmt --all", "block"},
		{"cd spec && cargo fmt --check", "allow"},
		{"cd spec && cargo fmt -- --check", "allow"},
		{"cd spec && cargo +nightly fmt --check", "allow"},
		{"xxd -r dump SKILL.md", "block"},
		{"xxd -revert dump SKILL.md", "block"},
		{"xxd -r -p dump SKILL.md", "block"},
		{"xxd SKILL.md out", "allow"},
		{"ssh-keygen -p -N new -f spec/key", "block"},
		{"ssh-keygen -Y sign -n file -f spec/key x", "block"},
		{"ssh-keygen -Ysign -n file -f spec/key x", "block"},
		{"ssh-keygen -Y verify -f spec/allowed -I a -n file -s x.sig", "allow"},
		{"ssh-keygen -Yverify -f spec/allowed -I a -n file -s x.sig", "allow"},
		{"ssh-keygen -qY find-principals -f spec/allowed -s x.sig", "allow"},
	})
}

// TestTerraformFmtSpellings: terraform/tofu fmt rewrites files unless
// -check (--check) or -write=false; its flags are Go-style (its row).
func TestTerraformFmtSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"terraform fmt spec", "block"},
		{"terraform fmt -recursive spec", "block"},
		{"terraform -chdir=infra fmt spec", "block"},
		{"tofu fmt -write=true spec", "block"},
		{"terraform fmt -check spec", "allow"},
		{"terraform fmt --check spec", "allow"},
		{"terraform fmt -check=true spec", "allow"},
		{"terraform fmt -write=false spec", "allow"},
		{"terraform fmt --write=false spec", "allow"},
		{"terraform fmt build", "allow"},
		{"terraform plan spec", "allow"},
	})
}
