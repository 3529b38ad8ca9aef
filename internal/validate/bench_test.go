package validate

import (
	"path/filepath"
	"testing"
)

// BenchmarkValidate measures `harness validate` on the finished fixture
// sprint (read-only, so it runs in place).
func BenchmarkValidate(b *testing.B) {
	root := filepath.Join(sprints, "valid-complete")
	for b.Loop() {
		r, err := Validate(root)
		if err != nil || !r.Valid() {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkFinalizeCheck measures `harness finalize --check` on it.
func BenchmarkFinalizeCheck(b *testing.B) {
	root := filepath.Join(sprints, "valid-complete")
	for b.Loop() {
		r, err := FinalizeCheck(root)
		if err != nil || !r.Valid() {
			b.Fatal(err, r)
		}
	}
}
