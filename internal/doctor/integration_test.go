package doctor

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestHarnessDoctorOnInitFeatureWorkspace runs the built `harness doctor`
// on a workspace wired by the built `harness init-feature`: it must pass
// (exit 0) with the real hook answering the probes, and fail (exit 1) once a
// settings.json names a missing binary.
func TestHarnessDoctorOnInitFeatureWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	bins, err := testutil.BuildBinaries()
	if err != nil {
		t.Fatal(err)
	}
	if bins.Harness == "" || bins.Hook == "" {
		t.Fatalf("the binaries do not build: %s %s", bins.HarnessErr, bins.HookErr)
	}
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testutil.Testdata(t, "sprints", "valid-midway"), root)
	for _, f := range []string{"f001", "f002"} {
		if out, err := exec.Command(bins.Harness, "init-feature", f, "--root", root, "--hook-bin", bins.Hook).CombinedOutput(); err != nil {
			t.Fatalf("init-feature %s: %v %s", f, err, out)
		}
	}
	doctor := func() (int, Report, string) {
		cmd := exec.Command(bins.Harness, "doctor", "--root", root, "--json", "--hook-bin", bins.Hook)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		var env struct {
			OK   bool `json:"ok"`
			Data struct {
				Checks []Check `json:"checks"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out, &env); err != nil {
			t.Fatalf("--json output: %v %s", err, out)
		}
		return code, Report{OK: env.OK, Checks: env.Data.Checks}, string(out)
	}
	code, r, out := doctor()
	if code != 0 || !r.OK {
		t.Fatalf("doctor on an init-feature workspace: exit %d\n%s", code, out)
	}
	if n := len(find(r, StatusOK, "→ deny")); n != 4 {
		t.Errorf("%d deny probes ok, want 4 (2 per feature)\n%s", n, out)
	}
	// break one feature's wiring: a missing binary
	p := filepath.Join(root, ".harness", "features", "f002", ".claude", "settings.json")
	data, _ := os.ReadFile(p)
	broken := strings.ReplaceAll(string(data), bins.Hook, filepath.Join(root, "gone", "harness-hook"))
	if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, r, out = doctor()
	if code != 1 || r.OK {
		t.Fatalf("doctor with a missing hook binary: exit %d\n%s", code, out)
	}
	if len(find(r, StatusFail, "does not exist")) == 0 {
		t.Errorf("no failure naming the missing command\n%s", out)
	}
}
