package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/skill"
)

// doctor reports the installed skill: not installed (info), current (ok),
// outdated (warn, with the install command as the fix).
func TestDoctorReportsAnOutdatedSkill(t *testing.T) {
	home := t.TempDir()
	find := func(cs []Check, where string) *Check {
		for i := range cs {
			if strings.Contains(cs[i].Name, where) {
				return &cs[i]
			}
		}
		return nil
	}
	cs := checkSkill(Options{Home: home, Env: map[string]string{}})
	if c := find(cs, ".hermes"); c == nil || c.Status != StatusInfo || !strings.Contains(c.Detail, "not installed") {
		t.Fatalf("before install: %+v", cs)
	}
	if c := find(cs, ".claude"); c != nil {
		t.Errorf("a missing Claude Code copy is not reported: %+v", c)
	}
	hermesDir := skill.HermesDir(filepath.Join(home, ".hermes"))
	claudeDir := skill.ClaudeDir(filepath.Join(home, ".claude"))
	for _, d := range []string{hermesDir, claudeDir} {
		if _, err := skill.Install(d); err != nil {
			t.Fatal(err)
		}
	}
	cs = checkSkill(Options{Home: home, Env: map[string]string{}})
	for _, where := range []string{".hermes", ".claude"} {
		if c := find(cs, where); c == nil || c.Status != StatusOK {
			t.Fatalf("%s after install: %+v", where, cs)
		}
	}
	if err := os.WriteFile(filepath.Join(claudeDir, "references", "planning.md"), []byte("old steps\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs = checkSkill(Options{Home: home, Env: map[string]string{}})
	c := find(cs, ".claude")
	if c == nil || c.Status != StatusWarn || !strings.Contains(c.Detail, "outdated") || !strings.Contains(c.Detail, "references/planning.md") ||
		c.Fix != "harness skill install --claude" {
		t.Fatalf("outdated copy: %+v", c)
	}
	// HERMES_HOME wins over ~/.hermes.
	other := t.TempDir()
	cs = checkSkill(Options{Home: home, Env: map[string]string{"HERMES_HOME": other}})
	if c := find(cs, other); c == nil || c.Status != StatusInfo {
		t.Fatalf("HERMES_HOME: %+v", cs)
	}
}
