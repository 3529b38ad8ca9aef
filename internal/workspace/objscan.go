package workspace

import (
	"encoding/json"
	"strconv"
)

// Member is one member of a JSON object as SplitObject returns it: the
// name (decoded) and the value's raw JSON, the exact bytes of the value in
// the input (no surrounding space).
type Member struct {
	Name  string
	Value json.RawMessage
}

// SplitObject splits one JSON object into its members, in file order and
// with repeated names kept (encoding/json applies them in that order, the
// last one winning), without reflection or a Decoder: names are read by the
// fast parser of decodeFast (no escapes), values are checked and skipped
// (fastParser.skip: escapes allowed). It reports false for anything else —
// a syntax error, trailing data, a name with an escape or invalid UTF-8,
// deep nesting — and the caller then takes encoding/json's path, which
// words the error. A true result is valid JSON (FuzzSplitObject,
// TestSplitObjectAgreesWithDecoder).
//
// The values alias one copy of data, never data itself (json.Unmarshaler
// must not retain its input), so all members cost one allocation. Every
// state file and payload a hook call reads goes through here
// (docs/performance.md: the Decoder's Token stream was 15 % of a PreToolUse
// call's instructions).
func SplitObject(data []byte) ([]Member, bool) {
	buf := append([]byte(nil), data...)
	p := fastParser{b: string(buf), raw: buf}
	p.space()
	if !p.byte('{') {
		return nil, false
	}
	ms := make([]Member, 0, 16)
	ok := p.list('}', func() bool {
		k, ok := p.str()
		if !ok || !p.colon() {
			return false
		}
		start := p.i
		if !p.skip(1) {
			return false
		}
		ms = append(ms, Member{k, json.RawMessage(buf[start:p.i:p.i])})
		return true
	})
	if !ok {
		return nil, false
	}
	p.space()
	return ms, p.i == len(p.b)
}

// splitObject is SplitObject as Object keeps it: the names in file order (a
// repeated name keeps its first position) and each name's last value.
func splitObject(data []byte) (keys []string, vals map[string]any, ok bool) {
	ms, ok := SplitObject(data)
	if !ok {
		return nil, nil, false
	}
	keys = make([]string, 0, len(ms))
	vals = make(map[string]any, len(ms))
	for _, m := range ms {
		if _, seen := vals[m.Name]; !seen {
			keys = append(keys, m.Name)
		}
		vals[m.Name] = m.Value
	}
	return keys, vals, true
}

// skip moves past one JSON value the way value reads it, without building
// it; unlike value it takes strings with escapes (checked as RFC 8259 has
// them; bytes ≥ 0x80 are not checked, as encoding/json accepts invalid
// UTF-8 and replaces it when decoding).
func (p *fastParser) skip(depth int) bool {
	if depth > maxFastDepth || p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; {
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		p.i++
		return p.list(end, func() bool {
			if c == '{' && (!p.skipStr() || !p.colon()) {
				return false
			}
			return p.skip(depth + 1)
		})
	case c == '"':
		if _, ok := p.str(); ok {
			return true // the common string, eight bytes at a time
		}
		return p.skipStr()
	case c == '-' || isDigit(c):
		end, ok := p.numberEnd()
		if ok {
			p.i = end
		}
		return ok
	case c == 't':
		return p.word("true")
	case c == 'f':
		return p.word("false")
	case c == 'n':
		return p.word("null")
	}
	return false
}

// skipStr moves past one JSON string: no control byte, only the escapes
// \" \\ \/ \b \f \n \r \t \uXXXX.
func (p *fastParser) skipStr() bool {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return false
	}
	for j := p.i + 1; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			p.i = j + 1
			return true
		case c < ' ':
			return false
		case c == '\\':
			j++
			if j >= len(p.b) {
				return false
			}
			switch p.b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(p.b)-j < 5 {
					return false
				}
				for _, h := range []byte(p.b[j+1 : j+5]) {
					if !isDigit(h) && !('a' <= h && h <= 'f') && !('A' <= h && h <= 'F') {
						return false
					}
				}
				j += 4
			default:
				return false
			}
		}
	}
	return false
}

// plainString returns the text of raw when it is one JSON string the fast
// parser takes (no escape, control byte or invalid UTF-8): what
// encoding/json decodes it to. False otherwise (decode with encoding/json).
func plainString(raw []byte) (string, bool) {
	p := fastParser{b: string(raw), raw: raw}
	s, ok := p.str()
	return s, ok && p.i == len(p.b)
}

// PlainString is plainString for other packages' reflection-free decoders.
func PlainString(raw []byte) (string, bool) { return plainString(raw) }

// plainInt returns the value of t when it is a JSON integer literal
// (-?(0|[1-9][0-9]*)) that fits an int64, as json.Number.Int64 would; false
// otherwise (fractions, exponents, overflow: the caller's general path).
func plainInt(t []byte) (int64, bool) {
	d := t
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 || (d[0] == '0' && len(d) > 1) {
		return 0, false
	}
	for _, c := range d {
		if !isDigit(c) {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(t), 10, 64)
	return n, err == nil
}
