package shell

import (
	"reflect"
	"strings"
	"testing"
)

// progs returns the program names of every invocation, in order.
func progs(r Result) []string {
	var out []string
	for _, inv := range r.Invocations {
		out = append(out, inv.Program)
	}
	return out
}

func find(t *testing.T, r Result, prog string) Invocation {
	t.Helper()
	for _, inv := range r.Invocations {
		if inv.Program == prog {
			return inv
		}
	}
	t.Fatalf("no invocation of %s in %v", prog, progs(r))
	return Invocation{}
}

func values(inv Invocation) []string {
	out := make([]string, len(inv.Args))
	for i, a := range inv.Args {
		out[i] = a.Value
	}
	return out
}

func TestWalkFindsEveryExecutionPlace(t *testing.T) {
	cases := []struct {
		cmd  string
		want string // program that must be found
		via  string // expected outermost via element ("" = top level)
	}{
		{"a; rm x", "rm", ""},
		{"a && rm x || b", "rm", ""},
		{"a | rm x |& b", "rm", ""},
		{"if a; then rm x; else b; fi", "rm", ""},
		{"while a; do rm x; done", "rm", ""},
		{"case y in y) rm x;; esac", "rm", ""},
		{"{ rm x; }", "rm", ""},
		{"(rm x)", "rm", ""},
		{"f() { rm x; }", "rm", "function f"},
		{"echo \"$(rm x)\"", "rm", "$( )"},
		{"echo `rm x`", "rm", "$( )"},
		{"x=$(rm x)", "rm", "$( )"},
		{"echo > $(rm x)", "rm", "$( )"},
		{"echo $(( $(rm x) ))", "rm", "$(( ))"},
		{"diff <(rm x) y", "rm", "<( )"},
		{"cat <<EOF\n$(rm x)\nEOF", "rm", "$( )"},
		{"bash -c 'rm x'", "rm", "bash -c"},
		{"sh -xc 'rm x'", "rm", "sh -c"},
		{"bash <<'EOF'\nrm x\nEOF", "rm", "bash stdin"},
		{"echo 'rm x' | sh", "rm", "sh stdin"},
		{"bash <(echo 'rm x')", "rm", "bash <( )"},
		{"eval 'rm x'", "rm", "eval"},
		{"trap 'rm x' EXIT", "rm", "trap"},
		{"ssh h 'rm x'", "rm", "ssh"},
		{"echo 'rm x' | ssh h", "rm", "ssh stdin"},
		{"docker exec -u root c rm x", "rm", "docker exec"},
		{"kubectl exec p -c app -- rm x", "rm", "kubectl exec"},
		{"timeout 5 nice -n 3 rm x", "rm", "timeout"},
		{"xargs rm", "rm", "xargs"},
		{"find . -exec rm {} +", "rm", "find -exec"},
		{"watch 'rm x'", "rm", "watch"},
		{`python3 -c "import os; os.system('rm x')"`, "rm", "python3 os.system"},
	}
	for _, c := range cases {
		r := Parse(c.cmd, Options{})
		if r.ParseError != nil {
			t.Errorf("%q: parse error %v", c.cmd, r.ParseError)
		}
		found := false
		for _, inv := range r.Invocations {
			if inv.Program != c.want {
				continue
			}
			found = true
			got := ""
			if len(inv.Via) > 0 {
				got = inv.Via[0]
			}
			if got != c.via {
				t.Errorf("%q: %s via %v, want first %q", c.cmd, c.want, inv.Via, c.via)
			}
		}
		if !found {
			t.Errorf("%q: %s not found (got %v)", c.cmd, c.want, progs(r))
		}
	}
}

func TestDataIsNotRun(t *testing.T) {
	for _, cmd := range []string{
		"echo 'rm x'",
		"echo \"\\$(rm x)\"",
		"echo '$(rm x)'",
		"ls # rm x",
		"cat <<'EOF'\n$(rm x)\nEOF",
		"cat <<EOF\nrm x\nEOF",
		"MSG='rm x' make",
		"export X='rm x'",
		"git commit -m 'rm x'",
		"python3 -c \"print('rm x')\"",
		"alias r='rm x'",
		"cat f | ssh h 'cat > /tmp/f'",
	} {
		r := Parse(cmd, Options{})
		for _, inv := range r.Invocations {
			if inv.Program == "rm" {
				t.Errorf("%q: data run as a command (via %v)", cmd, inv.Via)
			}
		}
	}
}

func TestWordNormalisation(t *testing.T) {
	cases := []struct {
		cmd  string
		prog string
		args []string
	}{
		{`r''m "-r"'f' x`, "rm", []string{"-rf", "x"}},
		{`\rm -r\f x`, "rm", []string{"-rf", "x"}},
		{"rm -r\\\nf x", "rm", []string{"-rf", "x"}},
		{`$'\x72m' $'-\162f'`, "rm", []string{"-rf"}},
		{`/usr/bin/../bin/rm x`, "rm", []string{"x"}},
		{`{rm,-rf,x}`, "rm", []string{"-rf", "x"}},
		{`c=rm; $c -rf x`, "rm", []string{"-rf", "x"}},
		{`RM="rm -rf"; $RM x`, "rm", []string{"-rf", "x"}},
		{`rm${IFS}-rf${IFS}x`, "rm", []string{"-rf", "x"}},
		{`$(echo rm) -rf x`, "rm", []string{"-rf", "x"}},
		{`"$(which sudo)" id`, "sudo", []string{"id"}},
		{`for m in 777; do chmod $m f; done`, "chmod", []string{"777", "f"}},
		{`a=(git push -f); "${a[@]}"`, "git", []string{"push", "-f"}},
		{`x=RM; ${x,,} -rf y`, "rm", []string{"-rf", "y"}},
	}
	for _, c := range cases {
		r := Parse(c.cmd, Options{})
		inv := find(t, r, c.prog)
		if got := values(inv); !reflect.DeepEqual(got, c.args) {
			t.Errorf("%q: args %q, want %q", c.cmd, got, c.args)
		}
	}
}

func TestUnknownStaysUnknown(t *testing.T) {
	r := Parse(`$CMD -rf x; rm "$TARGET"`, Options{})
	if len(r.Invocations) != 2 || r.Invocations[0].Program != "" {
		t.Fatalf("unknown command name resolved: %v", progs(r))
	}
	if a := r.Invocations[1].Args[0]; a.Known || a.Raw != `"$TARGET"` {
		t.Errorf("unknown operand: %+v", a)
	}
}

func TestDirEnvRedirectsStdin(t *testing.T) {
	r := Parse("cd src && pushd pkg; (cd /tmp; touch a); export AWS_PROFILE=p KUBECONFIG=k; X=1 tee -a log >>out 2>&1 <<<hi; cd \"$D\"; rm y", Options{})
	touch := find(t, r, "touch")
	if touch.Dir != "/tmp" {
		t.Errorf("touch dir %q", touch.Dir)
	}
	tee := find(t, r, "tee")
	if tee.Dir != "src/pkg" {
		t.Errorf("tee dir %q, want src/pkg (subshell cd must not leak)", tee.Dir)
	}
	if tee.Env["AWS_PROFILE"] != "p" || tee.Env["KUBECONFIG"] != "k" || tee.Env["X"] != "1" {
		t.Errorf("tee env %v", tee.Env)
	}
	if len(tee.Redirects) != 3 || tee.Redirects[0].Op != ">>" || tee.Redirects[0].Target.Value != "out" || tee.Redirects[1].Fd != "2" {
		t.Errorf("tee redirects %+v", tee.Redirects)
	}
	if tee.Stdin == nil || *tee.Stdin != "hi\n" {
		t.Errorf("tee stdin %v", tee.Stdin)
	}
	if rm := find(t, r, "rm"); rm.Dir != DirUnknown {
		t.Errorf("rm dir after cd \"$D\": %q", rm.Dir)
	}
	r = Parse("> trunc.txt", Options{})
	if len(r.Invocations) != 1 || r.Invocations[0].Program != "" || r.Invocations[0].Redirects[0].Target.Value != "trunc.txt" {
		t.Errorf("bare redirection not recorded: %+v", r.Invocations)
	}
	r = Parse("{ echo a; } > f; V=/dev/sdb; cat i > $V; exec 3>>log", Options{Vars: map[string]string{"HARNESS_ROOT": "/r"}})
	if e := find(t, r, "echo"); len(e.Redirects) != 1 || e.Redirects[0].Target.Value != "f" {
		t.Errorf("compound redirect not inherited: %+v", e.Redirects)
	}
	if c := find(t, r, "cat"); c.Redirects[0].Target.Value != "/dev/sdb" {
		t.Errorf("variable redirect target %+v", c.Redirects)
	}
	if e := find(t, r, "exec"); e.Redirects[0].Op != ">>" || e.Redirects[0].Fd != "3" {
		t.Errorf("exec redirect %+v", e.Redirects)
	}
	r = Parse(`echo x >> "$HARNESS_ROOT/.harness/eval_log.jsonl"`, Options{Vars: map[string]string{"HARNESS_ROOT": "/r"}})
	if e := find(t, r, "echo"); e.Redirects[0].Target.Value != "/r/.harness/eval_log.jsonl" || !e.Redirects[0].Target.Known {
		t.Errorf("Options.Vars not substituted: %+v", e.Redirects[0].Target)
	}
}

func TestListings(t *testing.T) {
	r := Parse("ls schemas/*.json | xargs sed -i s/a/b/", Options{})
	sed := find(t, r, "sed")
	if sed.Listing == nil || !reflect.DeepEqual(sed.Listing.Roots, []string{"schemas/*.json"}) {
		t.Errorf("xargs listing %+v", sed.Listing)
	}
	r = Parse("cd spec; grep -rl TODO . | xargs sed -i s/a/b/", Options{})
	if sed := find(t, r, "sed"); sed.Listing == nil || sed.Listing.Roots[0] != "." || sed.Listing.Dir != "spec" {
		t.Errorf("grep -rl listing %+v", sed.Listing)
	}
	r = Parse("find templates -name '*.md' -exec sed -i s/a/b/ {} +", Options{})
	if sed := find(t, r, "sed"); sed.Listing == nil || sed.Listing.Roots[0] != "templates" {
		t.Errorf("find -exec listing %+v", sed.Listing)
	}
	r = Parse("git ls-files -z templates | xargs -0 sed -i s/a/b/", Options{})
	if sed := find(t, r, "sed"); sed.Listing == nil || !reflect.DeepEqual(sed.Listing.Roots, []string{"templates"}) {
		t.Errorf("git ls-files listing %+v", sed.Listing)
	}
	r = Parse("cat list.txt | xargs rm", Options{})
	if rm := find(t, r, "rm"); rm.Listing == nil || rm.Listing.Roots != nil {
		t.Errorf("unknown listing must have nil Roots: %+v", rm.Listing)
	}
	r = Parse("sed -i s/v1/v2/ $(grep -rl v1 spec)", Options{})
	if sed := find(t, r, "sed"); sed.Listing == nil || sed.Listing.Roots[0] != "spec" {
		t.Errorf("substituted listing %+v", sed.Listing)
	}
}

func TestForkBombShape(t *testing.T) {
	for cmd, want := range map[string]bool{
		":(){ :|:& };:":                  true,
		"bomb(){ bomb & bomb & }":        true,
		"function g { g & g; }":          true,
		"f(){ f | f; }":                  false,
		"poll(){ curl x & wait; }; poll": false,
		"f(){ g & }; g(){ f; }":          false,
	} {
		r := Parse(cmd, Options{})
		got := false
		for _, fn := range r.Functions {
			got = got || fn.SelfBackground
		}
		if got != want {
			t.Errorf("%q: self-background %v, want %v", cmd, got, want)
		}
	}
}

func TestFallback(t *testing.T) {
	r := Parse("echo \"use sudo\" )\nrm -rf build\ncat <<EOF\nsudo x\nEOF", Options{})
	if r.ParseError == nil {
		t.Fatal("no parse error reported")
	}
	got := strings.Join(progs(r), " ")
	if !strings.Contains(got, "rm") || strings.Contains(got, "sudo") {
		t.Errorf("fallback invocations %q: want rm, no sudo (quoted text and heredoc body are data)", got)
	}
	r = Parse("cat <<EOF | sh\nsudo reboot", Options{})
	if !strings.Contains(strings.Join(progs(r), " "), "sudo") {
		t.Errorf("heredoc fed to a shell not scanned: %v", progs(r))
	}
}

func TestBounds(t *testing.T) {
	deep := strings.Repeat("echo $(", 5000) + "ls" + strings.Repeat(")", 5000)
	if r := Parse(deep, Options{}); r.Overflow == "" {
		t.Error("5,000-deep nesting did not hit the bound")
	}
	evals := strings.Repeat("eval ", 40) + "ls"
	if r := Parse(evals, Options{}); r.Overflow == "" {
		t.Error("40 nested evals did not hit the depth bound")
	}
	long := strings.Repeat("a && ", 3000) + "rm -rf x"
	if r := Parse(long, Options{}); r.Overflow != "" || r.Invocations[len(r.Invocations)-1].Program != "rm" {
		t.Errorf("a long && chain is not nesting: overflow %q", r.Overflow)
	}
}

func TestWorkBounds(t *testing.T) {
	// brace expansion blow-up is charged to the budget
	words := strings.Repeat("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b} ", 200)
	if r := Parse("echo "+words, Options{}); r.Overflow == "" {
		t.Error("brace expansion blow-up not bounded")
	}
	// unbalanced interpreter code stops scanning instead of rescanning the text per call
	if r := Parse("python3 -c '"+strings.Repeat("f(", 200000)+"'", Options{}); r.Overflow == "" {
		t.Error("pathological interpreter code not bounded")
	}
	// a function called many times re-walks its body within the budget
	body := strings.Repeat("echo "+strings.Repeat("x", 1000)+"; ", 200)
	if r := Parse("f(){ "+body+"}; "+strings.Repeat("f; ", 20), Options{}); r.Overflow == "" {
		t.Error("function calls re-walked without bound")
	}
}
