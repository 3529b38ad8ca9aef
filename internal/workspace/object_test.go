package workspace

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestObjectNestedChangesBelongToTheParent: an object read from an indented
// state file is changed through ObjAt and Arr (the ops commands' way) and
// written as one compact line (an eval_log record) and as a state file:
// the changes are there, untouched members keep their spelling, and the
// compact form has no line break from the file's indentation.
func TestObjectNestedChangesBelongToTheParent(t *testing.T) {
	in := []byte("{\n  \"z\": 1.50,\n  \"feature\": {\n    \"id\": \"f001\",\n    \"tags\": [\"a\", {\"k\": \"<b>\"}]\n  },\n  \"extra\": \"保留\"\n}\n")
	o, err := ParseObject(in)
	if err != nil {
		t.Fatal(err)
	}
	f := o.ObjAt("feature")
	if f == nil || f.Str("id") != "f001" {
		t.Fatalf("ObjAt: %+v", f)
	}
	f.With("status", "done")
	tags := f.Arr("tags")
	tags[1].(*Object).With("k", "<i>")
	f.With("tags", append(tags, "c"))
	line, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(line, "\n") {
		t.Fatalf("compact form has a line break: %s", line)
	}
	out, err := o.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"z":1.50,"feature":{"id":"f001","tags":["a",{"k":"<i>"},"c"],"status":"done"},"extra":"保留"}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
	if raw, ok := o.Get("feature"); !ok || !bytes.Contains(raw, []byte(`"status":"done"`)) {
		t.Fatalf("Get of a changed member: %s %v", raw, ok)
	}
	if n, ok := o.Int("z"); ok {
		t.Fatalf("1.50 read as the integer %d", n)
	}
	if err := o.Set("bad", func() {}); err == nil || o.Has("bad") {
		t.Fatal("Set of an unencodable value succeeded")
	}
}

// TestParseValue decodes every kind of JSON value into the tree and refuses
// trailing data.
func TestParseValue(t *testing.T) {
	v, err := ParseValue([]byte(`[1, "x", null, true, {"a": [2]}]`))
	if err != nil {
		t.Fatal(err)
	}
	arr, ok := v.([]any)
	if !ok || len(arr) != 5 || arr[0] != json.Number("1") || arr[1] != "x" || arr[2] != nil || arr[3] != true {
		t.Fatalf("ParseValue: %#v", v)
	}
	if n, ok := IntValue(arr[4].(*Object).Arr("a")[0]); !ok || n != 2 {
		t.Fatalf("nested number: %v %v", n, ok)
	}
	if _, err := ParseValue([]byte(`{} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
	var nilObj *Object
	if nilObj.Has("a") || nilObj.Keys() != nil || nilObj.Value("a") != nil || nilObj.Str("a") != "" {
		t.Fatal("a nil object is not empty")
	}
}
