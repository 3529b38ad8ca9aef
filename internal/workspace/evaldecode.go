package workspace

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"unicode/utf8"
)

// decodeFast decodes line as one JSON object exactly as decodeObject does
// (encoding/json with UseNumber: objects map[string]any, arrays []any,
// numbers json.Number, the last of repeated names wins) for the common
// case, and reports false for anything else: a syntax error, trailing data,
// a string with an escape, a control byte or invalid UTF-8, nesting deeper
// than maxFastDepth. The caller then decodes with encoding/json, which
// alone words the errors. It allocates only the values (one eval_log line
// through encoding/json also costs a Decoder, its buffer and its scanner);
// FuzzDecodeFast and TestDecodeFastMatchesEncodingJSON compare the two.
func decodeFast(line []byte) (map[string]any, bool) {
	p := fastParser{b: string(line), raw: line} // one copy; every string and number is a part of it
	p.space()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	if p.i != len(p.b) {
		return nil, false
	}
	m, _ := v.(map[string]any)
	return m, m != nil
}

const maxFastDepth = 64

type fastParser struct {
	b   string // the line
	raw []byte // the same bytes (read eight at a time)
	i   int
}

type member struct {
	k string
	v any
}

func (p *fastParser) space() {
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c > ' ': // the usual answer, in one test
			return
		case c == ' ', c == '\t', c == '\n', c == '\r':
			p.i++
		default:
			return
		}
	}
}

// byte consumes c when it is next.
func (p *fastParser) byte(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// lit consumes s when it is next.
func (p *fastParser) lit(s string) bool {
	if len(p.b)-p.i >= len(s) && p.b[p.i:p.i+len(s)] == s {
		p.i += len(s)
		return true
	}
	return false
}

// list reads the rest of a JSON array or object whose opening byte has
// been consumed, up to and including close: no items, or items separated
// by commas, with whitespace around each. item reads one item (a value, or
// a member's name, colon and value).
func (p *fastParser) list(close byte, item func() bool) bool {
	p.space()
	if p.byte(close) {
		return true
	}
	for {
		p.space()
		if !item() {
			return false
		}
		p.space()
		if p.byte(close) {
			return true
		}
		if !p.byte(',') {
			return false
		}
	}
}

// colon consumes the ':' after a member name, and the whitespace around it.
func (p *fastParser) colon() bool {
	p.space()
	ok := p.byte(':')
	p.space()
	return ok
}

func (p *fastParser) value(depth int) (any, bool) {
	if depth > maxFastDepth || p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		// members are collected first so the map is made at its final size
		p.i++
		var buf [16]member
		ms := buf[:0]
		ok := p.list('}', func() bool {
			k, ok := p.str()
			if !ok || !p.colon() {
				return false
			}
			v, ok := p.value(depth + 1)
			ms = append(ms, member{k, v})
			return ok
		})
		if !ok {
			return nil, false
		}
		m := make(map[string]any, len(ms))
		for _, kv := range ms {
			m[kv.k] = kv.v // in order: the last of repeated names wins
		}
		return m, true
	case c == '[':
		p.i++
		a := make([]any, 0)
		ok := p.list(']', func() bool {
			v, ok := p.value(depth + 1)
			a = append(a, v)
			return ok
		})
		if !ok {
			return nil, false
		}
		return a, true
	case c == '"':
		return p.str()
	case c == '-' || isDigit(c):
		return p.number()
	case c == 't':
		return true, p.word("true")
	case c == 'f':
		return false, p.word("false")
	case c == 'n':
		return nil, p.word("null")
	}
	return nil, false
}

func (p *fastParser) word(w string) bool {
	if len(p.b)-p.i < len(w) || p.b[p.i:p.i+len(w)] != w {
		return false
	}
	p.i += len(w)
	return true
}

// str reads a string without escapes, control bytes or invalid UTF-8 (the
// strings encoding/json returns byte for byte) in one pass over its bytes:
// eight at a time while they are plain ASCII (no quote, backslash, control
// byte or high bit), then each special byte where it is: the closing quote
// ends the string, a backslash or control byte refuses it, a byte with the
// high bit starts a UTF-8 sequence checked in place by the rules of
// utf8.ValidString (TestStrMatchesUTF8Valid). Three-byte sequences of the
// common planes (CJK) take one 32-bit test each.
func (p *fastParser) str() (string, bool) {
	b, i := p.raw, p.i
	if i >= len(b) || b[i] != '"' {
		return "", false
	}
	i++
	start := i
	for {
		for len(b)-i >= 8 {
			x := binary.LittleEndian.Uint64(b[i:])
			// per byte, without carries between bytes: the high bit of
			// t+0x60 says t ≥ ' ', of (t^c)+0x7f says t ≠ c
			t := x & (0x7f * lo8)
			plain := (t + 0x60*lo8) & ((t ^ '"'*lo8) + 0x7f*lo8) & ((t ^ '\\'*lo8) + 0x7f*lo8) &^ x
			if m := hi8 &^ plain; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(b) && plainASCII(b[i]) {
			i++ // the last few bytes of the line
		}
		if i >= len(b) {
			return "", false
		}
		switch c := b[i]; {
		case c == '"':
			p.i = i + 1
			return p.b[start:i], true
		case c < utf8.RuneSelf:
			return "", false // a backslash or a control byte
		}
		for i < len(b) && b[i] >= utf8.RuneSelf {
			// leads E1–EC or EE–EF (low nibble not 0 or D: E0 and ED
			// restrict their second byte) with two continuation bytes are
			// always valid: two such sequences, then one, per test
			if len(b)-i >= 8 {
				if x := binary.LittleEndian.Uint64(b[i:]); x&0xC0C0F0C0C0F0 == 0x8080E08080E0 &&
					x&0xF != 0 && x&0xF != 0xD && x&0xF000000 != 0 && x&0xF000000 != 0xD000000 {
					i += 6
					continue
				}
			}
			if len(b)-i >= 4 {
				if v := binary.LittleEndian.Uint32(b[i:]); v&0xC0C0F0 == 0x8080E0 && v&0xF != 0 && v&0xF != 0xD {
					i += 3
					continue
				}
			}
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return "", false
			}
			i += n
		}
	}
}

// plainASCII reports whether c may stand in a string as itself and is not
// its closing quote: ASCII, no control byte, no quote, no backslash.
func plainASCII(c byte) bool { return c >= ' ' && c < utf8.RuneSelf && c != '"' && c != '\\' }

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as a
// json.Number.
func (p *fastParser) number() (any, bool) {
	end, ok := p.numberEnd()
	if !ok {
		return nil, false
	}
	n := json.Number(p.b[p.i:end])
	p.i = end
	return n, true
}

// numberEnd returns where the number at p.i ends (p.i unchanged).
func (p *fastParser) numberEnd() (int, bool) {
	b, i := p.b, p.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return 0, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return 0, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	return i, true
}
