package hook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/testutil"
	"github.com/superagent-harness/harness/internal/verdict"
)

type presetFile struct {
	Presets []struct {
		Name        string       `yaml:"name"`
		Relaxations []presetRule `yaml:"relaxations"`
		Additions   []presetRule `yaml:"additions"`
	} `yaml:"presets"`
}

type presetRule struct {
	ID        string   `yaml:"id"`
	MustAllow []string `yaml:"must_allow"`
	MustBlock []string `yaml:"must_block"`
}

// TestPresetExamples runs every example of rules/presets/presets.yaml
// through BashDecision outside a sprint workspace (the project is a temp
// dir): under its preset each must_allow is allowed by that rule and each
// must_block blocked; a relaxation's must_allow is blocked under strict and
// an addition's must_block allowed under strict, so each rule changes
// something.
func TestPresetExamples(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "rules", "presets", "presets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var pf presetFile
	if err := yaml.Unmarshal(data, &pf); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	env := map[string]string{"HOME": "/home/tester", "TMPDIR": "/tmp"}
	decide := func(preset, cmd string) verdict.Decision {
		res, err := BashDecision(cmd, BashScope{Cwd: project, Env: env, Preset: preset})
		if err != nil {
			t.Fatal(err)
		}
		return res.Decision
	}
	n := 0
	for _, p := range pf.Presets {
		for _, r := range append(append([]presetRule{}, p.Relaxations...), p.Additions...) {
			if !ruleid.Known(r.ID) || ruleid.Of(ruleid.Preset) == nil {
				t.Errorf("preset rule %s is not registered in internal/ruleid (and docs/protocol.md §14.7)", r.ID)
			}
		}
		for _, r := range p.Relaxations {
			for _, c := range r.MustAllow {
				n++
				if d := decide(p.Name, c); d.Action != verdict.Allow || d.Rule != r.ID {
					t.Errorf("%s %s: %q → %s [%s], want allow [%s]", p.Name, r.ID, c, d.Action, d.Rule, r.ID)
				}
				if d := decide(PresetStrict, c); d.Action != verdict.Block {
					t.Errorf("strict: %q → %s, want block (the relaxation %s relaxes nothing)", c, d.Action, r.ID)
				}
			}
			for _, c := range r.MustBlock {
				n++
				if d := decide(p.Name, c); d.Action != verdict.Block {
					t.Errorf("%s %s: %q → %s, want block", p.Name, r.ID, c, d.Action)
				}
			}
		}
		for _, r := range p.Additions {
			for _, c := range r.MustBlock {
				n++
				if d := decide(p.Name, c); d.Action != verdict.Block || d.Rule != r.ID {
					t.Errorf("%s %s: %q → %s [%s], want block [%s]", p.Name, r.ID, c, d.Action, d.Rule, r.ID)
				}
				if d := decide(PresetStrict, c); d.Rule == r.ID {
					t.Errorf("strict: %q blocked by %s, which is standard only", c, r.ID)
				}
			}
			for _, c := range r.MustAllow {
				n++
				if d := decide(p.Name, c); d.Action == verdict.Block {
					t.Errorf("%s %s: %q → block [%s], want not blocked", p.Name, r.ID, c, d.Rule)
				}
			}
		}
	}
	if n < 25 {
		t.Fatalf("only %d preset examples", n)
	}
}
