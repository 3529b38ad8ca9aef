package records

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

const sprints = "../../testdata/sprints"

func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	testutil.CopyTree(t, src, dst)
	// A copy gets a fresh mtime; age every handoff.md so that only the
	// expectation's mtime_age_seconds makes one recent (testdata/sprints/README.md §2 step 2).
	old := time.Now().Add(-time.Hour)
	hs, _ := filepath.Glob(filepath.Join(dst, ".harness", "features", "*", "handoff.md"))
	for _, h := range hs {
		os.Chtimes(h, old, old)
	}
	return dst
}

// stopDecision is what the Stop hook decides from checks 0-10, using only
// this package: ("pass"|"block", reason).
func stopDecision(t *testing.T, ws *workspace.Workspace, feature string, now time.Time) (string, string) {
	t.Helper()
	if feature == "" {
		return "pass", "" // check 0
	}
	reset, err := AcceptReset(ws, ResetInput{Feature: feature, SessionID: "6f1d2c3b-8a4e-4f0b-9c21-5e7a90b3d4c1", Now: now, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if reset.Accepted {
		return "pass", "" // check 1 (bookkeeping tested separately)
	}
	r, err := CheckPhase(ws, feature)
	if err != nil {
		t.Fatal(err)
	}
	if r.Skipped || r.OK() {
		return "pass", ""
	}
	return "block", r.Reason()
}

func TestStopFixtures(t *testing.T) {
	n, pass := 0, 0
	for _, e := range testutil.SprintCases(t) {
		if e.Command != "stop" {
			continue
		}
		n++
		e := e
		name := e.Case + "/stop"
		if e.FeatureID != nil {
			name += "-" + *e.FeatureID
		}
		ok := t.Run(name, func(t *testing.T) {
			root := copyTree(t, e.Dir)
			now := time.Now()
			testutil.SetMTimes(t, root, e.MtimeAgeSeconds, now)
			ws, err := workspace.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			f := ""
			if e.FeatureID != nil {
				f = *e.FeatureID
			}
			got, reason := stopDecision(t, ws, f, now)
			if got != e.Expect {
				t.Fatalf("expect %s, got %s: %s", e.Expect, got, reason)
			}
			for _, m := range e.MustMention {
				if !strings.Contains(reason, m) {
					t.Errorf("reason lacks %q:\n%s", m, reason)
				}
			}
			if got == "block" && !strings.Contains(reason, ".harness/features/"+f+"/handoff.md") {
				t.Errorf("block reason lacks the Reset hint:\n%s", reason)
			}
		})
		if ok {
			pass++
		}
	}
	t.Logf("stop fixtures: %d/%d", pass, n)
	if n < 10 {
		t.Fatalf("only %d stop cases found", n)
	}
}
