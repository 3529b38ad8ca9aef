package corpustest

import (
	"fmt"
	"strings"
	"testing"
)

// TestBashCorpus runs every case of testdata/corpus/bash.jsonl through
// harness-hook (FEATURE_ID=f002, or none for "feature": null; no path
// guard), reports accuracy per family, kind and expected outcome, and fails
// on every miss with its cmd, expected and actual outcome.
func TestBashCorpus(t *testing.T) {
	cases := loadBashCases(t, sharedBashFile)
	cwd := t.TempDir()
	byFamily, byKind, byExpect := newBashTally(), newBashTally(), newBashTally()
	var fails []string
	falsePos, misses := 0, 0
	for _, c := range cases {
		res := decideBashCase(t, c, cwd)
		got := res.Outcome
		ok := got == c.Expect
		byFamily.add(c.Family, ok)
		byKind.add(c.Kind, ok)
		byExpect.add(c.Expect, ok)
		if ok {
			continue
		}
		if c.Expect == "allow" {
			falsePos++
		} else {
			misses++
		}
		fails = append(fails, fmt.Sprintf("%s [%s/%s] expected %s, got %s (%s): %q", c.ID, c.Family, c.Kind, c.Expect, got, res.Rule+res.Problem, c.Cmd))
	}
	total := len(cases)
	t.Logf("bash corpus: %d/%d correct (%.1f%%), %d false positives, %d misses\nper family:\n%sper kind:\n%sper expect:\n%s",
		total-len(fails), total, 100*float64(total-len(fails))/float64(total), falsePos, misses, byFamily, byKind, byExpect)
	if len(fails) > 0 {
		t.Errorf("%d failing cases:\n%s", len(fails), strings.Join(fails, "\n"))
	}
}
