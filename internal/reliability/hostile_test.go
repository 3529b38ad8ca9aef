package reliability

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hookLimit bounds one hook call in these tests (generous: the target is
// ~2 ms, but the machine is shared and a 10 MB payload takes a while).
const hookLimit = 10 * time.Second

// TestHostileInputThroughBuiltHook feeds the built hook payloads an attacker
// or a broken client could produce. Every call must exit 0 or 2 (never 1,
// which Claude Code treats as fail-open), never panic, finish in bounded
// time, print nothing or one JSON object, and a PreToolUse it cannot check
// or that hides a destructive command must be denied, never silently allowed.
func TestHostileInputThroughBuiltHook(t *testing.T) {
	hook := needHook(t)
	root := newWorkspace(t)
	fdir := filepath.Join(root, ".harness", "features", "f002")
	args := []string{"--event", "PreToolUse", "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}

	bash := func(cmd string) []byte {
		b, _ := json.Marshal(map[string]any{"session_id": "sess-hostile", "hook_event_name": "PreToolUse", "cwd": fdir,
			"tool_name": "Bash", "tool_use_id": "toolu_h", "tool_input": map[string]any{"command": cmd}})
		return b
	}
	write := func(path string) []byte {
		b, _ := json.Marshal(map[string]any{"session_id": "sess-hostile", "hook_event_name": "PreToolUse", "cwd": fdir,
			"tool_name": "Write", "tool_use_id": "toolu_h", "tool_input": map[string]any{"file_path": path, "content": "x"}})
		return b
	}
	// rawBash builds the payload by hand so invalid UTF-8 survives.
	rawBash := func(cmd string) []byte {
		return []byte(`{"session_id":"s","hook_event_name":"PreToolUse","cwd":"` + fdir + `","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`)
	}
	deepSubst := strings.Repeat("$(", 10000) + "rm -rf /tmp/x" + strings.Repeat(")", 10000)
	deepJSON := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	bigCmd := "echo " + strings.Repeat("a", 1<<20) + "; rm -rf build"
	big10 := bash("echo " + strings.Repeat("b", 10<<20) + " && rm -rf build")

	// symlink loops: one inside schemas/ (protected whatever the resolution),
	// one in a plain folder (only must terminate)
	mustSymlink(t, "loop", filepath.Join(root, "schemas", "loop"))
	mustSymlink(t, "a", filepath.Join(root, "src", "b"))
	mustSymlink(t, "b", filepath.Join(root, "src", "a"))

	type tc struct {
		name    string
		payload []byte
		args    []string
		// want: "deny" (must deny), "any" (exit/format/time checks only)
		want string
	}
	cases := []tc{
		{"empty stdin", nil, args, "deny"},
		{"whitespace only", []byte(" \n\t "), args, "deny"},
		{"not JSON", []byte("rm -rf /"), args, "deny"},
		{"JSON array", []byte(`[{"tool_name":"Bash"}]`), args, "deny"},
		{"JSON string", []byte(`"rm -rf /"`), args, "deny"},
		{"truncated JSON", bash("rm -rf build")[:40], args, "deny"},
		{"truncated after command", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build"`), args, "deny"},
		{"tool_input wrong type", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf build"}`), args, "deny"},
		{"command wrong type", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["rm","-rf","build"]}}`), args, "deny"},
		{"100k-deep JSON", []byte(deepJSON), args, "deny"},
		{"10 MB payload hiding rm -rf", big10, args, "deny"},
		{"1 MB single-line command then rm -rf", bash(bigCmd), args, "deny"},
		{"invalid UTF-8 in command", rawBash("rm -rf build\xff\xfe"), args, "deny"},
		{"invalid UTF-8 alone", rawBash("echo \xc3\x28 \xa0\xa1"), args, "any"},
		{"NUL in command", bash("rm -rf build\x00 && echo"), args, "deny"},
		{"NUL splitting rm", bash("r\x00m -rf build; rm -rf build"), args, "deny"},
		{"10000-deep $( ) around rm -rf", bash(deepSubst), args, "deny"},
		{"unterminated double quote", bash(`rm -rf build "`), args, "deny"},
		{"unterminated single quote", bash(`rm -rf build 'oops`), args, "deny"},
		{"unterminated heredoc", bash("rm -rf build && cat <<EOF\nhello"), args, "deny"},
		{"unterminated $(", bash("echo $(rm -rf build"), args, "deny"},
		{"backtick soup", bash(strings.Repeat("`", 5001) + "rm -rf build"), args, "deny"},
		{"path with newline into schemas", write(filepath.Join(root, "schemas", "a\nb.json")), args, "deny"},
		{"path with NUL into schemas", write(filepath.Join(root, "schemas", "a\x00b.json")), args, "deny"},
		{"symlink loop inside schemas", write(filepath.Join(root, "schemas", "loop", "x.json")), args, "deny"},
		{"bash write through symlink loop inside schemas", bash("echo x > " + filepath.Join(root, "schemas", "loop", "x")), args, "deny"},
		{"symlink loop in src", write(filepath.Join(root, "src", "a", "x.txt")), args, "any"},
		{"relative path escaping", write("../../../../schemas/x.json"), args, "any"},
		{"no --event, payload names PreToolUse", bash("rm -rf build"), []string{"--root", root, "--feature", "f002"}, "deny"},
		{"no --event, payload without event", []byte(`{"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`), []string{"--root", root}, "deny"},
		{"unknown flag", bash("ls"), append([]string{"--bogus"}, args...), "deny"},
		{"event mismatch", []byte(`{"hook_event_name":"Stop","tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`), args, "deny"},
		{"missing root dir", bash("rm -rf build"), []string{"--event", "PreToolUse", "--root", filepath.Join(root, "nope"), "--feature", "f002"}, "deny"},
		{"huge tool_use_id", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"` + strings.Repeat("i", 1<<20) + `","tool_input":{"command":"rm -rf build"}}`), args, "deny"},
		{"duplicate keys", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build","command":"ls"}}`), args, "any"},
		{"Stop with garbage", []byte("\x00\x01\x02"), []string{"--event", "Stop", "--root", root, "--feature", "f002"}, "any"},
		{"SessionStart with garbage", []byte("{{{{"), []string{"--event", "SessionStart", "--root", root, "--feature", "f002"}, "any"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runHook(t, hook, c.args, c.payload, cleanEnv(), hookLimit)
			checkHookResult(t, r, c.want)
		})
	}
}

// TestHostileWorkspaceState breaks the files the hook reads or writes: state
// files missing or replaced by directories, hook.log not writable, .harness/logs
// a file. The hook must still decide (deny rm -rf; Stop answers) and exit 0/2.
func TestHostileWorkspaceState(t *testing.T) {
	hook := needHook(t)
	rmrf := func(fdir string) []byte {
		b, _ := json.Marshal(map[string]any{"session_id": "sess-state", "hook_event_name": "PreToolUse", "cwd": fdir,
			"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf build"}})
		return b
	}
	stop := []byte(`{"session_id":"sess-state","hook_event_name":"Stop","stop_hook_active":false}`)
	breakages := []struct {
		name  string
		apply func(t *testing.T, root string)
	}{
		{"feature_list.json missing", func(t *testing.T, root string) { rm(t, root, ".harness/feature_list.json") }},
		{"feature_list.json is a directory", func(t *testing.T, root string) {
			rm(t, root, ".harness/feature_list.json")
			mkdir(t, root, ".harness/feature_list.json")
		}},
		{"feature_list.json not JSON", func(t *testing.T, root string) {
			writeFile(t, root, ".harness/feature_list.json", "{\"features\": [")
		}},
		{"session_pool.json is a directory", func(t *testing.T, root string) {
			rm(t, root, ".harness/session_pool.json")
			mkdir(t, root, ".harness/session_pool.json")
		}},
		{"eval_log.jsonl is a directory", func(t *testing.T, root string) {
			rm(t, root, ".harness/eval_log.jsonl")
			mkdir(t, root, ".harness/eval_log.jsonl")
		}},
		{"generator_log.md is a directory", func(t *testing.T, root string) {
			rm(t, root, ".harness/features/f002/generator_log.md")
			mkdir(t, root, ".harness/features/f002/generator_log.md")
		}},
		{"hook.log is a directory", func(t *testing.T, root string) {
			rm(t, root, ".harness/logs/hook.log")
			mkdir(t, root, ".harness/logs/hook.log")
		}},
		{".harness/logs is a file", func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, ".harness", "logs")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, root, ".harness/logs", "not a dir")
		}},
		{"read-only .harness/logs", func(t *testing.T, root string) {
			if err := os.Chmod(filepath.Join(root, ".harness", "logs"), 0o555); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Join(root, ".harness", "logs", "hook.log"), 0o444); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(filepath.Join(root, ".harness", "logs"), 0o755) })
		}},
		{"hook.log lock is a directory", func(t *testing.T, root string) {
			mkdir(t, root, ".harness/logs/hook.log.lock")
		}},
		{"whole .harness missing", func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, ".harness")); err != nil {
				t.Fatal(err)
			}
		}},
		{"tooling.md is a symlink loop", func(t *testing.T, root string) {
			p := filepath.Join(root, ".harness", "sprint_contracts", "sprint_20260421_1", "tooling.md")
			rm(t, root, ".harness/sprint_contracts/sprint_20260421_1/tooling.md")
			mustSymlink(t, "tooling.md", p)
		}},
	}
	if runtime.GOOS != "windows" {
		breakages = append(breakages, struct {
			name  string
			apply func(t *testing.T, root string)
		}{"feature_list.json is a FIFO", func(t *testing.T, root string) {
			rm(t, root, ".harness/feature_list.json")
			mkfifo(t, filepath.Join(root, ".harness", "feature_list.json"))
		}}, struct {
			name  string
			apply func(t *testing.T, root string)
		}{"own handoff.md is a FIFO (the Generator may write its own feature dir)", func(t *testing.T, root string) {
			rm(t, root, ".harness/features/f002/handoff.md")
			mkfifo(t, filepath.Join(root, ".harness", "features", "f002", "handoff.md"))
		}})
	}
	for _, b := range breakages {
		t.Run(b.name, func(t *testing.T) {
			root := newWorkspace(t)
			b.apply(t, root)
			fdir := filepath.Join(root, ".harness", "features", "f002")
			base := []string{"--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}
			r := runHook(t, hook, append([]string{"--event", "PreToolUse"}, base...), rmrf(fdir), cleanEnv(), hookLimit)
			checkHookResult(t, r, "deny")
			r = runHook(t, hook, append([]string{"--event", "Stop"}, base...), stop, cleanEnv(), hookLimit)
			checkHookResult(t, r, "any")
			sess, _ := json.Marshal(map[string]any{"session_id": "sess-state", "hook_event_name": "SessionStart", "source": "startup", "cwd": fdir})
			r = runHook(t, hook, append([]string{"--event", "SessionStart"}, base...), sess, cleanEnv(), hookLimit)
			checkHookResult(t, r, "any")
		})
	}
}

// checkHookResult asserts the invariants of every hook call, and a deny when
// want is "deny".
func checkHookResult(t *testing.T, r hookResult, want string) {
	t.Helper()
	if r.timedOut {
		t.Fatalf("hook did not answer within %s", hookLimit)
	}
	if r.code != 0 && r.code != 2 {
		t.Errorf("exit code %d (only 0 and 2 are answers; 1 fails open in Claude Code)", r.code)
	}
	if strings.Contains(string(r.stderr), "panic:") || strings.Contains(string(r.stderr), "goroutine ") && strings.Contains(string(r.stderr), "[running]") {
		t.Errorf("hook panicked or dumped goroutines: %.500s", r.stderr)
	}
	out := strings.TrimSpace(string(r.stdout))
	summary := out
	if i := strings.Index(out, "["); i >= 0 {
		if j := strings.Index(out[i:], "]"); j > 0 {
			summary = out[i : i+j+1]
		}
	}
	if len(summary) > 120 {
		summary = summary[:120] + "…"
	}
	t.Logf("exit %d in %s: %s", r.code, r.elapsed.Round(time.Millisecond), summary)
	var obj map[string]any
	if out != "" {
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("stdout is not one JSON object: %.300q", out)
		}
	}
	if want != "deny" {
		return
	}
	if r.code == 2 {
		if strings.TrimSpace(string(r.stderr)) == "" {
			t.Errorf("exit 2 without a reason on stderr")
		}
		return
	}
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	if hso["permissionDecision"] != "deny" && obj["decision"] != "block" {
		t.Errorf("silent allow: stdout %.300q (want permissionDecision deny)", out)
	}
	if pd := hso["permissionDecision"]; pd == "allow" || pd == "ask" {
		t.Errorf("hook emitted permissionDecision %q", pd)
	}
	if reason, _ := hso["permissionDecisionReason"].(string); hso["permissionDecision"] == "deny" && strings.TrimSpace(reason) == "" {
		t.Errorf("deny without a reason")
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func rm(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
