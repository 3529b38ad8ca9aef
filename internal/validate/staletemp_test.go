package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStaleTempFinding: a temp file left by a killed atomic write is an info
// finding (layout.stale-temp) naming the temp and its target; the workspace
// stays valid, and look-alike names are not reported.
func TestStaleTempFinding(t *testing.T) {
	root := copyTree(t, filepath.Join(sprints, "valid-complete"))
	temps := []string{
		".harness/.feature_list.json.tmp-2718281828",
		".harness/features/f001/.generator_log.md.tmp-31415",
	}
	for _, rel := range append(temps, ".harness/features/f001/notes.tmp-1", ".harness/.feature_list.json.tmp-abc") {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(`{"features":[`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Validate(root)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Valid() {
		t.Fatalf("stale temps made the workspace invalid: %+v", rep.Findings)
	}
	got := map[string]Finding{}
	for _, f := range rep.Findings {
		if f.Rule == "layout.stale-temp" {
			got[f.File] = f
		}
	}
	if len(got) != len(temps) {
		t.Fatalf("layout.stale-temp findings %v, want exactly %v", got, temps)
	}
	for _, rel := range temps {
		f, ok := got[rel]
		if !ok {
			t.Fatalf("no layout.stale-temp finding for %s: %+v", rel, rep.Findings)
		}
		target := strings.TrimPrefix(strings.SplitN(filepath.Base(rel), ".tmp-", 2)[0], ".")
		if f.Severity != SeverityInfo || !strings.Contains(f.Message, rel) || !strings.Contains(f.Message, target) {
			t.Errorf("finding %+v: want info naming %s and %s", f, rel, target)
		}
	}
}
