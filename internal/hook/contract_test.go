package hook

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// payloadFiles lists every stdin fixture under testdata/hook-input/.
func payloadFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(testdata("hook-input"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("found only %d payload files under testdata/hook-input", len(files))
	}
	return files
}

// TestEveryPayloadGetsAContractValidAnswer feeds every payload of
// testdata/hook-input (synthetic and captured from CLI 2.1.332) to the built
// binary, outside any workspace and inside a copy of the valid-midway sprint
// (paths rewritten into it, feature f001), and validates stdout against the
// contract's forEvent entry for the payload's event. Exit is always 0.
func TestEveryPayloadGetsAContractValidAnswer(t *testing.T) {
	const corpusRoot = "/home/user/work/sprint_20260421_1"
	for _, f := range payloadFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Event string `json:"hook_event_name"`
		}
		if err := json.Unmarshal(raw, &p); err != nil || p.Event == "" {
			t.Fatalf("%s: no hook_event_name (%v)", f, err)
		}
		name, _ := filepath.Rel(testdata("hook-input"), f)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			outside := t.TempDir()
			res := runBin(t, outside, nil, nil, raw)
			if res.code != 0 {
				t.Fatalf("outside a workspace: exit %d, stderr %s", res.code, res.stderr)
			}
			checkContract(t, p.Event, res.stdout)

			root := filepath.Join(t.TempDir(), "sprint_20260421_1")
			testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
			inside := []byte(strings.ReplaceAll(string(raw), corpusRoot, filepath.ToSlash(root)))
			res = runBin(t, root, []string{"--root", root, "--feature", "f001", "--sprint", "sprint_20260421_1"}, nil, inside)
			if res.code != 0 {
				t.Fatalf("inside a workspace: exit %d, stderr %s", res.code, res.stderr)
			}
			obj := checkContract(t, p.Event, res.stdout)
			switch p.Event {
			case EventSessionStart:
				hso, _ := obj["hookSpecificOutput"].(map[string]any)
				ctx, _ := hso["additionalContext"].(string)
				if !strings.Contains(ctx, "f001") || !strings.Contains(ctx, "harness phase complete f001") {
					t.Fatalf("SessionStart context lacks the feature or the phase-completion command:\n%s", ctx)
				}
			case EventStop:
				// valid-midway f001 has no phase=2 records: Stop blocks.
				if obj["decision"] != "block" {
					t.Fatalf("Stop in valid-midway for f001 did not block: %s", res.stdout)
				}
			}
			recs := hookLogRecords(t, root)
			if len(recs) != 1 || recs[0].Event != p.Event {
				t.Fatalf("hook.log records = %+v, want one %s record", recs, p.Event)
			}
		})
	}
}
