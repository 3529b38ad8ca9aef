package ops

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/superagent-harness/harness/internal/workspace"
)

// TestObjKeepsOrderAndUnknownFields: a state file rewritten through Obj keeps
// key order, unknown keys, number spelling and non-ASCII text unescaped.
func TestObjKeepsOrderAndUnknownFields(t *testing.T) {
	in := []byte(`{"z":1,"a":{"y":2.50,"x":[1,"<a href>",null,true]},"extra_field":"保留","m":-0}`)
	o, err := parseObj(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := o.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"z":1,"a":{"y":2.50,"x":[1,"<a href>",null,true]},"extra_field":"保留","m":-0}`
	if string(out) != want {
		t.Fatalf("round trip\n got %s\nwant %s", out, want)
	}
	o.With("a", 3)
	o.With("new", "n")
	o.Delete("z")
	out, _ = o.MarshalJSON()
	if string(out) != `{"a":3,"extra_field":"保留","m":-0,"new":"n"}` {
		t.Fatalf("edit: %s", out)
	}
}

// FuzzObjRoundTrip: every JSON object parses, and re-encoding it is stable and
// semantically equal to the input.
func FuzzObjRoundTrip(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}]}`, `{"k":"\u003c","n":1e3}`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var ref map[string]any
		if json.Unmarshal(in, &ref) != nil || !bytes.HasPrefix(bytes.TrimSpace(in), []byte("{")) {
			return
		}
		o, err := parseObj(in)
		if err != nil {
			t.Fatalf("valid object rejected: %v", err)
		}
		out, err := workspace.MarshalIndent(o)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("re-encoded is not JSON: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(ref, got) {
			t.Fatalf("changed meaning:\n in %s\nout %s", in, out)
		}
		o2, err := parseObj(out)
		if err != nil {
			t.Fatal(err)
		}
		out2, _ := workspace.MarshalIndent(o2)
		if !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}
