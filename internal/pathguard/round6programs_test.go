package pathguard

import "testing"

// TestRound6ProgramWrites: programs whose writes come from an option or
// a subcommand nobody listed (testdata/corpus/README.md §3.3, §9.1):
// rg --pre CMD runs CMD with each searched file as its argument, svn
// export|checkout URL DEST writes DEST, tar --remove-files deletes what it
// archives, srm and wipe delete like rm; fstrim's operand is a mount
// point it does not write, and rg without --pre, svn reading a URL and
// tar archiving only read.
func TestRound6ProgramWrites(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"rg --pre rm TODO spec", "block"},
		{"rg --pre=rm -e TODO templates", "block"},
		{"rg --pre ./strip.sh TODO schemas/a.json", "block"},
		{"rg --pre rm TODO src", "allow"},
		{"rg --pre cat TODO spec", "allow"},
		{"rg --pre pdftotext TODO spec", "allow"},
		{"rg TODO spec", "allow"},
		{"rg --pre-glob '*.pdf' TODO spec", "allow"},
		{"svn export https://svn.example.com/repo/trunk/docs spec/imported", "block"},
		{"svn export https://svn.example.com/skills/x .claude/skills/x", "block"},
		{"svn checkout https://svn.example.com/repo/trunk templates", "block"},
		{"svn co -r 5 https://svn.example.com/repo/trunk spec", "block"},
		{"svn export https://svn.example.com/repo/trunk/docs research/imported", "allow"},
		{"svn export https://svn.example.com/repo/trunk/docs /tmp/docs", "allow"},
		{"svn log https://svn.example.com/repo/trunk", "allow"},
		{"svn cat https://svn.example.com/repo/trunk/README > /tmp/r", "allow"},
		{"tar -cf /tmp/spec.tar --remove-files spec", "block"},
		{"tar --remove-files -czf /tmp/t.tgz templates", "block"},
		{"tar -cf /tmp/spec.tar spec", "allow"},
		{"tar -cf /tmp/b.tar --remove-files build", "allow"},
		{"srm -r spec", "block"},
		{"wipe -rf templates", "block"},
		{"srm -rf build", "allow"},
		{"fstrim -v /", "allow"},
		{"fstrim -v .", "allow"},
		{"fstrim --all", "allow"},
	})
}
