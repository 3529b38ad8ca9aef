package pathguard

import (
	"testing"
)

// TestInterpreterWrites covers the interpreter file writes of testdata/corpus/README.md
// §3.3: literal paths, assignments, joins, environment and cwd spellings,
// open modes (append allowed on append-only files) and look-alikes that
// only read.
func TestInterpreterWrites(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	for _, c := range []struct {
		cmd, want, family string
	}{
		{`python3 -c "import os; open(os.path.join(os.environ['HARNESS_ROOT'], 'SKILL.md'), 'w')"`, "block", FamilyReadonlyFile},
		{`python3 -c "import os; open(os.getcwd() + '/SKILL.md', 'w')"`, "block", FamilyReadonlyFile},
		{`python3 -c "from pathlib import Path; (Path('spec') / 'index.md').write_text('x')"`, "block", FamilyReadonlyDir},
		{`python3 -c "from pathlib import Path; p = Path('spec') / 'index.md'; p.write_text('x')"`, "block", FamilyReadonlyDir},
		{`python3 -c "from pathlib import Path; Path('.harness/features/f002/generator_log.md').open('a').write('x')"`, "allow", ""},
		{`python3 -c "from pathlib import Path; Path('.harness/eval_log.jsonl').open('w')"`, "block", FamilyEvalLog},
		{`python3 -c "import os; os.open('SKILL.md', os.O_WRONLY)"`, "block", FamilyReadonlyFile},
		{`python3 -c "open(r'spec/index.md', 'wb')"`, "block", FamilyReadonlyDir},
		{`python3 -c "open(f'spec/index.md', 'x')"`, "block", FamilyReadonlyDir},
		{`python3 -c "open('.harness/features/f002/generator_log.md', mode='a').write('x')"`, "allow", ""},
		{`python3 -c "open('.harness/eval_log.jsonl', 'rb').read()"`, "allow", ""},
		{`python3 -c "open('.harness/eval_log.jsonl', errors='replace').read()"`, "allow", ""},
		{`python3 -c "open('.harness/eval_log.jsonl', encoding='utf-8', mode='w')"`, "block", FamilyEvalLog},
		{`python3 -c "open(file='SKILL.md', mode='w')"`, "block", FamilyReadonlyFile},
		{`python3 -c "print(os.path.join('spec', 'x'))"`, "allow", ""},
		{`python3 -c "p = '.harness/eval_log.jsonl'; print(p.replace('a', 'b'))"`, "allow", ""},
		{`python3 -c "import json; print(json.load(open('.harness/feature_list.json')))"`, "allow", ""},
		{"python3 <<'EOF'\nimport shutil\nshutil.move('spec', '/tmp/spec')\nEOF", "block", FamilyReadonlyDir},
		{"echo \"open('SKILL.md','w')\" | python3", "block", FamilyReadonlyFile},
		// a script file is a program the guard does not know (testdata/corpus/README.md §9.1, revision 2): its arguments get the cautious default (scriptArgs)
		{`python3 script.py SKILL.md`, "block", FamilyReadonlyFile},
		{`python3 script.py build/x.md`, "allow", ""},
		{`node -e "require('fs').writeFileSync(require('path').join(process.cwd(), 'README.md'), 'x')"`, "block", FamilyReadonlyFile},
		{`node -e "require('fs').writeFileSync(process.env.HARNESS_ROOT + '/README.md', 'x')"`, "block", FamilyReadonlyFile},
		{"node -e 'const d = \"spec\"; require(\"fs\").writeFileSync(`${d}/x.md`, \"x\")'", "block", FamilyReadonlyDir},
		{`node -e "require('fs').writeFileSync('.harness/features/f002/generator_log.md', 'x', {flag: 'a'})"`, "allow", ""},
		{`node -e "require('fs').openSync('.harness/eval_log.jsonl', 'r')"`, "allow", ""},
		{`node -e "require('fs').writeFileSync('.harness/eval_log.jsonl', 'x', 'utf8')"`, "block", FamilyEvalLog},
		{`node -e "require('fs').createWriteStream('SKILL.md', 'utf8')"`, "block", FamilyReadonlyFile},
		{`node -e "require('fs').openSync('.harness/eval_log.jsonl', 'w')"`, "block", FamilyEvalLog},
		{`node -e "import('fs').then(fs => fs.promises.rm('templates', {recursive: true}))"`, "block", FamilyReadonlyDir},
		{`perl -e 'open(my $f, "<", "SKILL.md"); print <$f>'`, "allow", ""},
		{`perl -e 'open(F, "SKILL.md")'`, "allow", ""},
		{`perl -e 'open F, ">SKILL.md"'`, "block", FamilyReadonlyFile},
		{`perl -e 'my $d = "spec"; open(my $fh, ">", "$d/index.md")'`, "block", FamilyReadonlyDir},
		{`perl -e 'use File::Path; rmtree(".harness/logs")'`, "block", FamilyHookLog},
		{`ruby -e 'File.write("spec/x", "1")'`, "block", FamilyReadonlyDir},
		{`ruby -e 'd = "spec"; File.write("#{d}/x", "1")'`, "block", FamilyReadonlyDir},
		{`ruby -e 'File.open("SKILL.md").read'`, "allow", ""},
		{`ruby -e 'FileUtils.mv "README.md", "/tmp/r"'`, "block", FamilyReadonlyFile},
	} {
		d := bashDecide(g, c.cmd, root, nil)
		if d.Action.String() != c.want || (c.family != "" && d.Family != c.family) {
			t.Errorf("%s: got %s %s (%s), want %s %s", c.cmd, d.Action, d.Family, d.Message, c.want, c.family)
		}
	}
}

func TestPerlRubyArgs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	for _, c := range []struct{ cmd, want string }{
		{"perl -lne 'print' spec/index.md", "allow"},
		{"perl -lpi -e 's/a/b/' spec/index.md", "block"},
		{"perl -0777 -pi -e 's/a/b/' spec/index.md", "block"},
		{"perl -I lib -MFoo -pi -e 1 spec/index.md", "block"},
		{"perl script.pl spec/index.md", "block"}, // §9.1: a script is an unknown program (scriptArgs)
		{"perl script.pl build/index.md", "allow"},
		{"ruby -i.bak -pe '1' spec/index.md", "block"},
		{"ruby -ne 'puts $_' spec/index.md", "allow"},
	} {
		if d := bashDecide(g, c.cmd, root, nil); d.Action.String() != c.want {
			t.Errorf("%s: got %s %s, want %s", c.cmd, d.Action, d.Message, c.want)
		}
	}
}
