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
	})
}
