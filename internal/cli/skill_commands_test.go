package cli

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/superagent-harness/harness/internal/skill"
)

// skillCommands returns every harness command line the shipped skill tells
// Hermes to run: the harness calls of its sh code blocks and of its inline
// code spans, as argv (quotes removed, variables expanded to "").
func skillCommands(t *testing.T) (all, blocks map[string][][]string) {
	t.Helper()
	files, err := skill.Files(skill.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```sh\n(.*?)```")
	span := regexp.MustCompile("`(harness [^`]+)`")
	all, blocks = map[string][][]string{}, map[string][][]string{}
	for name, b := range files {
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		text := string(b)
		type script struct {
			src   string
			block bool
		}
		var scripts []script
		for _, m := range block.FindAllStringSubmatch(text, -1) {
			scripts = append(scripts, script{m[1], true})
		}
		for _, m := range span.FindAllStringSubmatch(block.ReplaceAllString(text, ""), -1) {
			scripts = append(scripts, script{strings.ReplaceAll(m[1], "\n", " "), false})
		}
		for _, sc := range scripts {
			src := sc.src
			f, err := syntax.NewParser().Parse(strings.NewReader(src), name)
			if err != nil {
				t.Errorf("%s: a command does not parse as shell: %v\n%s", name, err, src)
				continue
			}
			syntax.Walk(f, func(n syntax.Node) bool {
				call, ok := n.(*syntax.CallExpr)
				if !ok || len(call.Args) == 0 || call.Args[0].Lit() != "harness" {
					return true
				}
				fields, err := expand.Fields(&expand.Config{Env: expand.ListEnviron()}, call.Args...)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return true
				}
				all[name] = append(all[name], fields)
				if sc.block {
					blocks[name] = append(blocks[name], fields)
				}
				return true
			})
		}
	}
	return all, blocks
}

// Every command the skill names exists with the flags it gives (the kong
// parser accepts it), and it asks for the --json answer where it tells
// Hermes to read one. So a renamed command or flag fails here, not in
// Hermes' hands.
func TestSkillCommandsExist(t *testing.T) {
	cmds, blocks := skillCommands(t)
	total := 0
	for name, list := range cmds {
		for _, argv := range list {
			total++
			var root CLI
			p, err := newParser(&root, io.Discard, io.Discard, "test")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Parse(argv[1:]); err != nil {
				t.Errorf("%s: `%s` does not parse: %v", name, strings.Join(argv, " "), err)
			}
		}
	}
	if total < 30 {
		t.Errorf("only %d harness commands found in the skill", total)
	}
	// The steps of the code blocks ask for the --json answer the skill reads.
	for name, list := range blocks {
		for _, argv := range list {
			line := strings.Join(argv, " ")
			if !contains(argv, "--json") && !strings.HasPrefix(line, "harness status --mermaid") {
				t.Errorf("%s: `%s` has no --json although the skill reads its answer", name, line)
			}
		}
	}
}
