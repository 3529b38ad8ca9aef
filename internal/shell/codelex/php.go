package codelex

import "strings"

// phpSource returns the PHP code of s: text outside <?php … ?> is inline
// output (data), blanked out keeping the line numbers; "<?=" reads as echo
// and "?>" as the end of a statement. Code without tags is all code.
func phpSource(s string) string {
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
		return b.String()
	}
	return s
}

// phpGrammar is PHP inside its tags: //, # and /* */ comments (a line
// comment ends at "?>" too), statements ended by ";", '…' (only \\ and \'
// escape) and "…" / `…` (C escapes, $var, {$…}, $o->name holes, as Perl).
var phpGrammar = grammar{
	source:        phpSource,
	special:       phpSpecial,
	blanks:        " \t\r",
	blockComments: []blockComment{{open: "/*", close: "*/"}},
	lineComments:  []string{"#", "//"},
	commentStops:  []string{"?>"},
	semicolon:     semiAlways,
	quotes:        shellQuotes(perlHole),
}

// phpSpecial lexes PHP's own forms: #[…] attributes (their content lexes
// as code), heredocs <<<ID / <<<"ID" (interpolating) and nowdocs <<<'ID',
// $var and \Ns\name as Name (a namespaced function falls back to the
// global one: \Foo\bar → bar).
func phpSpecial(l *lexer, c byte) bool {
	s := l.src
	switch {
	case c == '#' && strings.HasPrefix(s[l.pos:], "#["):
		l.pos++
	case c == '<' && strings.HasPrefix(s[l.pos:], "<<<"):
		l.phpHeredoc()
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
	default:
		return false
	}
	return true
}

// phpHeredoc lexes <<<ID, <<<"ID" or <<<'ID' at l.pos; the body starts on
// the next line, so lexing continues after the closing delimiter.
func (l *lexer) phpHeredoc() {
	s := l.src
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
		return
	}
	delim := s[i:end]
	if quote != 0 && end < len(s) && s[end] == quote {
		end++
	}
	off := l.pos
	nl := strings.IndexByte(s[end:], '\n')
	if nl < 0 {
		l.pos = len(s)
		return
	}
	body, to := flexHeredocBody(s, end+nl, delim)
	if quote == '\'' {
		l.emit(String, body, off)
	} else {
		l.body(String, body, off, escC, perlHole)
	}
	l.line += strings.Count(s[off:to], "\n")
	l.pos = to
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
