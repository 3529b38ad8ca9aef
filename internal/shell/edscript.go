package shell

import "strings"

// EdWrites returns the files an ed(1) command script writes (GNU ed 1.19
// manual, "Commands"), def being the default file (the operand): `w
// FILE`, `W FILE` and `wq FILE` write FILE, a bare `w`/`W`/`wq` the
// default file, which `f FILE` and `e FILE`/`E FILE` set; `w !CMD` writes
// to a command, not a file; `r FILE` only reads. Each command may follow
// an address (`1,2w F`, `/re/w F`, `'aw F`) and `g/re/`, `v/re/`, `G/re/`,
// `V/re/` a command list; the text lines of `a`, `i` and `c` up to a lone
// "." are not commands.
func EdWrites(script, def string) []string {
	var files []string
	text := false
	lines := strings.Split(script, "\n")
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if text {
			text = line != "."
			continue
		}
		cmd := edSkipAddress(line)
		for len(cmd) > 0 && strings.ContainsRune("gvGV", rune(cmd[0])) && len(cmd) > 1 && cmd[1] != ' ' {
			// g/re/CMD: the command list after the pattern
			cmd = edSkipAddress(edSkipRegexp(cmd[1:]))
		}
		if cmd == "" {
			continue
		}
		c, rest := cmd[0], cmd[1:]
		switch c {
		case 'a', 'i', 'c':
			text = true
		case 'q', 'Q':
			return files
		case 'f', 'e', 'E':
			if f := strings.TrimSpace(rest); f != "" && !strings.HasPrefix(f, "!") {
				def = f
			}
		case 'w', 'W':
			rest = strings.TrimPrefix(rest, "q")
			f := strings.TrimSpace(rest)
			switch {
			case strings.HasPrefix(f, "!"):
			case f != "":
				files = append(files, f)
			case def != "":
				files = append(files, def)
			}
		}
	}
	return files
}

// edSkipAddress returns s after its leading ed address (line numbers, ".",
// "$", ",", ";", "+", "-", "^", blanks, `/re/`, `?re?`, `'x`).
func edSkipAddress(s string) string {
	for s != "" {
		switch c := s[0]; {
		case c >= '0' && c <= '9' || strings.IndexByte(".$,;+-^ \t", c) >= 0:
			s = s[1:]
		case c == '/' || c == '?':
			s = edSkipRegexp(s)
		case c == '\'' && len(s) > 1:
			s = s[2:]
		default:
			return s
		}
	}
	return s
}

// edSkipRegexp returns s after the delimited pattern it starts with
// (`/re/`, `?re?`; a backslash escapes the delimiter).
func edSkipRegexp(s string) string {
	if s == "" {
		return s
	}
	d := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case d:
			return s[i+1:]
		}
	}
	return ""
}
