package ops

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lastDenials reads hook.log backwards and goes on into the rotated files,
// newest first, until it has n denials; the order is oldest first.
func TestLastDenialsAcrossRotatedLogs(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hook.log")
	rec := func(i int, verdict string) string {
		return fmt.Sprintf(`{"time":"2026-04-21T03:%02d:00Z","event":"PreToolUse","feature":"f001","verdict":%q,"rule":"fs.rm-recursive-force","command":"rm -rf /%d","duration_us":1}`+"\n", i, verdict, i)
	}
	var older, newer strings.Builder
	for i := 0; i < 6; i++ {
		older.WriteString(rec(i, "block"))
		older.WriteString(rec(i, "allow"))
	}
	newer.WriteString("[2026-04-21T03:30:00Z] [stop] legacy text line\n")
	for i := 10; i < 13; i++ {
		newer.WriteString(rec(i, "block"))
	}
	os.WriteFile(p+".1", []byte(older.String()), 0o644)
	os.WriteFile(p+".2", []byte(rec(7, "block")), 0o644)
	os.WriteFile(p, []byte(newer.String()), 0o644)
	got := lastDenials(p, 5)
	var subj []string
	for _, d := range got {
		subj = append(subj, d.Subject)
	}
	if want := "rm -rf /5,rm -rf /7,rm -rf /10,rm -rf /11,rm -rf /12"; strings.Join(subj, ",") != want {
		t.Errorf("denials %v", subj)
	}
	if got := lastDenials(filepath.Join(dir, "missing.log"), 5); len(got) != 0 {
		t.Errorf("missing log: %v", got)
	}
}
