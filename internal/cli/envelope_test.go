package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/schema"
	"github.com/superagent-harness/harness/internal/testutil"
)

// envelopeCase runs one command line with --json in a fresh copy of the
// valid-midway sprint. In args, {root} is that sprint, {dir} a scratch folder
// beside it (holding an empty queue with q/PROMPTS/p.md and a file
// handoff.md), {hook} an executable stand-in for harness-hook.
type envelopeCase struct {
	// before are command lines run first (without --json; they must exit 0).
	before [][]string
	args   []string
	code   int
	// data names members data must have (its result, findings, checks, …).
	data []string
}

// envelopePlan is the plan file of the `harness plan` cases.
const envelopePlan = `features:
  - id: f001
    name: parser
    acceptance: [go test ./internal/parse 通过]
    checkpoints: [{phase: 3, type: notify}]
`

// envelopeCases holds at least one case for every leaf command of the kong
// tree (TestEveryCommandAnswersWithTheEnvelope fails for a command without
// one): add a row when you add a command.
var envelopeCases = map[string][]envelopeCase{
	"init": {
		{args: []string{"init", "--root", "{dir}/sprint_20260421_7"}, code: 0, data: []string{"root", "sprint", "files"}},
		{args: []string{"init", "--root", "{root}"}, code: 1},
		{args: []string{"init", "--root", "{dir}/sprint_20260421_9", "--from-pipeline", "demo-pipeline", "--home", "{dir}/hermes"}, code: 1},
	},
	"init-feature": {
		{args: []string{"init-feature", "f003", "--root", "{root}", "--hook-bin", "{hook}"}, code: 0, data: []string{"feature", "settings"}},
		{args: []string{"init-feature", "f999", "--root", "{root}", "--hook-bin", "{hook}"}, code: 1},
	},
	"validate": {
		{args: []string{"validate", "{root}"}, code: 0, data: []string{"valid", "findings"}},
		{args: []string{"validate", "--root", "{dir}/nowhere"}, code: 2},
	},
	"finalize": {
		{args: []string{"finalize", "--check", "{root}"}, code: 1, data: []string{"valid", "findings"}},
		{args: []string{"finalize", "--close", "{root}"}, code: 1, data: []string{"actions"}},
		{args: []string{"finalize", "--close", "--check", "{root}"}, code: 2},
	},
	"phase complete": {
		{args: []string{"phase", "complete", "f002", "{root}"}, code: 1, data: []string{"feature", "phase", "done", "missing"}},
	},
	"phase advance": {{args: []string{"phase", "advance", "f003", "{root}"}, code: 1, data: []string{"actions"}}},
	"phase retry":   {{args: []string{"phase", "retry", "f001", "--to", "1", "--reason", "plan misses the link syntax of a2; redo it", "{root}"}, code: 0, data: []string{"actions", "warnings"}}},
	"explain": {
		{args: []string{"explain", "rm -rf /", "--root", "{root}"}, code: 0, data: []string{"verdict", "invocations", "matches"}},
		{args: []string{"explain", "ls", "--root", "{dir}/nowhere"}, code: 2},
	},
	"allow": {
		{args: []string{"allow", "--feature", "f001", "--once", "git push --force", "--reason", "user approved", "--root", "{root}"}, code: 0, data: []string{"allow"}},
		{args: []string{"allow", "--list", "--root", "{root}"}, code: 0, data: []string{"allows"}},
		{args: []string{"allow", "--root", "{root}"}, code: 2},
	},
	"version": {{args: []string{"version"}, code: 0, data: []string{"version", "commit", "date"}}},
	"demo":    {{args: []string{"demo"}, code: 0, data: []string{"steps", "checks", "failed", "hook_log"}}},
	"launch": {
		{args: []string{"launch", "f001", "--root", "{root}", "--hook-bin", "{hook}", "--dry-run"}, code: 1},
		{args: []string{"launch", "f001", "--root", "{root}", "--no-sandbox"}, code: 2},
	},
	"doctor": {{args: []string{"doctor", "--root", "{root}", "--no-probe", "--hook-bin", "{hook}"}, code: 1, data: []string{"checks"}}},
	"eval append": {
		{args: []string{"eval", "append", "--feature", "f002", "--phase", "1", "--event", "phase_evaluation", "--result", "pass", "--reason", "plan covers acceptance a1 and a2 with one task each", "{root}"}, code: 0, data: []string{"actions", "result"}},
		{args: []string{"eval", "append", "--feature", "f002", "--phase", "1", "--event", "phase_evaluation", "--result", "pass", "--reason", "ok", "{root}"}, code: 1, data: []string{"actions"}},
	},
	"eval amend":           {{args: []string{"eval", "amend", "--line", "999", "--reason", "补录: the reason was too short", "{root}"}, code: 1}},
	"session start":        {{args: []string{"session", "start", "f003", "--session-id", "s-3", "--type", "cc-print", "{root}"}, code: 1}},
	"session end":          {{args: []string{"session", "end", "f002", "{root}"}, code: 0, data: []string{"actions"}}},
	"session reset":        {{args: []string{"session", "reset", "f002", "--reason", "token_usage_ratio 0.74 > 0.70", "{root}"}, code: 0, data: []string{"actions"}}},
	"checkpoint open":      {{args: []string{"checkpoint", "open", "cp-f009-1", "{root}"}, code: 1}},
	"checkpoint render":    {{args: []string{"checkpoint", "render", "cp-f001-1", "{root}"}, code: 0, data: []string{"checkpoint_id", "message"}}},
	"checkpoint reply":     {{args: []string{"checkpoint", "reply", "cp-f001-1", "maybe", "{root}"}, code: 1}},
	"checkpoint reply-all": {{args: []string{"checkpoint", "reply-all", "cp-f001-1: maybe", "{root}"}, code: 1}},
	"checkpoint due":       {{args: []string{"checkpoint", "due", "{root}"}, code: 0, data: []string{"actions"}}},
	"skill install": {
		{args: []string{"skill", "install", "--hermes-home", "{dir}/hermes", "--claude"}, code: 0, data: []string{"installs"}},
	},
	"notify send": {
		{args: []string{"notify", "send", "【测试】hello", "{root}"}, code: 0, data: []string{"message", "messages"}},
		{args: []string{"notify", "send", "【测试】hello", "--notify", "slack"}, code: 2},
	},
	"next": {{args: []string{"next", "{root}"}, code: 0, data: []string{"startable"}}},
	// success is a stream of one envelope per event (ops_watch.txtar checks it)
	"watch": {{args: []string{"watch", "--interval", "0s", "{root}"}, code: 2}},
	"status": {
		{args: []string{"status", "{root}"}, code: 0, data: []string{"features"}},
		{args: []string{"status", "--mermaid", "{root}"}, code: 0, data: []string{"mermaid"}},
	},
	"task add":  {{args: []string{"task", "add", "--queue", "{dir}/q", "--title", "slides", "--prompt-file", "PROMPTS/p.md"}, code: 0, data: []string{"actions"}}},
	"task next": {{args: []string{"task", "next", "--queue", "{dir}/q"}, code: 1}},
	"task done": {{args: []string{"task", "done", "task_20260421_001", "--queue", "{dir}/q"}, code: 1}},
	"task fail": {{args: []string{"task", "fail", "task_20260421_001", "--queue", "{dir}/q"}, code: 1}},
	"task list": {{args: []string{"task", "list", "--queue", "{dir}/q"}, code: 0, data: []string{"actions"}}},
	"preflight": {{args: []string{"preflight", "--stage", "launch", "f003", "--root", "{root}"}, code: 1, data: []string{"stage", "items"}}},
	"yolo check": {
		{args: []string{"yolo", "check", "--dry-run", "--home", "{dir}/hermes", "{root}"}, code: 1, data: []string{"result"}},
	},
	"yolo abort":   {{args: []string{"yolo", "abort", "--reason", "retry_count_in_sprint = 2", "{root}"}, code: 1, data: []string{"actions"}}},
	"reset hermes": {{args: []string{"reset", "hermes", "--handoff", "{dir}/handoff.md", "{root}"}, code: 0, data: []string{"actions"}}},
	"reset resume": {
		{before: [][]string{{"reset", "hermes", "--handoff", "{dir}/handoff.md", "{root}"}}, args: []string{"reset", "resume", "{root}"}, code: 0, data: []string{"actions", "result"}},
		{args: []string{"reset", "resume", "{root}"}, code: 1},
	},
	"install": {
		{args: []string{"install", "--project", "{dir}", "--hook-bin", "{hook}"}, code: 0, data: []string{"settings", "changed", "diff"}},
		{args: []string{"install", "--project", "{dir}/nowhere", "--hook-bin", "{hook}"}, code: 2},
	},
	"uninstall":  {{args: []string{"uninstall", "--project", "{dir}"}, code: 0, data: []string{"settings", "changed"}}},
	"completion": {{args: []string{"completion", "fish"}, code: 0, data: []string{"shell", "script"}}},
	"logs":       {{args: []string{"logs", "{root}", "--verdict", "block"}, code: 0, data: []string{"source", "records"}}},
	"plan": {
		{before: [][]string{{"init", "--root", "{dir}/sprint_20260421_8"}}, args: []string{"plan", "{dir}/plan.yaml", "{dir}/sprint_20260421_8"}, code: 0, data: []string{"actions", "result"}},
		{args: []string{"plan", "{dir}/plan.yaml", "{root}"}, code: 1},
		{args: []string{"plan", "{dir}/no-plan.yaml", "{root}"}, code: 2},
		{args: []string{"plan", "{dir}/handoff.md", "{root}"}, code: 2},
	},
	"pipeline sink": {{args: []string{"pipeline", "sink", "--id", "demo-pipeline", "--home", "{dir}/hermes", "{root}"}, code: 1}},
	"pipeline list": {{args: []string{"pipeline", "list", "--home", "{dir}/hermes"}, code: 0, data: []string{"pipelines", "notes"}}},
	"pipeline show": {
		{args: []string{"pipeline", "show", "demo-pipeline", "--home", "{dir}/hermes"}, code: 1},
		{args: []string{"pipeline", "show", "Demo", "--home", "{dir}/hermes"}, code: 2},
	},
}

// leafCommands walks the kong tree of CLI and returns the path of every
// command that runs (has no subcommands).
func leafCommands(t *testing.T) []string {
	t.Helper()
	var root CLI
	p, err := newParser(&root, io.Discard, io.Discard, "test")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		if n.Type == kong.CommandNode && len(n.Children) == 0 {
			out = append(out, commandPath(n))
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.Model.Node)
	sort.Strings(out)
	return out
}

// checkEnvelope decodes stdout as exactly one JSON document, validates it
// against schemas/cli_envelope.schema.json and checks what the schema cannot:
// ok and error.exit_code agree with the process exit code, and command is
// the command that ran. It returns the decoded data.
func checkEnvelope(t *testing.T, set *schema.Set, stdout []byte, code int, command string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(stdout))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if dec.More() || strings.TrimSpace(string(stdout[dec.InputOffset():])) != "" {
		t.Fatalf("stdout holds more than one JSON document:\n%s", stdout)
	}
	doc, err := schema.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := set.Validate(schema.CLIEnvelope, doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Errorf("envelope: %s", v)
	}
	var env struct {
		OK      bool           `json:"ok"`
		Command string         `json:"command"`
		Data    map[string]any `json:"data"`
		Error   *struct {
			ExitCode int `json:"exit_code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	if env.OK != (code == 0) {
		t.Errorf("ok=%v with exit %d", env.OK, code)
	}
	if code != 0 && (env.Error == nil || env.Error.ExitCode != code) {
		t.Errorf("error %+v does not carry exit %d", env.Error, code)
	}
	if env.Command != command {
		t.Errorf("command %q, want %q", env.Command, command)
	}
	return env.Data
}

// TestEveryCommandAnswersWithTheEnvelope runs every command of the tree with
// --json (success, refusal and usage cases) and validates each answer
// against the envelope schema; a command without a case fails the test.
func TestEveryCommandAnswersWithTheEnvelope(t *testing.T) {
	set := schema.New(harness.Assets(), nil)
	fixture := testutil.Testdata(t, "sprints", "valid-midway")
	leaves := leafCommands(t)
	for _, path := range leaves {
		cases := envelopeCases[path]
		if len(cases) == 0 {
			t.Errorf("harness %s has no case in envelopeCases: add one (its --json must validate against schemas/cli_envelope.schema.json)", path)
			continue
		}
		for i, c := range cases {
			t.Run(strings.ReplaceAll(path, " ", "_")+"/"+string(rune('a'+i)), func(t *testing.T) {
				base := t.TempDir()
				root := filepath.Join(base, "sprint_20260421_1")
				testutil.CopyTree(t, fixture, root)
				dir := filepath.Join(base, "scratch")
				for _, d := range []string{"q/PROMPTS", "q/tasks", "hermes"} {
					if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				hook := filepath.Join(dir, "harness-hook")
				for name, body := range map[string]string{"q/PROMPTS/p.md": "make slides\n", "handoff.md": "# Hermes handoff\n", "plan.yaml": envelopePlan, "harness-hook": "#!/bin/sh\necho '{}'\n"} {
					if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				expand := func(in []string) []string {
					args := make([]string, 0, len(in)+1)
					for _, a := range in {
						a = strings.ReplaceAll(a, "{root}", root)
						a = strings.ReplaceAll(a, "{dir}", dir)
						a = strings.ReplaceAll(a, "{hook}", hook)
						args = append(args, a)
					}
					return args
				}
				vars := map[string]string{"HOME": filepath.Join(dir, "home"), "TMPDIR": t.TempDir(), "HARNESS_NOW": "2026-04-21T03:00:00Z"}
				var out, errb bytes.Buffer
				for _, b := range c.before {
					if code := Run(expand(b), strings.NewReader(""), &out, &errb, vars, "v0.0.0-test"); code != 0 {
						t.Fatalf("harness %s: exit %d\n%s%s", strings.Join(b, " "), code, out.String(), errb.String())
					}
					out.Reset()
					errb.Reset()
				}
				args := append(expand(c.args), "--json")
				code := Run(args, strings.NewReader(""), &out, &errb, vars, "v0.0.0-test")
				if code != c.code {
					t.Fatalf("harness %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, c.code, out.String(), errb.String())
				}
				data := checkEnvelope(t, set, out.Bytes(), code, path)
				for _, k := range c.data {
					if _, ok := data[k]; !ok {
						t.Errorf("data has no %q:\n%s", k, out.String())
					}
				}
				for _, p := range nullMembers(data, "data") {
					t.Errorf("%s is null: a list with no items is [] so that a consumer can iterate it without a nil check:\n%s", p, out.String())
				}
			})
		}
		// A usage error names the command too.
		t.Run(strings.ReplaceAll(path, " ", "_")+"/usage", func(t *testing.T) {
			args := append(strings.Fields(path), "--no-such-flag", "--json")
			var out, errb bytes.Buffer
			code := Run(args, strings.NewReader(""), &out, &errb, map[string]string{}, "v0.0.0-test")
			if code != ExitUsage {
				t.Fatalf("exit %d, want 2\n%s%s", code, out.String(), errb.String())
			}
			checkEnvelope(t, set, out.Bytes(), code, path)
		})
	}
	for path := range envelopeCases {
		if !contains(leaves, path) {
			t.Errorf("envelopeCases names %q, which is not a command", path)
		}
	}
	// The root: --version (the envelope of `harness version`) and a command that does not exist.
	for args, want := range map[string]string{"--version --json": "version", "no-such-command --json": ""} {
		var out, errb bytes.Buffer
		code := Run(strings.Fields(args), strings.NewReader(""), &out, &errb, map[string]string{}, "v0.0.0-test")
		checkEnvelope(t, set, out.Bytes(), code, want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestEnvelopeSchemaRejectsTheOldShapes: the schema is closed and ties error
// to ok, so none of the shapes the commands used to print passes.
func TestEnvelopeSchemaRejectsTheOldShapes(t *testing.T) {
	set := schema.New(harness.Assets(), nil)
	for _, bad := range []string{
		`{"valid": true, "findings": []}`,
		`{"ok": true, "checks": []}`,
		`{"stage": "launch", "ok": true, "items": []}`,
		`{"command": "phase advance", "ok": true, "actions": [], "data": {}}`,
		`{"actions": [], "result": {}, "warnings": []}`,
		`{"ok": false, "refusal": {"reason": "no"}}`,
		`{"ok": false, "error": "no", "exit_code": 1}`,
		`{"ok": true, "command": "validate", "data": {}, "error": {"message": "x", "exit_code": 1}}`,
		`{"ok": false, "command": "validate", "data": {}}`,
		`{"ok": false, "command": "validate", "data": {}, "error": {"message": "", "exit_code": 1}}`,
		`{"ok": false, "command": "validate", "data": {}, "error": {"message": "x", "exit_code": 0}}`,
		`{"ok": true, "command": "validate", "data": []}`,
		`{"ok": true, "command": "harness validate", "data": {}}`,
		`{"ok": true, "command": "validate", "data": {}, "findings": []}`,
	} {
		doc, err := schema.Decode([]byte(bad))
		if err != nil {
			t.Fatal(err)
		}
		vs, err := set.Validate(schema.CLIEnvelope, doc)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) == 0 {
			t.Errorf("the envelope schema accepts %s", bad)
		}
	}
	for _, good := range []string{
		`{"ok": true, "command": "validate", "data": {"valid": true, "findings": []}}`,
		`{"ok": false, "command": "checkpoint reply", "data": {}, "error": {"message": "unclear", "exit_code": 1}}`,
		`{"ok": false, "command": "", "data": {}, "error": {"message": "unexpected argument x", "exit_code": 2}}`,
	} {
		doc, _ := schema.Decode([]byte(good))
		if vs, err := set.Validate(schema.CLIEnvelope, doc); err != nil || len(vs) > 0 {
			t.Errorf("the envelope schema rejects %s: %v %v", good, vs, err)
		}
	}
}

// nullMembers returns the JSON paths under v whose value is null. No command
// reports a null today: a list with no items is [] (a nil Go slice encodes
// as null, which a consumer iterating data.cycles or data.quarantined must
// then special-case), and absent values are left out.
func nullMembers(v any, path string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				out = append(out, path+"."+k)
				continue
			}
			out = append(out, nullMembers(e, path+"."+k)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, nullMembers(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	sort.Strings(out)
	return out
}
