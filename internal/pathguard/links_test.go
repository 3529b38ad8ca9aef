package pathguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// commandDecide judges cmd the way bashguard.Decide does: ForCommand once
// over every invocation, then CheckInvocation on each; the first block wins.
func commandDecide(g *Guard, cmd, cwd string) verdict.Decision {
	invs := shell.Parse(cmd, shell.Options{}).Invocations
	cg := g.ForCommand(invs, cwd)
	for _, inv := range invs {
		if d := cg.CheckInvocation(inv, cwd); d.Action == verdict.Block {
			return d
		}
	}
	return verdict.Decision{}
}

// TestLinksMadeInTheSameCommand: a symbolic link created by one part of a
// command line is followed when a later part writes through it, as the
// kernel would once it exists (the link text is resolved from the link's
// directory); writes that stay outside the root or reach only unprotected
// files remain allowed.
func TestLinksMadeInTheSameCommand(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	out := t.TempDir()
	sub := filepath.Join(out, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// a link to the root that already exists outside it (a previous command)
	symlink(t, root, filepath.Join(out, "old"))
	rel, err := filepath.Rel(out, root)
	if err != nil {
		t.Fatal(err)
	}
	rel = filepath.ToSlash(rel)
	// a tree holding an absolute and a relative link to the root
	if err := os.MkdirAll(filepath.Join(out, "tree", "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, root, filepath.Join(out, "tree", "in", "r"))
	symlink(t, "../../"+rel, filepath.Join(out, "tree", "in", "rel"))
	R, O := root, out
	for _, c := range []struct{ cmd, want, family string }{
		// the reported bypass and its spellings
		{"cd " + O + " && ln -s " + R + " r && echo pwned > r/schemas/x.json", "block", FamilyReadonlyDir},
		{"cd " + O + "; ln -sf " + R + " r; echo pwned > r/schemas/x.json", "block", FamilyReadonlyDir},
		{"ln -sfn " + R + " " + O + "/r && echo x > " + O + "/r/SKILL.md", "block", FamilyReadonlyFile},
		{"ln --symbolic " + R + " " + O + "/r && tee " + O + "/r/.harness/eval_log.jsonl < /dev/null", "block", FamilyEvalLog},
		{"ln -s " + R + "/schemas " + O + "/s && echo x > " + O + "/s/a.json", "block", FamilyReadonlyDir},
		{"ln -s " + R + "/SKILL.md " + O + "/f && echo x > " + O + "/f", "block", FamilyReadonlyFile},
		// relative link text, resolved from the link's directory
		{"cd " + O + " && ln -s " + rel + " r && echo x > r/spec/index.md", "block", FamilyReadonlyDir},
		{"cd " + O + " && ln -s ../" + rel + " sub/r && echo x > sub/r/spec/index.md", "block", FamilyReadonlyDir},
		// ln -r: the target is named relative to the working directory
		{"cd " + O + " && ln -sr " + rel + " sub/r && echo x > sub/r/spec/index.md", "block", FamilyReadonlyDir},
		{"cd " + O + " && ln --relative -s " + rel + "/schemas sub/s && echo x > sub/s/a.json", "block", FamilyReadonlyDir},
		// -t DIR and an existing directory as destination: the link is made inside it
		{"ln -s -t " + O + " " + R + " && echo x > " + O + "/" + filepath.Base(R) + "/SKILL.md", "block", FamilyReadonlyFile},
		{"ln -s " + R + " " + sub + " && echo x > " + sub + "/" + filepath.Base(R) + "/SKILL.md", "block", FamilyReadonlyFile},
		// cd into the fresh link, then a relative write
		{"cd " + O + " && ln -s " + R + " r && cd r && echo x > README.md", "block", FamilyReadonlyFile},
		{"cd " + O + " && ln -s " + R + " r && cd r/.harness && rm eval_log.jsonl", "block", FamilyEvalLog},
		// a chain of fresh links
		{"cd " + O + " && ln -s " + R + " a && ln -s a/schemas b && echo x > b/a.json", "block", FamilyReadonlyDir},
		// a link inside a directory the same command creates
		{"mkdir -p " + O + "/new/d && ln -s " + R + " " + O + "/new/d/r && echo x > " + O + "/new/d/r/SKILL.md", "block", FamilyReadonlyFile},
		// cp -s makes a link too
		{"cp -s " + R + "/SKILL.md " + O + "/c && echo x > " + O + "/c", "block", FamilyReadonlyFile},
		// a link moved or copied as a link into place
		{"ln -s " + R + " " + O + "/r && mv " + O + "/r " + O + "/m; echo x > " + O + "/m/SKILL.md", "block", ""},
		{"cp -P " + O + "/old " + O + "/cp1 && echo x > " + O + "/cp1/SKILL.md", "block", FamilyReadonlyFile},
		{"cp -a " + O + "/old " + O + "/cp2 && echo x > " + O + "/cp2/spec/x", "block", FamilyReadonlyDir},
		// a directory holding a link, moved or copied into place
		{"mkdir " + O + "/d && ln -s " + R + " " + O + "/d/r && mv " + O + "/d " + O + "/d2 && echo x > " + O + "/d2/r/SKILL.md", "block", FamilyReadonlyFile},
		{"cp -r " + O + "/tree " + O + "/t2 && echo x > " + O + "/t2/in/r/spec/index.md", "block", FamilyReadonlyDir},
		{"mv " + O + "/tree " + O + "/t3 && echo x > " + O + "/t3/in/rel/README.md", "block", FamilyReadonlyFile},
		{"cp -r " + O + "/tree " + O + "/t4 && echo x > " + O + "/t4/in/plain.txt", "allow", ""},
		// order does not matter: a loop may run the link first
		{"for i in 1 2; do echo x > " + O + "/r/SKILL.md; ln -sfn " + R + " " + O + "/r; done", "block", FamilyReadonlyFile},
		// interpreters
		{`python3 -c "import os; os.symlink('` + R + `', '` + O + `/py')" && echo x > ` + O + `/py/SKILL.md`, "block", FamilyReadonlyFile},
		{`python3 -c "from pathlib import Path; Path('` + O + `/pl').symlink_to('` + R + `')" && echo x > ` + O + `/pl/SKILL.md`, "block", FamilyReadonlyFile},
		{`node -e "require('fs').symlinkSync('` + R + `', '` + O + `/nd')" && echo x > ` + O + `/nd/SKILL.md`, "block", FamilyReadonlyFile},
		{`perl -e 'symlink "` + R + `", "` + O + `/pe"' && echo x > ` + O + `/pe/SKILL.md`, "block", FamilyReadonlyFile},
		{`ruby -e 'File.symlink("` + R + `", "` + O + `/rb")' && echo x > ` + O + `/rb/SKILL.md`, "block", FamilyReadonlyFile},
		// one interpreter program that makes the link and writes through it
		{`python3 -c "import os; os.symlink('` + R + `/SKILL.md', '` + O + `/ps'); open('` + O + `/ps', 'w').write('x')"`, "block", FamilyReadonlyFile},
		{`python3 -c "import os; os.symlink('` + R + `', '` + O + `/pr'); open('` + O + `/pr/SKILL.md', 'w')"`, "block", FamilyReadonlyFile},
		{`node -e "const fs = require('fs'); fs.symlinkSync('` + R + `/SKILL.md', '` + O + `/ns'); fs.writeFileSync('` + O + `/ns', 'x')"`, "block", FamilyReadonlyFile},
		// a link with an unknown text: writes below it could reach the root
		{"cd " + O + " && ln -s \"$X\" r && echo x > r/notes.txt", "block", FamilyUnresolvable},
		{"cd " + O + " && ln -s \"$(cat p)\" r && cp a.txt r/", "block", FamilyUnresolvable},
		// allowed: links that lead elsewhere, reads, the link itself, unprotected files
		{"cd " + O + " && ln -s " + R + " r && cat r/schemas/a.json", "allow", ""},
		{"cd " + O + " && ln -s " + R + " r && echo x > r/src/new.go", "allow", ""},
		{"cd " + O + " && ln -s " + R + " r && echo x >> r/.harness/features/f002/generator_log.md", "allow", ""},
		{"cd " + O + " && ln -s /usr/share r && echo x > q/x", "allow", ""},
		{"cd " + O + " && ln -s " + sub + " r && echo x > r/SKILL.md", "allow", ""},
		{"cd " + O + " && ln -sfn \"$X\" r && cat r/x", "allow", ""},
		{"cd " + O + " && ln -s \"$X\" r && echo x > other/x", "allow", ""},
		{"ln -s " + R + "/schemas/a.json " + O + "/ro && cat " + O + "/ro", "allow", ""},
		{"cp -s " + R + "/SKILL.md " + O + "/cs", "allow", ""},
		{"ln -sf " + R + "/SKILL.md " + O + "/f2 && ln -sf " + R + "/README.md " + O + "/f2", "allow", ""},
		{"cd " + root + "/src && ln -s ../docs d && echo x > d/guide.md", "allow", ""},
	} {
		d := commandDecide(g, c.cmd, root)
		if d.Action.String() != c.want || (c.family != "" && d.Family != c.family) {
			t.Errorf("%s:\n got %s %s (%s), want %s %s", c.cmd, d.Action, d.Family, d.Message, c.want, c.family)
		}
	}
}

// TestForCommandKeepsGuard: a command that creates no link gets the guard
// itself back; the guard ForCommand was called on is never changed.
func TestForCommandKeepsGuard(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	if cg := g.ForCommand(bashParse("echo x > src/a.go && ls"), root); cg != g {
		t.Fatal("a command without links got a new guard")
	}
	out := t.TempDir()
	cg := g.ForCommand(bashParse("ln -s "+root+" "+out+"/r"), root)
	if cg == g || len(cg.links) != 1 || g.links != nil {
		t.Fatalf("links: new %v, original %v", cg.links, g.links)
	}
	// without ForCommand (one invocation at a time) the link is unknown:
	// the overlay is what closes the bypass
	if d := bashDecide(g, "ln -s "+root+" "+out+"/r && echo x > "+out+"/r/SKILL.md", root, nil); d.Action != verdict.Allow {
		t.Fatalf("per invocation: %+v", d)
	}
	if d := commandDecide(g, "ln -s "+root+" "+out+"/r && echo x > "+out+"/r/SKILL.md", root); d.Action != verdict.Block {
		t.Fatalf("per command: %+v", d)
	}
	if !strings.Contains(commandDecide(g, "cd "+out+" && ln -s \"$X\" r && echo x > r/y", root).Message, "cannot know") {
		t.Fatal("unknown link text: message does not say why")
	}
}

// TestHardLinks: making a hard link to a protected file is a write to it —
// a later write through the new name changes the protected file — for
// coreutils link, ln, cp -l/-al, rsync --link-dest and the interpreters'
// link calls; links to unprotected files and symbolic links stay allowed.
func TestHardLinks(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	out := t.TempDir()
	R, O := root, out
	for _, c := range []struct{ cmd, want, family string }{
		{"link " + R + "/schemas/a.json " + O + "/h", "block", FamilyReadonlyDir},
		{"cd " + R + " && link SKILL.md /tmp/h", "block", FamilyReadonlyFile},
		{"link -- " + R + "/.harness/eval_log.jsonl " + O + "/h", "block", FamilyEvalLog},
		{"ln " + R + "/SKILL.md " + O + "/h", "block", FamilyReadonlyFile},
		{"cp -l " + R + "/.harness/feature_list.json " + O + "/h", "block", FamilyStateViaCLI},
		{"cp -al " + R + " " + O + "/copy", "block", FamilyProtectedAncestor},
		{"cp -r --link " + R + "/spec " + O + "/copy", "block", FamilyReadonlyDir},
		{"rsync -a --link-dest=" + R + " " + R + "/ " + O + "/copy/", "block", FamilyProtectedAncestor},
		{`python3 -c "import os; os.link('` + R + `/SKILL.md', '` + O + `/h')"`, "block", FamilyReadonlyFile},
		{`python3 -c "import os; os.link(src='` + R + `/SKILL.md', dst='` + O + `/h')"`, "block", FamilyReadonlyFile},
		{`python3 -c "from pathlib import Path; Path('` + O + `/h').hardlink_to('` + R + `/spec/index.md')"`, "block", FamilyReadonlyDir},
		{`python3 -c "from pathlib import Path; Path('` + R + `/README.md').link_to('` + O + `/h')"`, "block", FamilyReadonlyFile},
		{`node -e "require('fs').linkSync('` + R + `/SKILL.md', '` + O + `/h')"`, "block", FamilyReadonlyFile},
		{`node -e "require('fs').promises.link('` + R + `/.harness/logs/hook.log', '` + O + `/h')"`, "block", FamilyHookLog},
		{`perl -e 'link "` + R + `/SKILL.md", "` + O + `/h"'`, "block", FamilyReadonlyFile},
		{`perl -e 'link("` + R + `/SKILL.md", "` + O + `/h") or die'`, "block", FamilyReadonlyFile},
		{`ruby -e 'File.link("` + R + `/SKILL.md", "` + O + `/h")'`, "block", FamilyReadonlyFile},
		{`ruby -e 'FileUtils.ln("` + R + `/SKILL.md", "` + O + `/h")'`, "block", FamilyReadonlyFile},
		// allowed: unprotected sources, symbolic links, reads
		{"link " + R + "/src/app.go " + O + "/h", "allow", ""},
		{"cp -al " + R + "/src " + O + "/copy", "allow", ""},
		{"ln -s " + R + "/SKILL.md " + O + "/s", "allow", ""},
		{"rsync -a --link-dest=" + O + "/prev " + R + "/src/ " + O + "/new/", "allow", ""},
		{`python3 -c "import os; os.symlink('` + R + `/SKILL.md', '` + O + `/s')"`, "allow", ""},
		{`python3 -c "import os; os.link('` + R + `/src/app.go', '` + O + `/h')"`, "allow", ""},
		{`node -e "require('fs').symlinkSync('` + R + `/SKILL.md', '` + O + `/s')"`, "allow", ""},
		{`perl -e 'unlink "` + O + `/h"; print "link"'`, "allow", ""},
		{`ruby -e 'FileUtils.ln_s("` + R + `/SKILL.md", "` + O + `/s")'`, "allow", ""},
	} {
		d := commandDecide(g, c.cmd, root)
		if d.Action.String() != c.want || (c.family != "" && d.Family != c.family) {
			t.Errorf("%s:\n got %s %s (%s), want %s %s", c.cmd, d.Action, d.Family, d.Message, c.want, c.family)
		}
	}
}

// FuzzForCommand: any command line gives a decision through the overlay of
// the links it creates without panicking, and a command that writes a
// read-only file through a link it makes to the root is never allowed,
// whatever is put in front of it.
func FuzzForCommand(f *testing.F) {
	f.Add("ln -s ROOT r && echo x > r/SKILL.md")
	f.Add("cp -s ROOT/x y; mv y z; cd z && touch a")
	f.Add(`python3 -c "import os; os.symlink('ROOT', 'p')"; ln -sfn "$X" q`)
	f.Add("mkdir d && ln -s ../../ d/r && cp -a d e && ln -sr e/r f")
	f.Add("x; 0\\\"\"") // panicked the shell's token scan (escaped quote, then an unpaired one)
	root := newWorkspace(f)
	g := mustGuard(f, root, "f002")
	out := f.TempDir()
	f.Fuzz(func(t *testing.T, prefix string) {
		prefix = strings.ReplaceAll(prefix, "ROOT", root)
		if !parses("cd " + out + "; " + prefix) {
			return // a shell panic; bashguard.Decide turns it into a block
		}
		_ = commandDecide(g, "cd "+out+"; "+prefix, out)
		if strings.ContainsAny(prefix, "\n;&|#`$()'\"\\{}<>") {
			return
		}
		// a prefix of plain words (one simple command) cannot undo the link;
		// a command that does not parse is not run past the error by bash,
		// and invalid UTF-8 never reaches the hook (JSON payload)
		cmd := "cd " + out + " && ln -s " + root + " zz; " + prefix + "\necho x > zz/SKILL.md"
		if !utf8.ValidString(cmd) || shell.Parse(cmd, shell.Options{}).ParseError != nil {
			return
		}
		if f := strings.Fields(prefix); len(f) > 0 && (f[0] == "cd" || f[0] == "pushd" || f[0] == "popd") {
			return // moves the base of the relative write away from the link
		}
		if d := commandDecide(g, cmd, out); d.Action != verdict.Block {
			t.Fatalf("%q: got %+v", cmd, d)
		}
	})
}

// parses reports whether shell.Parse returns for cmd (a panic there is the
// shell package's, and bashguard.Decide answers it with a block).
func parses(cmd string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	shell.Parse(cmd, shell.Options{})
	return true
}
