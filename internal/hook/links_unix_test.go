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

// TestSessionStartDoesNotFollowARecordLink: handoff.md and generator_log.md
// are the Generator's own (writable inside its sandbox), but the hook that
// reads them at SessionStart runs outside the sandbox. A Generator that
// replaces handoff.md by a symbolic link to a file its sandbox may not read
// (here a stand-in for a credentials file, touched recently as such files
// are) had that file's content injected into the next session's context:
// the hook read through the link. A record that is a link is not a record:
// it is named as unreadable, never followed.
func TestSessionStartDoesNotFollowARecordLink(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway-reset"), root)
	secret := filepath.Join(t.TempDir(), "credentials")
	writeFile(t, secret, "SECRET-TOKEN-OUTSIDE-THE-SANDBOX\n")
	now := time.Now()
	if err := os.Chtimes(secret, now, now); err != nil {
		t.Fatal(err)
	}
	handoff := filepath.Join(root, ".harness", "features", "f001", "handoff.md")
	if err := os.Remove(handoff); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, handoff); err != nil {
		t.Fatal(err)
	}
	ctx := runSessionStart(t, root, "f001", "s")
	if strings.Contains(ctx, "SECRET-TOKEN") {
		t.Fatalf("SessionStart injected the file handoff.md links to:\n%s", ctx)
	}
	if !strings.Contains(ctx, "handoff.md") || !strings.Contains(ctx, "symbolic link") {
		t.Errorf("the context does not say handoff.md is a link:\n%.2000s", ctx)
	}
}
