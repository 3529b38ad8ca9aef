package shell

import "strings"

// SedCommand is one command of a sed script (GNU sed syntax): Name is the
// command letter ('s', 'w', 'e', 'p', …); Arg is what the command takes to
// the end of its line (the file of r/R/w/W, the command of e, the text of
// a/i/c, a label); for 's', Flags are the flags after the replacement, Arg
// is the file of a `w` flag ("" when none) and Repl the replacement text.
type SedCommand struct {
	Name  byte
	Arg   string
	Flags string
	Repl  string
}

// ParseSed splits a sed script into its commands, as far as it can read it
// (an unterminated s/// or y/// ends the scan). Addresses (numbers, $,
// /re/, \cREc, first~step, ranges, !) are skipped. Used by the path guard
// for the files sed's w, W and s///w write, and by the command policy for
// what e and s///e run (testdata/corpus/README.md §9.2, §9.4).
func ParseSed(script string) []SedCommand {
	var cmds []SedCommand
	s := script
	i := 0
	skipBlank := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	restOfLine := func() string {
		skipBlank()
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = len(s) - i
		}
		v := s[i : i+j]
		i += j
		return v
	}
	// delimited reads a delimited part (regex or replacement) ending at an
	// unescaped delim; ok is false when the script ends first.
	delimited := func(delim byte) bool {
		for i < len(s) {
			switch s[i] {
			case '\\':
				i += 2
				continue
			case delim:
				i++
				return true
			case '\n':
				if delim != '\n' {
					return false
				}
			}
			i++
		}
		return false
	}
	address := func() bool {
		switch {
		case i < len(s) && s[i] >= '0' && s[i] <= '9':
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case i < len(s) && s[i] == '$':
			i++
		case i < len(s) && s[i] == '/':
			i++
			if !delimited('/') {
				return false
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case i+1 < len(s) && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !delimited(d) {
				return false
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		}
		return true
	}
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == ';' || s[i] == '}' || s[i] == '{') {
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] == '#' {
			restOfLine()
			continue
		}
		if !address() {
			return cmds
		}
		skipBlank()
		if i < len(s) && s[i] == ',' {
			i++
			skipBlank()
			if i < len(s) && (s[i] == '+' || s[i] == '~') {
				i++
			}
			if !address() {
				return cmds
			}
		}
		skipBlank()
		for i < len(s) && s[i] == '!' {
			i++
			skipBlank()
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', ';', '\n':
			continue
		case 's', 'y':
			if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
				return cmds
			}
			d := s[i]
			i++
			if !delimited(d) {
				return cmds
			}
			rs := i
			if !delimited(d) {
				return cmds
			}
			cmd := SedCommand{Name: c, Repl: s[rs : i-1]}
			if c == 's' {
				st := i
				for i < len(s) && strings.IndexByte("gpeiImM0123456789", s[i]) >= 0 {
					i++
				}
				cmd.Flags = s[st:i]
				if i < len(s) && s[i] == 'w' {
					i++
					cmd.Flags += "w"
					cmd.Arg = restOfLine()
				}
			}
			cmds = append(cmds, cmd)
		case 'a', 'i', 'c':
			skipBlank()
			if i < len(s) && s[i] == '\\' {
				i++
				if i < len(s) && s[i] == '\n' {
					i++
				}
			}
			cmds = append(cmds, SedCommand{Name: c, Arg: restOfLine()})
		case 'r', 'R', 'w', 'W', 'e', ':', 'b', 't', 'T', 'v', 'l', 'q', 'Q', 'L':
			var arg string
			if strings.IndexByte("btTlqQLv", c) >= 0 {
				// a label or number ends at ';' too (GNU extension)
				skipBlank()
				j := strings.IndexAny(s[i:], ";\n")
				if j < 0 {
					j = len(s) - i
				}
				arg = strings.TrimSpace(s[i : i+j])
				i += j
			} else {
				arg = restOfLine()
			}
			cmds = append(cmds, SedCommand{Name: c, Arg: arg})
		default:
			cmds = append(cmds, SedCommand{Name: c})
		}
	}
	return cmds
}

// SedWrites returns the files a sed script writes: the file of every w and
// W command and of every s///w flag ("/dev/stdout" and "/dev/stderr"
// included; the caller judges them like any path).
func SedWrites(script string) []string {
	var out []string
	for _, c := range ParseSed(script) {
		switch {
		case (c.Name == 'w' || c.Name == 'W') && c.Arg != "":
			out = append(out, c.Arg)
		case c.Name == 's' && strings.Contains(c.Flags, "w") && c.Arg != "":
			out = append(out, c.Arg)
		}
	}
	return out
}
