package fsutil

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// EachLineBackward visits exactly the non-empty-or-empty lines a forward
// split yields, in reverse, on random content with chunk-crossing lines;
// MaxLine skips the long ones and MaxBytes stops early.
func TestEachLineBackwardMatchesForwardSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		var b bytes.Buffer
		n := rng.IntN(40)
		for i := 0; i < n; i++ {
			l := rng.IntN(5)
			switch rng.IntN(6) {
			case 0:
				l = rng.IntN(200 << 10) // crosses chunks
			case 1:
				l = backwardChunk - 1 + rng.IntN(3)
			}
			b.WriteString(strings.Repeat(string(rune('a'+i%26)), l))
			if i < n-1 || rng.IntN(2) == 0 {
				b.WriteByte('\n')
			}
		}
		data := b.Bytes()
		maxLine := 0
		if trial%3 == 0 {
			maxLine = 70 << 10
		}
		var want []string
		parts := strings.Split(string(data), "\n")
		for i := len(parts) - 1; i >= 0; i-- {
			if i == 0 && parts[0] == "" {
				continue // a leading empty line is never visited (nothing before the first '\n')
			}
			if maxLine > 0 && len(parts[i]) > maxLine {
				continue
			}
			want = append(want, parts[i])
		}
		if len(data) == 0 {
			want = nil
		}
		var got []string
		first := []int{0, 1, 4096, 10000}[trial%4]
		st, err := EachLineBackward(bytes.NewReader(data), int64(len(data)), BackwardOptions{MaxLine: maxLine, FirstChunk: first}, func(line []byte) bool {
			got = append(got, string(line))
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Fatalf("trial %d: got %d lines, want %d (skipped %d)", trial, len(got), len(want), st.Skipped)
		}
	}
}

func TestEachLineBackwardStopsEarly(t *testing.T) {
	data := []byte(strings.Repeat(strings.Repeat("x", 1000)+"\n", 1000) + "last\n")
	var seen []string
	st, err := EachLineBackward(bytes.NewReader(data), int64(len(data)), BackwardOptions{}, func(line []byte) bool {
		seen = append(seen, string(line))
		return string(line) != "last"
	})
	if err != nil || len(seen) != 2 || seen[1] != "last" || st.Read != backwardChunk {
		t.Fatalf("seen %d, read %d, err %v", len(seen), st.Read, err)
	}
	st, _ = EachLineBackward(bytes.NewReader(data), int64(len(data)), BackwardOptions{MaxBytes: 100 << 10}, func([]byte) bool { return true })
	if !st.Truncated || st.Read > 128<<10 {
		t.Fatalf("MaxBytes: %+v", st)
	}
}
