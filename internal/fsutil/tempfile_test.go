package fsutil

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTempTarget(t *testing.T) {
	for name, want := range map[string]string{
		".feature_list.json.tmp-123456": "feature_list.json",
		".a.tmp-1":                      "a",
		".x.tmp-9.tmp-42":               "x.tmp-9",
		".settings.json.tmp-0012":       "settings.json",
	} {
		if got, ok := TempTarget(name); !ok || got != want {
			t.Errorf("TempTarget(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"feature_list.json", "feature_list.json.tmp-1", ".feature_list.json.tmp-", ".feature_list.json.tmp-12a",
		"..tmp-1", ".tmp-1", ".feature_list.json.tmp-1/", ".hidden"} {
		if got, ok := TempTarget(name); ok {
			t.Errorf("TempTarget(%q) = %q, true; want not a temp", name, got)
		}
	}
}

// TestWriteFileAtomicSweepsStaleTemps: a temp left by a killed writer of
// the same target is deleted once older than StaleTempAge; a young temp (a
// live writer's), another target's temp and look-alike names stay.
func TestWriteFileAtomicSweepsStaleTemps(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "state.json")
	old := time.Now().Add(-StaleTempAge - time.Minute)
	files := map[string]bool{ // name → must survive
		".state.json.tmp-111": false, // stale, same target
		".state.json.tmp-222": true,  // young, same target
		".other.json.tmp-333": true,  // stale, other target
		".state.json.tmp-x":   true,  // not a temp name
		"state.json.tmp-444":  true,  // not a temp name
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if name != ".state.json.tmp-222" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := WriteFileAtomic(target, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, survive := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if survive && err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
		if !survive && err == nil {
			t.Errorf("stale %s was not removed", name)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != `{"a":1}` {
		t.Fatalf("target = %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(files) { // target + survivors (4) = 5 = len(files)
		t.Errorf("%d entries left, want %d", len(ents), len(files))
	}
}
