package doctor

import (
	"encoding/json"
	"github.com/superagent-harness/harness/internal/ccsettings"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fixture is a minimal workspace: .harness/ with feature_list (f001
// in_progress) and one feature directory whose settings.json the test writes.
type fixture struct {
	root, fdir, hook string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	root := t.TempDir()
	fdir := filepath.Join(root, ".harness", "features", "f001")
	for _, d := range []string{filepath.Join(fdir, ".claude"), filepath.Join(root, ".harness", "logs"), filepath.Join(root, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, ".harness", "feature_list.json"), `{"features":[{"id":"f001","status":"in_progress"}]}`)
	hook := filepath.Join(root, "bin", "harness-hook")
	// a stand-in hook that reads stdin and says nothing (a silent allow)
	write(t, hook, "#!/bin/sh\ncat >/dev/null\nexit 0\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	return fixture{root: root, fdir: fdir, hook: hook}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goodSettings is what harness init-feature writes (docs/protocol.md §4.6).
func goodSettings(hook, root string) map[string]any {
	h := func(ev string, timeout int) []any {
		m := map[string]any{"type": "command", "command": hook, "timeout": timeout,
			"args": []string{"--event", ev, "--root", root, "--feature", "f001", "--sprint", "sprint_20260421_1"}}
		if ev == "PreToolUse" {
			m["onFailure"] = "block"
		}
		return []any{m}
	}
	return map[string]any{"hooks": map[string]any{
		"SessionStart": []any{map[string]any{"hooks": h("SessionStart", 30)}},
		"PreToolUse": []any{
			map[string]any{"matcher": "Bash", "hooks": h("PreToolUse", 10)},
			map[string]any{"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": h("PreToolUse", 10)},
		},
		"Stop":         []any{map[string]any{"hooks": h("Stop", 30)}},
		"SubagentStop": []any{map[string]any{"hooks": h("SubagentStop", 30)}},
	}}
}

func (f fixture) writeSettings(t *testing.T, v any) {
	t.Helper()
	var data []byte
	if s, ok := v.(string); ok {
		data = []byte(s)
	} else {
		data, _ = json.MarshalIndent(v, "", "  ")
	}
	write(t, filepath.Join(f.fdir, ".claude", "settings.json"), string(data))
}

func (f fixture) run(t *testing.T, probe bool) Report {
	t.Helper()
	return Run(Options{Root: f.root, Home: filepath.Join(f.root, "home"), HookBin: f.hook,
		Env: map[string]string{"PATH": os.Getenv("PATH")}, NoProbe: !probe})
}

// find returns the checks whose status is st and whose detail contains sub.
func find(r Report, st Status, sub string) []Check {
	var out []Check
	for _, c := range r.Checks {
		if c.Status == st && strings.Contains(c.Detail, sub) {
			out = append(out, c)
		}
	}
	return out
}

func dump(t *testing.T, r Report) {
	t.Helper()
	var b strings.Builder
	_ = r.WriteText(&b)
	t.Log("\n" + b.String())
}

func TestDoctorAcceptsInitFeatureSettings(t *testing.T) {
	f := newFixture(t)
	f.writeSettings(t, goodSettings(f.hook, f.root))
	r := f.run(t, false)
	for _, c := range r.Checks {
		if c.Status == StatusFail || (c.Status == StatusWarn && strings.Contains(c.Name, "settings")) {
			t.Errorf("unexpected %s: %s: %s", c.Status, c.Name, c.Detail)
		}
	}
	if len(find(r, StatusOK, "harness-hook wired")) != 1 {
		dump(t, r)
		t.Errorf("no ok line for the feature settings")
	}
}

func TestDoctorCatchesMissingHookBinary(t *testing.T) {
	f := newFixture(t)
	missing := filepath.Join(f.root, "nope", "harness-hook")
	f.writeSettings(t, goodSettings(missing, f.root))
	r := f.run(t, true)
	if r.OK {
		dump(t, r)
		t.Fatal("report OK although every handler points at a missing binary")
	}
	if got := find(r, StatusFail, "does not exist"); len(got) != 5 {
		dump(t, r)
		t.Errorf("%d missing-command failures, want 5 (one per handler)", len(got))
	}
	// the probe of a missing command is a fail-open
	if got := find(r, StatusFail, "fail-open"); len(got) == 0 {
		dump(t, r)
		t.Errorf("probe did not report the fail-open of a missing command")
	}
}

func TestDoctorSettingsMistakes(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(s map[string]any, f fixture)
		status Status
		want   string
	}{
		{"lower-case event key", func(s map[string]any, f fixture) {
			h := s["hooks"].(map[string]any)
			h["preToolUse"] = h["PreToolUse"]
			delete(h, "PreToolUse")
		}, StatusFail, `"preToolUse" is not "PreToolUse"`},
		{"missing --event", func(s map[string]any, f fixture) {
			s["hooks"].(map[string]any)["Stop"] = []any{map[string]any{"hooks": []any{map[string]any{
				"type": "command", "command": f.hook, "timeout": 30, "args": []string{"--root", f.root, "--feature", "f001"}}}}}
		}, StatusFail, "no --event"},
		{"wrong --event", func(s map[string]any, f fixture) {
			s["hooks"].(map[string]any)["Stop"] = []any{map[string]any{"hooks": []any{map[string]any{
				"type": "command", "command": f.hook, "timeout": 30, "args": []string{"--event", "SessionStart", "--root", f.root, "--feature", "f001"}}}}}
		}, StatusFail, "--event SessionStart registered under Stop"},
		{"no timeout", func(s map[string]any, f fixture) {
			g := s["hooks"].(map[string]any)["PreToolUse"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
			delete(g, "timeout")
		}, StatusFail, "no timeout"},
		{"regex matcher that matches too much", func(s map[string]any, f fixture) {
			s["hooks"].(map[string]any)["PreToolUse"].([]any)[1].(map[string]any)["matcher"] = ".*"
		}, StatusWarn, "also runs harness-hook for Read"},
		{"Edit.* misses Write", func(s map[string]any, f fixture) {
			s["hooks"].(map[string]any)["PreToolUse"].([]any)[1].(map[string]any)["matcher"] = "Edit.*"
		}, StatusFail, "does not run harness-hook for Write"},
		{"Bash only", func(s map[string]any, f fixture) {
			p := s["hooks"].(map[string]any)["PreToolUse"].([]any)
			s["hooks"].(map[string]any)["PreToolUse"] = p[:1]
		}, StatusFail, "does not run harness-hook for Edit"},
		{"no Stop", func(s map[string]any, f fixture) { delete(s["hooks"].(map[string]any), "Stop") }, StatusFail, "no harness-hook handler for Stop"},
		{"wrong feature", func(s map[string]any, f fixture) {
			g := s["hooks"].(map[string]any)["Stop"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
			g["args"] = []string{"--event", "Stop", "--root", f.root, "--feature", "f009"}
		}, StatusFail, "--feature f009 in the directory of feature f001"},
		{"wrong root", func(s map[string]any, f fixture) {
			g := s["hooks"].(map[string]any)["Stop"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
			g["args"] = []string{"--event", "Stop", "--root", "/elsewhere/sprint_1", "--feature", "f001"}
		}, StatusFail, "--root /elsewhere/sprint_1 is not this sprint root"},
		{"disableAllHooks", func(s map[string]any, f fixture) { s["disableAllHooks"] = true }, StatusFail, "disableAllHooks"},
		{"no onFailure", func(s map[string]any, f fixture) {
			g := s["hooks"].(map[string]any)["PreToolUse"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
			delete(g, "onFailure")
		}, StatusFail, `no "onFailure": "block"`},
		{"onFailure continue on the Write group", func(s map[string]any, f fixture) {
			g := s["hooks"].(map[string]any)["PreToolUse"].([]any)[1].(map[string]any)["hooks"].([]any)[0].(map[string]any)
			g["onFailure"] = "continue"
		}, StatusFail, `"continue" instead of "onFailure": "block"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			s := goodSettings(f.hook, f.root)
			c.mutate(s, f)
			f.writeSettings(t, s)
			r := f.run(t, false)
			if len(find(r, c.status, c.want)) == 0 {
				dump(t, r)
				t.Fatalf("no %s check containing %q", c.status, c.want)
			}
			if c.status == StatusFail && r.OK {
				t.Errorf("report OK despite a failing check")
			}
		})
	}
}

func TestDoctorCommaMatcherIsExactNames(t *testing.T) {
	// docs/hooks.md §7: only letters, digits, _, -, space, "," and "|"
	// means exact names separated by | or ",".
	f := newFixture(t)
	s := goodSettings(f.hook, f.root)
	s["hooks"].(map[string]any)["PreToolUse"].([]any)[1].(map[string]any)["matcher"] = "Edit, Write,MultiEdit,NotebookEdit"
	f.writeSettings(t, s)
	r := f.run(t, false)
	if !r.OK {
		dump(t, r)
		t.Errorf("comma-separated exact names rejected")
	}
	// ... and not warned about: the real client fires comma lists
	// (internal/e2e TestRealClaudeMatcherSyntax)
	for _, c := range r.Checks {
		if c.Status != StatusOK && strings.Contains(c.Detail, "comma") {
			dump(t, r)
			t.Errorf("comma matcher reported: %+v", c)
		}
	}
}

func TestDoctorInvalidJSONAndUserSettings(t *testing.T) {
	f := newFixture(t)
	f.writeSettings(t, `{"hooks": {"PreToolUse": [`)
	home := filepath.Join(f.root, "home")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"disableAllHooks": true}`)
	r := f.run(t, false)
	if len(find(r, StatusFail, "not a valid settings file")) != 1 {
		dump(t, r)
		t.Errorf("invalid settings JSON not reported")
	}
	if len(find(r, StatusFail, "disableAllHooks")) != 1 {
		dump(t, r)
		t.Errorf("user-level disableAllHooks not reported")
	}
	// doctor never writes the user's settings
	if data, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json")); string(data) != `{"disableAllHooks": true}` {
		t.Errorf("user settings changed: %q", data)
	}
}

func TestDoctorProbeCatchesSilentAllow(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in hook is a shell script")
	}
	f := newFixture(t)
	f.writeSettings(t, goodSettings(f.hook, f.root))
	r := f.run(t, true)
	if got := find(r, StatusFail, "rm -rf /harness-doctor-probe` → allow"); len(got) != 1 {
		dump(t, r)
		t.Errorf("the probe did not catch a hook that allows rm -rf")
	}
	if got := find(r, StatusOK, "`ls -la` → allow"); len(got) != 1 {
		dump(t, r)
		t.Errorf("allow probe not ok")
	}
	if r.OK {
		t.Errorf("report OK with a hook that allows everything")
	}
}

func TestDoctorMissingSettingsOnlyFailsForRunningFeatures(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(filepath.Join(f.root, ".harness", "features", "f002"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := f.run(t, false)
	if len(find(r, StatusFail, "missing: a Claude Code session")) != 1 { // f001 in_progress
		dump(t, r)
		t.Errorf("missing settings of an in_progress feature not a failure")
	}
	if len(find(r, StatusInfo, "no session expected")) != 1 { // f002 unknown status
		dump(t, r)
		t.Errorf("missing settings of a feature not running should be info")
	}
}

// TestDoctorRunsOnlyItsOwnHook: a sandboxed Generator can create a feature
// directory for an id not yet in feature_list.json (docs/sandbox.md §6) with
// a .claude/settings.json that names a program of its own called
// harness-hook. doctor, run by Hermes outside the sandbox, probed the
// wiring by running that program: code of the Generator's, unsandboxed.
// doctor runs only the harness-hook it identifies as its own and says why
// it did not probe the others; the real wiring is still probed.
func TestDoctorRunsOnlyItsOwnHook(t *testing.T) {
	f := newFixture(t)
	f.writeSettings(t, goodSettings(f.hook, f.root))
	planted := filepath.Join(f.root, ".harness", "features", "f099")
	marker := filepath.Join(t.TempDir(), "ran")
	evil := filepath.Join(f.root, "src", "bin", "harness-hook")
	if err := os.MkdirAll(filepath.Dir(evil), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, evil, "#!/bin/sh\necho ran >> "+marker+"\ncat >/dev/null\nexit 0\n")
	if err := os.Chmod(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(planted, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(goodSettings(evil, f.root))
	write(t, filepath.Join(planted, ".claude", "settings.json"), string(data))
	r := f.run(t, true)
	if _, err := os.Stat(marker); err == nil {
		dump(t, r)
		t.Fatal("doctor ran the program a planted settings file names")
	}
	if got := find(r, StatusWarn, "not probed"); len(got) != 3 {
		dump(t, r)
		t.Errorf("%d not-probed warnings, want 3 (Bash deny, Bash allow, Write of f099)", len(got))
	}
	if got := find(r, StatusOK, "Bash `ls -la` → allow"); len(got) != 1 {
		dump(t, r)
		t.Errorf("the real wiring of f001 was not probed")
	}
}

// TestDoctorAcceptsTheWiringWeWrite: the groups init-feature and launch
// write (ccsettings.Wiring.Groups, including the "*" group the monitor needs)
// draw no warning about their matchers: doctor must not warn about the
// harness's own settings.
func TestDoctorAcceptsTheWiringWeWrite(t *testing.T) {
	f := newFixture(t)
	w := ccsettings.Wiring{HookBin: f.hook, Root: f.root, Feature: "f001", Sprint: "sprint_20260421_1"}
	hooks := map[string][]ccsettings.Group{}
	for _, eg := range w.Groups() {
		hooks[eg.Event] = append(hooks[eg.Event], eg.Group)
	}
	f.writeSettings(t, map[string]any{"hooks": hooks})
	r := f.run(t, false)
	for _, c := range r.Checks {
		if (c.Status == StatusWarn || c.Status == StatusFail) && strings.Contains(c.Detail, "matcher") {
			dump(t, r)
			t.Errorf("doctor complains about the wiring the harness writes: %s: %s", c.Status, c.Detail)
		}
	}
	if len(find(r, StatusOK, "harness-hook wired")) != 1 {
		dump(t, r)
		t.Errorf("no ok line for the feature settings")
	}
}
