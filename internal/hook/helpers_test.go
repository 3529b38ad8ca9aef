package hook

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/superagent-harness/harness/internal/testutil"
)

// hookBin is the harness-hook binary built once by TestMain.
var hookBin string

func TestMain(m *testing.M) {
	bin, err := testutil.Build("harness-hook")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hookBin = bin
	os.Exit(testutil.Main(m))
}

// testdata returns a path under the repository's testdata/.
func testdata(elems ...string) string {
	return filepath.Join(append([]string{"..", "..", "testdata"}, elems...)...)
}

// result is one hook run.
type result struct {
	stdout, stderr string
	code           int
}

// runBin runs the built binary with args, env (added to a process
// environment stripped of the harness variables) and stdin, in dir.
func runBin(t testing.TB, dir string, args []string, env map[string]string, stdin []byte) result {
	t.Helper()
	cmd := exec.Command(hookBin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HARNESS_ROOT", "FEATURE_ID", "SPRINT_ID":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run harness-hook: %v", err)
	}
	return result{out.String(), errb.String(), code}
}

// runIn runs the hook in-process through runner r (zero now → time.Now).
func runIn(r runner, args []string, env map[string]string, stdin io.Reader) result {
	if r.now == nil {
		r.now = time.Now
	}
	var out, errb bytes.Buffer
	r.stderr = &errb
	code := r.run(args, stdin, &out, env)
	return result{out.String(), errb.String(), code}
}

// contract compiles the output contract's forEvent entries once.
var contract = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	data, err := os.ReadFile(testdata("contract", "hook-output.schema.json"))
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	const url = "file:///contract/hook-output.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	out := map[string]*jsonschema.Schema{}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
		"PostToolUseFailure", "Stop", "SubagentStop", "SubagentStart", "Notification", "PreCompact", "SessionEnd"} {
		s, err := c.Compile(url + "#/$defs/forEvent." + ev)
		if err != nil {
			return nil, fmt.Errorf("compile forEvent.%s: %w", ev, err)
		}
		out[ev] = s
	}
	root, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	out[""] = root
	return out, nil
})

// checkContract asserts that stdout is exactly one JSON object valid for
// event (the root schema when event has no forEvent entry) and returns it.
func checkContract(t testing.TB, event, stdout string) map[string]any {
	t.Helper()
	schemas, err := contract()
	if err != nil {
		t.Fatalf("contract schema: %v", err)
	}
	trimmed := strings.TrimSpace(stdout)
	if !strings.HasPrefix(trimmed, "{") {
		t.Fatalf("%s: stdout is not one JSON object: %q", event, stdout)
	}
	dec := json.NewDecoder(strings.NewReader(trimmed))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("%s: stdout does not decode: %v\n%s", event, err, stdout)
	}
	if dec.More() {
		t.Fatalf("%s: stdout holds more than one JSON value: %q", event, stdout)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(trimmed))
	if err != nil {
		t.Fatal(err)
	}
	s := schemas[event]
	if s == nil {
		s = schemas[""]
	}
	if err := s.Validate(inst); err != nil {
		t.Fatalf("%s: stdout violates the contract: %v\n%s", event, err, stdout)
	}
	if hso, ok := obj["hookSpecificOutput"].(map[string]any); ok {
		if pd, ok := hso["permissionDecision"]; ok && pd != "deny" {
			t.Fatalf("%s: permissionDecision %v (only deny is allowed)", event, pd)
		}
	}
	return obj
}

// snapshot hashes every file under root except hook.log and lock sidecars.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		// hook.log (and its rotations), the eval_log cache and the session's
		// measurements are what the hook writes on every event
		if strings.HasPrefix(rel, ".harness/logs/") || rel == ".harness/claude_code_context_state.json" || strings.HasSuffix(rel, ".lock") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		st, _ := d.Info()
		m[rel] = fmt.Sprintf("%x %v", sha256.Sum256(data), st.Mode())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// diffSnapshots lists the files that differ.
func diffSnapshots(a, b map[string]string) []string {
	var d []string
	for k, v := range a {
		if b[k] != v {
			d = append(d, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, k+" (new)")
		}
	}
	return d
}

// hookLogRecords returns the JSON records of root's hook.log.
func hookLogRecords(t testing.TB, root string) []Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".harness", "logs", "hook.log"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var r Record
		if json.Unmarshal([]byte(line), &r) == nil {
			recs = append(recs, r)
		}
	}
	return recs
}

// stopPayload is the Stop payload of testdata/sprints/README.md §2.
func stopPayload(root, session, tmp string) []byte {
	b, _ := json.Marshal(map[string]any{
		"hook_event_name": "Stop", "stop_hook_active": false, "session_id": session,
		"cwd": root, "transcript_path": filepath.Join(tmp, "t.jsonl"),
	})
	return append(b, '\n')
}

func mustRemove(t testing.TB, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

func mustMkdir(t testing.TB, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}
