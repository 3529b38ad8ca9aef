package safetext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, esc, line string }{
		{"plain 中文 text", "plain 中文 text", "plain 中文 text"},
		{"a\nb\tc", "a\nb\tc", `a\u000ab\u0009c`},
		{"\x1b]0;pwned\x07\x1b[31mred", `\u001b]0;pwned\u0007\u001b[31mred`, `\u001b]0;pwned\u0007\u001b[31mred`},
		{"nul\x00cr\r", `nul\u0000cr\u000d`, `nul\u0000cr\u000d`},
		{"bidi \u202eevil", `bidi \u202eevil`, `bidi \u202eevil`},
		{"c1 \u009b31m", `c1 \u009b31m`, `c1 \u009b31m`},
		{"bad \xff utf8", `bad \xff utf8`, `bad \xff utf8`},
	} {
		if got := Escape(c.in); got != c.esc {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.esc)
		}
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
	}
}

func TestChecks(t *testing.T) {
	if err := CheckLine("title", "fine title 中文"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"two\nlines", "cr\r", "esc\x1b[2J", "nul\x00", "\u202e", "\xff"} {
		if CheckLine("title", bad) == nil {
			t.Errorf("CheckLine accepted %q", bad)
		}
	}
	if err := CheckText("reason", "line one\nline two\twith tab"); err != nil {
		t.Error(err)
	}
	if CheckText("reason", "esc \x1b[31m") == nil {
		t.Error("CheckText accepted ESC")
	}
}

// TestWriterKeepsJSONValid: JSON written through Writer stays the same JSON
// (encoding/json already escapes C0 controls; DEL and C1 become \u escapes,
// valid in JSON strings), and a character split across writes survives.
func TestWriterKeepsJSONValid(t *testing.T) {
	var b bytes.Buffer
	w := Writer(&b)
	v := map[string]string{"s": "del\x7f c1\u0085 esc\x1b 中文"}
	data, _ := json.Marshal(v)
	for i := range data { // one byte at a time
		w.Write(data[i : i+1])
	}
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("output %q is not JSON: %v", b.String(), err)
	}
	if back["s"] != v["s"] {
		t.Errorf("round trip %q, want %q", back["s"], v["s"])
	}
	if strings.ContainsAny(b.String(), "\x7f\x1b") {
		t.Errorf("raw control characters in %q", b.String())
	}
}
