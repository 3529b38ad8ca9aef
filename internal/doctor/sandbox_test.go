package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/launch"
)

// launchedFixture is newFixture with f001 recorded as a launched session:
// its settings file (what harness launch writes, or weakened by weaken) and
// a pool entry; with proof, hook.log holds its SessionStart record.
func launchedFixture(t *testing.T, sandbox, proof bool, weaken func(*ccsettings.Settings)) (fixture, Options) {
	t.Helper()
	f := newFixture(t)
	f.writeSettings(t, goodSettings(f.hook, f.root))
	harnessBin := filepath.Join(filepath.Dir(f.hook), "harness")
	env := map[string]string{"PATH": os.Getenv("PATH")}
	in := launch.PolicyFor(f.root, "f001", []string{"f001"}, harnessBin, f.hook, env)
	data, err := launch.SessionSettings(ccsettings.Wiring{HookBin: f.hook, Root: f.root, Feature: "f001", Sprint: "sprint_20260421_1"}, launch.BuildPolicy(in), !sandbox)
	if err != nil {
		t.Fatal(err)
	}
	if weaken != nil {
		s, _ := ccsettings.Decode(data)
		weaken(&s)
		d := ccsettings.New()
		_ = d.SetSandbox(*s.Sandbox)
		_ = d.SetPermissions(*s.Permissions)
		_ = d.SetHooks(ccsettings.Wiring{HookBin: f.hook, Root: f.root, Feature: "f001", Sprint: "sprint_20260421_1"})
		data, _ = d.Bytes()
	}
	sid := "0f0f0f0f-1111-4222-8333-444444444444"
	rel := ".harness/sessions/" + sid + "/settings.json"
	if err := os.MkdirAll(filepath.Join(f.root, ".harness", "sessions", sid), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.root, filepath.FromSlash(rel)), string(data))
	reason := ""
	if !sandbox {
		reason = `,"no_sandbox_reason":"no user namespaces here"`
	}
	write(t, filepath.Join(f.root, ".harness", "session_pool.json"), fmt.Sprintf(`{"max_concurrent":2,"policy":"start_when_dependency_ready","active":{"f001":
	{"session_id":%q,"session_type":"cc-print","status":"running","started_at":"2026-12-01T10:00:00Z","launch":{"settings":%q,"sandbox":%v%s,"mode":"print"}}}}`, sid, rel, sandbox, reason))
	if proof {
		write(t, filepath.Join(f.root, ".harness", "logs", "hook.log"), fmt.Sprintf(`{"time":"2026-12-01T10:00:01Z","event":"SessionStart","session":%q,"feature":"f001","verdict":"allow","duration_us":1}`+"\n", sid))
	}
	return f, Options{Root: f.root, Home: filepath.Join(f.root, "home"), HookBin: f.hook, HarnessBin: harnessBin, Env: env, NoProbe: true}
}

func TestDoctorLaunchedSessionHoldsThePolicy(t *testing.T) {
	_, o := launchedFixture(t, true, true, nil)
	r := Run(o)
	if got := find(r, StatusOK, "sandboxed; its settings hold the policy"); len(got) != 1 {
		dump(t, r)
		t.Fatalf("no OK line for the launched session")
	}
	if got := find(r, StatusOK, "the settings harness launch writes deny every protected path"); len(got) != 1 {
		dump(t, r)
		t.Fatalf("no OK line for the launch policy")
	}
	for _, c := range r.Checks {
		if strings.HasPrefix(c.Name, "session ") && c.Status != StatusOK {
			dump(t, r)
			t.Fatalf("session check %s: %s", c.Status, c.Detail)
		}
	}
}

func TestDoctorWarnsAboutNoSandboxAndUnguarded(t *testing.T) {
	_, o := launchedFixture(t, false, false, nil)
	r := Run(o)
	if got := find(r, StatusWarn, "runs WITHOUT the sandbox (harness launch --no-sandbox: no user namespaces here)"); len(got) != 1 {
		dump(t, r)
		t.Errorf("no warning for the --no-sandbox session")
	}
	if got := find(r, StatusWarn, "is UNGUARDED"); len(got) != 1 {
		dump(t, r)
		t.Errorf("no warning for the session without a SessionStart record")
	}
}

func TestDoctorFailsAWeakenedSessionSettings(t *testing.T) {
	_, o := launchedFixture(t, true, true, func(s *ccsettings.Settings) {
		s.Sandbox.AllowUnsandboxedCommands = ccsettings.Bool(true)
		s.Sandbox.ExcludedCommands = append(s.Sandbox.ExcludedCommands, "python3 *")
	})
	r := Run(o)
	for _, want := range []string{"allowUnsandboxedCommands is not false", `excludedCommands has "python3 *"`} {
		if got := find(r, StatusFail, want); len(got) != 1 {
			dump(t, r)
			t.Errorf("no FAIL line %q", want)
		}
	}
	if r.OK {
		t.Error("doctor passes a session whose settings let commands out of the sandbox")
	}
}
