package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestInterpreterLibraries judges interpreter code that runs commands
// through libraries and call forms (codelex run-API table, command-module
// attributes, module aliases, mode constants, shell pipes, Perl's
// indirect-object exec) end to end, with spellings beyond the red-team
// sets and the harmless form next to each (testdata/corpus/README.md §2.1
// "Interpreters", §9.2, §9.3).
func TestInterpreterLibraries(t *testing.T) {
	for _, c := range []struct {
		cmd    string
		expect verdict.Action
	}{
		{`python3 -c 'from invoke import run as r; r("git push --force origin main")'`, verdict.Block},
		{`python3 -c 'from invoke import run as r; r("git push origin main")'`, verdict.Allow},
		{`python3 -c 'import pexpect as px; px.spawn("rm", ["-rf", "build"])'`, verdict.Block},
		{`python3 -c 'import sarge; sarge.run("rm -rf build")'`, verdict.Block},
		{`python3 -c 'import sh as s; s.rm("-rf", "build")'`, verdict.Block},
		{`python3 -c 'import sh; sh.ls("-la")'`, verdict.Allow},
		{`python3 -c 'from sh import git; git.reset("--hard")'`, verdict.Block},
		{`python3 -c 'from sh import git; git.status()'`, verdict.Allow},
		{`python3 -c 'from plumbum import local; local["rm"]["-rf", "build"]()'`, verdict.Block},
		{`python3 -c 'print("sh.rm(\"-rf\", \"build\")")'`, verdict.Allow},
		{`node -e 'const sj = require("shelljs"); sj.rm("-rf", "dist")'`, verdict.Block},
		{`node -e 'require("shelljs").echo("rm -rf dist")'`, verdict.Allow},
		{`node -e 'import("shelljs"); const {exec: run} = require("shelljs"); run("git reset --hard")'`, verdict.Block},
		{`node -e 'const cp = process.getBuiltinModule("node:child_process"); cp.execSync("rm -rf build")'`, verdict.Block},
		{`node -e 'const {spawnSync: s} = process.getBuiltinModule("child_process"); s("git", ["push", "-f"])'`, verdict.Block},
		{`node -e 'process.getBuiltinModule("child_process").execSync("ls -la")'`, verdict.Allow},
		{`python3 -c 'import os; from stat import *; os.chmod("f", S_IRWXU | S_IRWXG | S_IRWXO)'`, verdict.Block},
		{`node -e 'const fs = require("fs"); fs.chmodSync("f", fs.constants.S_IRWXU | fs.constants.S_IRWXG | fs.constants.S_IRWXO)'`, verdict.Block},
		{`python3 -c 'import os, stat; os.chmod("f", stat.S_IRUSR | stat.S_IWUSR | stat.S_IRGRP | stat.S_IROTH)'`, verdict.Allow},
		{`echo 'await $` + "`rm -rf dist`" + `' | npx zx`, verdict.Block},
		{`npx zx <<< 'await $` + "`ls -la`" + `'`, verdict.Allow},
		{`perl -e 'open(SH, "| bash -s") or die; print SH "git reset --hard\n"; close SH'`, verdict.Block},
		{`perl -e 'open my $fh, "|-", "/bin/sh", "-s"; printf $fh "%s -rf %s\n", "rm", "build"'`, verdict.Block},
		{`perl -e 'open(my $p, "|-", "sh"); print {$p} "ls -la\n"'`, verdict.Allow},
		{`perl -e 'open(my $p, "|-", "cat"); print $p "rm -rf build\n"'`, verdict.Allow},
		{`python3 -c 'import subprocess; subprocess.run(["bash"], input="rm -rf build\n", text=True)'`, verdict.Block},
		{`python3 -c 'import subprocess; subprocess.run(["cat"], input="rm -rf build\n", text=True)'`, verdict.Allow},
		{`node -e 'require("child_process").execSync("sh", {input: "git reset --hard"})'`, verdict.Block},
		{`ruby -e 'IO.popen("sh", "w") { |io| io.puts "rm -rf build" }'`, verdict.Block},
		{`ruby -e 'IO.popen("sh", "w") { |io| io.puts "ls" }'`, verdict.Allow},
		{`php -r '$h = popen("sh", "w"); fwrite($h, "rm -rf build\n");'`, verdict.Block},
		{`perl -e 'system { "git" } "git", "push", "--force"'`, verdict.Block},
		{`perl -e 'my $prog = "rm"; exec { $prog } "cleanup", "-rf", "build"'`, verdict.Block},
		{`perl -e 'exec { "ls" } "ls", "-la"'`, verdict.Allow},
	} {
		res := Decide(c.cmd, Context{Feature: "f002"})
		if res.Decision.Action != c.expect {
			t.Errorf("%q: expected %s, got %s (%s: %s)", c.cmd, c.expect, res.Decision.Action, res.Decision.Rule, res.Decision.Message)
		}
	}
}
