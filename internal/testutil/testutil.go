// Package testutil holds the helpers the tests of several packages share:
// finding the repository and its testdata/, copying a fixture tree into a
// temporary directory, ageing files by their mtime, and building the harness
// binaries once per test binary. It is for tests (and scripts/benchlatency)
// only; product code never imports it.
package testutil

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// ModuleRoot returns the repository root: the nearest directory at or above
// the working directory that holds go.mod (a test runs in its package's
// directory). The error says when there is none.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && st.Mode().IsRegular() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory: run inside the harness module")
		}
		dir = parent
	}
}

// RepoRoot is ModuleRoot for a test: it fails t when there is no module.
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// Testdata returns the absolute path of elems under the repository's
// testdata/ (corpus/, sprints/, hook-input/, contract/).
func Testdata(t testing.TB, elems ...string) string {
	t.Helper()
	return filepath.Join(append([]string{RepoRoot(t), "testdata"}, elems...)...)
}

// CopyDir copies the directory tree src into dst (created when missing) with
// os.CopyFS: directories, regular files (mode 0666 plus the source's execute
// bits, before umask) and symbolic links (recreated with the same target); a
// FIFO, socket or device in src, or a file that already exists in dst, is an
// error.
func CopyDir(src, dst string) error {
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		return fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	return nil
}

// CopyTree is CopyDir for a test: it fails t on any error.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	if err := CopyDir(src, dst); err != nil {
		t.Fatal(err)
	}
}

// CopyFixture copies testdata/sprints/<name> into a fresh temporary
// directory (removed with t) and returns that directory, the sprint root.
func CopyFixture(t testing.TB, name string) string {
	t.Helper()
	dst := t.TempDir()
	CopyTree(t, Testdata(t, "sprints", name), dst)
	return dst
}

// SetMTimes sets the access and modification time of each file of ages (a
// slash-separated path relative to root) to now minus its age in seconds:
// the mtime_age_seconds of the sprint fixtures' expectations (testdata/sprints/README.md
// §2 step 2).
func SetMTimes[Seconds ~int | ~int64](t testing.TB, root string, ages map[string]Seconds, now time.Time) {
	t.Helper()
	for rel, age := range ages {
		mt := now.Add(-time.Duration(age) * time.Second)
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
}

// SprintCase is one expectation of the sprint fixtures: an entry of
// testdata/sprints/valid-cases.json or a broken/*/EXPECT.json (testdata/sprints/README.md
// §2).
type SprintCase struct {
	// Case names the fixture: "valid-midway", or "broken/<dir>" for an
	// EXPECT.json.
	Case string `json:"case"`
	// Command is what runs on it: validate, finalize-check or stop.
	Command string `json:"command"`
	// FeatureID is the running feature of a stop case (nil when none).
	FeatureID *string `json:"feature_id"`
	// Expect is "pass" or "fail" (validate, finalize-check), "allow" or
	// "block" (stop).
	Expect string `json:"expect"`
	// Rule is the rule id a failing case must report (nil when not given).
	Rule *string `json:"rule"`
	// MustMention are strings the output must contain.
	MustMention []string `json:"must_mention"`
	// MtimeAgeSeconds ages files (slash paths under the root) before the
	// run; see SetMTimes.
	MtimeAgeSeconds map[string]int64 `json:"mtime_age_seconds"`
	// Dir is the absolute path of the fixture workspace.
	Dir string `json:"-"`
}

// SprintCases reads every expectation of testdata/sprints: valid-cases.json
// in file order, then broken/*/EXPECT.json in name order.
func SprintCases(t testing.TB) []SprintCase {
	t.Helper()
	dir := Testdata(t, "sprints")
	var out []SprintCase
	data, err := os.ReadFile(filepath.Join(dir, "valid-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("valid-cases.json: %v", err)
	}
	for i := range out {
		out[i].Dir = filepath.Join(dir, filepath.FromSlash(out[i].Case))
	}
	expects, err := filepath.Glob(filepath.Join(dir, "broken", "*", "EXPECT.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range expects {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var c SprintCase
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		c.Dir = filepath.Dir(p)
		c.Case = "broken/" + filepath.Base(c.Dir)
		out = append(out, c)
	}
	return out
}

// Binaries are the paths of the harness executables built for this test
// binary.
type Binaries struct {
	// Harness is the CLI (cmd/harness); "" when it did not build.
	Harness string
	// Hook is the hook (cmd/harness-hook); "" when it did not build.
	Hook string
	// HarnessErr and HookErr hold the build error of each ("" when built).
	HarnessErr, HookErr string
}

// builds holds the binaries built by this test binary (test-only state: one
// temporary directory, one build per command, removed by Main).
var builds struct {
	mu   sync.Mutex
	dir  string
	done map[string]func() (string, error)
}

// Build builds cmd/<name> of the repository once per test binary, as a
// static executable (CGO_ENABLED=0, -trimpath, ".exe" on Windows) into a
// temporary directory that Main removes, and returns its path. The error
// carries the go build output.
func Build(name string) (string, error) {
	builds.mu.Lock()
	if builds.done == nil {
		builds.done = map[string]func() (string, error){}
	}
	once, ok := builds.done[name]
	if !ok {
		once = sync.OnceValues(func() (string, error) { return build(name) })
		builds.done[name] = once
	}
	builds.mu.Unlock()
	return once()
}

func build(name string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	builds.mu.Lock()
	if builds.dir == "" {
		builds.dir, err = os.MkdirTemp("", "harness-test-bin-")
	}
	dir := builds.dir
	builds.mu.Unlock()
	if err != nil {
		return "", err
	}
	exe := name
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	out := filepath.Join(dir, exe)
	if err := GoBuild(root, "./cmd/"+name, out); err != nil {
		return "", err
	}
	return out, nil
}

// GoBuild runs `go build -trimpath -o out pkg` in dir with CGO_ENABLED=0
// (the shipped, static build). The error carries the compiler's output.
func GoBuild(dir, pkg, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, strings.TrimSpace(string(msg)))
	}
	return nil
}

// BuildBinaries builds cmd/harness-hook and cmd/harness (each once per test
// binary, see Build). A command that does not build is reported in
// HookErr/HarnessErr, not as an error; the error is only for a missing
// module.
func BuildBinaries() (Binaries, error) {
	if _, err := ModuleRoot(); err != nil {
		return Binaries{}, err
	}
	var b Binaries
	var err error
	if b.Hook, err = Build("harness-hook"); err != nil {
		b.HookErr = err.Error()
	}
	if b.Harness, err = Build("harness"); err != nil {
		b.HarnessErr = err.Error()
	}
	return b, nil
}

// Main runs the tests of m with a private per-user state directory and
// then removes it and the binaries Build made; a package that builds them
// calls it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testutil.Main(m)) }
//
// The state directory: XDG_STATE_HOME, which internal/userlog prefers on
// every OS, is set to a temporary directory for the whole test binary, so
// a hook a test runs outside a sprint (in-process or as a child that
// inherits the environment) records its decisions there and not in the
// user's own hook.log, where `harness logs` would show them as real
// decisions. A test that needs another state dir passes its own.
func Main(m *testing.M) int {
	state, err := os.MkdirTemp("", "harness-test-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testutil.Main:", err)
		return 2
	}
	defer os.RemoveAll(state)
	if err := os.Setenv("XDG_STATE_HOME", state); err != nil {
		fmt.Fprintln(os.Stderr, "testutil.Main:", err)
		return 2
	}
	code := m.Run()
	builds.mu.Lock()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
		builds.dir = ""
	}
	builds.done = nil
	builds.mu.Unlock()
	return code
}
