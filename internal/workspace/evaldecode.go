package workspace

import (
	"encoding/binary"
	"encoding/json"
	"strings"
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
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
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
		p.space()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return make(map[string]any), true
		}
		for {
			p.space()
			k, ok := p.str()
			if !ok {
				return nil, false
			}
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, false
			}
			p.i++
			p.space()
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			ms = append(ms, member{k, v})
			p.space()
			if p.i >= len(p.b) {
				return nil, false
			}
			if p.b[p.i] == '}' {
				p.i++
				m := make(map[string]any, len(ms))
				for _, kv := range ms {
					m[kv.k] = kv.v // in order: the last of repeated names wins
				}
				return m, true
			}
			if p.b[p.i] != ',' {
				return nil, false
			}
			p.i++
		}
	case c == '[':
		p.i++
		a := make([]any, 0)
		p.space()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return a, true
		}
		for {
			p.space()
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			a = append(a, v)
			p.space()
			if p.i >= len(p.b) {
				return nil, false
			}
			if p.b[p.i] == ']' {
				p.i++
				return a, true
			}
			if p.b[p.i] != ',' {
				return nil, false
			}
			p.i++
		}
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
// strings encoding/json returns byte for byte): the closing quote found by
// strings.IndexByte, the bytes before it checked eight at a time (most of
// a line is in strings), one utf8.ValidString when one was not ASCII.
func (p *fastParser) str() (string, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", false
	}
	start := p.i + 1
	q := strings.IndexByte(p.b[start:], '"')
	if q < 0 {
		return "", false
	}
	end := start + q
	var high uint64 // the high bits of every byte of the string
	j := start
	for ; j+8 <= end; j += 8 {
		x := binary.LittleEndian.Uint64(p.raw[j:])
		if (x^('\\'*lo8)-lo8)&^(x^('\\'*lo8))&hi8 != 0 || (x-' '*lo8)&^x&hi8 != 0 {
			return "", false // a backslash or a control byte
		}
		high |= x
	}
	for ; j < end; j++ {
		c := p.b[j]
		if c == '\\' || c < ' ' {
			return "", false
		}
		high |= uint64(c)
	}
	s := p.b[start:end]
	if high&hi8 != 0 && !utf8.ValidString(s) {
		return "", false
	}
	p.i = end + 1
	return s, true
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *fastParser) number() (any, bool) {
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
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return nil, false
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
			return nil, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	n := json.Number(b[p.i:i])
	p.i = i
	return n, true
}
