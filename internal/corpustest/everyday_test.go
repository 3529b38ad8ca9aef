package corpustest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

const (
	everydayFile  = "../../testdata/everyday/steps.jsonl"
	everydayCosts = "../../testdata/everyday/known_costs.txt"
)

// everydayStep is one `run:` step of a public repository's GitHub
// workflow (testdata/everyday/README.md).
type everydayStep struct {
	ID     string `json:"id"`
	Repo   string `json:"repo"`
	File   string `json:"file"`
	Cmd    string `json:"cmd"`
	Expect string `json:"expect"`
	Why    string `json:"why"`
}

// TestEverydaySteps measures what the cautious defaults cost on commands
// developers run every day: each workflow step goes through harness-hook
// as a Generator's Bash call (decideBashCase) and must get its label; the
// harmless steps it blocks today are listed in known_costs.txt
// (shrink-only: a listed step that passes fails the test until its line is
// removed, and a new false block fails it at once).
func TestEverydaySteps(t *testing.T) {
	steps := loadEverydaySteps(t)
	if len(steps) < 800 {
		t.Fatalf("%d everyday steps, want ≥ 800", len(steps))
	}
	costs := map[string]string{}
	b, err := os.ReadFile(everydayCosts)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if id, why, ok := strings.Cut(l, "\t"); ok && !strings.HasPrefix(l, "#") {
			costs[id] = why
		}
	}
	cwd := t.TempDir()
	count := map[string]int{}
	falseBlocks, allows := 0, 0
	var fails []string
	seen := map[string]bool{}
	for _, s := range steps {
		if seen[s.ID] {
			t.Fatalf("duplicate id %s", s.ID)
		}
		seen[s.ID] = true
		got := decideBashCase(t, bashCase{ID: s.ID, Cmd: s.Cmd, Expect: s.Expect}, cwd)
		count[s.Expect+"→"+got.Outcome]++
		if s.Expect == "allow" {
			allows++
			if got.Outcome != "allow" {
				falseBlocks++
			}
		}
		_, listed := costs[s.ID]
		switch {
		case got.Outcome != s.Expect && !listed:
			fails = append(fails, fmt.Sprintf("%s (%s %s) expect %s, got %s %s: %q", s.ID, s.Repo, s.File, s.Expect, got.Outcome, got.Rule, s.Cmd))
		case got.Outcome == s.Expect && listed:
			fails = append(fails, fmt.Sprintf("%s now gets %s: remove its line from known_costs.txt", s.ID, got.Outcome))
		}
	}
	for id := range costs {
		if !seen[id] {
			fails = append(fails, "known_costs.txt lists "+id+", which is no step")
		}
	}
	var keys []string
	for k := range count {
		keys = append(keys, fmt.Sprintf("%s %d", k, count[k]))
	}
	sort.Strings(keys)
	t.Logf("everyday steps: %d; harmless steps blocked or warned: %d/%d (%.1f %%); %s", len(steps), falseBlocks, allows,
		100*float64(falseBlocks)/float64(allows), strings.Join(keys, ", "))
	if len(fails) > 0 {
		t.Errorf("%d everyday steps:\n%s", len(fails), strings.Join(fails, "\n"))
	}
}

// loadEverydaySteps reads testdata/everyday/steps.jsonl; a step without a
// command, a reason or a known label fails the test.
func loadEverydaySteps(t testing.TB) []everydayStep {
	t.Helper()
	f, err := os.Open(everydayFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []everydayStep
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var s everydayStep
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%s: %v", everydayFile, err)
		}
		if s.Expect != "allow" && s.Expect != "warn" && s.Expect != "block" || s.Why == "" || s.Cmd == "" {
			t.Fatalf("%s: bad step %+v", everydayFile, s)
		}
		steps = append(steps, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return steps
}
