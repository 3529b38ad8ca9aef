package codelex

import "strings"

// lexPHP tokenizes PHP: text outside <?php … ?> is inline output (data);
// //, # and /* */ comments; '…' (\\ and \' only) and "…" with $var, {$…}
// holes; heredocs <<<ID / <<<"ID" (interpolating) and nowdocs <<<'ID';
// backticks as Command tokens (shell_exec); $var and \Ns\name as Name.
func lexPHP(l *lexer) {
	s := l.src
	if k := strings.Index(s, "<?php"); k >= 0 || strings.HasPrefix(s, "<?") {
		// only the code between the tags runs; the rest is printed
		var b strings.Builder
		i := 0
		for i < len(s) {
			open := strings.Index(s[i:], "<?")
			if open < 0 {
				b.WriteString(strings.Repeat(" ", len(s)-i))
				break
			}
			b.WriteString(blankOut(s[i : i+open]))
			i += open + 2
			if strings.HasPrefix(s[i:], "php") {
				b.WriteString("     ")
				i += 3
			} else if strings.HasPrefix(s[i:], "=") {
				b.WriteString("  echo ")
				i++
			} else {
				b.WriteString("  ")
			}
			cl := strings.Index(s[i:], "?>")
			if cl < 0 {
				b.WriteString(s[i:])
				break
			}
			b.WriteString(s[i : i+cl])
			b.WriteString(";;")
			i += cl + 2
		}
		l.src = b.String()
		s = l.src
	}
	for l.pos < len(s) && !l.full() {
		c := s[l.pos]
		switch {
		case c == '\n':
			l.newline()
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			l.space = true
		case c == '#' && !strings.HasPrefix(s[l.pos:], "#["), c == '/' && strings.HasPrefix(s[l.pos:], "//"):
			for l.pos < len(s) && s[l.pos] != '\n' && !strings.HasPrefix(s[l.pos:], "?>") {
				l.pos++
			}
			l.space = true
		case c == '/' && strings.HasPrefix(s[l.pos:], "/*"):
			k := strings.Index(s[l.pos+2:], "*/")
			if k < 0 {
				return
			}
			l.line += strings.Count(s[l.pos:l.pos+k+4], "\n")
			l.pos += k + 4
			l.space = true
		case c == '#':
			l.pos++ // attribute #[…]: its content lexes as code
		case c == ';':
			l.emit(Newline, "", l.pos)
			l.pos++
		case c == '\'':
			body, end := delimited(s, l.pos)
			l.emit(String, unescapeDelims(body, '\''), l.pos)
			l.line += strings.Count(body, "\n")
			l.pos = end
		case c == '"' || c == '`':
			body, end := delimited(s, l.pos)
			k := String
			if c == '`' {
				k = Command
			}
			l.perlInterp(k, body, l.pos, lexPHP)
			l.line += strings.Count(body, "\n")
			l.pos = end
		case c == '<' && strings.HasPrefix(s[l.pos:], "<<<"):
			i := l.pos + 3
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			quote := byte(0)
			if i < len(s) && (s[i] == '\'' || s[i] == '"') {
				quote = s[i]
				i++
			}
			end := identEnd(s, i)
			if end == i {
				l.op()
				continue
			}
			delim := s[i:end]
			if quote != 0 && end < len(s) && s[end] == quote {
				end++
			}
			off := l.pos
			nl := strings.IndexByte(s[end:], '\n')
			if nl < 0 {
				l.pos = len(s)
				continue
			}
			body, to := phpHeredocBody(s, end+nl, delim)
			l.line += strings.Count(s[off:to], "\n")
			l.pos = to
			if quote == '\'' {
				l.emit(String, body, off)
			} else {
				l.perlInterp(String, body, off, lexPHP)
			}
		case c == '$' || isIdentStart(c) || c == '\\' && l.pos+1 < len(s) && isIdentStart(s[l.pos+1]):
			start := l.pos
			i := l.pos
			if c == '$' {
				i++
			}
			end := i
			for {
				end = identEnd(s, end)
				if end+1 < len(s) && s[end] == '\\' && isIdentStart(s[end+1]) {
					end++
					continue
				}
				break
			}
			if c == '\\' {
				end = identEnd(s, start+1)
				for end+1 < len(s) && s[end] == '\\' && isIdentStart(s[end+1]) {
					end = identEnd(s, end+1)
				}
			}
			if end == start {
				end = start + 1
			}
			name := strings.TrimPrefix(s[start:end], "\\")
			if k := strings.LastIndexByte(name, '\\'); k >= 0 && name[0] != '$' {
				name = name[k+1:] // \Foo\bar() → bar: functions fall back to the global ones
			}
			l.emit(Name, name, start)
			l.pos = end
		case isDigit(c):
			end := numberEnd(s, l.pos)
			l.emit(Number, s[l.pos:end], l.pos)
			l.pos = end
		default:
			l.op()
		}
	}
}

// blankOut replaces everything but newlines with spaces (inline HTML keeps
// the line numbers).
func blankOut(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// phpHeredocBody reads a heredoc body after the line ending at nl, up to a
// line whose trimmed text starts with delim (PHP 7.3 flexible closing), and
// removes the closing line's indentation from every line.
func phpHeredocBody(s string, nl int, delim string) (string, int) {
	i := nl + 1
	var lines []string
	for i <= len(s) {
		j := strings.IndexByte(s[i:], '\n')
		end := len(s)
		if j >= 0 {
			end = i + j
		}
		line := s[i:end]
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, delim) && (len(t) == len(delim) || !isIdentByte(t[len(delim)])) {
			ind := len(line) - len(t)
			for k, ln := range lines {
				if len(ln) >= ind {
					lines[k] = ln[ind:]
				}
			}
			return strings.Join(lines, "\n"), i + ind + len(delim)
		}
		lines = append(lines, line)
		if j < 0 {
			break
		}
		i = end + 1
	}
	return strings.Join(lines, "\n"), len(s)
}
