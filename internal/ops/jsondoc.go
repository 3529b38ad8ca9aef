package ops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/superagent-harness/harness/internal/workspace"
)

// Obj is a JSON object that keeps its keys in file order, so that a state file
// rewritten by an operation differs from the original only in the fields the
// operation changed, and fields that no schema knows survive (protocol.md §3:
// no schema sets additionalProperties false). Values are nil, bool,
// json.Number, string, []any or *Obj.
type Obj struct {
	keys []string
	m    map[string]any
}

// NewObj returns an empty ordered object.
func NewObj() *Obj { return &Obj{m: map[string]any{}} }

// Get returns the value of key k (nil when absent).
func (o *Obj) Get(k string) any {
	if o == nil {
		return nil
	}
	return o.m[k]
}

// Has reports whether key k is present (even with a null value).
func (o *Obj) Has(k string) bool {
	if o == nil {
		return false
	}
	_, ok := o.m[k]
	return ok
}

// Set sets key k, appending it when new.
func (o *Obj) Set(k string, v any) *Obj {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
	return o
}

// Delete removes key k.
func (o *Obj) Delete(k string) {
	if _, ok := o.m[k]; !ok {
		return
	}
	delete(o.m, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// Keys returns the keys in order.
func (o *Obj) Keys() []string {
	if o == nil {
		return nil
	}
	return append([]string(nil), o.keys...)
}

// Str returns the string value of k ("" when absent or not a string).
func (o *Obj) Str(k string) string {
	s, _ := o.Get(k).(string)
	return s
}

// Int returns the integer value of k and whether it is a JSON integer.
func (o *Obj) Int(k string) (int, bool) { return asInt(o.Get(k)) }

// Bool returns the boolean value of k (false when absent).
func (o *Obj) Bool(k string) bool {
	b, _ := o.Get(k).(bool)
	return b
}

// ObjAt returns the object value of k (nil when absent or not an object).
func (o *Obj) ObjAt(k string) *Obj {
	v, _ := o.Get(k).(*Obj)
	return v
}

// Arr returns the array value of k (nil when absent or not an array).
func (o *Obj) Arr(k string) []any {
	v, _ := o.Get(k).([]any)
	return v
}

// Strs returns the string elements of the array value of k.
func (o *Obj) Strs(k string) []string {
	var out []string
	for _, v := range o.Arr(k) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// asInt returns v as an int when it is a JSON number with an integral value
// (1 and 1.0 both count, as in workspace.JSONInt; "1" does not).
func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case json.Number:
		return workspace.JSONInt(json.RawMessage(n))
	case int:
		return n, true
	}
	return 0, false
}

// MarshalJSON writes the object with its keys in order and without HTML
// escaping (acceptance texts quote `<a href>`).
func (o *Obj) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := marshalNoEscape(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshalNoEscape(o.m[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// encodeIndented renders v as a state file: two-space indent, no HTML
// escaping, trailing newline.
func encodeIndented(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// encodeLine renders v as one compact JSON Lines record (no newline).
func encodeLine(v any) ([]byte, error) { return marshalNoEscape(v) }

// parseObj decodes one JSON object, keeping key order and numbers verbatim.
func parseObj(data []byte) (*Obj, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	o, ok := v.(*Obj)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return o, nil
}

// parseValue decodes any JSON value with ordered objects.
func parseValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := NewObj()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return tok, nil
	}
}

// num converts an int to the JSON number representation used in Obj.
func num(i int) json.Number { return json.Number(strconv.Itoa(i)) }

// strsToAny converts a string slice to a JSON array value.
func strsToAny(ss []string) []any {
	out := make([]any, 0, len(ss))
	for _, s := range ss {
		out = append(out, s)
	}
	return out
}
