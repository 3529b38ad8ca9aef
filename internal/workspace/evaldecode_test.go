package workspace

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
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
	n := 0
	for _, l := range fixtureEvalLines(t, "*") {
		if agree(t, []byte(l)) {
			n++
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
		agree(t, mutate(r, []byte(base), alphabet))
	}
}

// fixtureEvalLines is every non-blank line of the eval_logs of the sprint
// fixtures testdata/sprints/<dir>/.harness/eval_log.jsonl, for each dir
// pattern in turn (filepath.Glob).
func fixtureEvalLines(t testing.TB, dirs ...string) []string {
	var lines []string
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sprints", d, ".harness", "eval_log.jsonl"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(l) != "" {
					lines = append(lines, l)
				}
			}
		}
	}
	return lines
}

// mutate applies one to three random edits to b, each a byte of alphabet
// written over, a byte of alphabet inserted or a byte deleted, at a random
// place, and returns the result (b's array may be reused).
func mutate(r *rand.Rand, b, alphabet []byte) []byte {
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
	return b
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

// refStr is what fastParser.str must answer for the string at the start of
// b: the bytes up to the next quote, when that quote exists and they have
// no backslash, no control byte and are valid UTF-8 (utf8.Valid).
func refStr(b []byte) (string, int, bool) {
	if len(b) == 0 || b[0] != '"' {
		return "", 0, false
	}
	q := bytes.IndexByte(b[1:], '"')
	if q < 0 {
		return "", 0, false
	}
	s := b[1 : 1+q]
	for _, c := range s {
		if c == '\\' || c < ' ' {
			return "", 0, false
		}
	}
	if !utf8.Valid(s) {
		return "", 0, false
	}
	return string(s), q + 2, true
}

// TestStrMatchesUTF8Valid holds the one-pass string scanner to refStr on
// every short byte sequence around the UTF-8 boundaries (each lead byte
// with continuation bytes at the edges of their ranges, truncated
// sequences, surrogates, overlong forms) and on random strings, at every
// alignment to the eight-byte steps and with the line ending inside,
// right after or well after the string.
func TestStrMatchesUTF8Valid(t *testing.T) {
	edges := []byte{0x00, 0x1f, ' ', '"', '\\', 'a', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf3, 0xf4, 0xf5, 0xff}
	check := func(content []byte) {
		for _, pad := range []int{0, 1, 3, 5, 7, 8, 9} {
			for _, tail := range []string{"", `"`, `"}`, `"` + strings.Repeat("}", 9), strings.Repeat("\xbf", 3) + `"}}}}}}}}`} {
				b := append(append(append([]byte{'"'}, bytes.Repeat([]byte("a"), pad)...), content...), tail...)
				p := fastParser{b: string(b), raw: b}
				got, ok := p.str()
				want, n, wok := refStr(b)
				if ok != wok || got != want || (ok && p.i != n) {
					t.Fatalf("str(%q) = %q, %v (at %d); want %q, %v (at %d)", b, got, ok, p.i, want, wok, n)
				}
			}
		}
	}
	check(nil)
	for _, a := range edges {
		check([]byte{a})
		for _, b := range edges {
			check([]byte{a, b})
			for _, c := range edges {
				check([]byte{a, b, c})
			}
		}
	}
	for lead := 0x80; lead <= 0xff; lead++ {
		for _, b1 := range edges {
			for _, b2 := range edges {
				for _, b3 := range []byte{'a', '"', 0x80, 0xbf, 0xc0} {
					check([]byte{byte(lead), b1, b2, b3})
				}
			}
		}
	}
	// a three-byte sequence after and before a valid one (the two-sequence step)
	for lead := 0xe0; lead <= 0xef; lead++ {
		for _, b1 := range edges {
			for _, b2 := range edges {
				seq := []byte{byte(lead), b1, b2}
				check(append([]byte("长"), seq...))
				check(append(append([]byte{}, seq...), "长长"...))
			}
		}
	}
	// random strings mixing ASCII, specials and valid and broken sequences
	parts := []string{"a", "ab", "abcdefgh", " ", "\t", "\x01", `"`, `\`, "é", "长", "链接", "€", "𝄞", "\uFFFD", "\xed\xa0\x80", "\xe0\x80\xaf",
		"\xc0\xaf", "\xf4\x90\x80\x80", "\xe4\xb8", "\xe4", "\xff", "\x80", "，", "、"}
	r := rand.New(rand.NewPCG(5, 13))
	for i := 0; i < 200000; i++ {
		var s []byte
		for k := r.IntN(12); k > 0; k-- {
			s = append(s, parts[r.IntN(len(parts))]...)
		}
		check(s)
	}
}
