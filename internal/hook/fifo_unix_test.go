//go:build unix

package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestSessionStartAndStopNeverBlockOnFIFOs: a Generator can put a FIFO in
// its own feature directory; SessionStart and Stop must still answer at once
// (a hook that hangs until its timeout fails open).
func TestSessionStartAndStopNeverBlockOnFIFOs(t *testing.T) {
	for _, name := range []string{"handoff.md", "session_id.txt", "context_snapshot.md", "AGENTS.md"} {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			root := filepath.Join(tmp, "sprint_20260421_1")
			testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
			p := filepath.Join(root, ".harness", "features", "f002", name)
			testutil.MakeFIFO(t, p)
			done := make(chan result, 2)
			go func() {
				done <- runBin(t, root, []string{"--event", "SessionStart", "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}, nil,
					[]byte(`{"hook_event_name":"SessionStart","session_id":"s","source":"startup","cwd":"`+root+`"}`))
				done <- runBin(t, root, []string{"--event", "Stop", "--root", root, "--feature", "f002"}, nil, stopPayload(root, "s", tmp))
			}()
			for i, ev := range []string{EventSessionStart, EventStop} {
				select {
				case res := <-done:
					if res.code != 0 {
						t.Fatalf("%s: exit %d", ev, res.code)
					}
					checkContract(t, ev, res.stdout)
				case <-time.After(20 * time.Second):
					t.Fatalf("%s (call %d) hangs on a FIFO at %s", ev, i, name)
				}
			}
		})
	}
	t.Run("feature_list.json", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "sprint_20260421_1")
		testutil.CopyTree(t, testdata("sprints", "valid-complete"), root)
		p := filepath.Join(root, ".harness", "feature_list.json")
		testutil.MakeFIFO(t, p)
		done := make(chan result, 2)
		go func() {
			done <- runBin(t, root, []string{"--event", "Stop", "--root", root, "--feature", "f001"}, nil, stopPayload(root, "s", root))
			done <- runBin(t, root, []string{"--event", "SessionStart", "--root", root, "--feature", "f001"}, nil,
				[]byte(`{"hook_event_name":"SessionStart","session_id":"s","source":"startup","cwd":"`+root+`"}`))
		}()
		for _, ev := range []string{EventStop, EventSessionStart} {
			select {
			case res := <-done:
				obj := checkContract(t, ev, res.stdout)
				if ev == EventStop && (obj["decision"] != "block" || !strings.Contains(obj["reason"].(string), "not a regular file")) {
					t.Fatalf("Stop with a FIFO feature_list.json: %s", res.stdout)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%s hangs on a FIFO feature_list.json", ev)
			}
		}
	})
	t.Run("hook.log", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "sprint_20260421_1")
		testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
		p := filepath.Join(root, ".harness", "logs", "hook.log")
		testutil.MakeFIFO(t, p)
		done := make(chan result, 1)
		go func() {
			done <- runBin(t, root, []string{"--event", "Stop", "--root", root, "--feature", "f001"}, nil, stopPayload(root, "s", root))
		}()
		select {
		case res := <-done:
			if obj := checkContract(t, EventStop, res.stdout); obj["decision"] != "block" || !strings.Contains(res.stderr, "not a regular file") {
				t.Fatalf("stdout %s stderr %s", res.stdout, res.stderr)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("Stop hangs on a FIFO hook.log")
		}
	})
}

// TestPreToolUseNeverBlocksOnFIFOs: the files a Bash PreToolUse reads
// (.harness/rules.yaml, .harness/allow.jsonl for a blocked command, a diff
// given to git apply) replaced by FIFOs must not stall the decision: a hook
// that hangs until Claude Code's timeout lets the command run.
func TestPreToolUseNeverBlocksOnFIFOs(t *testing.T) {
	for _, tc := range []struct{ fifo, cmd, want string }{
		{".harness/rules.yaml", "rm -rf build", "deny"},
		{".harness/allow.jsonl", "rm -rf build", "deny"},
		{".harness/features/f002/p.diff", "git apply < p.diff", ""},
	} {
		t.Run(tc.fifo, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "sprint_20260421_1")
			testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
			p := filepath.Join(root, filepath.FromSlash(tc.fifo))
			testutil.MakeFIFO(t, p)
			fdir := filepath.Join(root, ".harness", "features", "f002")
			payload := []byte(`{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","cwd":"` + fdir +
				`","tool_input":{"command":"` + tc.cmd + `"}}`)
			done := make(chan result, 1)
			go func() {
				done <- runBin(t, root, []string{"--event", "PreToolUse", "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}, nil, payload)
			}()
			select {
			case res := <-done:
				obj := checkContract(t, EventPreToolUse, res.stdout)
				hso, _ := obj["hookSpecificOutput"].(map[string]any)
				if tc.want == "deny" && (res.code != 0 || hso["permissionDecision"] != "deny") {
					t.Fatalf("want deny: exit %d stdout %s stderr %s", res.code, res.stdout, res.stderr)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("PreToolUse hangs on a FIFO at %s", tc.fifo)
			}
		})
	}
}

// TestEditOfFIFOToolingNeverBlocks: an Edit of tooling.md (allowed only
// below its section-6 heading, so the guard reads the file) answers at once
// when tooling.md is a FIFO, and denies.
func TestEditOfFIFOToolingNeverBlocks(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	p := filepath.Join(root, ".harness", "sprint_contracts", "sprint_20260421_1", "tooling.md")
	testutil.MakeFIFO(t, p)
	fdir := filepath.Join(root, ".harness", "features", "f002")
	payload := []byte(`{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Edit","cwd":"` + fdir +
		`","tool_input":{"file_path":"` + p + `","old_string":"x","new_string":"y"}}`)
	done := make(chan result, 1)
	go func() {
		done <- runBin(t, root, []string{"--event", "PreToolUse", "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}, nil, payload)
	}()
	select {
	case res := <-done:
		obj := checkContract(t, EventPreToolUse, res.stdout)
		if hso, _ := obj["hookSpecificOutput"].(map[string]any); hso["permissionDecision"] != "deny" {
			t.Fatalf("want deny: %s", res.stdout)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("PreToolUse Edit hangs on a FIFO tooling.md")
	}
}

// TestSessionStartNotesUnreadableFiles: SessionStart degrades with a note
// when feature_list.json, handoff.md, context_snapshot.md or tooling.md
// exists but is not a regular file: the context (still within budget) and
// the hook.log record name each one; a merely missing file is not listed.
func TestSessionStartNotesUnreadableFiles(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	fdir := filepath.Join(root, ".harness", "features", "f002")
	fifos := map[string]string{
		"feature_list.json":   filepath.Join(root, ".harness", "feature_list.json"),
		"handoff.md":          filepath.Join(fdir, "handoff.md"),
		"context_snapshot.md": filepath.Join(fdir, "context_snapshot.md"),
		"tooling.md":          filepath.Join(root, ".harness", "sprint_contracts", "sprint_20260421_1", "tooling.md"),
	}
	for _, p := range fifos {
		testutil.MakeFIFO(t, p)
	}
	os.Remove(filepath.Join(fdir, "AGENTS.md")) // missing: falls back, not a note in the context
	ctx := runSessionStart(t, root, "f002", "sess-fifo")
	i := strings.Index(ctx, "## Left out")
	if i < 0 {
		t.Fatalf("no note on the unreadable files in the context:\n%s", ctx)
	}
	for name := range fifos {
		if !strings.Contains(ctx[i:], name+": ") || !strings.Contains(ctx[i:], "not a regular file") {
			t.Errorf("the note does not name %s:\n%s", name, ctx[i:])
		}
	}
	if strings.Contains(ctx[i:], "AGENTS.md") {
		t.Errorf("a missing AGENTS.md is listed as unreadable:\n%s", ctx[i:])
	}
	if n := utf16Len(ctx); n > contextBudget {
		t.Errorf("context is %d UTF-16 units, budget %d", n, contextBudget)
	}
	recs := hookLogRecords(t, root)
	if len(recs) == 0 {
		t.Fatal("no hook.log record")
	}
	errs := strings.Join(recs[len(recs)-1].Errors, "\n")
	for name := range fifos {
		if !strings.Contains(errs, name) {
			t.Errorf("hook.log record errors lack %s: %q", name, errs)
		}
	}
}
