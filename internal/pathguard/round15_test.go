package pathguard

import "testing"

// TestJavacOutputs (round 15 fp0007): javac reads its sources and writes
// a class file for every class they declare (Gen.class, Gen$In.class,
// Other.class): below -d DIR when given, else beside each source, and
// beside every source it compiles implicitly from -sourcepath, else the
// class path (-cp, CLASSPATH, else "."), unless -implicit:none; -h DIR
// (native headers) and -s DIR (generated sources) are written below too;
// -Xstdout FILE gets its messages. Checked with javac 17.0.15 under /tmp.
func TestJavacOutputs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"javac -d build/classes schemas/Gen.java", "allow"},
		{"javac -d build/classes -sourcepath spec src/A.java", "allow"},
		{"javac --release 17 -cp build/lib -d build/c schemas/Gen.java spec/X.java", "allow"},
		{"javac -implicit:none -sourcepath spec src/A.java", "allow"},
		{"javac -d build/c -s build/gen -h build/h src/A.java", "allow"},
		{"javac schemas/Gen.java", "block"},
		{"javac -g src/A.java templates/T.java", "block"},
		{"javac -d spec/classes src/A.java", "block"},
		{"javac -d build/c -h protocols src/A.java", "block"},
		{"javac -d build/c -s sub-skills/gen src/A.java", "block"},
		{"javac -sourcepath src:spec src/A.java", "block"},
		{"javac -cp spec src/A.java", "block"},
		{"cd spec && javac ../src/A.java", "block"},
		{"javac -d build -Xstdout SKILL.md src/A.java", "block"},
		{"cd spec && javac -version", "allow"},
	})
}

// TestLz4Outputs (round 15 fp0058, fp0059): lz4 [OPTS] IN [OUT] writes OUT
// and keeps IN; with one operand it writes IN.lz4 (IN without .lz4 with
// -d) beside it, or stdout when stdout is no console (the Bash tool's
// pipe: the sibling is still judged, the cautious reading); with -m every
// operand gets its sibling; --rm removes the inputs; -c, -t, -l write no
// file. Checked with lz4 1.9.4 under /tmp.
func TestLz4Outputs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"lz4 -d SKILL.md.lz4 build/SKILL.md", "allow"},
		{"lz4 SKILL.md", "allow"},
		{"lz4 -9 README.md build/r.lz4", "allow"},
		{"lz4 -c SKILL.md > build/s.lz4", "allow"},
		{"lz4 -m build/a build/b", "allow"},
		{"lz4 -d build/x.lz4 spec/index.md", "block"},
		{"lz4 build/a.md spec/a.md.lz4", "block"},
		{"lz4 -m spec/index.md", "block"},
		{"lz4 -d -m build/SKILL.md.lz4 spec/guides/x.md.lz4", "block"},
		{"lz4 --rm SKILL.md build/s.lz4", "block"},
		{"lz4 -m --rm README.md", "block"},
		{"lz4 -d templates/t.lz4", "block"},
		{"lz4 -l spec/index.md.lz4", "allow"},
	})
}
