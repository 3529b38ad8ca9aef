package corpustest

import (
	"encoding/json"
	"strings"
	"testing"
)

// pathWrapForms are the wrappers of testdata/corpus/README.md §2.1/§2.3 that run a
// command unchanged; §3.3 says "the same walk as in 2.1 applies", so each
// wrapped Bash path case must get the case's own verdict.
var pathWrapForms = []struct {
	name string
	wrap func(string) string
}{
	{"bash -c", func(c string) string { return "bash -c " + shQuote(c) }},
	{"subshell", func(c string) string { return "( " + c + "\n)" }},
	{"eval", func(c string) string { return "eval " + shQuote(c) }},
	{"pipe to sh", func(c string) string { return "printf '%s\\n' " + shQuote(c) + " | sh" }},
	{"if body", func(c string) string { return "if true; then\n" + c + "\nfi" }},
	{"called function", func(c string) string { return "f() {\n" + c + "\n}; f" }},
	{"timeout bash -c", func(c string) string { return "timeout 30 bash -c " + shQuote(c) }},
}

// pathWrappedMisses runs every Bash case not in skip inside pathWrapForms
// through the hook, in the case's prepared workspace, and returns the
// variants whose outcome differs from expect, with the number run.
func pathWrappedMisses(t *testing.T, cases []pathCase, skip map[string]bool) ([]wrappedMiss, int) {
	t.Helper()
	var misses []wrappedMiss
	n := 0
	for _, c := range cases {
		if c.Tool != "Bash" || skip[c.ID] {
			continue
		}
		p := preparePathCase(t, c)
		var in struct {
			Command string `json:"command"`
		}
		if err := json.Unmarshal(p.toolInput, &in); err != nil {
			t.Fatalf("%s: tool_input: %v", c.ID, err)
		}
		if strings.TrimSpace(in.Command) == "" {
			continue
		}
		for _, w := range pathWrapForms {
			cmd := w.wrap(in.Command)
			input, _ := json.Marshal(map[string]string{"command": cmd})
			n++
			if got := pathHook(t, c, p, "Bash", input); got.Outcome != c.Expect {
				misses = append(misses, wrappedMiss{id: c.ID, form: w.name, cmd: cmd, got: got.Outcome + " " + got.Rule})
			}
		}
	}
	return misses, n
}

// TestPathsCorpusWrapped re-runs every Bash case of the shared paths.jsonl
// in the wrapped forms.
func TestPathsCorpusWrapped(t *testing.T) {
	cases := loadPathCases(t, sharedPathsFile)
	misses, n := pathWrappedMisses(t, cases, nil)
	expect := map[string]string{}
	for _, c := range cases {
		expect[c.ID] = c.Expect
	}
	for _, m := range misses {
		t.Errorf("%s wrapped in %s: expect %s, got %s\n  %q", m.id, m.form, expect[m.id], m.got, m.cmd)
	}
	t.Logf("%d wrapped path cases", n)
}
