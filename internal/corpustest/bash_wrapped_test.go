package corpustest

import (
	"strings"
	"testing"
)

// TestBashCorpusWrapped re-runs the bash.jsonl cases inside wrappers that
// run the command unchanged (testdata/corpus/README.md §2.1: a command is checked
// wherever the shell would execute it, at any depth; §2.3 wrappers): each
// wrapped command must get the case's own verdict. Allowed cases are also
// quoted as data (`echo '…'`, a commit message, a file written and not
// run), which must stay allowed. Unparseable cases are skipped: wrapping
// changes what parses.
func TestBashCorpusWrapped(t *testing.T) {
	sq := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	run := []struct {
		name string
		wrap func(string) string
	}{
		{"bash -c", func(c string) string { return "bash -c " + sq(c) }},
		{"subshell", func(c string) string { return "( " + c + "\n)" }},
		{"eval", func(c string) string { return "eval " + sq(c) }},
		{"pipe to sh", func(c string) string { return "printf '%s\\n' " + sq(c) + " | sh" }},
		{"if body", func(c string) string { return "if true; then\n" + c + "\nfi" }},
		{"called function", func(c string) string { return "f() {\n" + c + "\n}; f" }},
		{"timeout bash -c", func(c string) string { return "timeout 30 bash -c " + sq(c) }},
		{"ssh", func(c string) string { return "ssh build-host " + sq(c) }},
		{"script file", func(c string) string { return "printf '%s\\n' " + sq(c) + " > t.sh && bash t.sh" }},
	}
	data := []struct {
		name string
		wrap func(string) string
	}{
		{"echo", func(c string) string { return "echo " + sq(c) }},
		{"commit message", func(c string) string { return "git commit -m " + sq(c) }},
		{"file", func(c string) string { return "printf '%s\\n' " + sq(c) + " > t.sh" }},
		{"quoted heredoc", func(c string) string { return "cat > notes.md <<'EOF'\n" + c + "\nEOF" }},
	}
	n := 0
	for _, c := range loadBashCases(t) {
		if c.Kind == "unparseable" || strings.TrimSpace(c.Cmd) == "" {
			continue
		}
		forms := run
		if c.Expect == "allow" {
			forms = append(forms, data...)
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
			if got := outcome(decideBashCase(wc).Decision.Action); got != c.Expect {
				t.Errorf("%s (%s, %s) wrapped in %s: expect %s, got %s\n  %q", c.ID, c.Family, c.Kind, w.name, c.Expect, got, wc.Cmd)
			}
		}
	}
	t.Logf("%d wrapped bash cases", n)
}
