package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Object is one JSON object that keeps its members in file order, each value
// as raw JSON. State files are decoded through it so that a read-modify-write
// (harness phase complete, the ops commands) keeps fields this version does
// not know and, as far as possible, the original key order.
type Object struct {
	keys []string
	vals map[string]json.RawMessage
}

// ParseObject decodes data as one JSON object. It fails when data is not
// valid JSON, is not an object, or has trailing data.
func ParseObject(data []byte) (*Object, error) {
	o := &Object{}
	if err := o.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return o, nil
}

// UnmarshalJSON implements json.Unmarshaler; a repeated key keeps its first
// position and its last value (like encoding/json).
func (o *Object) UnmarshalJSON(data []byte) error {
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
	o.vals = map[string]json.RawMessage{}
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

// MarshalJSON implements json.Marshaler (keys in stored order, compact).
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Keys returns the member names in order.
func (o *Object) Keys() []string { return append([]string(nil), o.keys...) }

// Has reports whether key is a member.
func (o *Object) Has(key string) bool { _, ok := o.vals[key]; return ok }

// Get returns the raw value of key.
func (o *Object) Get(key string) (json.RawMessage, bool) {
	if o == nil || o.vals == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
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

// Set replaces the value of key (keeping its position) or appends it.
func (o *Object) Set(key string, v any) error {
	raw, ok := v.(json.RawMessage)
	if !ok {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("set %s: %w", key, err)
		}
		raw = json.RawMessage(bytes.TrimSpace(b.Bytes()))
	}
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, seen := o.vals[key]; !seen {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = raw
	return nil
}

// Delete removes key.
func (o *Object) Delete(key string) {
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
