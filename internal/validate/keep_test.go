package validate

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/workspace"
)

// The entries keepEntry keeps answer every question the rules across lines
// ask exactly as all entries do: the rollback mark of every feature and
// phase before its last passing verdict (or anywhere: finalizeFeatures asks
// nothing else), the last passing verdict of every feature and phase, and
// the last entry of each sprint gate; the kept state is per (feature,
// phase), so a long log keeps a few entries.
func TestKeptEntriesAnswerAsAllEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 4))
	pick := func(xs ...any) any { return xs[r.IntN(len(xs))] }
	features := []string{"f1", "f2", ""}
	for round := 0; round < 300; round++ {
		c := &checker{finalize: true, lastRollback: map[rollbackKey]int{}}
		var all []*workspace.EvalEntry
		n := 1 + r.IntN(400)
		if round%20 == 0 {
			n = 5000 // compactEntries runs while streaming
		}
		for line := 1; line <= n; line++ {
			m := map[string]any{"timestamp": "2026-04-21T02:00:00Z"}
			for k, v := range map[string]any{
				"event_type":    pick("phase_evaluation", "checkpoint", "retry", "fail", "reset"),
				"feature_id":    pick("f1", "f2", 7),
				"phase":         pick(json.Number("1"), json.Number("2"), json.Number("3"), json.Number("4"), json.Number("9"), "2"),
				"result":        pick("pass", "pass", "retry", "fail", "x"),
				"decision":      pick("approved", "rejected", nil),
				"checkpoint_id": pick("cp-sprint-dag", "cp-sprint-tooling", "cp-f1-1"),
			} {
				if r.IntN(6) != 0 {
					m[k] = v
				}
			}
			if r.IntN(20) == 0 {
				m["supersedes_line"], m["reason"] = json.Number("1"), "补录: 改正"
			}
			e := &workspace.EvalEntry{Line: line, Fields: m}
			all = append(all, e)
			c.keepEntry(e)
		}
		c.endKeep()
		kept := c.entries
		line := func(e *workspace.EvalEntry) int {
			if e == nil {
				return 0
			}
			return e.Line
		}
		for _, f := range features {
			for p := 1; p <= 4; p++ {
				befores := []int{0}
				var lastAll, lastKept *workspace.EvalEntry
				for _, e := range all {
					if records.IsPhaseEval(e, f, p) && e.Result() == "pass" {
						lastAll = e
					}
				}
				if lastAll != nil {
					befores = append(befores, lastAll.Line)
				}
				for _, e := range kept {
					if records.IsPhaseEval(e, f, p) && e.Result() == "pass" {
						lastKept = e
					}
				}
				if line(lastAll) != line(lastKept) {
					t.Fatalf("round %d: last pass of %s phase %d: all %d, kept %d", round, f, p, line(lastAll), line(lastKept))
				}
				for _, b := range befores {
					ma, mk := records.RollbackMark(all, f, p, b), records.RollbackMark(kept, f, p, b)
					la, lk := 0, 0
					if ma != nil {
						la = ma.Entry.Line
					}
					if mk != nil {
						lk = mk.Entry.Line
					}
					if la != lk {
						t.Fatalf("round %d: rollback mark of %s phase %d before %d: all %d, kept %d", round, f, p, b, la, lk)
					}
				}
			}
		}
		for _, gate := range sprintGates {
			var la, lk *workspace.EvalEntry
			for _, e := range all {
				if !e.IsCorrection() && e.EventType() == workspace.EventCheckpoint && e.CheckpointID() == gate {
					la = e
				}
			}
			for _, e := range kept {
				if !e.IsCorrection() && e.EventType() == workspace.EventCheckpoint && e.CheckpointID() == gate {
					lk = e
				}
			}
			if line(la) != line(lk) {
				t.Fatalf("round %d: last %s: all %d, kept %d", round, gate, line(la), line(lk))
			}
		}
		// per (feature f1, f2 or none, phase 1-4 or 9): a pass, its anchor
		// and the latest mark, plus the last entry of each of the two gates
		if len(kept) > 3*5*3+2 {
			t.Fatalf("round %d: kept %d of %d entries", round, len(kept), n)
		}
	}
}
