package doctor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/ccsettings"
)

// projectFixture is an ordinary project (no .harness/) and a home directory,
// with the stand-in hook of newFixture (a silent allow).
type projectFixture struct {
	proj, home, hook string
}

func newProjectFixture(t *testing.T) projectFixture {
	f := newFixture(t)
	p := projectFixture{proj: filepath.Join(f.root, "proj"), home: filepath.Join(f.root, "home"), hook: f.hook}
	for _, d := range []string{filepath.Join(p.proj, ".claude"), filepath.Join(p.home, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func (p projectFixture) run(t *testing.T, probe bool) Report {
	t.Helper()
	return Run(Options{Cwd: p.proj, Home: p.home, HookBin: p.hook,
		Env: map[string]string{"PATH": os.Getenv("PATH")}, NoProbe: !probe})
}

// installed is what harness install writes (ccsettings.Wiring.GuardGroups).
func installed(t *testing.T, hook string) []byte {
	t.Helper()
	out, err := ccsettings.SpliceHooks([]byte(`{"model": "opus"}`), hook, ccsettings.Wiring{HookBin: hook, Preset: "standard"}.GuardGroups())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDoctorOutsideASprintFailsUntilWired: with no settings file, or one
// whose only harness-hook entry cannot fire, doctor fails with the install
// fix; once a project or user settings file wires the guard it passes that
// check, whichever of the three files carries it.
func TestDoctorOutsideASprintFailsUntilWired(t *testing.T) {
	p := newProjectFixture(t)
	r := p.run(t, false)
	if c := find(r, StatusFail, "wires harness-hook as a working PreToolUse guard"); len(c) != 1 || c[0].Fix != "run harness install (this project) or harness install --user (every project)" {
		dump(t, r)
		t.Fatalf("no wiring failure with the install fix")
	}
	good := installed(t, p.hook)
	var doc map[string]any
	if err := json.Unmarshal(good, &doc); err != nil {
		t.Fatal(err)
	}
	pre := doc["hooks"].(map[string]any)["PreToolUse"].([]any)
	broken := map[string]func(){
		"wrong-case event key": func() {
			doc["hooks"] = map[string]any{"pretooluse": pre}
		},
		"no onFailure": func() {
			for _, g := range pre {
				delete(g.(map[string]any)["hooks"].([]any)[0].(map[string]any), "onFailure")
			}
		},
		"missing binary": func() {
			for _, g := range pre {
				g.(map[string]any)["hooks"].([]any)[0].(map[string]any)["command"] = filepath.Join(p.proj, "gone", "harness-hook")
			}
		},
	}
	for name, breakIt := range broken {
		t.Run(name, func(t *testing.T) {
			if err := json.Unmarshal(good, &doc); err != nil {
				t.Fatal(err)
			}
			pre = doc["hooks"].(map[string]any)["PreToolUse"].([]any)
			breakIt()
			data, _ := json.Marshal(doc)
			write(t, filepath.Join(p.proj, ".claude", "settings.json"), string(data))
			r := p.run(t, false)
			if r.OK || len(find(r, StatusFail, "wires harness-hook as a working PreToolUse guard")) != 1 {
				dump(t, r)
				t.Fatalf("a settings file whose guard cannot fire counts as wired")
			}
		})
	}
	for _, where := range []string{
		filepath.Join(p.proj, ".claude", "settings.json"),
		filepath.Join(p.proj, ".claude", "settings.local.json"),
		filepath.Join(p.home, ".claude", "settings.json"),
	} {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(where)))+"/"+filepath.Base(where), func(t *testing.T) {
			for _, f := range []string{"settings.json", "settings.local.json"} {
				os.Remove(filepath.Join(p.proj, ".claude", f))
			}
			os.Remove(filepath.Join(p.home, ".claude", "settings.json"))
			write(t, where, string(good))
			r := p.run(t, false)
			if len(find(r, StatusOK, "harness-hook guards Bash and the file tools")) != 1 || len(find(r, StatusFail, "wires harness-hook")) != 0 {
				dump(t, r)
				t.Fatalf("the guard in %s is not seen", where)
			}
		})
	}
}

// TestDoctorOutsideASprintProbesEveryWiredFile: each file that wires the
// guard has its own command line run; a hook that allows everything fails
// the deny probe of each.
func TestDoctorOutsideASprintProbesEveryWiredFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in hook is a shell script")
	}
	p := newProjectFixture(t)
	good := installed(t, p.hook)
	write(t, filepath.Join(p.proj, ".claude", "settings.json"), string(good))
	write(t, filepath.Join(p.home, ".claude", "settings.json"), string(good))
	r := p.run(t, true)
	if n := len(find(r, StatusFail, "rm -rf /harness-doctor-probe` → allow, but it must be denied")); n != 2 {
		dump(t, r)
		t.Fatalf("%d failed deny probes, want one per wired file (2)", n)
	}
	if r.OK {
		t.Errorf("report OK with a hook that allows everything")
	}
}

// TestDoctorInTheHomeDirectoryChecksTheUserSettingsOnce: started in the
// home directory, the project's .claude/settings.json is the user's file;
// doctor lists it once in the wiring failure and, once it wires the guard,
// reports and probes it once (as the user's, fixed with install --user).
func TestDoctorInTheHomeDirectoryChecksTheUserSettingsOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in hook is a shell script")
	}
	p := newProjectFixture(t)
	user := filepath.Join(p.home, ".claude", "settings.json")
	run := func() Report {
		return Run(Options{Cwd: p.home, Home: p.home, HookBin: p.hook,
			Env: map[string]string{"PATH": os.Getenv("PATH")}})
	}
	r := run()
	c := find(r, StatusFail, "wires harness-hook as a working PreToolUse guard")
	if len(c) != 1 {
		dump(t, r)
		t.Fatalf("no wiring failure")
	}
	if n := strings.Count(c[0].Detail, user); n != 1 {
		t.Errorf("the failure names %s %d times, want once: %s", user, n, c[0].Detail)
	}
	write(t, user, string(installed(t, p.hook)))
	r = run()
	if n := len(find(r, StatusOK, "harness-hook guards Bash and the file tools")); n != 1 {
		dump(t, r)
		t.Errorf("%d wiring checks for the one settings file, want 1", n)
	}
	probes := 0
	for _, ch := range r.Checks {
		if strings.HasPrefix(ch.Name, "probe ") && strings.Contains(ch.Detail, "rm -rf /harness-doctor-probe") {
			probes++
		}
	}
	if probes != 1 {
		dump(t, r)
		t.Errorf("%d deny probes of the one settings file, want 1", probes)
	}
}
