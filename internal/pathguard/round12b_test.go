package pathguard

import "testing"

// Round 12's remaining path gaps, by mechanism (helper r12paths). The
// behaviours marked "checked" were run here under /tmp with marker files
// (GNU coreutils 9, sed 4.9, perl 5.36, patch 2.7.6, gzip 1.12, xz 5.4.1,
// zstd 1.5.4, GNU ed); rsync, ruby, cargo, pip and npm are not installed
// (documentation only).

const r12diff = "--- a/research/notes.md\n+++ b/research/notes.md\n@@ -0,0 +1 @@\n+x\n"
const r12readme = "--- a/README\n+++ b/README\n@@ -0,0 +1 @@\n+x\n"

// TestBackupNames: a backup copy is a write of its name. coreutils
// cp/mv/ln/install make DEST+SUFFIX with -b/--backup[=CONTROL] or -S/--suffix
// (-S alone turns backups on; SIMPLE_BACKUP_SUFFIX replaces "~" only with
// -b; a suffix with "/" falls back to "~": all checked); GNU sed -i and perl
// -i make FILE+EXT, or EXT with each "*" replaced by FILE as given, relative
// to the cwd (checked with strace: `sed -i'bk/*' d/f` renames d/f to
// bk/d/f); patch makes PREFIX+DIR/BASEPREFIX+BASE+SUFFIX (-B, -Y, -z), with
// -b and also without it when a hunk applies with fuzz (backup-if-mismatch,
// checked).
func TestBackupNames(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"mv -b -S .md research/notes.md SKILL", "block"},
		{"mv -b -S .bak research/notes.md SKILL", "allow"},
		{"mv research/notes.md SKILL", "allow"},
		{"cp --backup=simple --suffix=.md src/app.go README", "block"},
		{"cp --backup=simple --suffix=.txt src/app.go README", "allow"},
		{"cp -S .md src/app.go README", "block"},
		{"cp src/app.go README", "allow"},
		{"cp --suffix .md -b src/app.go README", "block"},
		{"cp --suf=.md -b src/app.go README", "block"},
		{"cp -b -S .md src/app.go docs/", "allow"},
		{"cp -b -S .md -t . src/app.go", "allow"},
		{"cp -b -S .md -t . research/SKILL", "block"},
		{"SIMPLE_BACKUP_SUFFIX=.md cp -b src/app.go README", "block"},
		{"SIMPLE_BACKUP_SUFFIX=.md cp src/app.go README", "allow"},
		{"export SIMPLE_BACKUP_SUFFIX=.md; mv --backup research/notes.md SKILL", "block"},
		{"SIMPLE_BACKUP_SUFFIX=.md cp -b src/app.go build/README", "allow"},
		{"cp --backup=none -S .md src/app.go README", "allow"},
		{"VERSION_CONTROL=off mv -b -S .md research/notes.md SKILL", "allow"},
		{"VERSION_CONTROL=off mv --backup=simple -S .md research/notes.md SKILL", "block"},
		{"ln -sf -b -S .md src/app.go README", "block"},
		{"ln -sf -b src/app.go README", "allow"},
		{"ln -sf -b -S .md research/SKILL", "block"}, // ./SKILL, its backup SKILL.md
		{"ln -sf -b -S .bak research/SKILL", "allow"},
		{"install -b -S .md src/app.go README", "block"},
		{"install -S .md -m 644 src/app.go build/README", "allow"},
		{"cd research && sed -i'../spec/*.bak' s/a/b/ notes.md", "block"},
		{"cd research && sed -i'*.bak' s/a/b/ notes.md", "allow"},
		{"sed -i'spec/*' s/a/b/ research/notes.md", "block"},
		{"sed -i'old_*' s/a/b/ research/notes.md", "allow"},
		{"sed -i.md s/a/b/ SKILL", "block"},
		{"sed -i.bak s/a/b/ research/notes.md", "allow"},
		{"sed --in-place='templates/*' s/a/b/ src/app.go", "block"},
		{"sed -i s/a/b/ research/notes.md", "allow"},
		{"perl -pi'spec/*' -e s/a/b/ research/notes.md", "block"},
		{"perl -i.md -pe s/a/b/ SKILL", "block"},
		{"perl -i.bak -pe s/a/b/ research/notes.md", "allow"},
		{"perl -pi -e s/a/b/ research/notes.md", "allow"},
		{"ruby -i.md -pe 1 SKILL", "block"},
		{"ruby -i.bak -pe 1 research/notes.md", "allow"},
		{"patch -b -B templates/ -p1 <<'EOF'\n" + r12diff + "EOF", "block"},
		{"patch --backup --prefix=templates/ -p1 <<'EOF'\n" + r12diff + "EOF", "block"},
		{"patch -B templates/ -p1 <<'EOF'\n" + r12diff + "EOF", "block"}, // fuzz makes a backup without -b
		{"patch -b -B build/ -p1 <<'EOF'\n" + r12diff + "EOF", "allow"},
		{"patch -b -Y ../templates/ -p1 <<'EOF'\n" + r12diff + "EOF", "block"},
		{"patch -b -Y old. -p1 <<'EOF'\n" + r12diff + "EOF", "allow"},
		{"patch -b -z .md -p1 <<'EOF'\n" + r12readme + "EOF", "block"},
		{"patch -b -z .orig -p1 <<'EOF'\n" + r12readme + "EOF", "allow"},
		{"patch -b --suffix=.md -p1 <<'EOF'\n" + r12readme + "EOF", "block"},
		{"patch -p1 -o templates/x <<'EOF'\n" + r12diff + "EOF", "block"},
		{"patch -p1 -r spec/x.rej <<'EOF'\n" + r12diff + "EOF", "block"},
		{"patch -p1 -o build/x -r build/x.rej <<'EOF'\n" + r12diff + "EOF", "allow"},
	})
}

// TestCompressSuffix: gzip and xz (-S/--suffix SUF, checked) decompress
// FILE+SUF to FILE beside it and compress FILE to FILE+SUF; bunzip2 .bz2,
// unxz .xz, zstd -d .zst (checked); zstd -o FILE and --output-dir-flat DIR
// (zstd -H).
func TestCompressSuffix(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"gunzip -f -S .bak README.md.bak", "block"},
		{"gunzip -f -S .bak build/README.md.bak", "allow"},
		{"gzip -d -S .bak README.md.bak", "block"},
		{"gzip -d --suffix=.bak README.md.bak", "block"},
		{"gzip -S .md SKILL", "block"},
		{"gzip -k -S .gz build/x", "allow"},
		{"gunzip README.md.gz", "block"},
		{"gunzip build/README.md.gz", "allow"},
		{"bunzip2 README.md.bz2", "block"},
		{"xz -d -S .bak README.md.bak", "block"},
		{"unxz --suffix=.bak README.md.bak", "block"},
		{"unxz build/x.xz", "allow"},
		{"zstd -d README.md.zst", "block"},
		{"zstd -d build/README.md.zst", "allow"},
		{"gzip -c README.md > build/r.gz", "allow"},
		{"gzip -dc README.md.gz > build/r", "allow"},
		{"zstd -d build/x.zst -o README.md", "block"},
		{"zstd -d README.md.zst -o build/README.md", "allow"},
		{"zstd --output-dir-flat templates build/x", "block"},
		{"zstd --output-dir-flat build/z build/x", "allow"},
		{"gzip -d build/x", "allow"},
	})
}

// TestRsyncDirs: --backup-dir, -T/--temp-dir and --partial-dir name
// directories rsync writes into, a relative one below the destination
// (rsync(1)); it is judged relative to the cwd too. --log-file,
// --write-batch and --only-write-batch write FILE; --compare-dest and
// --copy-dest are only read. Not checked (rsync is not installed).
func TestRsyncDirs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{`rsync -a --backup --backup-dir="$PWD/templates/old" src/ build/src/`, "block"},
		{`rsync -a --backup --backup-dir="$PWD/build/old" src/ build/src/`, "allow"},
		{"rsync -a -b --backup-dir=../../spec src/ build/src/", "block"},
		{"rsync -a -b --backup-dir=old src/ build/src/", "allow"},
		{"rsync -a --temp-dir=spec/.rsync-tmp src/ build/src/", "block"},
		{"rsync -a -T /tmp src/ build/src/", "allow"},
		{"rsync -a -T templates src/ build/src/", "block"},
		{"rsync -a -Ttemplates src/ build/src/", "block"},
		{`rsync -a --partial-dir="$PWD/.claude/commands" src/ build/src/`, "block"},
		{"rsync -a --partial-dir=.rsync-partial src/ build/src/", "allow"},
		{`rsync -a --compare-dest="$PWD/spec" src/ build/src/`, "allow"},
		{"rsync -a --copy-dest=../../spec src/ build/src/", "allow"},
		{"rsync -a --log-file=spec/rsync.log src/ build/src/", "block"},
		{"rsync -a --log-file=build/rsync.log src/ build/src/", "allow"},
		{"rsync -a --write-batch=templates/b src/ build/src/", "block"},
		{"rsync -a --only-write-batch=build/b src/ build/src/", "allow"},
	})
}

// TestEnvOutputDirs: the environment form of an output-directory option
// (cargo: CARGO_TARGET_DIR and build.target-dir's CARGO_BUILD_TARGET_DIR are
// --target-dir; The Cargo Book, "Environment variables" and
// "Configuration"; not checked, cargo is not installed), and the go
// command's GOCACHE, GOTMPDIR, GOMODCACHE and (go install) GOBIN (go help
// environment; checked with go 1.26 here).
func TestEnvOutputDirs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"CARGO_TARGET_DIR=sub-skills/t cargo build", "block"},
		{"CARGO_TARGET_DIR=build/t cargo build", "allow"},
		{"cargo build --target-dir sub-skills/t", "block"},
		{"CARGO_TARGET_DIR=sub-skills/t ls", "allow"},
		{"env CARGO_TARGET_DIR=schemas/t cargo test", "block"},
		{"export CARGO_TARGET_DIR=schemas/t; cargo test", "block"},
		{"CARGO_BUILD_TARGET_DIR=templates/t cargo build --release", "block"},
		{"CARGO_BUILD_TARGET_DIR=build/t cargo build --release", "allow"},
		{"GOCACHE=$PWD/templates/gocache go build ./...", "block"},
		{"GOCACHE=/tmp/gocache go build ./...", "allow"},
		{"GOTMPDIR=spec go test ./...", "block"},
		{"GOMODCACHE=$PWD/protocols/mod go vet ./...", "block"},
		{"GOBIN=$PWD/templates go install ./cmd/x", "block"},
		{"GOBIN=$PWD/build go install ./cmd/x", "allow"},
		{"GOBIN=$PWD/templates go build ./cmd/x", "allow"},
		{"go build -o templates/x ./cmd/x", "block"},
		{"go build -o build/x ./cmd/x", "allow"},
		{"go test -c -o=spec/x.test ./pkg", "block"},
	})
}

// TestEdScript: ed's script (a known stdin) decides what it writes: `w
// FILE`, `W FILE` and `wq FILE` write FILE, a bare `w`/`wq`/`W` the
// default file (the operand, or the name of a later `f FILE`/`e FILE`);
// `w !CMD` writes to a command; `r FILE` reads. An unknown script (no
// known stdin) may write the operand. Checked with GNU ed here. Round 12
// cp0087 was blocked although its script writes only build/SKILL.copy.
func TestEdScript(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"ed -s SKILL.md <<'EOF'\nw build/SKILL.copy\nq\nEOF", "allow"},
		{"ed -s SKILL.md <<'EOF'\n,s/a/b/\nw\nq\nEOF", "block"},
		{"ed -s SKILL.md <<'EOF'\n,s/a/b/\nwq\nEOF", "block"},
		{"ed -s src/app.go <<'EOF'\nw spec/x.md\nq\nEOF", "block"},
		{"ed -s build/x <<'EOF'\nr SKILL.md\nw\nq\nEOF", "allow"},
		{"ed -s SKILL.md <<'EOF'\nW README.md\nq\nEOF", "block"},
		{"ed -s SKILL.md <<< ',p'", "allow"},
		{"ed SKILL.md", "block"},
		{"ed -s SKILL.md < build/script.ed", "block"},
		{"ed -s SKILL.md <<'EOF'\n1,2w build/part\nq\nEOF", "allow"},
		{"ed -s SKILL.md <<'EOF'\n1,2w spec/part\nq\nEOF", "block"},
		{"ed -s SKILL.md <<'EOF'\nf build/new\nw\nq\nEOF", "allow"},
		{"ed -s SKILL.md <<'EOF'\ne src/app.go\nw\nq\nEOF", "allow"},
		{"ed -s SKILL.md <<'EOF'\nw !cat\nq\nEOF", "allow"},
		{"ed -s SKILL.md <<'EOF'\nwq build/x\nEOF", "allow"},
		{"ed -s build/x <<'EOF'\na\nw SKILL.md\n.\nw\nq\nEOF", "allow"}, // text after a, not a command
		{"printf 'w\\nq\\n' | ed -s SKILL.md", "block"},
	})
}
