package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// Start-up guards for the hook binary (docs/performance.md): Claude Code
// starts one process per hook call, so work done at package initialisation
// is paid on every call. These tests measure allocations and the import
// graph, not time.

// maxInitAllocs bounds the allocations of any one of this module's packages
// during its initialisation. Package-level regexp.MustCompile calls or large
// tables built at init exceed it (pathguard allocated 3,131 with its 37
// interpreter regexps, shell 898, workspace 346, bashguard 278). Since the
// tables and regexps are lazy.Value or switch statements, the largest is
// internal/shell/codelex with 23 (its grammar literals); bashguard, shell,
// pathguard and records allocate nothing.
const maxInitAllocs = 40

// TestMain removes the hook binary the tests build (testutil.Build).
func TestMain(m *testing.M) { os.Exit(testutil.Main(m)) }

// TestHookPackageInitIsSmall builds the hook, runs one PreToolUse Bash call
// with GODEBUG=inittrace=1 and checks every package of this module stays
// under maxInitAllocs.
func TestHookPackageInitIsSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool:", err)
	}
	bin, err := testutil.Build("harness-hook")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--event", "PreToolUse")
	cmd.Stdin = strings.NewReader(`{"session_id":"s","cwd":"` + filepath.ToSlash(t.TempDir()) + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./... 2>&1 | tail -n 20"}}`)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hook: %v\n%s", err, stderr.String())
	}
	if got := strings.TrimSpace(stdout.String()); got != "{}" {
		t.Fatalf("the call was not a plain allow: %s", got)
	}
	own := 0
	// afterRuntime is the first package initialised after the runtime: it
	// must be internal/prestack, so that the main goroutine's stack is
	// grown before the dependencies' inits deepen it (a package that
	// imports nothing is ready first; Go initialises ready packages in
	// import-path order).
	afterRuntime, seenRuntime := "", false
	sc := bufio.NewScanner(bytes.NewReader(stderr.Bytes()))
	for sc.Scan() {
		// init <pkg> @0.70 ms, 0.01 ms clock, 360 bytes, 10 allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		if seenRuntime && afterRuntime == "" {
			afterRuntime = f[1]
		}
		seenRuntime = seenRuntime || f[1] == "runtime"
		if !strings.HasPrefix(f[1], "github.com/superagent-harness/harness") {
			continue
		}
		own++
		n, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("cannot read %q", sc.Text())
		}
		if n > maxInitAllocs {
			t.Errorf("%s allocates %d times at package init (limit %d): compile regexps and build tables on first use (lazy.Value; a set of strings as a switch)", f[1], n, maxInitAllocs)
		}
	}
	if own == 0 {
		t.Fatalf("no inittrace line of this module's packages; stderr:\n%s", stderr.String())
	}
	if want := "github.com/superagent-harness/harness/internal/prestack"; afterRuntime != want {
		t.Errorf("first package initialised after the runtime is %q, want %s (its init grows the main goroutine's stack once)", afterRuntime, want)
	}
}

// TestHookDoesNotLinkCLIOnlyPackages checks the hook's import graph: the CLI
// framework, the JSON Schema compiler, templates and crypto have no use on a
// hook call and cost start-up time when linked.
func TestHookDoesNotLinkCLIOnlyPackages(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool:", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list -deps gave %d packages", len(deps))
	}
	for _, p := range deps {
		for _, bad := range []string{"github.com/alecthomas/kong", "github.com/santhosh-tekuri/jsonschema", "text/template", "crypto/", "net/http"} {
			if p == strings.TrimSuffix(bad, "/") || strings.HasPrefix(p, bad) {
				t.Errorf("harness-hook links %s", p)
			}
		}
	}
}

// hookModules are the modules the hook links besides this one, each with
// what needs it on a hook call. Every linked package's init runs in every
// hook process and a larger binary starts slower (the runtime walks its
// function table and builds the pointer mask of its data at start), so a
// module joins this list only with its start-up cost measured
// (docs/performance.md, "sixth pass": goccy/go-yaml alone is 1.1 MB of the
// binary and ~55 k instructions of a PreToolUse call).
var hookModules = map[string]string{
	"github.com/bmatcuk/doublestar/v4": "the path guard's globs and the override files' allow and block globs",
	"github.com/goccy/go-yaml":         "the override files (.harness/rules.yaml, .claude/harness.yaml) when one exists",
	"github.com/gofrs/flock":           "fsutil's file locks",
	"github.com/tdewolff/parse/v2":     "codelex's JavaScript lexer (node -e, inline scripts)",
	"golang.org/x/sys":                 "gofrs/flock (flock(2))",
	"mvdan.cc/sh/v3":                   "the shell parser and brace expansion (internal/shell)",
}

// TestHookLinksOnlyListedModules checks the modules of the hook's import
// graph against hookModules, both ways: a new module must come with its
// measured cost, and a module the hook no longer links leaves the list.
func TestHookLinksOnlyListedModules(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool:", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	linked := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		if m != "github.com/superagent-harness/harness" {
			linked[m] = true
		}
	}
	for m := range linked {
		if _, ok := hookModules[m]; !ok {
			t.Errorf("harness-hook links module %s, which hookModules does not list: measure its start-up cost (docs/performance.md) before linking it", m)
		}
	}
	for m := range hookModules {
		if !linked[m] {
			t.Errorf("hookModules lists %s, which harness-hook no longer links: remove it from the list", m)
		}
	}
}
