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
