package hook

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// agreeInput fails when decodeInputFast takes a payload and encoding/json
// decodes it differently or refuses it; it reports whether the fast path
// took it.
func agreeInput(t testing.TB, payload []byte) bool {
	var fast Input
	if !decodeInputFast(payload, &fast) {
		return false
	}
	var want Input
	if err := json.Unmarshal(payload, &want); err != nil {
		t.Fatalf("decodeInputFast takes %q, encoding/json refuses it: %v", payload, err)
	}
	if !bytes.Equal(fast.ToolInput, want.ToolInput) {
		t.Fatalf("decodeInputFast(%q).ToolInput = %q, encoding/json %q", payload, fast.ToolInput, want.ToolInput)
	}
	fast.ToolInput, want.ToolInput = nil, nil
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("decodeInputFast(%q) = %+v, encoding/json %+v", payload, fast, want)
	}
	return true
}

// TestDecodeInputFastAgreesWithEncodingJSON compares the reflection-free
// payload decoder with encoding/json on every captured payload, hand-made
// edge cases and 50,000 random payloads (case variants of the names,
// repeated names, nulls, wrong types, escapes, unknown members).
func TestDecodeInputFastAgreesWithEncodingJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hook-input", "*.json"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hook-input", "captured", "*.json"))
	files = append(files, more...)
	fast := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if agreeInput(t, bytes.TrimSpace(data)) {
			fast++
		}
	}
	if len(files) < 5 || fast < len(files)/2 {
		t.Fatalf("the fast path took %d of %d captured payloads", fast, len(files))
	}
	fixed := []string{
		`{}`, `{"tool_input":null}`, `{"tool_input":{"command":"a\"b"}}`, `{"session_id":null}`, `{"session_id":1}`,
		`{"Session_ID":"x"}`, `{"session_id":"a","session_id":"b"}`, `{"session_id":1,"session_id":"b"}`,
		`{"stop_hook_active":true}`, `{"stop_hook_active":"true"}`, `{"stop_hook_active":null}`, `{"cwd":"a\u00e9\n"}`,
		`{"cwd":"\uD800"}`, `{"tool_name":"Bash","extra":{"a":[1,2]},"x":true}`, `{"CWD":"/"}`, `{"cwd":"/","cwd":null}`,
	}
	for _, s := range fixed {
		agreeInput(t, []byte(s))
	}
	names := append(inputFields[:], "Tool_Name", "TOOL_INPUT", "Cwd", "other", "description", "toolname")
	values := []string{`null`, `"x"`, `"Bash"`, `""`, `"a\"b\\c\n"`, `"\u0041"`, `1`, `-2.5e3`, `true`, `false`, `[]`, `{}`,
		`{"command":"rm -rf build"}`, `{"command":"echo \"hi\"","Command":"x"}`, `["a",{"b":null}]`}
	r := rand.New(rand.NewPCG(13, 17))
	took := 0
	for i := 0; i < 50000; i++ {
		if agreeInput(t, randomObject(r, names, values, 8, ": ")) {
			took++
		}
	}
	if took < 5000 {
		t.Fatalf("the fast path took only %d of 50,000 random payloads", took)
	}
}

// randomObject is a JSON object of fewer than most members, each a name
// from names and a value from values (raw JSON), sep between them.
func randomObject(r *rand.Rand, names, values []string, most int, sep string) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for k, n := 0, r.IntN(most); k < n; k++ {
		if k > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(names[r.IntN(len(names))])
		b.Write(name)
		b.WriteString(sep)
		b.WriteString(values[r.IntN(len(values))])
	}
	b.WriteByte('}')
	return []byte(b.String())
}

func FuzzDecodeInputFast(f *testing.F) {
	for _, s := range []string{`{"session_id":"s","tool_input":{"command":"ls"}}`, `{"Cwd":"x"}`, `{"stop_hook_active":true,"x":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { agreeInput(t, b) })
}

// TestToolInputFastPathsAgreeWithEncodingJSON: the Bash tool_input decoder
// and rawMembers give encoding/json's results (error or not, and values) on
// random tool_input objects with case variants, repeated names, nulls and
// wrong types.
func TestToolInputFastPathsAgreeWithEncodingJSON(t *testing.T) {
	names := []string{"command", "Command", "COMMAND", "description", "timeout", "run_in_background", "file_path", "commanD"}
	values := []string{`null`, `"ls"`, `""`, `"echo \"hi\"\n"`, `"\u0072m -rf build"`, `1`, `true`, `[]`, `{}`, `{"a":"b"}`}
	r := rand.New(rand.NewPCG(19, 23))
	tookBash, tookMembers := 0, 0
	for i := 0; i < 50000; i++ {
		t1 := randomObject(r, names, values, 5, ":")
		var fast, want bashInput
		if decodeBashFast(t1, &fast) {
			tookBash++
			if err := json.Unmarshal(t1, &want); err != nil || fast != want {
				t.Fatalf("decodeBashFast(%s) = %+v, encoding/json %+v (%v)", t1, fast, want, err)
			}
		}
		var wantM map[string]json.RawMessage
		werr := json.Unmarshal(t1, &wantM)
		gotM, ok := rawMembers(t1)
		if ok != (werr == nil) {
			t.Fatalf("rawMembers(%s) ok=%v, encoding/json %v", t1, ok, werr)
		}
		if ok {
			tookMembers++
			if len(gotM) != len(wantM) {
				t.Fatalf("rawMembers(%s) = %q, encoding/json %q", t1, gotM, wantM)
			}
			for k, v := range wantM {
				if !bytes.Equal(gotM[k], v) {
					t.Fatalf("rawMembers(%s)[%q] = %s, encoding/json %s", t1, k, gotM[k], v)
				}
			}
		}
	}
	if tookBash < 5000 || tookMembers < 40000 {
		t.Fatalf("the fast paths took %d and %d of 50,000", tookBash, tookMembers)
	}
}
