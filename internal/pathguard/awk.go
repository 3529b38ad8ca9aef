package pathguard

import "github.com/superagent-harness/harness/internal/shell"

// awkWrites adds the files an awk program writes with print/printf
// redirections (`print $1 > "schemas/x.json"`, `>> "log"`; testdata/corpus/README.md
// §3.3 interpreter writes). A redirection to a computed name
// (`print > $2".bak"`) writes a file the guard cannot name: it is judged as
// an unknown name in the directory the command runs in.
func (c *collector) awkWrites(args []string) {
	for _, src := range shell.AwkPrograms(args) {
		for _, w := range shell.AwkScanVars(src, shell.AwkAssigns(args)).Writes {
			o := opWrite
			if w.Append {
				o = opAppend
			}
			p := w.Path
			if p == "" {
				p = placeholder
			}
			c.add(p, o, "awk print >")
		}
	}
}
