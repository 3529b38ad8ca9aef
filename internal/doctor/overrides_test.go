package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorOverrideFiles: outside a sprint doctor reads the override
// files with the hook's loader: a valid one is reported applied, an invalid
// one fails (the hook would ignore both and run the preset unchanged).
func TestDoctorOverrideFiles(t *testing.T) {
	dir := t.TempDir()
	proj, home := filepath.Join(dir, "proj"), filepath.Join(dir, "home")
	for _, d := range []string{filepath.Join(proj, ".claude"), filepath.Join(home, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Cwd: proj, Home: home}
	if cs := checkOverrideFiles(o); len(cs) != 0 {
		t.Fatalf("no files: %+v", cs)
	}
	user := filepath.Join(home, ".claude", "harness.yaml")
	if err := os.WriteFile(user, []byte("warn: [git.push-force]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cs := checkOverrideFiles(o); len(cs) != 1 || cs[0].Status != StatusOK || !strings.Contains(cs[0].Detail, user) {
		t.Fatalf("valid user file: %+v", cs)
	}
	if err := os.WriteFile(filepath.Join(proj, ".claude", "harness.yaml"), []byte("disable: [no.such-rule]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := checkOverrideFiles(o)
	if len(cs) != 1 || cs[0].Status != StatusFail || !strings.Contains(cs[0].Detail, "no.such-rule") || !strings.Contains(cs[0].Detail, "preset unchanged") {
		t.Fatalf("invalid project file: %+v", cs)
	}
}
