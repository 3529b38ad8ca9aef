package corpustest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// bashCase is one line of testdata/corpus/bash.jsonl (testdata/corpus/README.md §4).
type bashCase struct {
	ID      string  `json:"id"`
	Cmd     string  `json:"cmd"`
	Expect  string  `json:"expect"`
	Family  string  `json:"family"`
	Kind    string  `json:"kind"`
	Why     string  `json:"why"`
	Source  string  `json:"source"`
	Feature *string `json:"feature"`
	// noFeature is true when the line has "feature": null.
	noFeature bool
}

// Labelled Bash case files below testdata/ (testdata/corpus/README.md §4 schema).
const (
	sharedBashFile  = "corpus/bash.jsonl"  // the shared corpus
	redteamBashFile = "redteam/bash.jsonl" // the fresh red-team set (testdata/redteam/README.md)
)

// loadBashCases reads one JSON-lines case file below testdata/.
func loadBashCases(t testing.TB, file string) []bashCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []bashCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		var c bashCase
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("bad corpus line %q: %v", line, err)
		}
		var raw map[string]json.RawMessage
		_ = json.Unmarshal(line, &raw)
		if v, ok := raw["feature"]; ok && string(v) == "null" {
			c.noFeature = true
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("empty corpus")
	}
	return cases
}

// decideBashCase runs one case through harness-hook the way testdata/corpus/README.md §5
// describes: cwd (an empty directory with no .harness/ above it, so the
// path guard is off), HARNESS_ROOT unset, and FEATURE_ID=f002 unless
// "feature": null.
func decideBashCase(t testing.TB, c bashCase, cwd string) hookAnswer {
	t.Helper()
	env := map[string]string{"FEATURE_ID": "f002"}
	if c.noFeature {
		env = map[string]string{}
	}
	return runHook(t, env, bashPayload(c.Cmd, cwd))
}

// bashTally counts correct answers per key.
type bashTally struct {
	ok, total map[string]int
}

func newBashTally() *bashTally { return &bashTally{ok: map[string]int{}, total: map[string]int{}} }

func (t *bashTally) add(key string, ok bool) {
	t.total[key]++
	if ok {
		t.ok[key]++
	}
}

func (t *bashTally) String() string {
	keys := make([]string, 0, len(t.total))
	for k := range t.total {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-28s %4d/%-4d %6.1f%%\n", k, t.ok[k], t.total[k], 100*float64(t.ok[k])/float64(t.total[k]))
	}
	return b.String()
}
