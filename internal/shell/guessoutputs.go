package shell

import "strings"

// GuessedOutput is a value of an unknown program's option or operand that
// names an output (ParsedOpts.GuessedOutputs).
type GuessedOutput struct {
	Value string // the file or directory named
	Form  string // how it was given: "-o" or "KEY="
}

// GuessedOutputs returns the output-shaped values among words (the words
// of a program the table does not know, as the caller expands them,
// parsed as p by UnknownSpec) that the operand default of
// testdata/corpus/README.md §9.1 misses: the attached value of a short -o (`-oFILE`,
// `-o=FILE`; a bundle with o later, `-voFILE`, is not read: `-Iproto/x`
// would be) and the VALUE of a KEY=VALUE operand whose key names an
// output (isOutputKey).
func (p ParsedOpts) GuessedOutputs(words []string) []GuessedOutput {
	operand := map[int]bool{}
	for _, k := range p.Operands {
		operand[k] = true
	}
	var out []GuessedOutput
	for k, w := range words {
		switch {
		case operand[k]:
			key, val, ok := strings.Cut(w, "=")
			if ok && val != "" && isOutputKey(key) {
				out = append(out, GuessedOutput{Value: val, Form: key + "="})
			}
		case p.End >= 0 && k >= p.End:
		case len(w) > 2 && strings.HasPrefix(w, "-o"):
			if v := strings.TrimPrefix(w[2:], "="); v != "" {
				out = append(out, GuessedOutput{Value: v, Form: "-o"})
			}
		}
	}
	return out
}

// isOutputKey reports whether KEY of a KEY=VALUE word names an output:
// of, o, or a name holding out, dest, dir, target or prefix (dest, out,
// output, outdir, DESTDIR, PREFIX, target_dir), compared case-insensitively.
func isOutputKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	k := strings.ToLower(key)
	if k == "of" || k == "o" {
		return true
	}
	for _, s := range [...]string{"out", "dest", "dir", "target", "prefix"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}
