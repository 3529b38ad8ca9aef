package safetext

import (
	"bytes"
	"testing"
)

// TestTable: columns are as wide as their widest cell, lines carry no
// trailing blanks, and a tab or newline inside a cell stays inside it.
func TestTable(t *testing.T) {
	var b bytes.Buffer
	err := Table(&b, "  ", [][]string{
		{"PreToolUse", "block", "path.eval-log-append-only", "echo '{}' > .harness/eval_log.jsonl"},
		{"Stop", "allow", "", ""},
		{"SessionStart", "allow", "", "a\tb\nc"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "  PreToolUse    block  path.eval-log-append-only  echo '{}' > .harness/eval_log.jsonl\n" +
		"  Stop          allow\n" +
		"  SessionStart  allow                             a\\u0009b\\u000ac\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
