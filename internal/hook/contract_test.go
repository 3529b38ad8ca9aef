package hook

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

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

// TestContractSamples checks the contract schema against its own samples
// (testdata/contract/README.md): every samples/valid file passes and every
// samples/invalid file fails, against the forEvent entry its name starts
// with (`<event>-…`, case-insensitive) or the root schema (`any-…`).
func TestContractSamples(t *testing.T) {
	schemas, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	byPrefix := map[string]*jsonschema.Schema{"any": schemas[""]}
	for ev, s := range schemas {
		if ev != "" {
			byPrefix[strings.ToLower(ev)] = s
		}
	}
	for _, kind := range []string{"valid", "invalid"} {
		files, err := filepath.Glob(testdata("contract", "samples", kind, "*.json"))
		if err != nil || len(files) < 10 {
			t.Fatalf("samples/%s: %d files (%v)", kind, len(files), err)
		}
		for _, f := range files {
			name := filepath.Base(f)
			prefix, _, _ := strings.Cut(name, "-")
			s := byPrefix[prefix]
			if s == nil {
				t.Errorf("%s/%s: no forEvent entry for prefix %q", kind, name, prefix)
				continue
			}
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
			if err != nil {
				t.Fatalf("%s/%s: %v", kind, name, err)
			}
			err = s.Validate(inst)
			if kind == "valid" && err != nil {
				t.Errorf("%s/%s: rejected: %v", kind, name, err)
			}
			if kind == "invalid" && err == nil {
				t.Errorf("%s/%s: accepted", kind, name)
			}
		}
	}
}
