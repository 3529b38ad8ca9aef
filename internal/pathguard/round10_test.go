package pathguard

import "testing"

// TestRound10WritersByMode: writers whose target is a directory named by
// a mode (testdata/corpus/README.md §3.3, §9.1): cpio -p (pass-through)
// copies the listed files below its directory operand, while -i and -o
// write the current directory or stdout; git read-tree -u --prefix=DIR/
// checks the tree out below DIR, and without -u it changes only the index.
func TestRound10WritersByMode(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"find . -name '*.html' | cpio -pdm templates", "block"},
		{"ls docs/*.md | cpio --pass-through --make-directories spec/guides", "block"},
		{"find . -name '*.html' | cpio -pdm research/html", "allow"},
		{"find src | cpio -o > /tmp/src.cpio", "allow"},
		{"cpio -t < /tmp/src.cpio", "allow"},
		{"git read-tree --prefix=templates/vendor/ -u vendor/main", "block"},
		{"git read-tree -u --prefix spec/imported/ upstream/docs", "block"},
		{"git read-tree --prefix=research/vendor/ -u vendor/main", "allow"},
		{"git read-tree --prefix=templates/vendor/ vendor/main", "allow"},
	})
}
