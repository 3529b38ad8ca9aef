package bashguard

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzDecide checks that Decide never panics, is deterministic (same
// verdict and rule twice) and stays fast on any input. Seeded with the bash
// corpus and the adversarial table.
func FuzzDecide(f *testing.F) {
	if fh, err := os.Open(filepath.Join("..", "..", "testdata", "corpus", "bash.jsonl")); err == nil {
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var c struct {
				Cmd string `json:"cmd"`
			}
			if json.Unmarshal(sc.Bytes(), &c) == nil {
				f.Add(c.Cmd)
			}
		}
		fh.Close()
	}
	for _, c := range adversarialCases {
		f.Add(c.cmd)
	}
	for _, c := range redteamCases {
		f.Add(c.cmd)
	}
	// regression: an escaped quote before an unpaired one panicked the token scan
	f.Add("x; 0\\\"\"")
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 1<<16 {
			t.Skip()
		}
		start := time.Now()
		a := Decide(cmd, Context{Feature: "f002"})
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Decide took %v on %q", d, cmd)
		}
		b := Decide(cmd, Context{Feature: "f002"})
		if a.Decision != b.Decision {
			t.Fatalf("non-deterministic verdict on %q: %+v vs %+v", cmd, a.Decision, b.Decision)
		}
		if (a.ParseError == nil) != (b.ParseError == nil) {
			t.Fatalf("non-deterministic parse error on %q", cmd)
		}
	})
}
