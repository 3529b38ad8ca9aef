package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// stopCases collects every stop expectation of testdata/sprints.
func stopCases(t *testing.T) []testutil.SprintCase {
	t.Helper()
	var out []testutil.SprintCase
	for _, c := range testutil.SprintCases(t) {
		if c.Command == "stop" {
			out = append(out, c)
		}
	}
	if len(out) < 15 {
		t.Fatalf("found only %d stop cases", len(out))
	}
	return out
}

// TestStopFixtures runs every stop case through the built binary exactly as
// testdata/sprints/README.md §2 says: a copy of the workspace, mtimes set, cwd = root,
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
			testutil.CopyTree(t, c.Dir, root)
			now := time.Now()
			testutil.SetMTimes(t, root, c.MtimeAgeSeconds, now)
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
			recs := hookLogRecords(t, root)
			last := recs[len(recs)-1]
			d := diffSnapshots(before, snapshot(t, root))
			if last.Rule == "stop.reset-exception" && len(d) == 1 && d[0] == ".harness/claude_code_context_state.json" {
				d = nil // an accepted Reset is recorded in the feature's resets (once per session)
			}
			if len(d) > 0 {
				t.Fatalf("the Stop hook changed files other than hook.log: %v", d)
			}
			if last.Event != EventStop || last.Session != "fixture" {
				t.Fatalf("last hook.log record = %+v", last)
			}
			if want := map[bool]string{true: "block", false: "allow"}[blocked]; last.Verdict != want {
				t.Fatalf("hook.log verdict %q, want %q", last.Verdict, want)
			}
		})
	}
}

// TestStopBrokenFeatureListBlocks: feature_list.json that does not parse
// blocks (D21), even when the payload itself is unreadable.
func TestStopBrokenFeatureListBlocks(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	testutil.CopyTree(t, testdata("sprints", "valid-complete"), root)
	writeFile(t, filepath.Join(root, ".harness", "feature_list.json"), `{"version":"1.2","features":[`)
	for _, stdin := range [][]byte{stopPayload(root, "s", tmp), nil, []byte("{broken")} {
		res := runBin(t, root, []string{"--event", "Stop", "--root", root, "--feature", "f001"}, nil, stdin)
		obj := checkContract(t, EventStop, res.stdout)
		if res.code != 0 || obj["decision"] != "block" || !strings.Contains(obj["reason"].(string), "stop.feature-list-parse") {
			t.Fatalf("stdin %q: exit %d, %s", stdin, res.code, res.stdout)
		}
		if why := obj["reason"].(string); strings.Contains(why, "phase=0") || !strings.Contains(why, "phase unknown (.harness/feature_list.json does not parse)") {
			t.Fatalf("the block must say the phase is unknown, not phase=0: %s", why)
		}
	}
	// Without feature_list.json at all, Stop fails open (D21).
	os.Remove(filepath.Join(root, ".harness", "feature_list.json"))
	res := runBin(t, root, []string{"--root", root, "--feature", "f001"}, nil, stopPayload(root, "s", tmp))
	if obj := checkContract(t, EventStop, res.stdout); obj["decision"] != nil {
		t.Fatalf("missing feature_list must allow: %s", res.stdout)
	}
}

// TestStopResetBookkeeping: under the Reset exception (a complete handoff.md
// and a trigger on record for the session) the hook sets the pool entry to
// resetting and appends one reset eval entry with the handoff's trigger; a
// second Stop of the same session is not a second Reset: it blocks, saying
// why, and writes nothing more.
func TestStopResetBookkeeping(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	testutil.CopyTree(t, testdata("sprints", "valid-midway-reset"), root)
	poolPath := filepath.Join(root, ".harness", "session_pool.json")
	pool, _ := os.ReadFile(poolPath)
	if !strings.Contains(string(pool), `"resetting"`) {
		t.Fatal("fixture changed: f001 is expected to be resetting")
	}
	writeFile(t, poolPath, strings.Replace(string(pool), `"resetting"`, `"running"`, 1))
	evalPath := filepath.Join(root, ".harness", "eval_log.jsonl")
	ev, _ := os.ReadFile(evalPath)
	// Drop the fixture's reset entry so that the hook has to write one.
	var kept []string
	for _, l := range strings.Split(strings.TrimRight(string(ev), "\n"), "\n") {
		if !strings.Contains(l, `"event_type":"reset"`) || !strings.Contains(l, `"f001"`) {
			kept = append(kept, l)
		}
	}
	writeFile(t, evalPath, strings.Join(kept, "\n")+"\n")
	handoff := filepath.Join(root, ".harness", "features", "f001", "handoff.md")
	now := time.Now()
	os.Chtimes(handoff, now, now)
	ctxPath := filepath.Join(root, ".harness", "claude_code_context_state.json")
	ctx, _ := os.ReadFile(ctxPath)
	writeFile(t, ctxPath, strings.Replace(string(ctx), `"sess_7f3a9c21"`, `"s"`, 1)) // the 0.74 ratio is this session's

	res := runBin(t, root, []string{"--root", root, "--feature", "f001"}, nil, stopPayload(root, "s", tmp))
	if obj := checkContract(t, EventStop, res.stdout); res.code != 0 || obj["decision"] != nil {
		t.Fatalf("reset exception must allow: %s", res.stdout)
	}
	res = runBin(t, root, []string{"--root", root, "--feature", "f001"}, nil, stopPayload(root, "s", tmp))
	if obj := checkContract(t, EventStop, res.stdout); obj["decision"] != "block" || !strings.Contains(obj["reason"].(string), "Reset not accepted: handoff.md is the same as the one of the Reset at") {
		t.Fatalf("a second Reset of the same session must block with the reason: %s", res.stdout)
	}
	pool, _ = os.ReadFile(poolPath)
	if !strings.Contains(string(pool), `"resetting"`) {
		t.Fatalf("pool not set to resetting:\n%s", pool)
	}
	ev, _ = os.ReadFile(evalPath)
	if n := strings.Count(string(ev), `"event_type":"reset"`) - strings.Count(strings.Join(kept, "\n"), `"event_type":"reset"`); n != 1 {
		t.Fatalf("want exactly one new reset entry, got %d:\n%s", n, ev)
	}
	recs := hookLogRecords(t, root)
	if r := recs[len(recs)-2]; r.Rule != "stop.reset-exception" || r.Verdict != "allow" || !strings.Contains(r.Reason, "token_usage_ratio 0.74 > 0.70") {
		t.Fatalf("the accepting record %+v", r)
	}
}
