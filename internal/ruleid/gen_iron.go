//go:build ignore

// gen_iron reads the iron-rule table of docs/protocol.md §12 and writes
// iron_gen.go, so `harness explain Z11` prints the document's own row (the
// table stays the one place the rules are written). Run with
// `go generate ./internal/ruleid`; TestIronRulesInSync fails when they drift.
package main

import (
	"os"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid/ruleidgen"
)

func main() {
	md, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		panic(err)
	}
	rules, err := ruleidgen.IronRules(md)
	if err != nil {
		panic(err)
	}
	src, err := ruleidgen.IronSource(rules)
	if err != nil {
		panic(err)
	}
	if err := fsutil.WriteFileAtomic("iron_gen.go", src, 0o644); err != nil {
		panic(err)
	}
}
