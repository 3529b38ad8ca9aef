package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestBashTildeTargetsUseHOME: the hook hands HOME to the path guard, so a
// Bash write to "~/…" or "$HOME/…" that lands in a protected path of the
// workspace is blocked (testdata/corpus/README.md §3.2 readonly_dir, §3.3), while the
// same command with another HOME writes outside the root and is allowed.
func TestBashTildeTargetsUseHOME(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, "work", "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root)
	call := func(command, homeVal string) string {
		p, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root,
			"tool_name": "Bash", "tool_input": map[string]any{"command": command}})
		res := runIn(runner{}, []string{"--root", root, "--feature", "f001"}, map[string]string{"HOME": homeVal}, strings.NewReader(string(p)))
		return corpusOutcome(t, command, res)
	}
	for _, cmd := range []string{
		"echo '{}' > ~/work/sprint_20260421_1/schemas/x.schema.json",
		"echo '{}' > $HOME/work/sprint_20260421_1/schemas/x.schema.json",
	} {
		if got := call(cmd, home); got != "block" {
			t.Errorf("%q with HOME=%s: %s, want block", cmd, home, got)
		}
		if got := call(cmd, t.TempDir()); got != "allow" {
			t.Errorf("%q with another HOME: %s, want allow", cmd, got)
		}
	}
	if got := call("cd ~/work/sprint_20260421_1/spec && touch new.md", home); got != "block" {
		t.Errorf("cd ~/… then a relative write: %s, want block", got)
	}
}
