package demo

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun runs the whole demo: every decision must be the expected one, and
// the transcript must show each step.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	tmp := t.TempDir()
	code := Run(&out, map[string]string{"TMPDIR": tmp})
	if code != 0 {
		t.Fatalf("demo exit %d:\n%s", code, out.String())
	}
	for _, want := range []string{
		"SessionStart", "rm -rf build", "go test ./...", "schemas/feature_list.schema.json",
		"Stop blocked", "stop.genlog-section", "Stop allowed", "Reset exception", "validate: 0 error finding(s)",
		"finalize --check refused", "all 16 checks behaved as expected",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if strings.Contains(out.String(), "[FAIL]") {
		t.Errorf("a step failed:\n%s", out.String())
	}
	// Without HARNESS_DEMO_KEEP the temporary sprint is removed.
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Fatalf("temporary sprint left behind: %v", ents)
	}
}

// TestRunKeep keeps the sprint when asked and prints its path.
func TestRunKeep(t *testing.T) {
	var out bytes.Buffer
	tmp := t.TempDir()
	Run(&out, map[string]string{"TMPDIR": tmp, "HARNESS_DEMO_KEEP": "1"})
	matches, _ := filepath.Glob(filepath.Join(tmp, "harness-demo-*", SprintID, ".harness", "logs", "hook.log"))
	if len(matches) != 1 || !strings.Contains(out.String(), "kept in") {
		t.Fatalf("kept sprint not found (%v):\n%s", matches, out.String())
	}
}
