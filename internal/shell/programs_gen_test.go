package shell

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/shell/tablegen"
)

// rowExamples are the examples written with one row of the program table
// in programs.go. They are checked by the tests and not compiled into the
// binaries (programs.go's doc comment says why and how).
type rowExamples struct {
	// Name is the row's Name (a check that Row still names that row).
	Name string
	// Examples are "ARGS => PARSE" pairs: ARGS split on blanks, PARSE the
	// ParsedOpts.String of the innermost command's options and operands
	// (prefixed with "SUB: " for a subcommand). TestProgramExamples
	// checks them all.
	Examples []string
	// WriteExamples are "ARGS -> FILE FILE…" pairs for a row with Writes:
	// the files `NAME ARGS` writes (Command.Written, then Command.Trees;
	// stdin given with "<<< TEXT" at the end of ARGS; "-> " when none).
	// TestProgramWriteExamples checks them all.
	WriteExamples []string
	// RunExamples are "ARGS -> CMD; CMD…" pairs for a row with Runs: the
	// commands the walker finds run by `NAME ARGS` (each as its program
	// and arguments joined by blanks, in order). TestProgramRunExamples
	// checks them all.
	RunExamples []string
}

// TestProgramTableInSync checks that programs_gen.go and
// programs_examples_test.go are what tablegen makes of programs.go (go
// generate ./internal/shell rewrites them).
func TestProgramTableInSync(t *testing.T) {
	src, err := os.ReadFile("programs.go")
	if err != nil {
		t.Fatal(err)
	}
	table, examples, err := tablegen.Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"programs_gen.go": table, "programs_examples_test.go": examples} {
		if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not generated from programs.go: run go generate ./internal/shell", name)
		}
	}
}

// examplesByRow resolves programExamples to the rows they belong to: the
// table tests look a row's examples up by its address (a Subs slice shared
// by several rows, like gitSubs, is one set of rows).
func examplesByRow(t *testing.T) map[*Program]*rowExamples {
	t.Helper()
	m := map[*Program]*rowExamples{}
	for place, ex := range programExamples {
		p, err := rowAt(place)
		if err != nil {
			t.Fatalf("programExamples[%q]: %v (run go generate ./internal/shell)", place, err)
		}
		if p.Name != ex.Name {
			t.Fatalf("programExamples[%q] is for %q, the row there is %q (run go generate ./internal/shell)", place, ex.Name, p.Name)
		}
		m[p] = &ex
	}
	return m
}

// rowAt returns the row at a place of programExamples ("programs[3]",
// "gitSubs[2].Subs[0]").
func rowAt(place string) (*Program, error) {
	name, rest := place, ""
	if i := strings.IndexAny(place, ".["); i >= 0 {
		name, rest = place[:i], place[i:]
	}
	root, ok := exampleVars[name]
	if !ok {
		return nil, fmt.Errorf("no variable %s", name)
	}
	v := reflect.ValueOf(root).Elem()
	for rest != "" {
		switch rest[0] {
		case '[':
			end := strings.IndexByte(rest, ']')
			i, err := strconv.Atoi(rest[1:max(end, 1)])
			if end < 0 || err != nil || v.Kind() != reflect.Slice || i >= v.Len() {
				return nil, fmt.Errorf("no element %s", rest)
			}
			v, rest = v.Index(i), rest[end+1:]
		case '.':
			f := rest[1:]
			if j := strings.IndexAny(f, ".["); j >= 0 {
				f = f[:j]
			}
			if v.Kind() != reflect.Struct || !v.FieldByName(f).IsValid() {
				return nil, fmt.Errorf("no field %s", f)
			}
			v, rest = v.FieldByName(f), rest[1+len(f):]
		default:
			return nil, fmt.Errorf("bad place at %q", rest)
		}
	}
	p, ok := v.Addr().Interface().(*Program)
	if !ok {
		return nil, fmt.Errorf("not a row (%s)", v.Type())
	}
	return p, nil
}

// examples, writeExamples and runExamples are a row's examples of each
// kind (none for a row without examples: e is nil).
func (e *rowExamples) examples() []string {
	if e == nil {
		return nil
	}
	return e.Examples
}

func (e *rowExamples) writeExamples() []string {
	if e == nil {
		return nil
	}
	return e.WriteExamples
}

func (e *rowExamples) runExamples() []string {
	if e == nil {
		return nil
	}
	return e.RunExamples
}
