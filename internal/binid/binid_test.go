package binid

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestIdentify(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const cliBody, hookBody = "#!harness CLI build 1\x00\x01", "#!harness-hook build 1\x00"
	hook := write("harness-hook", hookBody)
	cli := write("harness", cliBody)
	copyOf := write("hx", cliBody)
	sameSize := write("other", "#!harness CLI build 2\x00\x01") // same length, other bytes
	hookCopy := write("hh", hookBody)
	link := filepath.Join(dir, "hlink")
	if err := os.Link(cli, link); err != nil {
		t.Fatal(err)
	}
	sym := filepath.Join(dir, "hsym")
	if err := os.Symlink(cli, sym); err != nil && runtime.GOOS != "windows" {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "renamed"), []byte(cliBody), 0o755); err != nil {
		t.Fatal(err)
	}

	// the hook found by os.Executable, the CLI next to it
	s := New(func() (string, error) { return hook, nil }, bin)
	cases := []struct {
		file string
		dirs []string
		want string
	}{
		{cli, nil, CLI},
		{hook, nil, Hook},
		{copyOf, nil, CLI},
		{hookCopy, nil, Hook},
		{link, nil, CLI},
		{sameSize, nil, ""},
		{filepath.Join(dir, "missing"), nil, ""},
		{dir, nil, ""},                 // a directory is no binary
		{"renamed", nil, CLI},          // looked up on the hook's PATH
		{"renamed", []string{dir}, ""}, // the command's own PATH has none
		{"hx", []string{dir}, CLI},
		{"no-such-program", nil, ""},
		{"./hx", nil, ""}, // a relative path is the caller's to resolve
	}
	if runtime.GOOS != "windows" {
		cases = append(cases, struct {
			file string
			dirs []string
			want string
		}{sym, nil, CLI})
	}
	for _, c := range cases {
		if got, _ := s.Identify(c.file, c.dirs); got != c.want {
			t.Errorf("Identify(%q, %q) = %q, want %q", c.file, c.dirs, got, c.want)
		}
	}

	// run as the CLI (`harness explain`): the hook is found next to it
	s = New(func() (string, error) { return cli, nil }, "")
	if got, _ := s.Identify(hookCopy, nil); got != Hook {
		t.Errorf("as the CLI: Identify(hook copy) = %q, want %q", got, Hook)
	}
	if got, _ := s.Identify(copyOf, nil); got != CLI {
		t.Errorf("as the CLI: Identify(cli copy) = %q, want %q", got, CLI)
	}

	// no executable known: nothing is a harness binary
	var none *Set
	if got, _ := none.Identify(cli, nil); got != "" {
		t.Errorf("nil set: %q", got)
	}
	if got, found := New(nil, "").Identify(cli, nil); got != "" || !found {
		t.Errorf("no executable: %q", got)
	}
	if got, _ := Of(map[string]string{CLI: cli}, "").Identify(copyOf, nil); got != CLI {
		t.Errorf("Of: %q", got)
	}
	if _, found := s.Identify(filepath.Join(dir, "missing"), nil); found {
		t.Errorf("a missing file was found")
	}
	if got, found := s.Identify(dir, nil); got != "" || !found {
		t.Errorf("a directory: %q %v, want found and no binary", got, found)
	}
}
