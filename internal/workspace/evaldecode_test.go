package workspace

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// agree fails when decodeFast accepts line but encoding/json decodes it
// differently or refuses it.
func agree(t testing.TB, line []byte) (fast bool) {
	m, ok := decodeFast(line)
	want, err := decodeJSON(line)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("decodeFast accepts %q, encoding/json refuses it: %v", line, err)
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("decodeFast(%q) = %#v, encoding/json %#v", line, m, want)
	}
	return true
}

func TestDecodeFastMatchesEncodingJSON(t *testing.T) {
	fixed := []string{
		`{}`, ` { } `, `{"a":1}`, "{\"a\":1}\r", `{"a":-0.5e+10,"b":[1,"x",true,false,null,{}],"c":{"d":[]}}`,
		`{"a":1,"a":2}`, `{"长":"长度"}`, `{"a":"\u00e9"}`, `{"a":"x\ny"}`, "{\"a\":\"\x01\"}", "{\"a\":\"\xff\"}",
		`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":-}`, `{"a":+1}`, `{"a":1}x`, `{"a":1} {"b":2}`, `[1]`, `"x"`,
		`{"a" 1}`, `{"a":1,}`, `{,}`, `{"a":[1,]}`, `{"a":tru}`, `{"a":truex}`, `{"a":nul}`, `{"a":NaN}`, "\ufeff{}",
		`{"a":"\"}`, `{"a":1`, `{`, ``, `   `, strings.Repeat(`{"a":`, 100) + `1` + strings.Repeat(`}`, 100),
		`{"a":[[[[[[[[[[1]]]]]]]]]]}`, `{"a":0,"b":-0,"c":0.0e0,"d":1E-3}`, "{\"a\":1}\t\n",
	}
	fast := 0
	for _, l := range fixed {
		if agree(t, []byte(l)) {
			fast++
		}
	}
	if fast < 10 {
		t.Errorf("decodeFast accepted only %d of the well-formed lines", fast)
	}
	// every line of the fixtures' eval_logs
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sprints", "*", ".harness", "eval_log.jsonl"))
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(l) != "" && agree(t, []byte(l)) {
				n++
			}
		}
	}
	if n < 20 {
		t.Errorf("decodeFast accepted only %d fixture lines", n)
	}
	// random mutations of a typical line: byte flips, insertions, deletions
	base := `{"timestamp":"2026-04-21T02:00:00Z","sprint_id":"sprint_20260421_1","phase":2,"iteration":13,"event_type":"retry","reason":"第 1 次重试 a2","acceptance_results":[{"id":"a1","ok":true,"n":-1.5e3}],"x":null}`
	alphabet := []byte("{}[]:,\"\\ 0123456789-+.eEtrufalsn\t\r\n\x00\x1f\x7f\xc3\xa9\xff")
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 100000; i++ {
		b := []byte(base)
		for k := r.IntN(3); k >= 0; k-- {
			pos := r.IntN(len(b) + 1)
			c := alphabet[r.IntN(len(alphabet))]
			switch r.IntN(3) {
			case 0:
				if pos < len(b) {
					b[pos] = c
				}
			case 1:
				b = append(b[:pos], append([]byte{c}, b[pos:]...)...)
			default:
				if pos < len(b) {
					b = append(b[:pos], b[pos+1:]...)
				}
			}
		}
		agree(t, b)
	}
}

func FuzzDecodeFast(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":[1,{"b":null}],"c":"长"}`, `{"a":1e5}`, `{"a":"\u0041"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { agree(t, b) })
}

func BenchmarkDecodeEvalLine(b *testing.B) {
	line := []byte(fmt.Sprintf(`{"timestamp":"2026-04-21T02:00:00Z","sprint_id":"sprint_20260421_1","generator":"claude-code","feature_id":"f001","phase":2,"iteration":%d,"event_type":"retry","result":"retry","reason":"第 %d 次重试:解析器在引用式链接定义上漏报,补充表驱动用例后重跑 a2"}`, 7, 7))
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeObject(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeJSON(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}
