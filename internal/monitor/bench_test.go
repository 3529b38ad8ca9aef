package monitor

import (
	"path/filepath"
	"testing"
)

// BenchmarkReadTranscript reads the latest usage of a transcript the real
// client wrote (the PreToolUse hot path's share of the measurement).
func BenchmarkReadTranscript(b *testing.B) {
	p := filepath.Join("testdata", "growing-usage.jsonl")
	for b.Loop() {
		rd, err := ReadTranscript(p)
		if err != nil || !rd.Found {
			b.Fatal(rd, err)
		}
	}
}
