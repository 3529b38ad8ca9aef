//go:build ignore

// gen_programs writes programs_gen.go (the program table without its
// examples, what the binaries ship) and programs_examples_test.go (each
// row's examples, for the table tests) from programs.go, the table as
// written. Run with `go generate ./internal/shell`; TestProgramTableInSync
// fails when they drift from programs.go.
package main

import (
	"fmt"
	"os"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/shell/tablegen"
)

func main() {
	src, err := os.ReadFile("programs.go")
	if err == nil {
		var table, examples []byte
		if table, examples, err = tablegen.Generate(src); err == nil {
			if err = fsutil.WriteFileAtomic("programs_gen.go", table, 0o644); err == nil {
				err = fsutil.WriteFileAtomic("programs_examples_test.go", examples, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen_programs:", err)
		os.Exit(1)
	}
}
