package pathguard

import (
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
)

// awkWrites adds the files an awk program writes with print/printf
// redirections (`print $1 > "schemas/x.json"`, `>> "log"`; testdata/corpus/README.md
// §3.3 interpreter writes). A redirection to a computed name
// (`print > $2".bak"`) writes a file the guard cannot name: it is judged as
// an unknown name in the directory the command runs in.
func (c *collector) awkWrites(args []string) {
	scripts := c.inv.Awk
	if scripts == nil {
		// an invocation built without the walker
		for _, src := range shell.AwkPrograms(args) {
			scripts = append(scripts, shell.AwkScanVars(src, shell.AwkAssigns(args)))
		}
	}
	for _, s := range scripts {
		for _, w := range s.Writes {
			o := opWrite
			if w.Append {
				o = opAppend
			}
			p := w.Path
			if p == "" {
				p = placeholder
			}
			if strings.Contains(p, shell.AwkFilename) {
				// FILENAME: each input file in turn (checked: mawk
				// `'{print > FILENAME}' F` rewrite F); without one, stdin
				ins := shell.AwkInputs(args)
				if len(ins) == 0 {
					c.add(placeholder, o, "awk print >")
				}
				for _, in := range ins {
					c.add(strings.ReplaceAll(p, shell.AwkFilename, in), o, "awk print > FILENAME")
				}
				continue
			}
			c.add(p, o, "awk print >")
		}
	}
}
