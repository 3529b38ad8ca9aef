package shell

import (
	"slices"
	"testing"
)

// TestHarnessBinaryIdentity: a copy, link or rename of a harness binary is
// that program (testdata/corpus/README.md §9.1), found from a copy made earlier in
// the command or by Options.Identify; the copying invocation says what it
// copies.
func TestHarnessBinaryIdentity(t *testing.T) {
	files := map[string]string{"/opt/tools/hx": HarnessCLI, "/w/bin/hh": HarnessHook}
	var asked []string
	exists := map[string]bool{"/w/cmd/harness": true}
	identify := func(file string, dirs []string) (string, bool) {
		asked = append(asked, file)
		if b := files[file]; b != "" {
			return b, true
		}
		if file == "renamed" && dirs == nil {
			return HarnessCLI, true // on the caller's PATH
		}
		return "", exists[file]
	}
	for _, c := range []struct {
		cmd      string
		identify bool
		progs    []string // Program of every invocation
		copies   []string // CopiesBinary of every invocation
	}{
		{`cp "$(command -v harness)" /tmp/hx; /tmp/hx allow`, false, []string{"command", "cp", "harness"}, []string{"", "harness", ""}},
		{`(ln -s $(which harness-hook) /tmp/l); /tmp/l --version`, false, []string{"which", "ln", "harness-hook"}, []string{"", "harness-hook", ""}},
		{`cp -t /tmp/d "$(command -v harness)"; /tmp/d/harness allow`, false, []string{"command", "cp", "harness"}, []string{"", "harness", ""}},
		{`cd /tmp && cat $(command -v harness) > x && ./x allow`, false, []string{"cd", "command", "cat", "harness"}, []string{"", "", "harness", ""}},
		{`dd if=$(which harness) of=/tmp/y; /tmp/y allow`, false, []string{"which", "dd", "harness"}, []string{"", "harness", ""}},
		{`cat $(command -v harness) | head -c 10`, false, []string{"command", "cat", "head"}, []string{"", "", ""}},
		{`cp /tmp/a /tmp/b; /tmp/b allow`, false, []string{"cp", "b"}, []string{"", ""}},
		// Identify: a file made earlier, outside the command
		{`/opt/tools/hx allow`, true, []string{"harness"}, []string{""}},
		{`cd /w && bin/hh --event Stop`, true, []string{"cd", "harness-hook"}, []string{"", ""}},
		{`renamed phase advance f002`, true, []string{"harness"}, []string{""}},
		{`cp /opt/tools/hx /tmp/z`, true, []string{"cp"}, []string{"harness"}},
		// with Identify, a literal path is judged by its file, not its name
		{`cp -r cmd/harness /tmp/src`, true, []string{"cp"}, []string{""}},
		{`cp -r cmd/harness /tmp/src`, false, []string{"cp"}, []string{"harness"}},
		// no file to look at: the name decides
		{`mv /usr/local/bin/harness-hook /usr/local/bin/hh.bak`, true, []string{"mv"}, []string{"harness-hook"}},
		{`ls /tmp; git status`, true, []string{"ls", "git"}, []string{"", ""}},
	} {
		opts := Options{Cwd: "/w"}
		if c.identify {
			opts.Identify = identify
		}
		res := Parse(c.cmd, opts)
		var progs, copies []string
		for _, inv := range res.Invocations {
			progs = append(progs, inv.Program)
			copies = append(copies, inv.CopiesBinary)
		}
		if !slices.Equal(progs, c.progs) || !slices.Equal(copies, c.copies) {
			t.Errorf("%q: programs %q copies %q, want %q %q", c.cmd, progs, copies, c.progs, c.copies)
		}
	}
	// known programs by bare name are never looked up (no file system cost)
	for _, f := range asked {
		if f == "ls" || f == "git" || f == "cd" || f == "cp" {
			t.Errorf("Identify was asked about the table program %q", f)
		}
	}
}
