package codelex

import (
	"reflect"
	"testing"
)

// TestRunLibraries judges process-running libraries and call forms by the
// command they run (testdata/corpus/README.md §2.1 "Interpreters", §9.2,
// §9.3): a table of run APIs with their argument shape, program-named
// module attributes whose call arguments are the argv, module aliases,
// symbolic mode constants, Perl pipes into a shell and the indirect-object
// exec. Spellings not in the red-team sets, and near misses that run
// nothing or only a harmless program.
func TestRunLibraries(t *testing.T) {
	for _, c := range []lexCase{
		// run APIs: a shell string, a split line, an argv
		{Python, `from invoke import run as r; r("git push --force")`, []string{"sh:git push --force"}},
		{Python, `import sarge; sarge.capture_stdout("rm -rf x")`, []string{"sh:rm -rf x"}},
		{Python, `import pexpect as px; px.spawn("rm", ["-rf", "x"])`, []string{"argv:rm -rf x"}},
		{Python, `print("invoke.run('rm -rf x')")`, nil},
		{Python, "# pexpect.run('rm -rf x')\nimport pexpect", nil},
		// program-named attributes: sh, plumbum, shelljs
		{Python, `import sh as s; s.rm("-rf", "x")`, []string{"argv:rm -rf x"}},
		{Python, `from sh import git; git.push("--force")`, []string{"argv:git push --force"}},
		{Python, `from sh import *; rm("-r", "-f", "x")`, []string{"argv:rm -r -f x"}},
		{Python, `from plumbum import local; local["rm"]["-rf", "x"]()`, []string{"argv:rm -rf x"}},
		{Python, `from plumbum.cmd import git; git["reset", "--hard"].run()`, []string{"argv:git reset --hard"}},
		{Python, `import plumbum.cmd as c; c.rm("-rf", "x")`, []string{"argv:rm -rf x"}},
		{Python, `import sh; sh.rm("build", r=True, force=True)`, []string{"argv:rm -r --force build"}},
		{Python, `import sh; sh.Command("rm")("-rf", "x")`, []string{"argv:rm -rf x"}},
		{Python, `import sh; sh.ls("-la", _out="log")`, []string{"argv:ls -la"}},
		{Node, `require("shelljs/global"); rm("-rf", "x")`, []string{"argv:rm -rf x"}},
		{Node, "await $.sync`rm -rf x`", []string{"sh:rm -rf x"}},
		{Node, "await $({cwd: 'y'})`git reset --hard`", []string{"sh:git reset --hard"}},
		{Node, "const {execa} = require('execa'); await execa`rm -rf x`", []string{"sh:rm -rf x"}},
		{Node, "const s = html`rm -rf x`; console.log(`rm -rf x`)", nil},
		{Python, `import sh; sh.ls("-la")`, []string{"argv:ls -la"}},
		{Python, `import sh; print("sh.rm('-rf', 'x')")`, nil},
		{Python, `import sh; c = sh.Command("x")`, nil},
		{Node, `const sj = require("shelljs"); sj.rm("-rf", "x")`, []string{"argv:rm -rf x"}},
		{Node, `import shell from "shelljs"; shell.rm("-r", ["a", "b"])`, []string{"argv:rm -r a b"}},
		{Node, `const {exec: run} = require("shelljs"); run("git reset --hard")`, []string{"sh:git reset --hard"}},
		{Node, `require("shelljs").echo("rm -rf x")`, nil},
		{Node, `// shelljs.rm("-rf", "x")` + "\nconsole.log(1)", nil},
		// module aliases: getBuiltinModule, node: prefix, renamed members
		{Node, `const cp = process.getBuiltinModule("node:child_process"); cp.execSync("rm -rf x")`, []string{"sh:rm -rf x"}},
		{Node, `const {spawnSync: s} = process.getBuiltinModule("child_process"); s("rm", ["-rf", "x"])`, []string{"argv:rm -rf x"}},
		{Node, `process.getBuiltinModule("child_process").exec("git reset --hard")`, []string{"sh:git reset --hard"}},
		{Node, `process.getBuiltinModule("fs").existsSync("x")`, nil},
		// symbolic mode constants combined with |
		{Python, `import os, stat; os.chmod("f", stat.S_IRWXU | stat.S_IRWXG | stat.S_IROTH | stat.S_IWOTH | stat.S_IXOTH)`, []string{"chmod:f:777"}},
		{Python, `import os; from stat import *; os.chmod("f", S_IRWXU | S_IRWXG | S_IRWXO)`, []string{"chmod:f:777"}},
		{Node, `const fs = require("fs"); const k = fs.constants; fs.chmodSync("f", fs.constants.S_IRWXU | fs.constants.S_IRWXG | fs.constants.S_IRWXO)`, []string{"chmod:f:777"}},
		{Perl, `use Fcntl ":mode"; chmod S_IRWXU | S_IRWXG | S_IRWXO, "f";`, []string{"chmod:f:777"}},
		{Python, `import os, stat; os.chmod("f", stat.S_IRUSR | stat.S_IWUSR | stat.S_IRGRP | stat.S_IROTH)`, []string{"chmod:f:644"}},
		{Python, `import os; os.chmod("f", 0o644)`, []string{"chmod:f:644"}},
		// Perl pipes into a shell: what is printed to the handle is the script
		{Perl, `open(SH, "| bash -s") or die; print SH "git reset --hard\n"; close SH;`, []string{"sh:bash -s", "sh:git reset --hard\n"}},
		{Perl, `open my $fh, '|-', '/bin/sh', '-s'; printf $fh "%s -rf %s\n", "rm", "x";`, []string{"argv:/bin/sh -s", "sh:rm -rf x\n"}},
		{Perl, `open(my $p, "|-", "sh"); print {$p} "rm -rf x\n";`, []string{"sh:rm -rf x\n", "sh:sh"}},
		{Perl, `open(my $p, "|-", "cat"); print $p "rm -rf x\n";`, []string{"sh:cat"}},
		{Perl, `open(my $f, ">", "log"); print $f "rm -rf x\n";`, []string{"write:log"}},
		{Perl, `print STDERR "rm -rf x\n";`, nil},
		{Perl, `open(my $p, "|-", "sh", "-c", "ls"); print $p "rm -rf x";`, []string{"argv:sh -c ls"}},
		// a literal script handed to a shell's stdin, in other languages
		{Python, `import subprocess; subprocess.run(["bash"], input="rm -rf x\n", text=True)`, []string{"argv:bash", "sh:rm -rf x\n"}},
		{Python, `import subprocess as sp; sp.Popen(["sh", "-s"], stdin=sp.PIPE).communicate(b"git reset --hard")`, []string{"argv:sh -s", "sh:git reset --hard"}},
		{Python, `import subprocess; subprocess.run(["cat"], input="rm -rf x")`, []string{"argv:cat"}},
		{Node, `require("child_process").execSync("sh", {input: "rm -rf x"})`, []string{"sh:rm -rf x", "sh:sh"}},
		{Node, `const {spawnSync} = require("child_process"); spawnSync("bash", ["-s"], {input: "git push -f"})`, []string{"argv:bash -s", "sh:git push -f"}},
		{Node, `require("child_process").execSync("wc -l", {input: "rm -rf x"})`, []string{"sh:wc -l"}},
		{Ruby, `IO.popen("sh", "w") { |io| io.puts "rm -rf x" }`, []string{"sh:rm -rf x", "sh:sh"}},
		{Ruby, `require "open3"; Open3.capture2("bash", stdin_data: "git reset --hard")`, []string{"sh:bash", "sh:git reset --hard"}},
		{Ruby, `IO.popen("sh") { |io| io.read }`, []string{"sh:sh"}},
		{PHP, `$h = popen("sh", "w"); fwrite($h, "rm -rf x\n");`, []string{"sh:rm -rf x\n", "sh:sh"}},
		{PHP, `$h = popen("cat", "w"); fwrite($h, "rm -rf x\n");`, []string{"sh:cat"}},
		// Perl indirect-object exec/system: the block is the program
		{Perl, `system { "git" } "git", "push", "--force";`, []string{"argv:git push --force"}},
		{Perl, `my $prog = "rm"; exec { $prog } "cleanup", "-rf", "x";`, []string{"argv:rm -rf x"}},
		{Perl, `CORE::exec { "/bin/rm" } "rm", "-r", "-f", "x";`, []string{"argv:/bin/rm -r -f x"}},
		{Perl, `exec { "ls" } "ls", "-la";`, []string{"argv:ls -la"}},
		{Perl, `print "exec { 'rm' } 'rm', '-rf', 'x'";`, nil},
	} {
		got := summary(Analyze(c.lang, c.code, Options{}))
		if !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s %q:\n got  %q\n want %q", c.lang, c.code, got, c.want)
		}
	}
}
