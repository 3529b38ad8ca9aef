package validate

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestOverlayEqualsWrittenFiles: ValidateWith with an overlay reports what
// Validate reports after really writing (or removing) those files, and
// reads nothing of the overlaid paths from disk.
func TestOverlayEqualsWrittenFiles(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "sprints", "valid-midway")
	fl, err := os.ReadFile(filepath.Join(src, ".harness", "feature_list.json"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := os.ReadFile(filepath.Join(src, ".harness", "eval_log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for name, ov := range map[string]map[string][]byte{
		"bad status":      {".harness/feature_list.json": []byte(strings.Replace(string(fl), `"status": "in_progress"`, `"status": "doing"`, 1))},
		"torn eval line":  {".harness/eval_log.jsonl": append(append([]byte{}, ev...), `{"timestamp":`...)},
		"removed file":    {".harness/runtime_state.json": nil},
		"empty session":   {".harness/features/f001/session_id.txt": []byte("")},
		"new feature dir": {".harness/features/f009/handoff.md": []byte("x\n")},
	} {
		root := filepath.Join(t.TempDir(), "ws")
		testutil.CopyTree(t, src, root)
		got, err := ValidateWith(root, false, Options{Overlay: ov, HarnessOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		for rel, data := range ov {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if data == nil {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := Validate(root)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Findings, want.Findings) {
			t.Errorf("%s: overlay findings differ from the written files'\n got %v\nwant %v", name, got.Findings, want.Findings)
		}
		if name != "new feature dir" && len(want.Findings) == 0 {
			t.Errorf("%s: the change should produce a finding", name)
		}
	}
}
