package shell

import (
	"sort"
	"strings"
	"testing"

	mvshell "mvdan.cc/sh/v3/shell"
)

// TestProgramExamples checks every example of every row of the program
// table (and of its subcommand rows): the words after the program (or the
// subcommand) parse to the row's expected options, subcommand and operands.
func TestProgramExamples(t *testing.T) {
	n := 0
	var walk func(path []string, p *Program)
	walk = func(path []string, p *Program) {
		for _, ex := range p.Examples {
			args, want, ok := strings.Cut(ex, " => ")
			if !ok {
				t.Errorf("%s: example %q has no \" => \"", strings.Join(path, " "), ex)
				continue
			}
			words, err := mvshell.Fields(args, func(string) string { return "" })
			if err != nil {
				t.Errorf("%s: example %q: %v", strings.Join(path, " "), ex, err)
				continue
			}
			// a subcommand row's examples are the words after its name
			words = append(append([]string{}, path[1:]...), words...)
			c := ParseCommand(path[0], words)
			got := c.String()
			if len(path) > 1 {
				sub := strings.Join(path[1:], " ")
				if !strings.HasPrefix(got, sub+": ") && !strings.HasPrefix(got, sub+" ") {
					t.Errorf("%s: %q parsed as %q (not the subcommand)", strings.Join(path, " "), args, got)
					continue
				}
				got = strings.TrimPrefix(strings.TrimPrefix(got, sub), ": ")
				got = strings.TrimPrefix(got, " ")
			}
			if got != want {
				t.Errorf("%s %s:\n got %s\nwant %s", strings.Join(path, " "), args, got, want)
			}
			n++
		}
		for i := range p.Subs {
			walk(append(append([]string{}, path...), p.Subs[i].Name), &p.Subs[i])
		}
	}
	for i := range programs {
		walk([]string{programs[i].Name}, &programs[i])
	}
	if n < 100 {
		t.Errorf("only %d examples checked", n)
	}
}

// TestProgramTableNames checks that every name is in one row only and is
// its own identity (lower case, no directory, no .exe), and that rows with
// a grammar carry examples.
func TestProgramTableNames(t *testing.T) {
	seen := map[string]string{}
	for _, p := range programs {
		names := append([]string{p.Name}, strings.Fields(p.Names)...)
		for _, n := range names {
			if Identity(n) != n && n != "[" && n != "[[" && n != "." {
				t.Errorf("%s: name %q is not its identity %q", p.Name, n, Identity(n))
			}
			if prev, dup := seen[n]; dup {
				t.Errorf("name %q is in the rows %s and %s", n, prev, p.Name)
			}
			seen[n] = p.Name
			if got := Lookup(n); got == nil || got.Name != p.Name {
				t.Errorf("Lookup(%q) does not find the row %s", n, p.Name)
			}
		}
	}
	if Lookup("no-such-program") != nil || Lookup("restart.sh") != nil || Lookup("x264") != nil {
		t.Error("Lookup found an unknown program")
	}
	for name, row := range map[string]string{"python3.12": "python", "bash-5.2": "bash", "gcc-12": "gcc", "perl5.36": "perl", "mkfs.ext4": "sgdisk", "pip3.11": "pip"} {
		if p := Lookup(name); p == nil || p.Name != row {
			t.Errorf("Lookup(%q) = %v, want the row %s", name, p, row)
		}
	}
	var missing []string
	for _, p := range programs {
		if (p.Opts != OptSpec{} && p.Opts != OptSpec{Stop: true} || len(p.Subs) > 0) && len(p.Examples) == 0 && p.Kind != KindExec && p.Kind != KindTool {
			missing = append(missing, p.Name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Logf("rows with a grammar but no example: %s", strings.Join(missing, " "))
	}
}

// TestIdentity checks the normalisation of a command word to a program
// identity (testdata/corpus/README.md §9.1).
func TestIdentity(t *testing.T) {
	for in, want := range map[string]string{
		"rm": "rm", "RM": "rm", "/usr/bin/NoHup": "nohup", "BASH.EXE": "bash", `C:\bin\x`: `c:\bin\x`,
		"ſudo": "sudo", "\u212Aill": "kill", "./bin/harness": "harness", "python3.12": "python3.12", ".exe": ".exe",
	} {
		if got := Identity(in); got != want {
			t.Errorf("Identity(%q) = %q, want %q", in, got, want)
		}
	}
	if gitHelper("git-push") != "push" || gitHelper("git-frob") != "" || gitHelper("gitk") != "" {
		t.Errorf("gitHelper: %q %q %q", gitHelper("git-push"), gitHelper("git-frob"), gitHelper("gitk"))
	}
}
