//go:build unix

package validate

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestNoBlockOnFIFO: `harness validate` and `finalize --check` on a workspace
// where a file they read is a FIFO answer at once (finalize --check, and
// validate for the files it reads, with a finding naming the file) instead
// of waiting forever for a writer.
func TestNoBlockOnFIFO(t *testing.T) {
	for rel, validateReads := range map[string]bool{
		".harness/feature_list.json":                             true,
		".harness/session_pool.json":                             true,
		".harness/runtime_state.json":                            true,
		".harness/eval_log.jsonl":                                true,
		".harness/features/f001/generator_log.md":                true,
		".harness/features/f001/session_id.txt":                  true,
		".harness/features/f002/handoff.md":                      true,
		".harness/sprint_contracts/sprint_20260421_1/tooling.md": false,
		".harness/rules.yaml":                                    true,
	} {
		t.Run(rel, func(t *testing.T) {
			root := copyTree(t, filepath.Join(sprints, "valid-complete"))
			p := filepath.Join(root, filepath.FromSlash(rel))
			testutil.MakeFIFO(t, p)
			for name, run := range map[string]func(string) (*Report, error){"validate": Validate, "finalize --check": FinalizeCheck} {
				done := make(chan *Report, 1)
				go func() {
					rep, err := run(root)
					if err != nil {
						t.Errorf("%s: %v", name, err)
					}
					done <- rep
				}()
				select {
				case rep := <-done:
					if rep == nil || (name == "validate" && !validateReads) {
						continue
					}
					if rep.Valid() {
						t.Errorf("%s: a FIFO at %s is valid", name, rel)
					}
					named := false
					for _, f := range rep.Findings {
						named = named || f.File == rel || strings.Contains(f.Message, rel)
					}
					if !named {
						t.Errorf("%s: no finding names %s: %+v", name, rel, rep.Findings)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("%s blocks on a FIFO at %s", name, rel)
				}
			}
		})
	}
}
