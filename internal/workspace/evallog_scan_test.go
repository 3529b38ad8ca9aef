package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestScanEvalLogEqualsParse checks that the streaming scan keeps exactly
// the entries (line numbers and fields) of Entries(ParseEvalLogFunc), on
// edge cases (CRLF, blank and broken lines, no final newline, lines longer
// than the 64 KB buffer) and on random mixes of them.
func TestScanEvalLogEqualsParse(t *testing.T) {
	obj := func(f string) string {
		return `{"timestamp":"2026-04-21T02:00:00Z","feature_id":"` + f + `","phase":1,"event_type":"phase_evaluation","result":"pass"}`
	}
	huge := `{"feature_id":"f002","reason":"` + strings.Repeat("长", 70000) + `"}`
	pieces := []string{obj("f001"), obj("f002"), "", "   ", "\t", "not json", `{"a":1} {"b":2}`, "[1,2]", `{"feature_id":"f002"`, huge,
		obj("f002") + "\r", "\r", `{"feature_id":"f\u0030\u0030\u0032"}`, `{"supersedes_line":1,"reason":"补录: x"}`}
	want := func(line []byte) bool {
		return bytes.Contains(line, []byte("f002")) || bytes.Contains(line, []byte(`\u`))
	}
	cases := []string{"", "\n", "\n\n", obj("f002"), obj("f002") + "\n", obj("f002") + "\r\n" + obj("f001") + "\r\n",
		huge, huge + "\n" + obj("f002"), "\n" + huge + "\n\n" + huge}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			b.WriteString([]string{"\n", "\r\n", "\n\n"}[rng.IntN(3)])
		}
		if rng.IntN(2) == 0 {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	dir := t.TempDir()
	kept := 0
	for i, c := range cases {
		p := filepath.Join(dir, "eval_log.jsonl")
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, w := range []func([]byte) bool{nil, want} {
			got, err := ScanEvalLog(p, w)
			if err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			exp := Entries(ParseEvalLogFunc([]byte(c), w))
			if len(got) != len(exp) || (len(got) > 0 && !reflect.DeepEqual(got, exp)) {
				t.Fatalf("case %d (%d bytes): ScanEvalLog kept %d entries, ParseEvalLogFunc %d", i, len(c), len(got), len(exp))
			}
			kept += len(got)
		}
	}
	if kept < 100 {
		t.Fatalf("only %d entries kept over all cases; the comparison tests too little", kept)
	}
	if _, err := ScanEvalLog(filepath.Join(dir, "missing.jsonl"), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: err = %v, want fs.ErrNotExist", err)
	}
}

// TestEachEvalLineSkipsOverlongLine: a line over the cap is reported with
// its size and number and never handed to fn (nor held in memory); the
// lines around it keep their numbers.
func TestEachEvalLineSkipsOverlongLine(t *testing.T) {
	long := strings.Repeat("x", 300<<10)
	in := "{\"a\":1}\n" + long + "\n{\"b\":2}\r\n" + strings.Repeat("y", 100) + "\n" + long
	var got []string
	var over []string
	err := EachEvalLineCapped(strings.NewReader(in), 200<<10, func(n int, line []byte) {
		got = append(got, fmt.Sprintf("%d:%.8s", n, line))
	}, func(n int, size int64) { over = append(over, fmt.Sprintf("%d:%d", n, size)) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1:{\"a\":1}", "3:{\"b\":2}", "4:yyyyyyyy"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lines = %q, want %q", got, want)
	}
	if want := []string{fmt.Sprintf("2:%d", 300<<10), fmt.Sprintf("5:%d", 300<<10)}; fmt.Sprint(over) != fmt.Sprint(want) {
		t.Errorf("over-long = %q, want %q", over, want)
	}
}
