package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

var script10k = strings.Repeat("echo hello world; ls -la src\n", 5000)

// BenchmarkSyntaxParse10k is mvdan/sh alone on a 10,000-statement script
// (the floor for Parse).
func BenchmarkSyntaxParse10k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script10k), ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse10k is Parse (parse + walk) on the same script.
func BenchmarkParse10k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Parse(script10k, Options{})
	}
}

// BenchmarkParseTypical is Parse on a typical developer command.
func BenchmarkParseTypical(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Parse(`git commit -m "fix: handle empty input" && git push origin main`, Options{})
	}
}

// BenchmarkManyVarsManySubshells is 2,000 variables and 2,000 command
// substitutions: the state is shared copy-on-write, so this stays linear.
func BenchmarkManyVarsManySubshells(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 2000; i++ {
		sb.WriteString("v")
		sb.WriteString(strings.Repeat("x", i%7+1))
		sb.WriteString(string(rune('a' + i%26)))
		sb.WriteString("=1; ")
	}
	for i := 0; i < 2000; i++ {
		sb.WriteString("echo $(true); ")
	}
	src := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		Parse(src, Options{})
	}
}
