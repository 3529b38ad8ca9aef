package cli

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// internalRef matches what a user cannot look up in --help: a section sign,
// a protocol rule id (Z9), a resolution number (#35), a STEP number of the
// protocol's procedure. Doc comments keep them. An iron-rule code is
// allowed only as the argument of `harness explain`, which looks it up
// (lookupRef).
var internalRef = regexp.MustCompile(`§|\bZ[0-9]+\b|#[0-9]+|\bSTEP [0-9]`)

var lookupRef = regexp.MustCompile(`harness explain Z[0-9]+\b`)

// TestEveryHelpHasExamplesAndNoInternalReferences walks the kong tree and
// renders `harness <command> --help` for every command (groups included):
// each has an "Examples:" section whose lines run that very command, and no
// help text cites a section, rule id or resolution number.
func TestEveryHelpHasExamplesAndNoInternalReferences(t *testing.T) {
	var root CLI
	p, err := newParser(&root, io.Discard, io.Discard, "test")
	if err != nil {
		t.Fatal(err)
	}
	var nodes []*kong.Node
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		nodes = append(nodes, n)
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.Model.Node)
	if len(nodes) < 30 {
		t.Fatalf("only %d commands in the tree", len(nodes))
	}
	for _, n := range nodes {
		path := strings.TrimSpace(strings.TrimPrefix(n.FullPath(), "harness"))
		name := strings.ReplaceAll(path, " ", "_")
		if name == "" {
			name = "harness"
		}
		t.Run(name, func(t *testing.T) {
			args := append(strings.Fields(path), "--help")
			var out bytes.Buffer
			if code := Run(args, strings.NewReader(""), &out, &out, map[string]string{}, "test"); code != 0 {
				t.Fatalf("harness %s: exit %d\n%s", strings.Join(args, " "), code, out.String())
			}
			text := out.String()
			if m := internalRef.FindString(lookupRef.ReplaceAllString(text, "harness explain CODE")); m != "" {
				t.Errorf("--help cites %q (an internal reference; say it in the user's terms):\n%s", m, text)
			}
			_, ex, ok := strings.Cut(text, "\nExamples:\n")
			if !ok {
				t.Fatalf("--help has no Examples section:\n%s", text)
			}
			want := strings.TrimSpace("harness " + path)
			ex = strings.TrimLeft(ex, "\n")
			if i := strings.Index(ex, "\n\n"); i >= 0 {
				ex = ex[:i] // the section ends at the first blank line
			}
			for _, line := range strings.Split(ex, "\n") {
				line = strings.TrimSpace(line)
				if !strings.Contains(line, "harness ") {
					t.Errorf("example %q does not run harness", line)
				}
			}
			if !strings.Contains(ex, want) {
				t.Errorf("no example runs %q:\n%s", want, ex)
			}
		})
	}
}
