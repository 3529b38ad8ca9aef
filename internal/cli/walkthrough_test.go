package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/superagent-harness/harness/internal/cli"
)

// readmeWalkthrough returns the README section "## Walkthrough: …" up to
// the next "## " heading outside a code block (tooling.md has its own).
func readmeWalkthrough(t *testing.T) string {
	t.Helper()
	return readmeSection(t, "## Walkthrough")
}

// readmeSection returns the README section whose heading starts with
// heading, up to the next "## " heading outside a code block.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "\n"+heading)
	if i < 0 {
		t.Fatalf("README.md has no '%s' section", heading)
	}
	lines := strings.Split(s[i+1:], "\n")
	fence := false
	for k, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if k > 0 && !fence && strings.HasPrefix(l, "## ") {
			lines = lines[:k]
			break
		}
	}
	return strings.Join(lines, "\n")
}

var heredoc = regexp.MustCompile(`^(.*?)\s*<<'EOF'$`)

// shellBlocks parses the ```sh blocks of the walkthrough into the harness
// command lines (quotes removed, heredoc markers and trailing comments
// dropped, so they read as testscript lines) and the heredoc bodies.
func shellBlocks(section string) (cmds []string, bodies []string) {
	in, inDoc := false, false
	var body strings.Builder
	for _, line := range strings.Split(section, "\n") {
		switch {
		case !in && line == "```sh":
			in = true
			continue
		case in && !inDoc && line == "```":
			in = false
			continue
		case !in:
			continue
		case inDoc:
			if line == "EOF" {
				inDoc = false
				bodies = append(bodies, body.String())
				body.Reset()
				continue
			}
			body.WriteString(line + "\n")
			continue
		}
		if m := heredoc.FindStringSubmatch(line); m != nil {
			inDoc = true
			line = m[1]
		}
		if i := strings.Index(line, "  #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "harness ") {
			cmds = append(cmds, strings.ReplaceAll(line, `"`, ""))
		}
	}
	return cmds, bodies
}

// TestReadmeWalkthroughMatchesScript keeps the README walkthrough and
// testdata/script/walkthrough.txtar (which TestScripts runs) the same: every
// harness command of the README is run by the script, in the README's order,
// and every file the README writes with a heredoc is a file of the script's
// archive with the same bytes.
func TestReadmeWalkthroughMatchesScript(t *testing.T) {
	cmds, bodies := shellBlocks(readmeWalkthrough(t))
	if len(cmds) < 15 || len(bodies) < 6 {
		t.Fatalf("walkthrough parsed to %d commands and %d heredocs; the section lost its ```sh blocks?", len(cmds), len(bodies))
	}
	ar := scriptRunsInOrder(t, "walkthrough.txtar", `^exitcode \d+ (harness .*)$`, cmds)
	files := map[string]bool{}
	for _, f := range ar.Files {
		files[string(f.Data)] = true
	}
	for _, b := range bodies {
		if !files[b] {
			t.Errorf("README heredoc is no file of walkthrough.txtar:\n%s", b)
		}
	}
}

// TestReadmeNoClientMatchesScript keeps the README section "The walkthrough
// without Claude Code" and testdata/script/walkthrough_noclient.txtar the
// same: its harness and harness-hook lines are run by the script in the
// README's order, and the payload it pipes into harness-hook is the script's
// sessionstart.json.
func TestReadmeNoClientMatchesScript(t *testing.T) {
	section := readmeSection(t, "## The walkthrough without Claude Code")
	var cmds []string
	payload := ""
	in := false
	for _, line := range strings.Split(section, "\n") {
		switch {
		case line == "```sh":
			in = true
			continue
		case line == "```":
			in = false
			continue
		case !in:
			continue
		}
		line = strings.TrimSpace(line)
		if m := regexp.MustCompile(`^echo '(.*)' \|$`).FindStringSubmatch(line); m != nil {
			payload = m[1] + "\n"
			continue
		}
		if strings.HasPrefix(line, "harness ") || strings.HasPrefix(line, "harness-hook ") {
			cmds = append(cmds, strings.ReplaceAll(line, `"`, ""))
		}
	}
	if len(cmds) < 3 || payload == "" {
		t.Fatalf("section parsed to %d commands and payload %q; it lost its ```sh block?", len(cmds), payload)
	}
	ar := scriptRunsInOrder(t, "walkthrough_noclient.txtar", `^(?:exitcode \d+|exec) (harness(?:-hook)? .*)$`, cmds)
	found := false
	for _, f := range ar.Files {
		if f.Name == "sessionstart.json" {
			found = true
			if string(f.Data) != payload {
				t.Errorf("README payload %q is not walkthrough_noclient.txtar's sessionstart.json %q", payload, f.Data)
			}
		}
	}
	if !found {
		t.Error("walkthrough_noclient.txtar has no sessionstart.json")
	}
}

// TestReadmeCommandTable: every command `harness --help` lists has a row in
// the README command table (compact rows such as `task add/next/done` and
// `phase advance FID` / `phase retry` count), and every row has an exit
// column.
func TestReadmeCommandTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "| `harness ") {
			rows = append(rows, l)
			if n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"); n != 5 {
				t.Errorf("table row has %d columns, want 4 (command, what, who, exit): %s", n-1, l)
			}
		}
	}
	var out, errb strings.Builder
	if code := cli.Run([]string{"--help"}, strings.NewReader(""), &out, &errb, map[string]string{}, "test"); code != 0 {
		t.Fatalf("harness --help exited %d: %s", code, errb.String())
	}
	help := out.String()
	i := strings.Index(help, "\nCommands:\n")
	if i < 0 {
		t.Fatalf("no Commands: section in --help:\n%s", help)
	}
	var cmds []string
	for _, l := range strings.Split(help[i+len("\nCommands:\n"):], "\n") {
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") {
			f := strings.Fields(l)
			name := f[0]
			if len(f) > 1 && regexp.MustCompile(`^[a-z][a-z-]*$`).MatchString(f[1]) && !strings.Contains(l, "  "+f[1]+" ") {
				name += " " + f[1]
			}
			cmds = append(cmds, name)
		}
	}
	if len(cmds) < 30 {
		t.Fatalf("parsed only %d commands from --help: %v", len(cmds), cmds)
	}
	for _, c := range cmds {
		parts := strings.Fields(c)
		var re *regexp.Regexp
		if len(parts) == 1 {
			re = regexp.MustCompile("`harness " + regexp.QuoteMeta(parts[0]) + "[ `]")
		} else {
			// "task next" matches `harness task add/next/…`, `task next`, `phase retry …`
			re = regexp.MustCompile("`(harness )?" + regexp.QuoteMeta(parts[0]) + ` ([a-z-]+/)*` + regexp.QuoteMeta(parts[1]) + "[ `/]")
		}
		found := false
		for _, r := range rows {
			if re.MatchString(r) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("harness %s (from --help) has no row in the README command table", c)
		}
	}
}

// TestReadmeCommandFlagsExist: every --flag a README command-table row names
// is accepted by that command (it is listed in the command's --help).
func TestReadmeCommandFlagsExist(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	help := map[string]string{}
	helpOf := func(path []string) string {
		k := strings.Join(path, " ")
		if h, ok := help[k]; ok {
			return h
		}
		var out, errb strings.Builder
		if code := cli.Run(append(append([]string{}, path...), "--help"), strings.NewReader(""), &out, &errb, map[string]string{}, "test"); code != 0 {
			t.Errorf("harness %s --help exited %d: %s", k, code, errb.String())
		}
		help[k] = out.String()
		return help[k]
	}
	code := regexp.MustCompile("`([^`]+)`")
	word := regexp.MustCompile(`^[a-z][a-z-]*(/[a-z][a-z-]*)*$`)
	checked := 0
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "| `harness ") {
			continue
		}
		cell := strings.SplitN(strings.ReplaceAll(l, `\|`, "¦"), "|", 3)[1]
		var group string
		for _, m := range code.FindAllStringSubmatch(cell, -1) {
			f := strings.Fields(strings.TrimPrefix(m[1], "harness "))
			if len(f) == 0 || !word.MatchString(f[0]) {
				continue
			}
			// the command path: one or two words (the second may be a/b/c)
			var paths [][]string
			if len(f) > 1 && word.MatchString(f[1]) && helpHasSub(helpOf(nil), f[0]) {
				for _, sub := range strings.Split(f[1], "/") {
					paths = append(paths, []string{f[0], sub})
				}
				group = f[0]
			} else if group != "" && !helpHasTop(helpOf(nil), f[0]) {
				// `session end FID` after `harness session start …`: same group
				paths = append(paths, []string{group, f[0]})
			} else {
				for _, top := range strings.Split(f[0], "/") {
					paths = append(paths, []string{top})
				}
			}
			for _, w := range f {
				w = strings.Trim(w, "[]…,")
				if !strings.HasPrefix(w, "--") {
					continue
				}
				flag := strings.SplitN(w, "=", 2)[0]
				for _, p := range paths {
					if h := helpOf(p); !regexp.MustCompile(regexp.QuoteMeta(flag) + `([=\s,]|$)`).MatchString(h) {
						t.Errorf("README documents `harness %s %s`, but its --help has no %s", strings.Join(p, " "), flag, flag)
					}
					checked++
				}
			}
		}
	}
	if checked < 15 {
		t.Fatalf("only %d documented flags checked; the table format changed?", checked)
	}
}

// helpHasSub reports whether top-level help lists "cmd <sub>" commands.
func helpHasSub(help, cmd string) bool {
	return regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(cmd) + ` [a-z]`).MatchString(help)
}

// helpHasTop reports whether top-level help lists cmd as a command.
func helpHasTop(help, cmd string) bool {
	return regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(cmd) + `( |$)`).MatchString(help)
}

// scriptRunsInOrder parses testdata/script/NAME and reports every command
// of cmds that the script's lines matching run (its first group is the
// command) do not run in that order; it returns the archive.
func scriptRunsInOrder(t *testing.T, name, run string, cmds []string) *txtar.Archive {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "script", name))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(run)
	var ran []string
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if m := re.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			ran = append(ran, m[1])
		}
	}
	k := 0
	for _, c := range cmds {
		for k < len(ran) && ran[k] != c {
			k++
		}
		if k == len(ran) {
			t.Errorf("README command not run by %s (or out of order):\n  %s", name, c)
			k = 0
			continue
		}
		k++
	}
	return ar
}
