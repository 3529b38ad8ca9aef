package corpustest

import (
	"strings"
	"testing"
)

// wrappedMiss is one wrapped variant whose outcome differs from its case's.
type wrappedMiss struct {
	id, form, cmd, got string
}

// key is how a wrapped miss is listed in testdata/redteam/known_gaps.txt.
func (m wrappedMiss) key() string { return m.id + "@" + m.form }

// bashWrapForms are the metamorphic variants of testdata/corpus/README.md §2.1 (a
// command is checked wherever the shell would execute it, at any depth)
// and §2.3 (wrappers): run forms must keep the case's own verdict; data
// forms (`echo '…'`, a commit message, a file written and not run, a quoted
// heredoc) apply to allowed cases, which must stay allowed.
var bashRunForms = []struct {
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
	{"ssh", func(c string) string { return "ssh build-host " + shQuote(c) }},
	{"script file", func(c string) string { return "printf '%s\\n' " + shQuote(c) + " > t.sh && bash t.sh" }},
}

var bashDataForms = []struct {
	name string
	wrap func(string) string
}{
	{"echo", func(c string) string { return "echo " + shQuote(c) }},
	{"commit message", func(c string) string { return "git commit -m " + shQuote(c) }},
	{"file", func(c string) string { return "printf '%s\\n' " + shQuote(c) + " > t.sh" }},
	{"quoted heredoc", func(c string) string { return "cat > notes.md <<'EOF'\n" + c + "\nEOF" }},
}

// shQuote single-quotes s for a POSIX shell.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// bashWrappedMisses runs every case not in skip inside the wrapped forms
// through the hook and returns the variants whose outcome differs from the
// case's expect, with the number of variants run. Unparseable and blank
// cases are left out: wrapping changes what parses.
func bashWrappedMisses(t *testing.T, cases []bashCase, skip map[string]bool) ([]wrappedMiss, int) {
	t.Helper()
	cwd := t.TempDir()
	var misses []wrappedMiss
	n := 0
	for _, c := range cases {
		if skip[c.ID] || c.Kind == "unparseable" || strings.TrimSpace(c.Cmd) == "" {
			continue
		}
		forms := bashRunForms
		if c.Expect == "allow" {
			forms = append(forms[:len(forms):len(forms)], bashDataForms...)
		}
		for _, w := range forms {
			if w.name == "ssh" && c.Family == "production" {
				continue // the host itself is what production judges
			}
			if strings.Contains(c.Cmd, "\nEOF") && w.name == "quoted heredoc" {
				continue
			}
			wc := c
			wc.Cmd = w.wrap(c.Cmd)
			n++
			if got := decideBashCase(t, wc, cwd).Outcome; got != c.Expect {
				misses = append(misses, wrappedMiss{id: c.ID, form: w.name, cmd: wc.Cmd, got: got})
			}
		}
	}
	return misses, n
}

// TestBashCorpusWrapped re-runs the shared bash.jsonl cases in the wrapped
// forms: each wrapped command must get the case's own verdict.
func TestBashCorpusWrapped(t *testing.T) {
	cases := loadBashCases(t, sharedBashFile)
	misses, n := bashWrappedMisses(t, cases, nil)
	expect := map[string]string{}
	for _, c := range cases {
		expect[c.ID] = c.Expect
	}
	for _, m := range misses {
		t.Errorf("%s wrapped in %s: expect %s, got %s\n  %q", m.id, m.form, expect[m.id], m.got, m.cmd)
	}
	t.Logf("%d wrapped bash cases", n)
}
