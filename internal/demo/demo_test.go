package demo

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
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

// TestHookLogListingAligned: the hook.log listing at the end of the demo
// (the one the README's quick start shows) has its columns aligned: event,
// verdict, rule and subject each start at one column in every row, however
// long a rule id is, and no row ends in blanks. Before, the 25-character
// path.eval-log-append-only overflowed its 22-character column and pushed
// that row's subject three columns right of the others, and the two rows
// without a subject ended in blanks.
func TestHookLogListingAligned(t *testing.T) {
	var out bytes.Buffer
	if code := Run(&out, map[string]string{"TMPDIR": t.TempDir()}); code != 0 {
		t.Fatalf("demo exit %d:\n%s", code, out.String())
	}
	_, listing, ok := strings.Cut(out.String(), "hook.log (one JSON line per hook call)\n")
	if !ok {
		t.Fatalf("no hook.log listing:\n%s", out.String())
	}
	listing, _, _ = strings.Cut(listing, "\n\n")
	lines := strings.Split(listing, "\n")
	if len(lines) < 8 {
		t.Fatalf("listing has %d rows:\n%s", len(lines), listing)
	}
	ruleID := regexp.MustCompile(`^[a-z]+\.[a-z0-9.-]+$`)
	starts := map[string]int{} // column → where it starts
	at := func(line, col string, i int) {
		if prev, seen := starts[col]; seen && prev != i {
			t.Errorf("row %q: the %s starts at %d, in other rows at %d", line, col, i, prev)
		}
		starts[col] = i
	}
	longRule := false
	for _, line := range lines {
		if strings.TrimRight(line, " ") != line {
			t.Errorf("row ends in blanks: %q", line)
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			t.Fatalf("row %q", line)
		}
		pos := strings.Index(line, f[0])
		at(line, "event", pos)
		pos = strings.Index(line[pos+len(f[0]):], f[1]) + pos + len(f[0])
		at(line, "verdict", pos)
		pos += len(f[1])
		rest := f[2:]
		if len(rest) > 0 && ruleID.MatchString(rest[0]) {
			pos = strings.Index(line[pos:], rest[0]) + pos
			at(line, "rule", pos)
			pos += len(rest[0])
			longRule = longRule || rest[0] == "path.eval-log-append-only"
			rest = rest[1:]
		}
		if len(rest) > 0 {
			at(line, "subject", strings.Index(line[pos:], rest[0])+pos)
		}
	}
	if !longRule {
		t.Fatalf("listing lacks the long rule id it is meant to check:\n%s", listing)
	}
}
