package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stopCase is one expectation of valid-cases.json or broken/*/EXPECT.json.
type stopCase struct {
	Case            string           `json:"case"`
	Command         string           `json:"command"`
	FeatureID       *string          `json:"feature_id"`
	Expect          string           `json:"expect"`
	Rule            *string          `json:"rule"`
	MustMention     []string         `json:"must_mention"`
	MtimeAgeSeconds map[string]int64 `json:"mtime_age_seconds"`
	dir             string
}

// stopCases collects every stop expectation of testdata/sprints.
func stopCases(t *testing.T) []stopCase {
	t.Helper()
	var out []stopCase
	data, err := os.ReadFile(testdata("sprints", "valid-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var valid []stopCase
	if err := json.Unmarshal(data, &valid); err != nil {
		t.Fatal(err)
	}
	for _, c := range valid {
		if c.Command == "stop" {
			c.dir = testdata("sprints", c.Case)
			out = append(out, c)
		}
	}
	ents, err := os.ReadDir(testdata("sprints", "broken"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		dir := testdata("sprints", "broken", e.Name())
		data, err := os.ReadFile(filepath.Join(dir, "EXPECT.json"))
		if err != nil {
			continue
		}
		var c stopCase
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if c.Command == "stop" {
			c.Case, c.dir = "broken/"+e.Name(), dir
			out = append(out, c)
		}
	}
	if len(out) < 15 {
		t.Fatalf("found only %d stop cases", len(out))
	}
	return out
}

// TestStopFixtures runs every stop case through the built binary exactly as
// fixtures README §2 says: a copy of the workspace, mtimes set, cwd = root,
// harness variables unset, `--root R [--feature F]`, the Stop payload on
// stdin. It checks the verdict, must_mention (raw output and the decoded
// reason), the contract, and that nothing but hook.log changed.
func TestStopFixtures(t *testing.T) {
	for _, c := range stopCases(t) {
		name := c.Case
		if c.FeatureID != nil {
			name += "/" + *c.FeatureID
		} else {
			name += "/no-feature"
		}
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			root := filepath.Join(tmp, "ws")
			copyTree(t, c.dir, root)
			now := time.Now()
			for rel, age := range c.MtimeAgeSeconds {
				mt := now.Add(-time.Duration(age) * time.Second)
				if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), mt, mt); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, root)
			args := []string{"--root", root}
			if c.FeatureID != nil {
				args = append(args, "--feature", *c.FeatureID)
			}
			res := runBin(t, root, args, nil, stopPayload(root, "fixture", tmp))
			if res.code != 0 {
				t.Fatalf("exit %d (stderr %s)", res.code, res.stderr)
			}
			obj := checkContract(t, EventStop, res.stdout)
			blocked := obj["decision"] == "block"
			switch c.Expect {
			case "block":
				if !blocked {
					t.Fatalf("expected block, got %s", res.stdout)
				}
			case "pass":
				if blocked {
					t.Fatalf("expected pass, got %s", res.stdout)
				}
			default:
				t.Fatalf("unknown expect %q", c.Expect)
			}
			reason, _ := obj["reason"].(string)
			hay := res.stdout + res.stderr + reason
			for _, m := range c.MustMention {
				if !strings.Contains(hay, m) {
					t.Errorf("output does not mention %q:\n%s", m, reason)
				}
			}
			if blocked {
				if c.FeatureID != nil && !strings.Contains(reason, ".harness/features/"+*c.FeatureID+"/handoff.md") {
					t.Errorf("block reason lacks the Reset hint naming the handoff.md:\n%s", reason)
				}
			}
			if d := diffSnapshots(before, snapshot(t, root)); len(d) > 0 {
				t.Fatalf("the Stop hook changed files other than hook.log: %v", d)
			}
			recs := hookLogRecords(t, root)
			last := recs[len(recs)-1]
			if last.Event != EventStop || last.Session != "fixture" {
				t.Fatalf("last hook.log record = %+v", last)
			}
			if want := map[bool]string{true: "block", false: "allow"}[blocked]; last.Verdict != want {
				t.Fatalf("hook.log verdict %q, want %q", last.Verdict, want)
			}
		})
	}
}
