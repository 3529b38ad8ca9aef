package bashguard

import (
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

func benchDecide(b *testing.B, cmd string) {
	b.ReportAllocs()
	b.SetBytes(int64(len(cmd)))
	ctx := Context{Feature: "f002"}
	for b.Loop() {
		Decide(cmd, ctx)
	}
}

// BenchmarkDecideGoTest is the most common developer command.
func BenchmarkDecideGoTest(b *testing.B) { benchDecide(b, "go test ./...") }

// BenchmarkDecideCommitPush is a typical commit-and-push chain.
func BenchmarkDecideCommitPush(b *testing.B) {
	benchDecide(b, `git commit -m "fix: handle empty input" && git push origin main`)
}

// BenchmarkDecideBlocked is a nested blocked command (bash -c, eval, $( )).
func BenchmarkDecideBlocked(b *testing.B) {
	benchDecide(b, `bash -c "eval \"$(echo rm -rf build)\""`)
}

// BenchmarkDecide1MB is a 1 MB command line (one echo of a long argument).
func BenchmarkDecide1MB(b *testing.B) {
	benchDecide(b, "echo "+strings.Repeat("a", 1<<20))
}

// BenchmarkDecide10kStatements is a 10,000-statement script.
func BenchmarkDecide10kStatements(b *testing.B) {
	benchDecide(b, strings.Repeat("echo hello world; ls -la src\n", 5000))
}

// BenchmarkDecideDeepNesting is 10,000 nested $( … ).
func BenchmarkDecideDeepNesting(b *testing.B) {
	benchDecide(b, strings.Repeat("echo $(", 10000)+"ls"+strings.Repeat(")", 10000))
}

// TestBoundedInputs checks the verdicts on the benchmark inputs (their speed
// is measured by the benchmarks above, never here).
func TestBoundedInputs(t *testing.T) {
	deep := strings.Repeat("echo $(", 10000) + "ls" + strings.Repeat(")", 10000)
	if r := Decide(deep, Context{}); r.Decision.Action != verdict.Block || r.Decision.Rule != "shell.too-complex" {
		t.Errorf("10,000-deep nesting: got %s %s, want block shell.too-complex", r.Decision.Action, r.Decision.Rule)
	}
	script := strings.Repeat("echo hello world; ls -la src\n", 5000) + "rm -rf build\n"
	if r := Decide(script, Context{}); r.Decision.Rule != "fs.rm-recursive-force" {
		t.Errorf("10,000-statement script ending in rm -rf: got %s %s", r.Decision.Action, r.Decision.Rule)
	}
	big := "echo " + strings.Repeat("a", 1<<20) + " && sudo id"
	if r := Decide(big, Context{}); r.Decision.Rule != "priv.sudo" {
		t.Errorf("1 MB command ending in sudo: got %s %s", r.Decision.Action, r.Decision.Rule)
	}
}
