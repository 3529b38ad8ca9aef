package hook

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// stdJSONLine is what encoding/json writes for v with HTML escaping off: the
// reference the hand-written encoders must match byte for byte.
func stdJSONLine(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// randString mixes the bytes JSON string encoding treats specially: control
// characters, quotes, backslashes, HTML characters, invalid and truncated
// UTF-8, U+2028/U+2029, multi-byte runes; a quarter are empty.
func randString(r *rand.Rand) string {
	if r.IntN(4) == 0 {
		return ""
	}
	pieces := []string{"a", "Z", " ", "\"", "\\", "/", "<", ">", "&", "\x00", "\x01", "\x1f", "\x7f", "\b", "\f", "\n", "\r", "\t",
		"\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "é", "€", "\u2028", "\u2029", "\U0001F600", "\ufffd", "rm -rf build", "…"}
	var b []byte
	for n := r.IntN(12); n >= 0; n-- {
		if r.IntN(5) == 0 {
			b = append(b, byte(r.IntN(256)))
		} else {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
	}
	return string(b)
}

// fillRandom sets every exported field of the struct v points to, so a field
// added to Record, Output or HookSpecificOutput without a line in the
// encoders makes the comparison fail.
func fillRandom(t *testing.T, r *rand.Rand, v reflect.Value) {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(randString(r))
		case reflect.Int64:
			f.SetInt(r.Int64N(1<<40) - 1<<20)
		case reflect.Slice:
			switch r.IntN(3) {
			case 0: // nil
			case 1:
				f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			default:
				s := reflect.MakeSlice(f.Type(), 1+r.IntN(3), 3)
				for j := 0; j < s.Len(); j++ {
					s.Index(j).SetString(randString(r))
				}
				f.Set(s)
			}
		case reflect.Bool:
			f.SetBool(r.IntN(2) == 1)
		case reflect.Pointer:
			if r.IntN(3) > 0 {
				p := reflect.New(f.Type().Elem())
				fillRandom(t, r, p.Elem())
				f.Set(p)
			}
		default:
			t.Fatalf("field %s of %s has kind %s, which the test (and appendJSONLine) do not handle", v.Type().Field(i).Name, v.Type(), f.Kind())
		}
	}
}

func TestRecordJSONMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		var rec Record
		fillRandom(t, r, reflect.ValueOf(&rec).Elem())
		want := stdJSONLine(t, rec)
		if got := rec.appendJSONLine(nil); !bytes.Equal(got, want) {
			t.Fatalf("record %#v:\n got %q\nwant %q", rec, got, want)
		}
	}
	// the zero record and a typical one
	for _, rec := range []Record{{}, {Time: "2026-11-30T12:00:00Z", Event: "PreToolUse", Tool: "Bash", Verdict: "allow", Command: "go test ./... 2>&1 | tail -n 20", DurationUS: 635}} {
		if got, want := rec.appendJSONLine(nil), stdJSONLine(t, rec); !bytes.Equal(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

func TestOutputJSONMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		var out Output
		fillRandom(t, r, reflect.ValueOf(&out).Elem())
		want := stdJSONLine(t, out)
		if got := out.appendJSONLine(nil); !bytes.Equal(got, want) {
			t.Fatalf("output %#v:\n got %q\nwant %q", out, got, want)
		}
	}
	if got := (&Output{}).appendJSONLine(nil); string(got) != "{}\n" {
		t.Fatalf("zero Output = %q, want {}", got)
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\x00\x1f\x7f", "\xff\xfe", "\u2028\u2029", "<&>", "\xed\xa0\x80", "é€😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := bytes.TrimSuffix(stdJSONLine(t, s), []byte("\n"))
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}
