package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestStopLoopBound: 8 Stop calls in a row for one session on incomplete
// records: 7 blocks, then an allow with a systemMessage naming the missing
// records and a stop_forced_incomplete record in hook.log. Another session
// is counted separately, legacy text lines are skipped, and a later allow
// resets the count.
func TestStopLoopBound(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	args := []string{"--root", root, "--feature", "f001", "--event", "Stop"}

	stop := func(session string) map[string]any {
		t.Helper()
		res := runBin(t, root, args, nil, stopPayload(root, session, tmp))
		if res.code != 0 {
			t.Fatalf("exit %d", res.code)
		}
		return checkContract(t, EventStop, res.stdout)
	}
	for i := 1; i <= stopLoopBound; i++ {
		if obj := stop("loop"); obj["decision"] != "block" {
			t.Fatalf("call %d: expected block, got %v", i, obj)
		}
		if i == 3 {
			// Another session's blocks and a legacy line do not count.
			if obj := stop("other"); obj["decision"] != "block" {
				t.Fatalf("other session: %v", obj)
			}
			f, err := os.OpenFile(filepath.Join(root, ".harness", "logs", "hook.log"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("[2026-04-21T02:00:00Z] [stop] PASS feature=f001 phase=2 loop\n")
			f.Close()
		}
	}
	obj := stop("loop")
	if obj["decision"] != nil {
		t.Fatalf("call 8: expected the forced allow, got %v", obj)
	}
	msg, _ := obj["systemMessage"].(string)
	if !strings.Contains(msg, "stop.genlog-section") || !strings.Contains(msg, "generator_log.md") {
		t.Fatalf("systemMessage does not name the missing records: %q", msg)
	}
	recs := hookLogRecords(t, root)
	last := recs[len(recs)-1]
	if last.Verdict != verdictForced || last.Session != "loop" || len(last.Failing) == 0 {
		t.Fatalf("last record = %+v", last)
	}
	// The other session still has its own count (1 block so far).
	if obj := stop("other"); obj["decision"] != "block" {
		t.Fatalf("other session after the give-up: %v", obj)
	}
	// After the forced allow, the count restarts: the next call blocks again.
	if obj := stop("loop"); obj["decision"] != "block" {
		t.Fatalf("after the forced allow the count must restart: %v", obj)
	}
}

// TestConsecutiveStopBlocksReadsBackwards covers the reverse scan across
// chunk boundaries with many unrelated lines.
func TestConsecutiveStopBlocksReadsBackwards(t *testing.T) {
	p := filepath.Join(t.TempDir(), "hook.log")
	var b strings.Builder
	b.WriteString(`{"event":"Stop","session":"s","verdict":"allow"}` + "\n")
	for i := 0; i < 5; i++ {
		b.WriteString(`{"event":"Stop","session":"s","verdict":"block"}` + "\n")
		for j := 0; j < 2000; j++ {
			b.WriteString(`{"event":"PreToolUse","session":"s","verdict":"allow","command":"go test ./..."}` + "\n")
			b.WriteString("legacy text line s\n")
		}
	}
	b.WriteString(`{"event":"Stop","session":"t","verdict":"block"}` + "\n")
	b.WriteString(`{"event":"Stop","session":"s","verdict":"block"`) // torn last line: skipped
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for limit, want := range map[int]int{7: 5, 3: 3} {
		n, err := consecutiveStopBlocks(p, "s", limit)
		if err != nil || n != want {
			t.Fatalf("limit %d: got %d, %v; want %d", limit, n, err, want)
		}
	}
	if n, _ := consecutiveStopBlocks(p, "t", 7); n != 1 {
		t.Fatalf("session t: %d", n)
	}
	// A session id that JSON escapes is still found.
	odd := `a"b\\c<é>`
	var rec bytes.Buffer
	appendRecordTo(&rec, Record{Event: EventStop, Session: odd, Verdict: "block"})
	if err := os.WriteFile(p, bytes.Repeat(rec.Bytes(), 3), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, _ := consecutiveStopBlocks(p, odd, 7); n != 3 {
		t.Fatalf("escaped session id: counted %d, want 3", n)
	}
	if n, _ := consecutiveStopBlocks(filepath.Join(t.TempDir(), "missing"), "s", 7); n != 0 {
		t.Fatalf("missing log: %d", n)
	}
}

// appendRecordTo writes rec as appendRecord encodes it.
func appendRecordTo(b *bytes.Buffer, rec Record) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(rec)
}

// TestRedactSecrets: credentials never reach hook.log; ordinary commands are unchanged.
func TestRedactSecrets(t *testing.T) {
	for in, want := range map[string]string{
		`curl -H "Authorization: Bearer abcdef123456789" https://api.example.com`: `curl -H "Authorization: Bearer ***" https://api.example.com`,
		`GITHUB_TOKEN=ghp_abc123XYZ git push`:                                     `GITHUB_TOKEN=***`,
		`mysql --password=hunter22 -u root`:                                       `--password=***`,
		`export AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMI"`:                            `AWS_SECRET_ACCESS_KEY="***`,
		`git clone https://user:s3cr3t@github.com/o/r`:                            `https://user:***@github.com/o/r`,
		`go test ./... 2>&1 | tail -n 40`:                                         `go test ./... 2>&1 | tail -n 40`,
		`rm -rf build && echo done`:                                               `rm -rf build && echo done`,
	} {
		got := redactSecrets(in)
		if !strings.Contains(got, want) {
			t.Errorf("redactSecrets(%q) = %q, want it to contain %q", in, got, want)
		}
		for _, secret := range []string{"abcdef123456789", "ghp_abc123XYZ", "hunter22", "wJalrXUtnFEMI", "s3cr3t"} {
			if strings.Contains(got, secret) {
				t.Errorf("redactSecrets(%q) = %q still holds %q", in, got, secret)
			}
		}
	}
}
