package bashguard

import (
	"bytes"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/verdict"
)

type ruleFile struct {
	name   string
	raw    []byte
	Family string `yaml:"family"`
	Rules  []struct {
		ID       string `yaml:"id"`
		Action   string `yaml:"action"`
		Message  string `yaml:"message"`
		Hint     string `yaml:"hint"`
		Examples struct {
			Block []string `yaml:"block"`
			Warn  []string `yaml:"warn"`
			Allow []string `yaml:"allow"`
		} `yaml:"examples"`
	} `yaml:"rules"`
}

func loadRuleFiles(t testing.TB) []ruleFile {
	t.Helper()
	names, err := fs.Glob(harness.Assets(), "rules/*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no rule files: %v", err)
	}
	var out []ruleFile
	for _, n := range names {
		if n == "rules/paths.yaml" {
			continue // the path guard's rules (internal/pathguard)
		}
		data, err := fs.ReadFile(harness.Assets(), n)
		if err != nil {
			t.Fatal(err)
		}
		rf := ruleFile{name: n, raw: data}
		if err := yaml.UnmarshalWithOptions(data, &rf, yaml.Strict()); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out = append(out, rf)
	}
	return out
}

// TestRuleFilesMatchSchema validates every rules/*.yaml against rules/rule.schema.json.
func TestRuleFilesMatchSchema(t *testing.T) {
	schemaData, err := fs.ReadFile(harness.Assets(), "rules/rule.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaData))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("rule.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("rule.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, rf := range loadRuleFiles(t) {
		js, err := yaml.YAMLToJSON(rf.raw)
		if err != nil {
			t.Fatalf("%s: %v", rf.name, err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatalf("%s: %v", rf.name, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s does not match rule.schema.json: %v", rf.name, err)
		}
	}
	// the schema rejects what it must
	bad := `{"family":"rm_rf","rules":[{"id":"Bad Id","action":"block","message":"0123456789","hint":"0123456789","examples":{"block":["x"],"allow":[]}}]}`
	inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if sch.Validate(inst) == nil {
		t.Error("schema accepted a malformed rule id")
	}
}

// TestRuleExamples runs every rule's own examples through Decide (Generator
// session f002, no path guard): block/warn examples must end in that action
// with the rule among the matches, allow examples must be allowed.
func TestRuleExamples(t *testing.T) {
	seen := map[string]bool{}
	for _, rf := range loadRuleFiles(t) {
		if want := strings.TrimSuffix(path.Base(rf.name), ".yaml"); rf.Family != want {
			t.Errorf("%s: family %q, want %q (file name)", rf.name, rf.Family, want)
		}
		for _, r := range rf.Rules {
			if seen[r.ID] {
				t.Errorf("duplicate rule id %s", r.ID)
			}
			seen[r.ID] = true
			if _, ok := matchers.Get()[r.ID]; !ok {
				t.Errorf("%s: rule %s has no Go matcher", rf.name, r.ID)
			}
			check := func(cmd string, want verdict.Action) {
				res := Decide(cmd, Context{Feature: "f002"})
				if res.Decision.Action != want {
					t.Errorf("%s example %q: got %s (%s), want %s", r.ID, cmd, res.Decision.Action, res.Decision.Rule, want)
					return
				}
				if want == verdict.Allow {
					return
				}
				for _, m := range res.Matches {
					if m.Rule == r.ID {
						return
					}
				}
				t.Errorf("%s example %q: decided %s by %s, but %s did not match", r.ID, cmd, want, res.Decision.Rule, r.ID)
			}
			for _, c := range r.Examples.Block {
				check(c, verdict.Block)
			}
			for _, c := range r.Examples.Warn {
				check(c, verdict.Warn)
			}
			for _, c := range r.Examples.Allow {
				check(c, verdict.Allow)
			}
		}
	}
	for id := range matchers.Get() {
		if !seen[id] {
			t.Errorf("matcher %s has no rule in rules/*.yaml", id)
		}
	}
}

// TestGeneratedRulesInSync checks rules_gen.go against rules/*.yaml; run
// `go generate ./internal/bashguard` after editing a rule file.
func TestGeneratedRulesInSync(t *testing.T) {
	gen := map[string]Rule{}
	for _, r := range builtinRules {
		gen[r.ID] = r
	}
	n := 0
	for _, rf := range loadRuleFiles(t) {
		for _, r := range rf.Rules {
			n++
			act := verdict.Block
			if r.Action == "warn" {
				act = verdict.Warn
			}
			want := Rule{ID: r.ID, Family: rf.Family, Action: act, Message: r.Message, Hint: r.Hint}
			if got, ok := gen[r.ID]; !ok || got != want {
				t.Errorf("rules_gen.go is out of date for %s (run go generate ./internal/bashguard):\n got  %+v\n want %+v", r.ID, got, want)
			}
		}
	}
	if n != len(builtinRules) {
		t.Errorf("rules_gen.go has %d rules, rules/*.yaml %d (run go generate ./internal/bashguard)", len(builtinRules), n)
	}
	// the rule-id registry lists the same ids, in evaluation order
	var ids []string
	for _, r := range builtinRules {
		ids = append(ids, r.ID)
	}
	if got := ruleid.Of(ruleid.Bash); !slices.Equal(got, ids) {
		t.Errorf("internal/ruleid/bash_gen.go is out of date (run go generate ./internal/bashguard):\n got  %v\n want %v", got, ids)
	}
}

// BenchmarkDecodeRuleYAML measures what decoding the rule files would cost
// per hook process; it is why the table is pre-decoded into rules_gen.go.
func BenchmarkDecodeRuleYAML(b *testing.B) {
	files := loadRuleFiles(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, rf := range files {
			var v ruleFile
			if err := yaml.Unmarshal(rf.raw, &v); err != nil {
				b.Fatal(err)
			}
		}
	}
}
