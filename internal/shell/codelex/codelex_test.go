package codelex

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// summary renders what code does as sorted short strings:
// "sh:CMD", "argv:A B", "write:P", "append:P", "delete:P", "tree:P",
// "link:P->T", "rmtree:P", "chmod:P:MODE", "fork:FUNC".
func summary(c *Code) []string {
	var out []string
	for _, e := range c.Execs {
		if e.Shell != "" {
			if e.Admin {
				out = append(out, "root-sh:"+e.Shell)
				continue
			}
			out = append(out, "sh:"+e.Shell)
		} else {
			out = append(out, "argv:"+strings.Join(e.Argv, " "))
		}
	}
	for _, f := range c.Files {
		p := pathText(f.Path)
		if f.Link != nil {
			out = append(out, "link:"+p+"->"+pathText(*f.Link))
			continue
		}
		out = append(out, [...]string{"", "write", "append", "delete", "tree"}[f.Op]+":"+p)
	}
	for _, f := range c.TreeDeletes {
		out = append(out, "rmtree:"+pathText(f.Path))
	}
	for _, m := range c.Chmods {
		out = append(out, fmt.Sprintf("chmod:%s:%o", pathText(m.Path), m.Mode))
	}
	if c.ForkLoop != "" {
		out = append(out, "fork:"+c.ForkLoop)
	}
	sort.Strings(out)
	return out
}

func pathText(v Value) string {
	s := v.S
	if v.Env != "" {
		s = "$" + v.Env + s
	}
	if v.Cwd {
		s = "$PWD" + s
	}
	return strings.ReplaceAll(s, unknownMark, "?")
}

type lexCase struct {
	lang Lang
	code string
	want []string // nil: no effect at all
}

// TestAnalyze runs real snippets per language: calls in code count, the
// same text inside string literals, comments, docstrings, POD or heredoc
// data does not (testdata/corpus/README.md §2.1 "Interpreters", §9.2, §9.3, §3.3).
func TestAnalyze(t *testing.T) {
	for _, c := range []lexCase{
		// Python
		{Python, `print('os.system("rm -rf build") is banned')`, nil},
		{Python, "import os\n# os.system('rm -rf /')\nprint(1)", nil},
		{Python, "def f():\n    \"\"\"Never call os.system('rm -rf /').\"\"\"\n    return 1\n", nil},
		{Python, `x = f"os.system('rm -rf {d}')"`, nil},
		{Python, `import os; os.system("rm -rf build")`, []string{"sh:rm -rf build"}},
		{Python, `import os; os.system(r'rm -rf build')`, []string{"sh:rm -rf build"}},
		{Python, `import os; d = 'build'; os.system(f"rm -rf {d}")`, []string{"sh:rm -rf build"}},
		{Python, `import os; os.system(f"rm -rf {unknown}")`, []string{"sh:rm -rf " + UnknownWord}},
		{Python, `import os; os.system("rm -rf " + os.getcwd())`, []string{"sh:rm -rf " + UnknownWord}},
		{Python, `import os; os.system("rm -rf %s" % "build")`, []string{"sh:rm -rf build"}},
		{Python, `import os; os.system("{} {}".format("rm -rf", "build"))`, []string{"sh:rm -rf build"}},
		{Python, `import os; os.system("rm" + " -rf " + "build")`, []string{"sh:rm -rf build"}},
		{Python, `import subprocess; subprocess.run(['rm', '-rf', 'build'])`, []string{"argv:rm -rf build"}},
		{Python, `import subprocess; subprocess.run(('rm', '-rf', 'build'))`, []string{"argv:rm -rf build"}},
		{Python, `import subprocess as sp; sp.call("git push -f", shell=True)`, []string{"sh:git push -f"}},
		{Python, `from subprocess import check_output as co; co(["sudo", "ls"])`, []string{"argv:sudo ls"}},
		{Python, `import shlex, subprocess; subprocess.run(shlex.split("rm -rf 'a b'"))`, []string{"argv:rm -rf a b"}},
		{Python, `import os; os.execvp("rm", ["rm", "-rf", "x"])`, []string{"argv:rm -rf x"}},
		{Python, `getattr(__import__('os'), 'system')('rm -rf x')`, []string{"sh:rm -rf x"}},
		{Python, `exec("import os; os.system('rm -rf x')")`, []string{"sh:rm -rf x"}},
		{Python, `import os, base64; os.system(base64.b64decode("cm0gLXJmIHg=").decode())`, []string{"sh:rm -rf x"}},
		{Python, `import shutil; shutil.rmtree('build')`, []string{"rmtree:build", "tree:build"}},
		{Python, `import distutils.dir_util as du; du.remove_tree('build')`, []string{"rmtree:build", "tree:build"}},
		{Python, `import os; os.remove('a.txt')`, []string{"delete:a.txt"}},
		{Python, `import os; os.chmod('f', 0o777)`, []string{"chmod:f:777"}},
		{Python, `import os; os.chmod('f', 511)`, []string{"chmod:f:777"}},
		{Python, `open('.harness/eval_log.jsonl', 'a').write('x')`, []string{"append:.harness/eval_log.jsonl"}},
		{Python, `open('.harness/eval_log.jsonl', 'a').truncate(0)`, []string{"append:.harness/eval_log.jsonl", "write:.harness/eval_log.jsonl"}},
		{Python, `open('notes.md').read()`, nil},
		{Python, `import os; open(os.path.join(os.environ['HARNESS_ROOT'], 'SKILL.md'), 'w')`, []string{"write:$HARNESS_ROOT/SKILL.md"}},
		{Python, `from pathlib import Path; (Path('spec') / 'x.md').write_text('y')`, []string{"write:spec/x.md"}},
		{Python, "import os\nwhile True:\n    os.fork()\n", []string{"fork:os.fork"}},
		{Python, "import os\nwhile 1: os.fork()", []string{"fork:os.fork"}},
		{Python, "import os\nfor i in range(3):\n    os.fork()\n", nil},
		{Python, "import os\nwhile True:\n    print(1)\nos.fork()\n", nil},
		{Python, "import os, itertools\nfor _ in itertools.count(): os.fork()", []string{"fork:os.fork"}},
		{Python, "with open('log', 'a') as f:\n    f.truncate(0)\n", []string{"append:log", "write:log"}},
		{Python, "import socket; s = socket.socket(socket.AF_UNIX); s.bind('.harness/hook.sock')", []string{"write:.harness/hook.sock"}},
		// JavaScript / TypeScript
		{Node, "const fs = require('fs'); const fd = fs.openSync('log', 'a'); fs.ftruncateSync(fd, 0)", []string{"append:log", "write:log"}},
		{Node, "require('fs').chmodSync('run.sh', '777')", []string{"chmod:run.sh:777"}},
		{Node, "const fs = require('fs')\nconst p = 'templates/base.md'\nfs.writeFileSync(p, 'x')", []string{"write:templates/base.md"}},
		{Node, "console.log(\"execSync('rm -rf /')\") // execSync('rm -rf /')", nil},
		{Node, "/* require('child_process').execSync('rm -rf /') */ let x = 1", nil},
		{Node, "const re = /execSync\\('rm -rf'\\)/; const y = 4 / 2", nil},
		{Node, "require('child_process').execSync('rm -rf build')", []string{"sh:rm -rf build"}},
		{Node, "const cp = require('node:child_process'); cp.spawnSync('rm', ['-rf', 'b'])", []string{"argv:rm -rf b"}},
		{Node, "const { exec: run } = require('child_process'); run('git push -f')", []string{"sh:git push -f"}},
		{Node, "import { execFileSync } from 'child_process'; execFileSync('git', ['push', '--force'])", []string{"argv:git push --force"}},
		{Node, "const d = 'build'; require('child_process').execSync(`rm -rf ${d}`)", []string{"sh:rm -rf build"}},
		{Node, "require('child_process').spawn('rm -rf x', {shell: true})", []string{"sh:rm -rf x"}},
		{Node, "const x: string = 'b'; require('child_process').execSync(['rm', '-rf', x].join(' '))", []string{"sh:rm -rf b"}},
		{Node, "await $`rm -rf build`", []string{"sh:rm -rf build"}},
		{Node, "require('fs').rmSync('build', { recursive: true, force: true })", []string{"rmtree:build", "tree:build"}},
		{Node, "require('fs').rmSync('a.txt')", []string{"tree:a.txt"}},
		{Node, "const fse = require('fs-extra'); fse.removeSync('dist')", []string{"rmtree:dist", "tree:dist"}},
		{Node, "require('fs').chmodSync('x', 0o777)", []string{"chmod:x:777"}},
		{Node, "require('fs').writeFileSync('.harness/eval_log.jsonl', 'x', {flag: 'a'})", []string{"append:.harness/eval_log.jsonl"}},
		{Node, "const cp = require('child_process'); while (true) { cp.fork('w.js') }", []string{"fork:child_process.fork"}},
		{Node, "Application.currentApplication().doShellScript('rm -rf x')", []string{"sh:rm -rf x"}},
		{Node, "const app = Application.currentApplication(); app.includeStandardAdditions = true; app.doShellScript('id', {administratorPrivileges: true})", []string{"root-sh:id"}},
		{Node, "Application.currentApplication().doShellScript('id', {administratorPrivileges: false})", []string{"sh:id"}},
		// Ruby
		{Ruby, "puts 'system(\"rm -rf x\")'", nil},
		{Ruby, "# system('rm -rf /')\nputs 1", nil},
		{Ruby, "=begin\nsystem('rm -rf /')\n=end\nputs 1", nil},
		{Ruby, "puts 10 %(3)", nil},
		{Ruby, "doc = <<~EOS\n  system('rm -rf /')\nEOS\nputs doc", nil},
		{Ruby, "system %q(rm -rf build)", []string{"sh:rm -rf build"}},
		{Ruby, "system('rm', '-rf', 'build')", []string{"argv:rm -rf build"}},
		{Ruby, "exec(*%w[rm -rf build])", []string{"argv:rm -rf build"}},
		{Ruby, "d = 'build'; `rm -rf #{d}`", []string{"sh:rm -rf build"}},
		{Ruby, "%x(git push -f)", []string{"sh:git push -f"}},
		{Ruby, "IO.popen(['rm', '-rf', 'x'])", []string{"argv:rm -rf x"}},
		{Ruby, "x = <<`CMD`\nrm -rf build\nCMD\n", []string{"sh:rm -rf build\n"}},
		{Ruby, "require 'fileutils'; FileUtils.rm_rf('build')", []string{"rmtree:build", "tree:build"}},
		{Ruby, "File.chmod(0777, 'x')", []string{"chmod:x:777"}},
		{Ruby, "loop do\n  fork\nend", []string{"fork:fork"}},
		{Ruby, "fork while true", []string{"fork:fork"}},
		{Ruby, "Kernel.send(:system, 'rm -rf x')", []string{"sh:rm -rf x"}},
		{Ruby, "File.open('log', 'a') { |f| f.truncate(0) }", []string{"append:log", "write:log"}},
		// Perl
		{Perl, `open(F, ">>", "log"); truncate(F, 0)`, []string{"append:log", "write:log"}},
		{Perl, `open(my $f, ">>", "log"); seek($f, 0, 0)`, []string{"append:log", "write:log"}},
		{Perl, "fork while fork", []string{"fork:fork"}},
		{Perl, "1 while fork // 1", []string{"fork:fork"}},
		{Perl, "while (fork) { sleep 1 }", []string{"fork:fork"}},
		{Perl, "my $pid = fork; waitpid($pid, 0) while 0", nil},
		{Perl, "sleep 1 until fork", nil},
		{Perl, "print q(rm -rf /)", nil},
		{Perl, "my @a = qw(rm -rf x); print \"@a\"", nil},
		{Perl, "# system('rm -rf /')\nprint 1", nil},
		{Perl, "=pod\n\nsystem('rm -rf /')\n\n=cut\nprint 1", nil},
		{Perl, "my %h = (q => 1); print $h{q}", nil},
		{Perl, "print <<'EOT';\nsystem('rm -rf /')\nEOT\n", nil},
		{Perl, "s/system/exec/g; print", nil},
		{Perl, `system q(rm -rf /)`, []string{"sh:rm -rf /"}},
		{Perl, `system("rm", "-rf", "build")`, []string{"argv:rm -rf build"}},
		{Perl, `system qw(git reset --hard)`, []string{"argv:git reset --hard"}},
		{Perl, `my $d = "build"; system("rm -rf $d")`, []string{"sh:rm -rf build"}},
		{Perl, "my $o = `rm -rf build`;", []string{"sh:rm -rf build"}},
		{Perl, "qx{sudo ls}", []string{"sh:sudo ls"}},
		{Perl, `open(my $p, "|-", "rm", "-rf", "x")`, []string{"argv:rm -rf x"}},
		{Perl, `open(F, "rm -rf x |")`, []string{"sh:rm -rf x"}},
		{Perl, "use File::Path qw(remove_tree); remove_tree('build')", []string{"rmtree:build", "tree:build"}},
		{Perl, `open(my $fh, ">>", ".harness/eval_log.jsonl")`, []string{"append:.harness/eval_log.jsonl"}},
		{Perl, "chmod 0777, 'x'", []string{"chmod:x:777"}},
		{Perl, "fork while 1", []string{"fork:fork"}},
		{Perl, "while (1) { fork() }", []string{"fork:fork"}},
		// PHP
		{PHP, "echo 'system(\"rm -rf x\")';", nil},
		{PHP, "// system('rm -rf /');\necho 1;", nil},
		{PHP, "<p>system('rm -rf /')</p><?php echo 1; ?>", nil},
		{PHP, "system('rm -rf build');", []string{"sh:rm -rf build"}},
		{PHP, "$f = 'system'; $f('rm -rf build');", []string{"sh:rm -rf build"}},
		{PHP, "$f = 'strlen'; echo $f('rm -rf build');", nil},
		{PHP, "$d = 'build'; shell_exec(\"rm -rf $d\");", []string{"sh:rm -rf build"}},
		{PHP, "$o = `git push -f`;", []string{"sh:git push -f"}},
		{PHP, "proc_open(['rm', '-rf', 'x'], [], $p);", []string{"argv:rm -rf x"}},
		{PHP, "file_put_contents('.harness/eval_log.jsonl', 'x', FILE_APPEND);", []string{"append:.harness/eval_log.jsonl"}},
		{PHP, "call_user_func('system', 'rm -rf x');", []string{"sh:rm -rf x"}},
		{PHP, "while (true) { pcntl_fork(); }", []string{"fork:pcntl_fork"}},
		// Lua
		{Lua, "print('os.execute(\"rm -rf x\")')", nil},
		{Lua, "--[[ os.execute('rm -rf /') ]] print(1)", nil},
		{Lua, "os.execute('rm -rf build')", []string{"sh:rm -rf build"}},
		{Lua, "os.execute [[rm -rf build]]", []string{"sh:rm -rf build"}},
		{Lua, "local d = 'build'; io.popen('rm -rf ' .. d)", []string{"sh:rm -rf build"}},
		{Lua, "io.open('x.txt', 'w')", []string{"write:x.txt"}},
		// R
		{R, `print("system('rm -rf x')")`, nil},
		{R, "# system('rm -rf /')\nx <- 1", nil},
		{R, `system("rm -rf build")`, []string{"sh:rm -rf build"}},
		{R, `system2("rm", args = c("-rf", "build"))`, []string{"sh:rm -rf build"}},
		{R, `d <- "build"; system(paste("rm -rf", d))`, []string{"sh:rm -rf build"}},
		{R, `unlink("build", recursive = TRUE)`, []string{"rmtree:build", "tree:build"}},
		{R, `unlink("a.txt")`, []string{"delete:a.txt"}},
		// Julia
		{Julia, `println("run(` + "`rm -rf x`" + `)")`, nil},
		{Julia, "#= run(`rm -rf /`) =#\nx = 1", nil},
		{Julia, "c = `rm -rf build`", nil},
		{Julia, "run(`rm -rf build`)", []string{"sh:rm -rf build"}},
		{Julia, "d = \"build\"; run(`rm -rf $d`)", []string{"sh:rm -rf build"}},
		{Julia, `rm("build"; recursive=true)`, []string{"rmtree:build", "tree:build"}},
		{Julia, `chmod("x", 0o777)`, []string{"chmod:x:777"}},
		// AppleScript
		{AppleScript, `display dialog "do shell script \"rm -rf x\""`, nil},
		{AppleScript, `-- do shell script "rm -rf /"` + "\nbeep", nil},
		{AppleScript, `do shell script "rm -rf build"`, []string{"sh:rm -rf build"}},
		{AppleScript, `do shell script "launchctl list" with administrator privileges`, []string{"root-sh:launchctl list"}},
		{AppleScript, `do shell script "id" user name "a" password "b" With Administrator Privileges and altering line endings`, []string{"root-sh:id"}},
		{AppleScript, `do shell script "id" administrator privileges true`, []string{"root-sh:id"}},
		{AppleScript, `do shell script x with administrator privileges`, []string{"root-sh:" + UnknownWord}},
		{AppleScript, `do shell script "id" without administrator privileges`, []string{"sh:id"}},
		{AppleScript, `do shell script "id" administrator privileges false`, []string{"sh:id"}},
		{AppleScript, "do shell script \"id\"\ndisplay dialog \"with administrator privileges\"", []string{"sh:id"}},
		{AppleScript, `display dialog "hi" with administrator privileges`, nil},
		{AppleScript, "set d to \"build\"\ndo shell script \"rm -rf \" & quoted form of d", []string{"sh:rm -rf 'build'"}},
	} {
		got := summary(Analyze(c.lang, c.code, Options{}))
		if !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s %q:\n got  %q\n want %q", c.lang, c.code, got, c.want)
		}
	}
}

// TestArgv: the script's own literal arguments replace argv references.
func TestArgv(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		code string
		argv []string
		want []string
	}{
		{Python, "import os, sys; os.system(sys.argv[1])", []string{"rm -rf x"}, []string{"sh:rm -rf x"}},
		{Python, "import subprocess, sys; subprocess.run(sys.argv[1:])", []string{"rm", "-rf", "x"}, []string{"argv:rm -rf x"}},
		{Node, "require('child_process').execSync(process.argv[1])", []string{"rm -rf x"}, []string{"sh:rm -rf x"}},
		{Node, "require('child_process').spawnSync(process.argv[1], process.argv.slice(2))", []string{"rm", "-rf", "x"}, []string{"argv:rm -rf x"}},
		{Perl, "system($ARGV[0])", []string{"rm -rf x"}, []string{"sh:rm -rf x"}},
		{Perl, "system(@ARGV)", []string{"rm", "-rf", "x"}, []string{"argv:rm -rf x"}},
		{Ruby, "system(ARGV[0])", []string{"rm -rf x"}, []string{"sh:rm -rf x"}},
		{Ruby, "system(*ARGV)", []string{"rm", "-rf", "x"}, []string{"argv:rm -rf x"}},
	} {
		got := summary(Analyze(c.lang, c.code, Options{Argv: c.argv, ArgvKnown: true}))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q %q:\n got  %q\n want %q", c.lang, c.code, c.argv, got, c.want)
		}
	}
}

// TestPrinted: what the code prints is known when it prints literals.
func TestPrinted(t *testing.T) {
	for _, c := range []struct {
		lang       Lang
		code, want string
	}{
		{Python, `print("git branch -D x")`, "git branch -D x\n"},
		{Node, `console.log('rm -rf x')`, "rm -rf x\n"},
		{Ruby, `puts "sudo ls"`, "sudo ls\n"},
		{Perl, `print "rm -rf x\n"`, "rm -rf x\n"},
		{PHP, `echo "rm -rf x";`, "rm -rf x\n"},
	} {
		got := Analyze(c.lang, c.code, Options{}).Printed
		if got == nil || *got != c.want {
			t.Errorf("%s %q: printed %v, want %q", c.lang, c.code, got, c.want)
		}
	}
}

// TestTokenLine: a token's Line is the line it starts on, and every
// newline the lexer passes counts, inside literals and comments too: a
// paren-less call reads its arguments from its own line, so a literal
// spanning lines after `system` is still its argument.
func TestTokenLine(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		code string
		want []int // the Line of each token, Newline tokens left out
	}{
		{Perl, "system q(\nrm)\nx", []int{0, 0, 2}},
		{Perl, "system qq{a\n$b}\nx", []int{0, 0, 0, 0, 0, 2}},
		{Perl, "f qw(a\nb)\nx", []int{0, 0, 2}},
		{Ruby, "system %q(a\nb)\nx", []int{0, 0, 2}},
		{Ruby, "exec %w[a\nb]\nx", []int{0, 0, 2}},
		{Ruby, "x = /a\nb/\ny", []int{0, 0, 2}},
		{PHP, "echo <<<E\na\nE;\nx;", []int{0, 0, 3}},
		{Python, "f(\"\"\"a\nb\"\"\")\nx", []int{0, 0, 0, 1, 2}},
		{Lua, "f('a\\z\n b')\nx", []int{0, 0, 0, 1, 2}},
		{R, "f('a\nb')\nx", []int{0, 0, 0, 1, 2}},
		{Julia, "f(\"a\nb\")\nx", []int{0, 0, 0, 1, 2}},
		{AppleScript, "do shell script ¬\n\"ls\"\nx", []int{0, 0, 0, 1, 2}},
	} {
		toks, _ := Lex(c.lang, c.code)
		var got []int
		for _, tk := range toks {
			if tk.Kind != Newline {
				got = append(got, tk.Line)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: lines %v, want %v", c.lang, c.code, got, c.want)
		}
	}
	// a string's Line was its last line: these were not calls
	for _, c := range []lexCase{
		{Perl, "system q(rm -rf x\n)", []string{"sh:rm -rf x\n"}},
		{Perl, "system qq{\nrm -rf $ENV{HOME}}", []string{"sh:\nrm -rf " + UnknownWord}},
		{Ruby, "system %q(rm -rf x\n)", []string{"sh:rm -rf x\n"}},
		{Ruby, "exec %w[rm -rf\nx]", []string{"argv:rm -rf x"}},
	} {
		if got := summary(Analyze(c.lang, c.code, Options{})); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q:\n got  %q\n want %q", c.lang, c.code, got, c.want)
		}
	}
}

// TestCommentIsBlank: a comment separates tokens like a blank in every
// language (Token.Space), so `x#= c =#[1]` reads as `x [1]`.
func TestCommentIsBlank(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		code string
	}{
		{PHP, "a/* c */b"},
		{Lua, "a--[[ c ]]b"},
		{Julia, "a#= c =#b"},
		{AppleScript, "a(* c *)b"},
		{AppleScript, "a\r-- c\rb"},
	} {
		toks, _ := Lex(c.lang, c.code)
		last := toks[len(toks)-1]
		if last.Text != "b" || !last.Space {
			t.Errorf("%s %q: last token %+v, want b after a blank", c.lang, c.code, last)
		}
	}
}
