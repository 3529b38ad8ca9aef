package codelex

import (
	"reflect"
	"strings"
	"testing"
)

// Fuzz targets, one per tokenizer: on arbitrary input Analyze never
// panics, stays within its token bound, records no more calls than there
// are tokens, and gives the same result twice (deterministic).

func fuzzLang(f *testing.F, lang Lang, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		a := Analyze(lang, code, Options{Argv: []string{"x", "y"}, ArgvKnown: true})
		if len(a.Tokens) > maxTokens+2*maxNesting {
			t.Fatalf("%d tokens, bound %d", len(a.Tokens), maxTokens)
		}
		if len(a.Calls) > len(a.Tokens) {
			t.Fatalf("%d calls from %d tokens", len(a.Calls), len(a.Tokens))
		}
		b := Analyze(lang, code, Options{Argv: []string{"x", "y"}, ArgvKnown: true})
		if !reflect.DeepEqual(effectsOf(a), effectsOf(b)) {
			t.Fatalf("not deterministic:\n%+v\n%+v", effectsOf(a), effectsOf(b))
		}
	})
}

type effectSummary struct {
	Execs       []Exec
	Files       []string
	Trees       []string
	Chmods      []int64
	Fork        string
	Printed     string
	Truncated   bool
	TokenKinds  []Kind
	TokenTexts  []string
	CallFuncs   []string
	CallOffsets []int
}

func effectsOf(c *Code) effectSummary {
	s := effectSummary{Execs: c.Execs, Fork: c.ForkLoop, Truncated: c.Truncated}
	for _, f := range c.Files {
		s.Files = append(s.Files, f.Func+" "+f.Path.S)
	}
	for _, f := range c.TreeDeletes {
		s.Trees = append(s.Trees, f.Func+" "+f.Path.S)
	}
	for _, m := range c.Chmods {
		s.Chmods = append(s.Chmods, m.Mode)
	}
	if c.Printed != nil {
		s.Printed = *c.Printed
	}
	for _, t := range c.Tokens {
		s.TokenKinds = append(s.TokenKinds, t.Kind)
		s.TokenTexts = append(s.TokenTexts, t.Text)
	}
	for _, call := range c.Calls {
		s.CallFuncs = append(s.CallFuncs, call.Func)
		s.CallOffsets = append(s.CallOffsets, call.Tok)
	}
	return s
}

// fuzzSeeds are the seed snippets of each language's fuzz targets: the
// forms its tokenizer treats specially.
var fuzzSeeds = map[Lang][]string{
	Python: {`import os; os.system("rm -rf x")`, `f"{a!r:>{w}}"`, `'''a`, `rb'\'`, "while 1:\n  os.fork()",
		`x = '%s' % ('a',)`, `'{}'.format(*[1])`, `subprocess.run(shlex.split('a b'))`, `f'{`, `"\N{DASH}"`},
	Node: {"require('child_process').execSync(`rm ${x}`)", "`${`${a}`}`", "a = /re/g; b = c / d", "$`ls`",
		"const {a: b} = require('m'); b('x')", "`unterminated ${", "/* x", "'\\u{1F600}'"},
	Ruby: {`system %q(rm -rf /)`, "x = <<~EOS\n  a\n  EOS\nputs x", "%w[a b", "`ls #{d}`", "=begin\nx\n=end",
		"puts 10 %(3)", "loop { fork }", ":sym", "?a", `"#{"#{1}"}"`},
	Perl: {`system q(rm -rf /)`, "print <<\"E\";\n$x\nE\n", "s{a}{b}g; tr/a/b/", "qw[a b", "=pod\n=cut",
		"fork while 1", `open(F, ">>", "$d/x")`, "$h{q}", "qx'ls'", "@{[ 1 ]}"},
	PHP:   {"<?php system('ls'); ?>html", "$x = <<<EOT\n  a $y\n  EOT;", "`ls`", "/* x", "\"{$a->b}\"", "<<<'N'\nx\nN;"},
	Lua:   {"os.execute[[rm -rf x]]", "--[==[ x ]==]", "'\\z  \n a'", "[=[", "a:b 'c'", "\"\\65\""},
	R:     {`system("ls")`, `r"(a)"`, "x <- c('a', 'b')", "`my var` <- 1", "a %in% b", `R"---[x]---"`},
	Julia: {"run(`rm -rf $d`)", `"a $(b) c"`, "#= #= =# =#", `raw"\d"`, "x' + 'c'", "```\nls\n```"},
	Tcl: {"exec rm -rf x", "puts [exec ls | wc]", "{*}$a", "set f [open |sh w]; puts $f x", "eval {if 1 {exec a}}",
		"\\x7\\u12", "$a(b[c])", "${a", "[[[", "{\\}", "# c \\\nexec x", "expect { a {b} }"},
	AppleScript: {`do shell script "ls" & x`, "(* x", "set x to \"a\"\ndo shell script x", "-- c\n#!x", "¬\n"},
}

func FuzzPython(f *testing.F)      { fuzzLang(f, Python, fuzzSeeds[Python]...) }
func FuzzJS(f *testing.F)          { fuzzLang(f, Node, fuzzSeeds[Node]...) }
func FuzzRuby(f *testing.F)        { fuzzLang(f, Ruby, fuzzSeeds[Ruby]...) }
func FuzzPerl(f *testing.F)        { fuzzLang(f, Perl, fuzzSeeds[Perl]...) }
func FuzzPHP(f *testing.F)         { fuzzLang(f, PHP, fuzzSeeds[PHP]...) }
func FuzzLua(f *testing.F)         { fuzzLang(f, Lua, fuzzSeeds[Lua]...) }
func FuzzR(f *testing.F)           { fuzzLang(f, R, fuzzSeeds[R]...) }
func FuzzJulia(f *testing.F)       { fuzzLang(f, Julia, fuzzSeeds[Julia]...) }
func FuzzAppleScript(f *testing.F) { fuzzLang(f, AppleScript, fuzzSeeds[AppleScript]...) }

// BenchmarkAnalyze measures one lexing and analysis of a typical inline
// script (hook hot path: once per interpreter invocation).
func BenchmarkAnalyze(b *testing.B) {
	for _, c := range []struct {
		name string
		lang Lang
		code string
	}{
		{"python", Python, "import os, subprocess, json\n# never os.system('rm -rf /')\ndef main():\n    \"\"\"Collect stats.\"\"\"\n    data = json.load(open('report.json'))\n    for k, v in data.items():\n        print(f'{k}: {v}')\n    subprocess.run(['git', 'status', '--short'])\nmain()\n"},
		{"node", Node, "const fs = require('fs'); const cp = require('child_process');\n// cp.execSync('rm -rf /')\nconst pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));\nconsole.log(`${pkg.name}@${pkg.version}`);\ncp.execFileSync('git', ['status']);\n"},
		{"perl", Perl, "use strict; my %h; while (<>) { chomp; $h{$_}++ } # system('rm -rf /')\nprint \"$_ $h{$_}\\n\" for sort keys %h;\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Analyze(c.lang, c.code, Options{})
			}
		})
	}
}

// TestJSErrorBound: JavaScript full of lexical errors stops after
// maxJSErrors and is marked Truncated (each tdewolff error computes its
// position from the start: unbounded, garbage would take quadratic time).
func TestJSErrorBound(t *testing.T) {
	c := Analyze(Node, strings.Repeat("#=", 10000), Options{})
	if !c.Truncated {
		t.Fatalf("garbage JavaScript not marked truncated (%d tokens)", len(c.Tokens))
	}
	if c := Analyze(Node, "let x = 1 # 2\nrequire('child_process').execSync('rm -rf x')", Options{}); c.Truncated || len(c.Execs) != 1 {
		t.Fatalf("one stray byte: truncated=%v execs=%v", c.Truncated, c.Execs)
	}
}
