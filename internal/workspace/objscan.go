package workspace

import (
	"encoding/json"
	"strconv"
)

// splitObject splits one JSON object into its members with the fast parser
// of decodeFast (no reflection, no Decoder): the member names in file order
// (a repeated name keeps its first position) and each name's last value as
// raw JSON, the exact bytes of the value in data (no surrounding space). It
// reports false, and the caller takes encoding/json's Decoder path, for
// anything the fast parser does not take (a syntax error, trailing data, a
// string with an escape, a control byte or invalid UTF-8, deep nesting):
// the Decoder path words the error and accepts what it accepts today (e.g.
// invalid bytes after the object). TestSplitObjectAgreesWithDecoder and
// FuzzSplitObject compare the two.
//
// The values alias one copy of data, so the result does not keep the
// caller's buffer (json.Unmarshaler must not retain it). Every state file a
// hook reads goes through here (docs/performance.md: the Decoder's Token
// stream was 15 % of a PreToolUse call's instructions).
func splitObject(data []byte) (keys []string, vals map[string]any, ok bool) {
	buf := append([]byte(nil), data...)
	p := fastParser{b: string(buf), raw: buf}
	p.space()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, nil, false
	}
	p.i++
	var spans [16]member
	ms := spans[:0]
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
	} else {
		for {
			p.space()
			k, ok := p.str()
			if !ok {
				return nil, nil, false
			}
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, nil, false
			}
			p.i++
			p.space()
			start := p.i
			if _, ok := p.value(1); !ok {
				return nil, nil, false
			}
			ms = append(ms, member{k, json.RawMessage(buf[start:p.i:p.i])})
			p.space()
			if p.i >= len(p.b) {
				return nil, nil, false
			}
			if p.b[p.i] == '}' {
				p.i++
				break
			}
			if p.b[p.i] != ',' {
				return nil, nil, false
			}
			p.i++
		}
	}
	p.space()
	if p.i != len(p.b) {
		return nil, nil, false
	}
	keys = make([]string, 0, len(ms))
	vals = make(map[string]any, len(ms))
	for _, m := range ms {
		if _, seen := vals[m.k]; !seen {
			keys = append(keys, m.k)
		}
		vals[m.k] = m.v // in order: the last of repeated names wins
	}
	return keys, vals, true
}

// plainString returns the text of raw when it is one JSON string the fast
// parser takes (no escape, control byte or invalid UTF-8): what
// encoding/json decodes it to. False otherwise (decode with encoding/json).
func plainString(raw []byte) (string, bool) {
	p := fastParser{b: string(raw), raw: raw}
	s, ok := p.str()
	return s, ok && p.i == len(p.b)
}

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
