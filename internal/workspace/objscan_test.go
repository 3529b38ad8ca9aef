package workspace

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agreeObject fails when Object.UnmarshalJSON (splitObject, falling back to
// the Decoder) and the Decoder path alone disagree on data: error or not,
// member names and order, each member's raw bytes. It reports whether
// splitObject took the input.
func agreeObject(t testing.TB, data []byte) (fast bool) {
	var got, want Object
	gerr, werr := got.UnmarshalJSON(data), want.unmarshalDecoder(data)
	if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("UnmarshalJSON(%q): error %v, Decoder path %v", data, gerr, werr)
	}
	if gerr != nil {
		return false
	}
	if strings.Join(got.keys, "\x00") != strings.Join(want.keys, "\x00") || len(got.vals) != len(want.vals) {
		t.Fatalf("UnmarshalJSON(%q): keys %q, Decoder path %q", data, got.keys, want.keys)
	}
	for k, v := range want.vals {
		if !bytes.Equal(got.vals[k].(json.RawMessage), v.(json.RawMessage)) {
			t.Fatalf("UnmarshalJSON(%q)[%q] = %s, Decoder path %s", data, k, got.vals[k], v)
		}
	}
	_, fast = SplitObject(data)
	if fast && !json.Valid(data) {
		t.Fatalf("SplitObject takes %q, json.Valid refuses it", data)
	}
	return fast
}

// TestSplitObjectAgreesWithDecoder compares Object.UnmarshalJSON with the
// Decoder path it replaced on hand-made inputs, every JSON file of the
// fixture sprints and 100,000 random mutations of a context state file.
func TestSplitObjectAgreesWithDecoder(t *testing.T) {
	fixed := []string{
		`{}`, ` { } `, "{\n}\n", `{"a":1}`, `{"a" : 1 , "b":[1, {"c":"d"}] }`, `{"a":1,"b":2,"a":3}`, `{"a":"\u00e9"}`,
		`{"a\u0062":1}`, `{"长":"长度"}`, "{\"a\":\"\xff\"}", "{\"\xff\":1}", `{"a":1}x`, `{"a":1} {"b":2}`, `{"a":1}]`,
		`[1]`, `"x"`, `null`, ``, ` `, `{`, `{"a":1,}`, `{"a" 1}`, `{,}`, `{"a":01}`, `{"a":1.}`, `{"a":truex}`,
		`{"a":[1,2,]}`, `{"a":-0.5e+10,"b":null,"c":true,"d":false}`, strings.Repeat(`{"a":`, 100) + `1` + strings.Repeat(`}`, 100),
		"\ufeff{}", `{"a":{"b":{"c":[[],{}]}}}`, `{"":""}`,
		`{"a":"x\"y\\z\/\b\f\n\r\t\u00e9\uD83D"}`, `{"a":"\x"}`, `{"a":"\u00g0"}`, `{"a":"\u00"}`, `{"a":"\`, `{"a":["\"",{"\n":1}]}`,
		`{"a\"b":1}`, "{\"a\":\"\t\"}", "{\"a\":\"x\x7fy\"}",
	}
	fast := 0
	for _, s := range fixed {
		if agreeObject(t, []byte(s)) {
			fast++
		}
	}
	if fast < 10 {
		t.Errorf("splitObject took only %d of the hand-made objects", fast)
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sprints", "*", ".harness", "*.json"))
	if len(files) < 10 {
		t.Fatalf("only %d fixture state files", len(files))
	}
	fast = 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if agreeObject(t, data) {
			fast++
		}
	}
	if fast < len(files)/2 {
		t.Errorf("splitObject took only %d of %d fixture state files", fast, len(files))
	}
	r := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 100000; i++ {
		b := mutateContextState(r)
		agreeObject(t, b)
	}
}

// mutateContextState is a two-feature context state file with one to three
// random byte flips, insertions or deletions.
func mutateContextState(r *rand.Rand) []byte {
	const base = `{"f001": {"session_id": "sess_7f3a9c21", "token_usage_ratio": 0.31, "updated_at": "2026-04-21T02:48:00Z"},` +
		` "f002": {"session_id": "s\"q\u00e9\n", "context_window": 200000, "reset_trigger": null, "resets": [{"at": "x", "eval_at": -1}], "x": 1e3}}`
	alphabet := []byte("{}[]:,\"\\ 0123456789-+.eEtrufalsnubAF/\t\r\n\x00\x1f\x7f\xc3\xa9\xff")
	return mutate(r, []byte(base), alphabet)
}

// TestSplitObjectKeepsNoCallerBuffer: the members survive a change of the
// caller's bytes (json.Unmarshaler must not retain them).
func TestSplitObjectKeepsNoCallerBuffer(t *testing.T) {
	data := []byte(`{"a":"xyz","b":[1]}`)
	o, err := ParseObject(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = ' '
	}
	if a, _ := o.Get("a"); string(a) != `"xyz"` {
		t.Fatalf("a = %s after the caller's buffer changed", a)
	}
}

// TestPlainStringAndIntAgreeWithEncodingJSON: the fast paths of the state
// decoders give encoding/json's value or step aside.
func TestPlainStringAndIntAgreeWithEncodingJSON(t *testing.T) {
	for _, s := range []string{`"x"`, `""`, `"长度"`, `"a\nb"`, `"\u0041"`, "\"\xff\"", `"a"b"`, `"a`, `1`, `null`, ` "x"`, `"x" `} {
		got, ok := plainString([]byte(s))
		var want string
		err := json.Unmarshal([]byte(s), &want)
		if ok && (err != nil || got != want) {
			t.Errorf("plainString(%q) = %q, encoding/json %q (%v)", s, got, want, err)
		}
	}
	for _, s := range []string{"0", "-0", "7", "-12", "123456789012345678", "9223372036854775807", "01", "1.0", "1e3", "-", "", "+1", "1 "} {
		got, ok := plainInt([]byte(s))
		var n json.Number
		if !ok {
			continue
		}
		if json.Unmarshal([]byte(s), &n) != nil {
			t.Errorf("plainInt(%q) = %d, encoding/json refuses it", s, got)
			continue
		}
		if want, err := n.Int64(); err != nil || want != got {
			t.Errorf("plainInt(%q) = %d, json.Number %d (%v)", s, got, want, err)
		}
	}
}

func FuzzSplitObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":[1,{"b":null}],"c":"长"}`, `{"a":1,"a":2}`, `{"a":"\u0041"} x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { agreeObject(t, b) })
}
