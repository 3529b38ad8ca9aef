// Package safetext keeps text that harness shows to people from acting on
// the terminal or faking structure (docs/protocol.md §16 "Safe text"):
// status, explain, checkpoint messages, task lists and doctor print values
// a Generator could have written (a denied command, a reason, a title), and
// a raw ESC/OSC sequence would recolour, retitle or rewrite the screen,
// while a newline in a one-line field fakes a row ("3. REAL: reply 1b 2b").
//
// Escape and Line make a value printable; CheckLine and CheckText refuse a
// value at the door. Writer applies Escape to everything written through it
// (the CLI wraps its stdout and stderr).
package safetext

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// control reports the runes that a terminal interprets or that reorder
// text: C0 controls (U+0000–U+001F), DEL, C1 controls (U+0080–U+009F), the
// Unicode bidirectional embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069), and the line and paragraph separators.
func control(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, r == 0x200e, r == 0x200f:
		return true
	}
	return false
}

// escapeRune is the visible form of a control rune: \u001b (valid inside a
// JSON string too).
func escapeRune(b *strings.Builder, r rune) {
	fmt.Fprintf(b, "\\u%04x", r)
}

// Escape returns s with every control character escaped as \uXXXX, except
// '\n' and '\t' (multi-line text keeps its lines), and every invalid UTF-8
// byte as \xNN.
func Escape(s string) string { return escape(s, true) }

// Line is Escape for a one-line field: '\n', '\r' and '\t' are escaped too,
// so the value cannot start a new row.
func Line(s string) string { return escape(s, false) }

func escape(s string, multiline bool) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || (control(r) && !(multiline && (r == '\n' || r == '\t'))) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case control(r) && !(multiline && (r == '\n' || r == '\t')):
			escapeRune(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// CheckLine refuses a one-line field (a title, a blocker question or
// option, a prompt): no newline, carriage return or other control
// character, and valid UTF-8. The error names the field and the position.
func CheckLine(field, s string) error { return check(field, s, false) }

// CheckText refuses a text field that may span lines (a reason, feedback):
// no control character other than '\n' and '\t', valid UTF-8.
func CheckText(field, s string) error { return check(field, s, true) }

func check(field, s string, multiline bool) error {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Errorf("%s is not valid UTF-8 (byte %d)", field, i)
		case control(r) && !(multiline && (r == '\n' || r == '\t')):
			what := "a control character"
			if r == '\n' || r == '\r' {
				what = "a line break"
			}
			return fmt.Errorf("%s contains %s (%s at byte %d); it must be one line of plain text", field, what, Line(string(r)), i)
		}
		i += n
	}
	return nil
}

// Writer returns a writer that passes what is written through Escape
// before writing it to w. A multi-byte character split across two writes
// is kept whole.
func Writer(w io.Writer) io.Writer { return &writer{w: w} }

type writer struct {
	w    io.Writer
	tail []byte // the start of a UTF-8 sequence cut by the last write
}

func (e *writer) Write(p []byte) (int, error) {
	data := append(e.tail, p...)
	e.tail = nil
	// keep an incomplete final sequence for the next write
	if k := incompleteTail(data); k > 0 {
		e.tail = append([]byte(nil), data[len(data)-k:]...)
		data = data[:len(data)-k]
	}
	if _, err := io.WriteString(e.w, Escape(string(data))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// incompleteTail is the length of an unfinished UTF-8 sequence at the end
// of b (0 when b ends on a whole character or on bytes that can never
// start one).
func incompleteTail(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c&0xc0 == 0x80 {
			continue // continuation byte: look further back
		}
		if c >= 0xc0 {
			need := 2
			if c >= 0xe0 {
				need = 3
			}
			if c >= 0xf0 {
				need = 4
			}
			if need > k {
				return k
			}
		}
		return 0
	}
	return 0
}
