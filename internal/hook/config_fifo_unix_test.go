//go:build unix

package hook

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestConfigFIFOsNeverBlock: a FIFO in place of an override file or an
// allow-once log outside a sprint is answered at once (a hook that waits
// for a writer fails open at its timeout): the override file counts as
// invalid (the preset applies, the error is logged), the log as unreadable.
func TestConfigFIFOsNeverBlock(t *testing.T) {
	for _, name := range []string{"proj/.claude/harness.yaml", "home/.claude/harness.yaml", "proj/.claude/harness-allow.jsonl", "home/.claude/harness-allow.jsonl"} {
		t.Run(name, func(t *testing.T) {
			p := newPlainProject(t)
			testutil.MakeFIFO(t, filepath.Join(p.dir, filepath.FromSlash(name)))
			type answer struct {
				deny bool
				out  string
			}
			done := make(chan answer, 1)
			go func() {
				d, o := p.bash("git push --force origin main")
				done <- answer{d, o}
			}()
			select {
			case a := <-done:
				if !a.deny {
					t.Fatalf("allowed with a FIFO at %s\n%s", name, a.out)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("hangs on a FIFO at %s", name)
			}
			recs := p.records()
			errs := strings.Join(recs[len(recs)-1].Errors, "; ")
			if !strings.Contains(errs, filepath.Base(name)) {
				t.Fatalf("the FIFO is not in the record's errors: %q", errs)
			}
		})
	}
}
