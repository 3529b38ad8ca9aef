package shell

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/fsutil"
	mvshell "mvdan.cc/sh/v3/shell"
)

// TestProgramExamples checks every example of every row of the program
// table (and of its subcommand rows): the words after the program (or the
// subcommand) parse to the row's expected options, subcommand and operands.
func TestProgramExamples(t *testing.T) {
	n := 0
	exs := examplesByRow(t)
	var walk func(path []string, p *Program)
	walk = func(path []string, p *Program) {
		for _, ex := range exs[p].examples() {
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
// its own identity (lower case, no directory, no .exe), and that every row
// carries examples of each kind it has knowledge for.
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
	// every row, and every subcommand row, carries its own examples, so
	// that a row cannot be added without them: Examples for its grammar,
	// WriteExamples when it writes (Writes) and RunExamples when it runs
	// (Runs); a Subs slice several rows share (gitSubs, composeSubs) is
	// one set of rows
	exs := examplesByRow(t)
	checked := map[*Program]bool{}
	var walk func(path string, p *Program)
	walk = func(path string, p *Program) {
		if checked[p] {
			return
		}
		checked[p] = true
		e := exs[p]
		if len(e.examples()) == 0 {
			t.Errorf("%s: the row has no Examples (\"ARGS => PARSE\": write them in programs.go, then go generate ./internal/shell)", path)
		}
		if (p.Writes != WriteSpec{}) && len(e.writeExamples()) == 0 {
			t.Errorf("%s: the row writes (Writes) but has no WriteExamples (\"ARGS -> FILES\")", path)
		}
		if (p.Runs != RunSpec{}) && len(e.runExamples()) == 0 {
			t.Errorf("%s: the row runs (Runs) but has no RunExamples (\"ARGS -> CMDS\")", path)
		}
		for i := range p.Subs {
			walk(path+" "+p.Subs[i].Name, &p.Subs[i])
		}
	}
	for i := range programs {
		walk(programs[i].Name, &programs[i])
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

var updateIndex = flag.Bool("update-index", false, "rewrite programs_index.go from the program table")

// TestProgramIndexInSync checks that programs_index.go is the sorted index
// of the table's names (go generate ./internal/shell rewrites it).
func TestProgramIndexInSync(t *testing.T) {
	type entry struct {
		name string
		row  int
	}
	var es []entry
	for i, p := range programs {
		es = append(es, entry{p.Name, i})
		for _, n := range strings.Fields(p.Names) {
			es = append(es, entry{n, i})
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	var b bytes.Buffer
	b.WriteString("// Code generated by TestProgramIndexInSync (go generate ./internal/shell); DO NOT EDIT.\n\npackage shell\n\n")
	fmt.Fprintf(&b, "// progNames are the names of the program table, sorted; progRows[i] is\n// the row of progNames[i].\nvar progNames = [...]string{\n")
	for _, e := range es {
		fmt.Fprintf(&b, "\t%q,\n", e.name)
	}
	b.WriteString("}\n\nvar progRows = [...]uint16{")
	for i, e := range es {
		if i%16 == 0 {
			b.WriteString("\n\t")
		}
		fmt.Fprintf(&b, "%d, ", e.row)
	}
	b.WriteString("\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if *updateIndex {
		if err := fsutil.WriteFileAtomic("programs_index.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("programs_index.go")
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("programs_index.go is not the index of the program table: run go generate ./internal/shell")
	}
}

// TestProgramRunExamples checks every RunExamples entry of the program
// table: `NAME ARGS` run through the walker runs the listed commands
// (those nested under the row's program, in order), so a row's RunSpec is
// shown to do what it says.
func TestProgramRunExamples(t *testing.T) {
	n := 0
	exs := examplesByRow(t)
	var walk func(path []string, p *Program)
	walk = func(path []string, p *Program) {
		for _, ex := range exs[p].runExamples() {
			args, want, ok := strings.Cut(ex, " -> ")
			if !ok {
				t.Errorf("%s: run example %q has no \" -> \"", strings.Join(path, " "), ex)
				continue
			}
			src := strings.Join(path, " ") + " " + args
			res := Parse(src, Options{})
			var got []string
			for _, inv := range res.Invocations {
				if len(inv.Via) == 0 {
					continue
				}
				s := inv.Program
				for _, a := range inv.Args {
					s += " " + a.Value
				}
				got = append(got, s)
			}
			if g := strings.Join(got, "; "); g != want {
				t.Errorf("%s:\n got %s\nwant %s", src, g, want)
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
	if n < 20 {
		t.Errorf("only %d run examples checked", n)
	}
}

// TestProgramWriteExamples checks every WriteExamples entry of the program
// table: the files `NAME ARGS` writes by its row's WriteSpec
// (Command.Written, with the command's known stdin), in order, then what
// else it does (Removed, Extracted, NamePrefixes, Appends).
func TestProgramWriteExamples(t *testing.T) {
	n := 0
	exs := examplesByRow(t)
	var walk func(path []string, p *Program)
	walk = func(path []string, p *Program) {
		for _, ex := range exs[p].writeExamples() {
			args, want, ok := strings.Cut(ex, " -> ")
			if !ok {
				t.Errorf("%s: write example %q has no \" -> \"", strings.Join(path, " "), ex)
				continue
			}
			// leading NAME=VALUE words are the command's environment
			// (`CARGO_TARGET_DIR=t build`); a WANT ending in " (backup of
			// F)" lists Command.Backups(F) after the files written
			env := ""
			for {
				w, rest, _ := strings.Cut(args, " ")
				if k, _, ok := strings.Cut(w, "="); !ok || k == "" || strings.HasPrefix(k, "-") {
					break
				}
				env, args = env+w+" ", rest
			}
			want, of, hasOf := strings.Cut(want, "(backup of ")
			want, of = strings.TrimSuffix(want, " "), strings.TrimSuffix(of, ")")
			src := env + strings.Join(path, " ") + " " + args
			res := Parse(src, Options{})
			if len(res.Invocations) == 0 {
				t.Errorf("%s: no invocation", src)
				continue
			}
			inv := res.Invocations[0]
			files, dirs := inv.Command().Written(inv.Stdin, inv.Env)
			cmd := inv.Command()
			got := append(append(files, dirs...), cmd.Trees()...)
			if hasOf {
				got = append(got, cmd.Backups(of, inv.Env)...)
			}
			// what else it does: " (removes F…)" Removed, " (into D)"
			// Extracted, " (names P*)" NamePrefixes, " (appends)" Appends
			g := strings.Join(got, " ")
			if r := cmd.Removed(); len(r) > 0 {
				g += " (removes " + strings.Join(r, " ") + ")"
			}
			if d := cmd.Extracted(); len(d) > 0 {
				g += " (into " + strings.Join(d, " ") + ")"
			}
			for _, p := range cmd.NamePrefixes() {
				g += " (names " + p + "*)"
			}
			if cmd.Appends() {
				g += " (appends)"
			}
			if g = strings.TrimSpace(g); g != want {
				t.Errorf("%s:\n got %q\nwant %q", src, g, want)
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
	if n < 10 {
		t.Errorf("only %d write examples checked", n)
	}
}

// TestUnknownProgramGuess: a program without a row is parsed by a grammar
// that guesses what getopt and Go-style parsers would accept (OptSpec.Guess).
func TestUnknownProgramGuess(t *testing.T) {
	for args, want := range map[string]string{
		"-out=/dev/sdb img": "--out=/dev/sdb | img",
		"-O/dev/sdb img":    "-O=/dev/sdb | img",
		"-qo./x y":          "-q -o=./x | y",
		"-rf build":         "-r -f | build",
		"--dev=/dev/sdb":    "--dev=/dev/sdb |",
		"-x=1 f":            "-x==1 | f",
		"-- -out=x":         "| -out=x",
	} {
		if got := ParseCommand("no-such-tool", strings.Fields(args)).String(); got != want {
			t.Errorf("%s: %s, want %s", args, got, want)
		}
	}
}
