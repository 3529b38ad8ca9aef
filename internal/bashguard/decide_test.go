package bashguard

import (
	"errors"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

func TestDecisionNamesSubcommandRuleAndHint(t *testing.T) {
	res := Decide(`echo hi && git push --force origin main && sudo ls`, Context{Feature: "f002"})
	d := res.Decision
	if d.Action != verdict.Block || d.Rule != "git.push-force" || d.Family != "git_history" {
		t.Fatalf("got %+v, want the first blocking rule (git.push-force)", d)
	}
	if !strings.Contains(d.Subject, "git push --force origin main") {
		t.Errorf("subject %q does not name the sub-command", d.Subject)
	}
	if d.Hint == "" || d.Message == "" {
		t.Errorf("message %q / hint %q empty", d.Message, d.Hint)
	}
	var rules []string
	for _, m := range res.Matches {
		rules = append(rules, m.Rule)
		if m.Invocation < 0 || m.Invocation >= len(res.Invocations) {
			t.Errorf("match %s points at invocation %d of %d", m.Rule, m.Invocation, len(res.Invocations))
		}
	}
	if strings.Join(rules, ",") != "git.push-force,priv.sudo" {
		t.Errorf("matches %v", rules)
	}
}

func TestStrongestWins(t *testing.T) {
	for cmd, want := range map[string]string{
		"curl -X DELETE http://x; rm -rf y":      "fs.rm-recursive-force",
		"npm publish; curl -X PUT http://x":      "warn.publish",
		"git push --prune origin && chmod 777 f": "perms.world-writable",
		"ls; pwd":                                "",
	} {
		if got := Decide(cmd, Context{}).Decision.Rule; got != want {
			t.Errorf("%q: decided by %q, want %q", cmd, got, want)
		}
	}
}

func TestNestedMessageNamesPath(t *testing.T) {
	d := Decide(`bash -c "eval 'sudo id'"`, Context{}).Decision
	if !strings.Contains(d.Message, "bash -c") || !strings.Contains(d.Message, "eval") {
		t.Errorf("message %q does not name the nesting path", d.Message)
	}
}

func TestUnparseableReportsParseError(t *testing.T) {
	res := Decide("rm -rf build\nfi", Context{})
	if res.ParseError == nil || len(res.Errors) == 0 {
		t.Fatal("parse error not reported")
	}
	if res.Decision.Action != verdict.Block || !strings.Contains(res.Decision.Message, "could not be parsed") {
		t.Errorf("decision %+v does not say the command could not be parsed", res.Decision)
	}
	res = Decide("echo \"hello", Context{})
	if res.ParseError == nil || res.Decision.Action != verdict.Allow {
		t.Errorf("harmless unparseable: %+v, %v", res.Decision, res.ParseError)
	}
}

func TestHarnessAdminOnlyInGeneratorSession(t *testing.T) {
	for _, cmd := range []string{"harness yolo start", "harness phase complete f003"} {
		if a := Decide(cmd, Context{Feature: "f002"}).Decision.Action; a != verdict.Block {
			t.Errorf("%q in a Generator session: %s", cmd, a)
		}
		if a := Decide(cmd, Context{}).Decision.Action; a != verdict.Allow {
			t.Errorf("%q outside a Generator session: %s", cmd, a)
		}
	}
	if a := Decide("harness reset && git push -f", Context{}).Decision; a.Rule != "git.push-force" {
		t.Errorf("other families must still apply without a feature: %+v", a)
	}
}

type fakePaths struct{ calls []shell.Invocation }

func (f *fakePaths) CheckInvocation(inv shell.Invocation, cwd string) verdict.Decision {
	f.calls = append(f.calls, inv)
	for _, r := range inv.Redirects {
		if strings.Contains(r.Target.Value, "schemas/") {
			return verdict.Decision{Action: verdict.Block, Rule: ruleid.PathReadonlyDir, Family: "readonly_dir", Message: "schemas/ is read-only", Subject: r.Target.Value}
		}
	}
	return verdict.Decision{}
}

func TestPathCheckerIsConsulted(t *testing.T) {
	p := &fakePaths{}
	res := Decide(`echo x > schemas/a.json; git status`, Context{Paths: p, Cwd: "/r"})
	if res.Decision.Rule != ruleid.PathReadonlyDir || len(p.calls) != 2 {
		t.Errorf("path guard: decision %+v after %d calls", res.Decision, len(p.calls))
	}
	// an earlier command-policy block stays first on ties
	res = Decide(`sudo id; echo x > schemas/a.json`, Context{Paths: &fakePaths{}})
	if res.Decision.Rule != "priv.sudo" {
		t.Errorf("tie: decided by %s", res.Decision.Rule)
	}
}

func TestBlankCommandAllowed(t *testing.T) {
	for _, cmd := range []string{"", " ", "\n\t\n"} {
		res := Decide(cmd, Context{Feature: "f002"})
		if res.Decision.Action != verdict.Allow || res.ParseError != nil || !errors.Is(nil, res.ParseError) {
			t.Errorf("%q: %+v", cmd, res)
		}
	}
}

func TestExplain(t *testing.T) {
	out := Decide(`cd build && bash -c 'sudo rm -rf x'; f(){ f & }`, Context{}).Explain()
	for _, want := range []string{"verdict: block [priv.sudo]", "hint: ", "via bash -c", "dir build", "block priv.sudo", "block fs.rm-recursive-force", "(whole command) block forkbomb.self-background"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
}
