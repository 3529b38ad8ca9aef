package pathguard

import "testing"

// TestBuildOutputDirs (round 14 ep0067-ep0076): build tools and
// exporters name their output directory by an option or operand: meson
// setup BUILDDIR (and compile -C BUILDDIR), bazel's startup options
// --output_base/--output_user_root, terraform plan -out=FILE (relative to
// -chdir's DIR), docker build -o type=local,dest=DIR / --output=DIR (and
// buildx build), helm package -d/--destination DIR. From documentation
// (none of them is installed here).
func TestBuildOutputDirs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"meson setup templates/bd", "block"},
		{"meson setup --reconfigure spec/bd", "block"},
		{"meson setup build/bd", "allow"},
		{"meson compile -C protocols/bd", "block"},
		{"meson compile -C build/bd", "allow"},
		{"bazel --output_base=protocols/ob build //...", "block"},
		{"bazel --output_user_root=spec/x test //...", "block"},
		{"bazel --output_base=build/ob build //...", "allow"},
		{"bazel build //spec/...", "allow"},
		{"terraform -chdir=build plan -out=../spec/tf.plan", "block"},
		{"terraform plan -out=spec/tf.plan", "block"},
		{"terraform -chdir=build plan -out=tf.plan", "allow"},
		{"terraform -chdir=spec plan", "allow"},
		{"docker build -o type=local,dest=sub-skills .", "block"},
		{"docker build --output=spec .", "block"},
		{"docker buildx build -o type=local,dest=templates .", "block"},
		{"docker build -o type=local,dest=build/out .", "allow"},
		{"docker build -t x -f spec/Dockerfile .", "allow"},
		{"docker build -o type=registry .", "allow"},
		{"helm package charts/app --destination=spec", "block"},
		{"helm package charts/app -d protocols", "block"},
		{"helm package spec/chart -d build", "allow"},
		{"helm package spec/chart", "allow"},
	})
}

// TestCloneDests (round 14 ep0083, ep0089): git clone
// --separate-git-dir=DIR writes DIR; hg clone URL DEST, hg init DEST and
// hg archive DEST write DEST; svn checkout URL DIR writes DIR.
func TestCloneDests(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"git clone --separate-git-dir=.harness/logs/g.git https://example.com/r.git build/r", "block"},
		{"git clone --separate-git-dir spec/g.git https://example.com/r.git build/r", "block"},
		{"git clone --separate-git-dir=build/g.git https://example.com/r.git build/r", "allow"},
		{"hg clone https://example.com/hg/r sub-skills/r", "block"},
		{"hg clone -r 5 https://example.com/hg/r spec/r", "block"},
		{"hg init templates/x", "block"},
		{"hg archive -r tip protocols/a", "block"},
		{"hg clone https://example.com/hg/r build/r", "allow"},
		{"hg log -l 3 spec", "allow"},
		{"hg status spec", "allow"},
		{"svn checkout https://example.com/svn/r spec/r", "block"},
		{"svn checkout https://example.com/svn/r build/r", "allow"},
	})
}

// TestComputedNames (round 14 ep0016, ep0125): csplit names its pieces
// PREFIX + printf(SUFFIXFORMAT, n) (-f, default xx; -b, default %02d):
// `csplit -f README -b '%.0d.md'` writes README.md; awk's FILENAME in an
// output redirection is the input operand being read; split names its
// pieces PREFIX + letters (-a, 2), digits (-d) or hex digits (-x) +
// --additional-suffix (`split -a1 -n 4 in SKILL.m` writes SKILL.md).
// Checked under /tmp with coreutils csplit, split and awk.
func TestComputedNames(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"csplit -s -f README -b '%.0d.md' research/notes.md '/^#/' '{*}'", "block"},
		{"csplit -s --prefix=README --suffix-format='%.0d.md' research/notes.md '/^#/'", "block"},
		{"csplit -s -f spec/p research/notes.md '/^#/'", "block"},
		{"csplit -s -f build/p -b '%.0d.md' research/notes.md '/^#/'", "allow"},
		{"csplit -s -f README -b '%02d.md' research/notes.md '/^#/'", "allow"},
		{"csplit -s research/notes.md '/^#/'", "allow"},
		{"split -a1 -n 4 research/notes.md SKILL.m", "block"},
		{"split -x -a1 -n 16 research/notes.md SKILL.m", "block"},
		{"split -d -a1 --additional-suffix=.md research/notes.md README", "allow"},
		{"split -l 10 research/notes.md build/p", "allow"},
		{"awk '{print > FILENAME}' spec/index.md", "block"},
		{"awk '{print > FILENAME \".bak\"}' spec/index.md", "block"},
		{"awk '{print > FILENAME}' build/x.md", "allow"},
		{"awk '{print > (FILENAME \".out\")}' README", "allow"},
		{"awk '{print FILENAME}' spec/index.md", "allow"},
		{"awk '{print > FILENAME}' build/a.md templates/b.md", "block"},
		{"awk '{print > FILENAME}' n=1 build/a.md", "allow"},
		{"awk '{print > FILENAME}' < spec/index.md", "allow"},
	})
}

// TestArOperations (round 14 ep0007): ar's operation letters t and p
// only read the archive; r q d m s write it, x writes members into the
// cwd (or --output DIR). Checked with GNU ar under /tmp.
func TestArOperations(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"ar t sub-skills/libx.a", "allow"},
		{"ar tv spec/libx.a", "allow"},
		{"ar p spec/libx.a a.o", "allow"},
		{"ar rcs spec/libx.a a.o", "block"},
		{"ar d sub-skills/libx.a a.o", "block"},
		{"ar rcs build/libx.a a.o", "allow"},
		{"ar x --output=spec /tmp/libx.a", "block"},
		{"ar x --output=build /tmp/libx.a", "allow"},
		{"ar x /tmp/libx.a README.md", "block"},
	})
}
