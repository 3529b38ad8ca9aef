package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/cli"
	"github.com/superagent-harness/harness/internal/testutil"
)

// TestLogsColumnsAligned: `harness logs` prints time, verdict, rule, event
// and subject in columns that start at the same place in every row, however
// long an event name or rule id is, and no row ends in blanks. Before, the
// fixed widths (%-28s rule, %-10s event) let SessionStart (12 characters)
// and UserPromptSubmit (16) push their subjects right of the others'.
func TestLogsColumnsAligned(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testutil.Testdata(t, "sprints", "valid-midway"), root)
	log := `{"time":"2026-04-21T03:00:00Z","event":"SessionStart","verdict":"allow","path":".harness/features/f001/session_id.txt","duration_us":1}
{"time":"2026-04-21T03:00:01Z","event":"PreToolUse","verdict":"block","rule":"path.eval-log-append-only","command":"echo '{}' > .harness/eval_log.jsonl","duration_us":1}
{"time":"2026-04-21T03:00:02Z","event":"UserPromptSubmit","verdict":"allow","duration_us":1}
{"time":"2026-04-21T03:00:03Z","event":"Stop","verdict":"block","rule":"stop.genlog-key-decisions","failing":["stop.genlog-key-decisions","stop.eval-entry"],"duration_us":1}
{"time":"2026-04-21T03:00:04Z","event":"PreToolUse","verdict":"allow","command":"ls","duration_us":1}
`
	if err := os.WriteFile(filepath.Join(root, ".harness", "logs", "hook.log"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"logs", root}, strings.NewReader(""), &out, &errb, map[string]string{}, "test"); code != 0 {
		t.Fatalf("logs: exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")[1:]
	if len(lines) != 5 {
		t.Fatalf("%d rows:\n%s", len(lines), out.String())
	}
	var starts []int
	for _, line := range lines {
		if strings.TrimRight(line, " ") != line {
			t.Errorf("row ends in blanks: %q", line)
		}
		f := strings.Fields(line)
		var at []int
		pos := 0
		for _, cell := range f[:min(len(f), 5)] {
			pos += strings.Index(line[pos:], cell)
			at = append(at, pos)
			pos += len(cell)
		}
		if starts == nil {
			starts = at
		}
		for k := range min(len(at), len(starts)) {
			if at[k] != starts[k] {
				t.Errorf("row %q: column %d starts at %d, in the first row at %d", line, k+1, at[k], starts[k])
			}
		}
	}
	t.Log("\n" + out.String())
}
