package pathguard

import "testing"

// TestArchiveMembers (round 13 dp0032-dp0034, dp0040): an archive
// extraction writes the members named on its command line below its
// destination (`tar -xf a.tar SKILL.md` writes ./SKILL.md, `unzip -o
// a.zip README.md` ./README.md), tar --one-top-level[=DIR] extracts below
// DIR (default: the archive's name without its .tar* suffix), and tar
// --transform/--xform rewrites the names: an s expression whose
// replacement starts with a literal path puts every renamed member below
// it (`s,^,spec/,`); backreferences are taken as possibly empty. Checked
// with GNU tar 1.34 and UnZip 6.00 under /tmp.
func TestArchiveMembers(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"tar -xf /tmp/a.tar SKILL.md", "block"},
		{"tar xf /tmp/a.tar README.md x.md", "block"},
		{"tar -xf /tmp/a.tar -C spec", "block"},
		{"tar -C build -xf /tmp/a.tar SKILL.md", "allow"},
		{"tar -xf /tmp/a.tar src/x.go", "allow"},
		{"tar -xf /tmp/a.tar", "allow"},
		{"tar -xf /tmp/a.tar spec/guides", "block"},
		{"tar -tf /tmp/a.tar SKILL.md", "allow"},
		{"tar -xOf /tmp/a.tar SKILL.md", "allow"},
		{"tar -xf /tmp/a.tar --one-top-level=protocols", "block"},
		{"tar -xf /tmp/a.tar --one-top-level=build/x", "allow"},
		{"tar -xf /tmp/templates.tar --one-top-level", "block"},
		{"tar -xf /tmp/templates.tar.gz --one-top-level", "block"},
		{"tar -xf /tmp/out.tar.gz --one-top-level", "allow"},
		{"tar -xf /tmp/a.tar --transform 's,^,spec/,'", "block"},
		{"tar -xf /tmp/a.tar --xform='s|^|.harness/features/f003/|'", "block"},
		{"tar -xf /tmp/a.tar --transform 's,^\\(.*\\)$,templates/\\1,'", "block"},
		{"tar -xf /tmp/a.tar --transform 's,^,build/,'", "allow"},
		{"tar -xf /tmp/a.tar --transform 's/\\.txt$/.md/'", "allow"},
		{"tar -xf /tmp/a.tar --transform 's,^a/,b/,;s,x,y,'", "allow"},
		{"tar -xf /tmp/a.tar --transform 's,.*,SKILL.md,'", "block"},
		{"tar -cf /tmp/a.tar --transform 's,^,spec/,' src", "allow"},
		{"unzip -o /tmp/a.zip README.md", "block"},
		{"unzip /tmp/a.zip 'spec/*'", "block"},
		{"unzip -o /tmp/a.zip README.md -d build", "allow"},
		{"unzip -o /tmp/a.zip src/x.go", "allow"},
		{"unzip -l /tmp/a.zip README.md", "allow"},
		{"unzip -p /tmp/a.zip README.md", "allow"},
		{"unzip /tmp/a.zip -x README.md", "allow"},
		{"unzip -o /tmp/a.zip", "allow"},
		{"unzip -o /tmp/a.zip '*.md'", "allow"},
		{"tar -xf /tmp/a.tar --wildcards '*.md'", "allow"},
		{"tar -xf /tmp/a.tar --wildcards 'templates/*.html'", "block"},
	})
}

// TestEditorScripts (round 13 dp0114 dp0115 dp0117, dp0058): vim/ex Ex
// commands given with -c, +CMD or (in Ex mode) on a known stdin write the
// file they name (`:w[rite][!] F`, `:w >> F`, `:sav[eas] F`, `:wq F`,
// `:x F`, `:up[date] F`); the edited file is written by a bare write
// (`:w`, `:wq`, `:x`, `:wa` …), by a command the guard cannot follow
// (`:normal ZZ`, `:exe`), and by an interactive session (no quit, stdin
// unknown): a script that is known to its end or to a quit and writes only
// elsewhere leaves it read. shuf -o FILE writes FILE, its operands are
// read. Checked with VIM 9 and GNU shuf under /tmp.
func TestEditorScripts(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"vim -es -c 'w! templates/x.html' -c q research/notes.md", "block"},
		{"ex -s research/notes.md <<<$'w! .harness/hermes_handoff.md\\nq'", "block"},
		{"vim -es -c 'sav spec/n.md' -c q research/notes.md", "block"},
		{"vim -es -c ':%w >> SKILL.md' -c q research/notes.md", "block"},
		{"vim -es -c 'wq spec/x.md' research/notes.md", "block"},
		{"vim -es '+w! schemas/b.json' '+q' research/notes.md", "block"},
		{"vim -es -c 'w|q' SKILL.md", "block"},
		{"vim -es -c '%s/a/b/' -c wq SKILL.md", "block"},
		{"vim -es -c 'x' SKILL.md", "block"},
		{"vim -es -c 'normal ZZ' -c 'q!' SKILL.md", "block"},
		{"vim SKILL.md", "block"},
		{"vim -es SKILL.md", "block"},
		{"vi -e -s SKILL.md <<'EOF'\n%s/a/b/\nwq\nEOF", "block"},
		{"vim -es -c 'w! build/copy.md' -c q SKILL.md", "allow"},
		{"ex -s SKILL.md <<<$'p\\nq'", "allow"},
		{"ex -s SKILL.md <<<'%p'", "allow"},
		{"vim -es -c 'w !cat' -c 'q!' SKILL.md", "allow"},
		{"vim -es -c '%s/a/b/' -c 'q!' SKILL.md", "allow"},
		{"vim -es -c 'w build/x.md | q' SKILL.md", "allow"},
		{"vim -es -c 'wq build/x.md' SKILL.md", "allow"},
		{"vim -es -c 'sav! build/x.md' -c 'qa!' SKILL.md", "allow"},
		{"vim -c 'w build/x.md' research/notes.md", "allow"},
		{"vim -R SKILL.md", "allow"},
		{"shuf -o build/shuffled.md SKILL.md", "allow"},
		{"shuf -n 3 SKILL.md", "allow"},
		{"shuf --random-source=SKILL.md -i 1-5", "allow"},
		{"shuf -o SKILL.md build/x", "block"},
		{"shuf --output=spec/x a", "block"},
		{"shuf -e a b -o templates/x", "block"},
	})
}

// TestGoToolchainOutputs (round 13 dp0100 dp0101 dp0103 dp0107, dp0088
// dp0097 dp0106): go mod vendor -o DIR writes DIR, go test's profile
// flags (-coverprofile, -cpuprofile, -memprofile, -blockprofile,
// -mutexprofile, -trace) write their file (-outputdir DIR: below DIR),
// go mod init/tidy and go get write go.mod (and go.sum) in the directory
// they run in, and the environment forms of output options write their
// value: GOBIN for go install, PIP_TARGET for pip install --target,
// npm_config_cache for npm --cache, GIT_INDEX_FILE for every git
// subcommand that touches the index (git resolves a relative one against
// the work tree's top: checked with git 2.39 under /tmp).
func TestGoToolchainOutputs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"go mod vendor -o sub-skills/vendor", "block"},
		{"go mod vendor -o build/vendor", "allow"},
		{"go mod vendor", "allow"},
		{"go test -coverprofile=spec/cover.out ./src/...", "block"},
		{"go test -cpuprofile templates/cpu.out .", "block"},
		{"go test -trace=SKILL.md .", "block"},
		{"go test -memprofile=m.out -outputdir schemas .", "block"},
		{"go test -c -o spec/x.test ./src", "block"},
		{"go test -coverprofile=build/c.out ./...", "allow"},
		{"go test -blockprofile b.out -mutexprofile m.out .", "allow"},
		{"go test -cover -race ./...", "allow"},
		{"cd templates && go mod init example.com/t", "block"},
		{"cd spec && go mod tidy", "block"},
		{"cd protocols && go get example.com/x@v1", "block"},
		{"go mod init example.com/t", "allow"},
		{"cd build && go mod init x", "allow"},
		{"go mod tidy", "allow"},
		{"GOBIN=\"$PWD/templates\" go install ./src/...", "block"},
		{"GOBIN=spec go install example.com/x@latest", "block"},
		{"GOBIN=/tmp/bin go install ./...", "allow"},
		{"go install ./...", "allow"},
		{"GIT_INDEX_FILE=spec/.idx git add src/app.go", "block"},
		{"GIT_INDEX_FILE=.harness/runtime_state.json git read-tree HEAD", "block"},
		{"touch .harness/idx; GIT_INDEX_FILE=.harness/idx git read-tree HEAD", "allow"},
		{"GIT_INDEX_FILE=/tmp/idx git add src/app.go", "allow"},
		{"GIT_INDEX_FILE=build/idx git commit -m x", "allow"},
		{"git add src/app.go", "allow"},
		{"PIP_TARGET=schemas/lib pip install requests", "block"},
		{"PIP_TARGET=build/lib pip install requests", "allow"},
		{"pip install requests", "allow"},
		{"npm_config_cache=spec/.npm npm install", "block"},
		{"NPM_CONFIG_CACHE=templates/c npm ci", "block"},
		{"npm_config_cache=/tmp/npm npm install", "allow"},
		{"npm install", "allow"},
	})
}

// TestConfigFromCommandLine (round 13 dp0108 dp0110): a configuration
// the command line makes known is options of the command: curl -K FILE
// (a here-string on /dev/stdin or "-", a process substitution, a file
// written earlier; long option names with or without dashes, the value
// after '=', ':' or blanks, double-quoted or bare) and wget -e COMMAND (a
// wgetrc command: dir_prefix is --directory-prefix, output_document
// --output-document; names compared without case, '_' and '-').
func TestConfigFromCommandLine(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"curl -sS -K /dev/stdin https://example.com/x <<<'output = \"README.md\"'", "block"},
		{"curl -K - https://e.com/x <<<'--output SKILL.md'", "block"},
		{"curl -K <(printf 'output=spec/x\\n') https://e.com/x", "block"},
		{"curl -K - -O https://e.com/a.md <<<'output-dir: \"spec\"'", "block"},
		{"curl --config /dev/stdin https://e.com/x <<<$'# c\\n-o templates/a.html'", "block"},
		{"wget -q -e dir_prefix=spec https://example.com/a.md", "block"},
		{"wget -e 'output_document = SKILL.md' https://e.com/x", "block"},
		{"wget --execute=DirPrefix=templates https://e.com/a", "block"},
		{"curl -sS -K /dev/stdin https://example.com/x <<<'output = \"build/x\"'", "allow"},
		{"curl -K /dev/stdin https://e.com/x <<<'silent'", "allow"},
		{"curl -K - https://e.com <<<'user-agent = \"README.md\"'", "allow"},
		{"curl -K /tmp/unknown.cfg https://e.com/x", "allow"},
		{"wget -e robots=off https://e.com/a.md", "allow"},
		{"wget -e dir_prefix=build https://e.com/a.md", "allow"},
		{"wget -e 'output_document = /tmp/x' https://e.com/SKILL.md", "block"}, // cautious: the command is judged without its configuration too
	})
}

// TestParallelArguments (round 13 dp0163): GNU parallel runs its command
// once per argument after ":::", with the argument in place of {} (and
// {.} {/} {//} {/.} {N}) or appended when the command has none, one
// argument of each ::: group per job: the writer is judged with each.
// From parallel(1) and parallel_tutorial(7) only (not installed here).
func TestParallelArguments(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"parallel sed -i s/a/b/ ::: spec/index.md", "block"},
		{"parallel 'sed -i s/a/b/ {}' ::: README.md", "block"},
		{"parallel rm {} ::: build/x SKILL.md", "block"},
		{"parallel cp {} spec/ ::: a.md", "block"},
		{"parallel touch {.}.md ::: SKILL.txt", "block"},
		{"parallel -j2 touch {1}/{2} ::: spec templates ::: x.md", "block"},
		{"parallel sed -i s/a/b/ ::: build/index.md", "allow"},
		{"parallel cat ::: SKILL.md", "allow"},
		{"parallel 'wc -l {}' ::: README.md", "allow"},
		{"parallel touch {.}.txt ::: SKILL.md", "allow"},
		{"parallel echo ::: spec/index.md", "allow"},
		{"parallel -j2 touch {1}/{2} ::: build docs ::: x.md", "allow"},
	})
}

// TestDecidableGlobs (round 13 dp0149): a glob whose only possible match
// is decidable from the pattern (a bracket expression with one member:
// f00[2] can only be f002) is that path when it exists, as bash expands
// it; when it does not, both the path and the literal text are judged.
func TestDecidableGlobs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"touch .harness/features/f00[2]/handoff.md", "allow"},
		{"touch .harness/features/f0[0]2/handoff.md", "allow"},
		{"touch build/[a].md", "allow"},
		{"touch spec/ne[w].md", "block"},
		{"touch .harness/features/f00[2]/../f003/x", "block"},
		{"touch .harness/features/f00[3]/handoff.md", "block"},
		{"touch .harness/features/f00[13]/handoff.md", "block"},
		{"touch .harness/features/f00?/handoff.md", "block"},
		{"touch SKILL.m[d]", "block"},
		{"touch spec/inde[x].md", "block"},
		{"touch .harness/features/f00[4]/handoff.md", "block"},
	})
}
