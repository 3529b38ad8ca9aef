package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Object is one JSON object that keeps its members in file order. State
// files are decoded through it so that a read-modify-write (harness phase
// complete, the ops commands) keeps fields this version does not know and
// the original key order (docs/protocol.md §3: no schema sets
// additionalProperties false), and a rewritten file differs from the
// original only in the members the operation changed.
//
// A member holds the raw JSON it was read with until it is read as a value
// (Value and the typed accessors), which decodes it once into nil, bool,
// json.Number, string, []any or *Object and keeps that tree, so that changes
// to a nested object or array (ObjAt, Arr) are part of the parent. Members
// set with With hold the given Go value, encoded by MarshalJSON.
type Object struct {
	keys []string
	vals map[string]any // json.RawMessage as read, or a value as decoded or set
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{vals: map[string]any{}} }

// ParseObject decodes data as one JSON object. It fails when data is not
// valid JSON, is not an object, or has trailing data.
func ParseObject(data []byte) (*Object, error) {
	o := &Object{}
	if err := o.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return o, nil
}

// ParseValue decodes data as one JSON value of any kind: nil, bool,
// json.Number, string, []any or *Object (see Object). It fails when data is
// not valid JSON or has trailing data.
func ParseValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return decodeRaw(raw), nil
}

// decodeRaw turns one valid JSON value into its tree form (see Object);
// objects are parsed member by member, lazily below their top level.
func decodeRaw(raw json.RawMessage) any {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return nil
	}
	switch t[0] {
	case '{':
		o, err := ParseObject(t)
		if err != nil {
			return nil
		}
		return o
	case '[':
		var elems []json.RawMessage
		if json.Unmarshal(t, &elems) != nil {
			return nil
		}
		arr := make([]any, 0, len(elems))
		for _, e := range elems {
			arr = append(arr, decodeRaw(e))
		}
		return arr
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// UnmarshalJSON implements json.Unmarshaler; a repeated key keeps its first
// position and its last value (like encoding/json). A valid object is split
// by splitObject; anything else takes the Decoder path, which words the
// error (the two agree on every input: TestSplitObjectAgreesWithDecoder,
// FuzzSplitObject).
func (o *Object) UnmarshalJSON(data []byte) error {
	if keys, vals, ok := splitObject(data); ok {
		o.keys = append(o.keys[:0], keys...)
		o.vals = vals
		return nil
	}
	return o.unmarshalDecoder(data)
}

// unmarshalDecoder is UnmarshalJSON through encoding/json's Decoder.
func (o *Object) unmarshalDecoder(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("not a JSON object")
	}
	o.keys = o.keys[:0]
	o.vals = map[string]any{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if _, seen := o.vals[k]; !seen {
			o.keys = append(o.keys, k)
		}
		o.vals[k] = append(json.RawMessage(nil), v...)
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if _, err := dec.Token(); err == nil {
		return errors.New("trailing data after JSON object")
	}
	return nil
}

// MarshalJSON implements json.Marshaler: members in stored order, compact,
// without HTML escaping (acceptance texts quote `<a href>`); a raw member is
// written as read (compacted), a value is encoded. The error names the
// member whose value cannot be encoded.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := MarshalLine(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		if raw, ok := o.vals[k].(json.RawMessage); ok {
			if err := json.Compact(&b, raw); err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			continue
		}
		vb, err := MarshalLine(o.vals[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalLine renders v as one compact JSON Lines record (an eval_log.jsonl
// line): no HTML escaping, no trailing newline. The error is encoding/json's.
func MarshalLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Keys returns the member names in order (nil for a nil object).
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return append([]string(nil), o.keys...)
}

// Has reports whether key is a member (even with a null value).
func (o *Object) Has(key string) bool {
	if o == nil {
		return false
	}
	_, ok := o.vals[key]
	return ok
}

// Get returns the raw JSON of key (a value member is encoded; false when
// the key is absent or its value cannot be encoded).
func (o *Object) Get(key string) (json.RawMessage, bool) {
	if o == nil || o.vals == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	if !ok {
		return nil, false
	}
	if raw, isRaw := v.(json.RawMessage); isRaw {
		return raw, true
	}
	b, err := MarshalLine(v)
	if err != nil {
		return nil, false
	}
	return b, true
}

// Raw returns the JSON of key exactly as read, when the member has not been
// decoded (Value and the typed accessors) or set since: false otherwise, or
// when key is absent. A parsed object's members are valid JSON.
func (o *Object) Raw(key string) (json.RawMessage, bool) {
	if o == nil {
		return nil, false
	}
	raw, ok := o.vals[key].(json.RawMessage)
	return raw, ok
}

// Decode unmarshals the value of key into dst; it reports false when the key
// is absent or the value does not fit dst.
func (o *Object) Decode(key string, dst any) bool {
	v, ok := o.Get(key)
	if !ok {
		return false
	}
	return json.Unmarshal(v, dst) == nil
}

// Set replaces the value of key (keeping its position) or appends it. v is
// encoded at once (json.RawMessage is kept as given); the error says it
// cannot be encoded. With sets without encoding.
func (o *Object) Set(key string, v any) error {
	raw, ok := v.(json.RawMessage)
	if !ok {
		b, err := MarshalLine(v)
		if err != nil {
			return fmt.Errorf("set %s: %w", key, err)
		}
		raw = json.RawMessage(b)
	}
	o.With(key, raw)
	return nil
}

// With replaces the value of key (keeping its position) or appends it, and
// returns o, so that calls chain. v is kept as given (usually nil, bool,
// json.Number, string, []any or *Object) and encoded by MarshalJSON.
func (o *Object) With(key string, v any) *Object {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, seen := o.vals[key]; !seen {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
	return o
}

// Delete removes key.
func (o *Object) Delete(key string) {
	if o == nil {
		return
	}
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// Value returns the value of key as a tree (see Object; nil when absent or
// null). A raw member is decoded once and kept decoded, so that changes to
// a returned *Object or to the elements of a returned []any belong to o.
func (o *Object) Value(key string) any {
	if o == nil {
		return nil
	}
	v := o.vals[key]
	if raw, ok := v.(json.RawMessage); ok {
		v = decodeRaw(raw)
		o.vals[key] = v
	}
	return v
}

// Str returns the string value of key ("" when absent or not a string).
func (o *Object) Str(key string) string {
	s, _ := o.Value(key).(string)
	return s
}

// Int returns the value of key as an int and whether it is a JSON number
// with an integral value (1 and 1.0 count, the string "1" does not; see
// JSONInt).
func (o *Object) Int(key string) (int, bool) { return IntValue(o.Value(key)) }

// IntValue is Int for a value of the tree (json.Number or int).
func IntValue(v any) (int, bool) {
	switch n := v.(type) {
	case json.Number:
		return JSONInt(json.RawMessage(n))
	case int:
		return n, true
	}
	return 0, false
}

// Bool returns the boolean value of key (false when absent or not a bool).
func (o *Object) Bool(key string) bool {
	b, _ := o.Value(key).(bool)
	return b
}

// ObjAt returns the object value of key (nil when absent or not an object).
func (o *Object) ObjAt(key string) *Object {
	v, _ := o.Value(key).(*Object)
	return v
}

// Arr returns the array value of key (nil when absent or not an array).
func (o *Object) Arr(key string) []any {
	v, _ := o.Value(key).([]any)
	return v
}

// Strs returns the string elements of the array value of key.
func (o *Object) Strs(key string) []string {
	var out []string
	for _, v := range o.Arr(key) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// MarshalIndent renders v (usually a state struct or *Object) the way harness
// writes state files: two-space indent, no HTML escaping, trailing newline.
func MarshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(b.Bytes()), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// fieldsOf maps the json keys of struct type t to field indexes.
func fieldsOf(t reflect.Type) map[string]int {
	m := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		m[name] = i
	}
	return m
}

// decodeLenient fills the tagged fields of the struct *dst from obj, one field
// at a time, so that one ill-typed value (e.g. phase "2") leaves only that
// field at its zero value. It returns the keys whose value did not fit.
func decodeLenient(obj *Object, dst any) (bad []string) {
	rv := reflect.ValueOf(dst).Elem()
	for name, i := range fieldsOf(rv.Type()) {
		raw, ok := obj.Get(name)
		if !ok {
			continue
		}
		fv := rv.Field(i)
		p := reflect.New(fv.Type())
		if err := json.Unmarshal(raw, p.Interface()); err != nil {
			bad = append(bad, name)
			continue
		}
		fv.Set(p.Elem())
	}
	return bad
}

// encodeMerged renders the typed struct src over the original object orig:
// members keep their original order; known fields take their typed value;
// unknown members, and known members listed in src's Bad field (they did
// not decode, so the typed value is meaningless), are kept verbatim; a known
// member present in orig stays present even when its typed value is empty;
// a known field absent from orig is added only when it is non-empty and not
// null (so optional fields never appear out of nowhere).
func encodeMerged(orig *Object, src any) ([]byte, error) {
	rv := reflect.ValueOf(src)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	fields := fieldsOf(rv.Type())
	bad := map[string]bool{}
	if bf := rv.FieldByName("Bad"); bf.IsValid() {
		if bs, ok := bf.Interface().([]string); ok {
			for _, b := range bs {
				bad[b] = true
			}
		}
	}
	out := &Object{}
	typed := map[string]json.RawMessage{}
	empty := map[string]bool{}
	names := make([]string, 0, len(fields))
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Type().Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		fv := rv.Field(i)
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(fv.Interface()); err != nil {
			return nil, fmt.Errorf("encode %s: %w", name, err)
		}
		typed[name] = json.RawMessage(bytes.TrimSpace(b.Bytes()))
		empty[name] = strings.Contains(opts, "omitempty") && fv.IsZero()
		names = append(names, name)
	}
	if orig != nil {
		for _, k := range orig.keys {
			v, known := typed[k]
			if !known || bad[k] {
				_ = out.Set(k, orig.vals[k])
				continue
			}
			_ = out.Set(k, v)
		}
	}
	for _, k := range names {
		if out.Has(k) || empty[k] || string(typed[k]) == "null" {
			continue
		}
		_ = out.Set(k, typed[k])
	}
	return out.MarshalJSON()
}
