package codelex

// Bridges for the tokenizers not yet on the shared scanner core (scan.go);
// removed when they move.

func unescapeDelims(body string, open byte) string {
	var h holes
	var l lexer
	l.decode(&h, body, 0, "", false, escDelims(open), nil)
	return h.cur.String()
}

func (l *lexer) perlInterp(k Kind, body string, off int, _ func(*lexer)) {
	l.body(k, body, off, escC, perlHole)
}
