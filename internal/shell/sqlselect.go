package shell

import (
	"strings"
)

// sqliteSQL is the SQL text sqlite3 runs: its operands after the
// database, else its stdin. False when an option may change the output
// format (only the default list mode is modelled).
func sqliteSQL(p ParsedOpts, stdin *string) (string, bool) {
	for _, o := range p.Opts {
		switch strings.TrimLeft(o.Name, "-") {
		case "batch", "bail", "readonly", "noheader", "list", "safe", "nofollow", "echo":
		default:
			return "", false
		}
	}
	ops := p.OperandValues()
	if len(ops) > 1 {
		return strings.Join(ops[1:], ";"), true
	}
	if stdin != nil {
		return *stdin, true
	}
	return "", false
}

// selectLiterals is what sqlite3 prints in list mode for sql made only of
// `SELECT literal[, literal…]` statements (string literals with ”
// escapes, integers, optional AS names): one row each, values joined by
// '|'. False for any other SQL.
func selectLiterals(sql string) (string, bool) {
	var b strings.Builder
	rest := sql
	for {
		rest = strings.TrimSpace(rest)
		for strings.HasPrefix(rest, ";") {
			rest = strings.TrimSpace(rest[1:])
		}
		if rest == "" {
			break
		}
		if len(rest) < 7 || !strings.EqualFold(rest[:6], "select") || !isIFS(rest[6]) && rest[6] != '\'' {
			return "", false
		}
		rest = rest[6:]
		for k := 0; ; k++ {
			rest = strings.TrimSpace(rest)
			v, n, ok := sqlLiteral(rest)
			if !ok {
				return "", false
			}
			if k > 0 {
				b.WriteByte('|')
			}
			b.WriteString(v)
			rest = strings.TrimSpace(rest[n:])
			if len(rest) > 3 && strings.EqualFold(rest[:2], "as") && isIFS(rest[2]) {
				rest = strings.TrimSpace(rest[3:])
				j := 0
				for j < len(rest) && (rest[j] == '_' || isAlpha(rest[j]) || rest[j] >= '0' && rest[j] <= '9') {
					j++
				}
				if j == 0 {
					return "", false
				}
				rest = strings.TrimSpace(rest[j:])
			}
			if strings.HasPrefix(rest, ",") {
				rest = rest[1:]
				continue
			}
			break
		}
		b.WriteByte('\n')
		if rest != "" && rest[0] != ';' {
			return "", false
		}
	}
	if b.Len() == 0 {
		return "", false
	}
	return b.String(), true
}

// sqlLiteral reads the SQL literal at the start of s (a '…' string or an
// integer): its printed value and length.
func sqlLiteral(s string) (string, int, bool) {
	if strings.HasPrefix(s, "'") {
		var v strings.Builder
		for j := 1; j < len(s); j++ {
			if s[j] != '\'' {
				v.WriteByte(s[j])
				continue
			}
			if j+1 < len(s) && s[j+1] == '\'' {
				v.WriteByte('\'')
				j++
				continue
			}
			return v.String(), j + 1, true
		}
		return "", 0, false
	}
	j := 0
	if strings.HasPrefix(s, "-") {
		j++
	}
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == 0 || s[j-1] == '-' {
		return "", 0, false
	}
	return s[:j], j, true
}
