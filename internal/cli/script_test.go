package cli_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/cli"
	"github.com/superagent-harness/harness/internal/hook"
	"github.com/superagent-harness/harness/internal/notify/notifytest"
	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/schema"
	"github.com/superagent-harness/harness/internal/testutil"
)

// TestMain exposes `harness`, `harness-hook` (the real hook) and a stand-in
// `claude` to the scripts: testscript re-executes this test binary under
// those names and puts them on the scripts' PATH, which is where
// init-feature and install find harness-hook and harness launch finds claude. The
// stand-in claude does what the real client does first (fakeClaude); the
// real client is driven by internal/e2e.
func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(removeBuilds{m}, map[string]func() int{
		"harness": func() int {
			return cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.EnvMap(os.Environ()), "v0.0.0-test")
		},
		"harness-hook": func() int {
			return hook.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.EnvMap(os.Environ()))
		},
		"claude": func() int { return fakeClaude(os.Args[1:], os.Stdout, os.Stderr) },
		// a client that starts and exits without running any hook (started
		// outside the feature directory, without --settings)
		"claude-nohooks": func() int { return 0 },
	}))
}

// fakeClaude stands in for `claude … --settings FILE --session-id ID …`: it
// runs the SessionStart handlers of FILE (exec form) in its working
// directory with the payload the real client sends, as the real client does
// when a session starts, prints what it did and exits 0. A missing
// --settings or --session-id exits 2.
func fakeClaude(args []string, stdout, stderr io.Writer) int {
	var settings, sid string
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--settings":
			settings = args[i+1]
		case "--session-id":
			sid = args[i+1]
		}
	}
	if settings == "" || sid == "" {
		fmt.Fprintln(stderr, "fake claude: needs --settings and --session-id")
		return 2
	}
	d, err := ccsettings.Read(settings)
	if err != nil {
		fmt.Fprintln(stderr, "fake claude:", err)
		return 1
	}
	sf, err := d.Settings()
	if err != nil {
		fmt.Fprintln(stderr, "fake claude:", err)
		return 1
	}
	cwd, _ := os.Getwd()
	payload := fmt.Sprintf(`{"session_id":%q,"transcript_path":"","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, sid, cwd)
	for _, g := range sf.Hooks["SessionStart"] {
		for _, h := range g.Hooks {
			cmd := exec.Command(h.Command, h.Args...)
			cmd.Stdin = strings.NewReader(payload)
			cmd.Stderr = stderr
			if err := cmd.Run(); err != nil {
				fmt.Fprintln(stderr, "fake claude: SessionStart hook:", err)
			}
		}
	}
	fmt.Fprintf(stdout, "fake claude: session %s started in %s\n", sid, cwd)
	return 0
}

// removeBuilds runs the tests, then removes the binaries testutil.Build
// made (testutil.Main).
type removeBuilds struct{ m *testing.M }

func (r removeBuilds) Run() int { return testutil.Main(r.m) }

// TestScripts runs testdata/script/*.txtar. $SPRINTS names the fixture
// folder; the extra commands are:
//
//	cpdir SRC DST             copy a directory tree
//	exitcode N PROG ARGS...   run PROG and require exit status N (stdout/stderr kept for checks)
//	appendfile SRC DST        append the contents of SRC to DST
//	replace FILE OLD NEW      replace the first OLD in FILE with NEW (OLD must occur)
//	envelope [COMMAND]        the last stdout is one CLI envelope (schemas/cli_envelope.schema.json), for COMMAND if given
//	payload FILE TOOL ARG     write a PreToolUse payload for TOOL (Bash: ARG is the command; else the file_path) with cwd = the current directory
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(t, "testdata/script", ""))
}

// TestShippedBinaryScripts runs testdata/static/*.txtar with harness and
// harness-hook built as install.sh builds them (static, CGO_ENABLED=0)
// first on PATH, so that doctor's binary checks see what a user installs
// and a script can require doctor's exit code 0.
func TestShippedBinaryScripts(t *testing.T) {
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
	testscript.Run(t, scriptParams(t, "testdata/static", filepath.Dir(bins.Harness)))
}

// scriptParams are the testscript parameters of the scripts in dir; binDir,
// when set, comes first on the scripts' PATH.
func scriptParams(t *testing.T, dir, binDir string) testscript.Params {
	fixtures := testutil.Testdata(t, "sprints")
	set := schema.New(harness.Assets(), nil)
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("SPRINTS", fixtures)
			env.Setenv("HARNESS_ROOT", "")
			env.Setenv("FEATURE_ID", "")
			if binDir != "" {
				env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"cpdir": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: cpdir SRC DST")
				}
				ts.Check(testutil.CopyDir(ts.MkAbs(args[0]), ts.MkAbs(args[1])))
			},
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exitcode N PROG [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("run %s: %v", args[1], err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", args[1], got, want)
				}
			},
			"envelope": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) > 1 {
					ts.Fatalf("usage: envelope [COMMAND]")
				}
				if err := validEnvelope(set, []byte(ts.ReadFile("stdout")), args); err != nil {
					ts.Fatalf("%v", err)
				}
			},
			// feishu-mock SECRET starts a loopback mock of a Feishu custom
			// bot (internal/notify/notifytest) for the rest of the script:
			// $FEISHU_WEBHOOK is its URL, and every request it gets is
			// appended to $WORK/feishu.jsonl ({"text","code",…}).
			"feishu-mock": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: feishu-mock SECRET")
				}
				bot := notifytest.NewFeishu(args[0])
				log := ts.MkAbs("feishu.jsonl")
				bot.OnReceive = func(r notifytest.Received) {
					b, _ := json.Marshal(r)
					if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
						_, _ = f.Write(append(b, '\n'))
						_ = f.Close()
					}
				}
				ts.Defer(bot.Close)
				ts.Setenv("FEISHU_WEBHOOK", bot.Webhook())
			},
			// field PATH REGEX: the --json answer on stdout has at the dotted
			// PATH (data.result.resume_as; a number indexes an array) a value
			// whose JSON text matches REGEX. ! field PATH: PATH is absent.
			"field": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 && !(neg && len(args) == 1) {
					ts.Fatalf("usage: field PATH REGEX | ! field PATH")
				}
				var v any
				ts.Check(json.Unmarshal([]byte(ts.ReadFile("stdout")), &v))
				found := true
				for _, k := range strings.Split(args[0], ".") {
					switch x := v.(type) {
					case map[string]any:
						v, found = x[k]
					case []any:
						i, err := strconv.Atoi(k)
						found = err == nil && i >= 0 && i < len(x)
						if found {
							v = x[i]
						}
					default:
						found = false
					}
					if !found {
						break
					}
				}
				if neg {
					if found {
						ts.Fatalf("%s is present: %v", args[0], v)
					}
					return
				}
				if !found {
					ts.Fatalf("%s is absent", args[0])
				}
				b, _ := json.Marshal(v)
				if ok, err := regexp.MatchString(args[1], string(b)); err != nil || !ok {
					ts.Fatalf("%s = %s, want a match for %s", args[0], b, args[1])
				}
			},
			"payload": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: payload FILE TOOL ARG")
				}
				input := map[string]any{"command": args[2]}
				if args[1] != "Bash" {
					input = map[string]any{"file_path": args[2], "content": "x"}
				}
				b, err := json.Marshal(map[string]any{"session_id": "script", "hook_event_name": "PreToolUse", "cwd": ts.Getenv("PWD"),
					"transcript_path": ts.MkAbs("transcript.jsonl"), "tool_name": args[1], "tool_input": input})
				ts.Check(err)
				ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o644))
			},
			"replace": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: replace FILE OLD NEW")
				}
				p := ts.MkAbs(args[0])
				data, err := os.ReadFile(p)
				ts.Check(err)
				if !strings.Contains(string(data), args[1]) {
					ts.Fatalf("%s does not contain %q", args[0], args[1])
				}
				ts.Check(os.WriteFile(p, []byte(strings.Replace(string(data), args[1], args[2], 1)), 0o644))
			},
			// sandboxtmp VAR DIR sets VAR to the sandbox's temporary
			// directory of the sprint root DIR (/tmp/harness-<hash>, which
			// harness launch creates) and removes it when the script ends.
			"sandboxtmp": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: sandboxtmp VAR DIR")
				}
				dir := ops.SandboxTempDir(ts.MkAbs(args[1]))
				ts.Setenv(args[0], dir)
				ts.Defer(func() { _ = os.RemoveAll(dir) })
			},
			"appendfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: appendfile SRC DST")
				}
				data, err := os.ReadFile(ts.MkAbs(args[0]))
				ts.Check(err)
				f, err := os.OpenFile(ts.MkAbs(args[1]), os.O_APPEND|os.O_WRONLY, 0)
				ts.Check(err)
				_, err = f.Write(data)
				ts.Check(err)
				ts.Check(f.Close())
			},
		},
	}
}

// validEnvelope checks that stdout is one JSON document valid against the
// envelope schema, for the command in want[0] when given.
func validEnvelope(set *schema.Set, stdout []byte, want []string) error {
	doc, err := schema.Decode(stdout)
	if err != nil {
		return fmt.Errorf("stdout is not one JSON document: %v\n%s", err, stdout)
	}
	vs, err := set.Validate(schema.CLIEnvelope, doc)
	if err != nil {
		return err
	}
	if len(vs) > 0 {
		return fmt.Errorf("stdout is not a CLI envelope: %v\n%s", vs, stdout)
	}
	var env struct{ Command string }
	if err := json.Unmarshal(stdout, &env); err != nil {
		return err
	}
	if len(want) == 1 && env.Command != want[0] {
		return fmt.Errorf("envelope of %q, want %q", env.Command, want[0])
	}
	return nil
}
