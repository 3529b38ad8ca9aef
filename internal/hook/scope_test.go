package hook

import (
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestResolveScopePrecedence: flags > env > discovery for root and feature;
// the feature is discovered only from a cwd inside .harness/features/<F>/,
// never from .current_agent; unsafe ids are refused.
func TestResolveScopePrecedence(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sprint_20260421_1")
	testutil.CopyTree(t, testdata("sprints", "valid-midway"), root) // .current_agent names f002
	other := filepath.Join(t.TempDir(), "other")
	mustMkdir(t, filepath.Join(other, ".harness"))
	fdir := filepath.Join(root, ".harness", "features", "f001", "sub")
	mustMkdir(t, fdir)

	cases := []struct {
		name                  string
		f                     flags
		env                   map[string]string
		cwd                   string
		root, feature, sprint string
		wantErr               bool
	}{
		{name: "discovery from cwd at the root: no feature (not .current_agent)", cwd: root, root: root},
		{name: "discovery inside a feature directory", cwd: fdir, root: root, feature: "f001"},
		{name: "env beats discovery", env: map[string]string{"HARNESS_ROOT": other, "FEATURE_ID": "f009", "SPRINT_ID": "sprint_20260101_1"}, cwd: fdir, root: other, feature: "f009", sprint: "sprint_20260101_1"},
		{name: "flags beat env", f: flags{root: root, feature: "f003", sprint: "sprint_20260421_1"}, env: map[string]string{"HARNESS_ROOT": other, "FEATURE_ID": "f009"}, cwd: other, root: root, feature: "f003", sprint: "sprint_20260421_1"},
		{name: "no workspace", cwd: t.TempDir()},
		{name: "unsafe feature id refused", env: map[string]string{"FEATURE_ID": "../f002"}, cwd: root, root: root, wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := resolveScope(c.f, c.env, c.cwd)
			if s.Root != c.root || s.Feature != c.feature || s.Sprint != c.sprint {
				t.Fatalf("got root %q feature %q sprint %q", s.Root, s.Feature, s.Sprint)
			}
			if (len(s.Errors) > 0) != c.wantErr {
				t.Fatalf("errors %v", s.Errors)
			}
		})
	}
}
