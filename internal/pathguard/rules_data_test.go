package pathguard

import (
	"bytes"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/ruleid"
)

// PathRuleFile is rules/paths.yaml decoded (exported for the external
// example test, rules_examples_test.go).
type PathRuleFile struct {
	Raw   []byte `yaml:"-"`
	Rules []struct {
		ID           string   `yaml:"id"`
		Family       string   `yaml:"family"`
		Kind         string   `yaml:"kind"`
		Patterns     []string `yaml:"patterns"`
		ProjectFiles []string `yaml:"project_files"`
		HomeFiles    []string `yaml:"home_files"`
		Message      string   `yaml:"message"`
		Hint         string   `yaml:"hint"`
		Examples     struct {
			Block []PathRuleExample `yaml:"block"`
			Allow []PathRuleExample `yaml:"allow"`
		} `yaml:"examples"`
	} `yaml:"rules"`
}

// PathRuleExample is one example of a path rule.
type PathRuleExample struct {
	Tool      string `yaml:"tool"`
	Path      string `yaml:"path"`
	OldString string `yaml:"old_string"`
	Command   string `yaml:"command"`
	// Session is "hermes" for an example judged without a feature.
	Session string `yaml:"session"`
	Note    string `yaml:"note"`
}

// LoadPathRules decodes the embedded rules/paths.yaml strictly.
func LoadPathRules(t testing.TB) PathRuleFile {
	t.Helper()
	data, err := fs.ReadFile(harness.Assets(), "rules/paths.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f := PathRuleFile{Raw: data}
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.Strict()); err != nil {
		t.Fatalf("rules/paths.yaml: %v", err)
	}
	return f
}

// TestPathRuleFileMatchesSchema validates rules/paths.yaml against
// rules/path-rule.schema.json, and checks that the schema rejects malformed
// rules.
func TestPathRuleFileMatchesSchema(t *testing.T) {
	schemaData, err := fs.ReadFile(harness.Assets(), "rules/path-rule.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaData))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("path-rule.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("path-rule.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(LoadPathRules(t).Raw)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("rules/paths.yaml does not match path-rule.schema.json: %v", err)
	}
	const ok = `{"id":"path.x","family":"contract","kind":"table","patterns":["a/**"],"message":"0123456789","hint":"0123456789","examples":{"block":[{"tool":"Write","path":"a/b"}],"allow":[{"tool":"Bash","command":"cat a/b"}]}}`
	for name, rule := range map[string]string{
		"bad id":                 strings.Replace(ok, `"path.x"`, `"fs.x"`, 1),
		"unknown family":         strings.Replace(ok, `"contract"`, `"contracts"`, 1),
		"upper-case pattern":     strings.Replace(ok, `"a/**"`, `"A/**"`, 1),
		"patterns on a non-row":  strings.Replace(ok, `"table"`, `"ancestor"`, 1),
		"no block example":       strings.Replace(ok, `"block":[{"tool":"Write","path":"a/b"}]`, `"block":[]`, 1),
		"Bash example with path": strings.Replace(ok, `"command":"cat a/b"`, `"path":"a/b"`, 1),
		"Write with command":     strings.Replace(ok, `"path":"a/b"`, `"command":"x"`, 1),
		"unknown tool":           strings.Replace(ok, `"Write"`, `"Read"`, 1),
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"rules":[` + rule + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("schema accepted a rule with %s", name)
		}
	}
	inst, _ = jsonschema.UnmarshalJSON(strings.NewReader(`{"rules":[` + ok + `]}`))
	if err := sch.Validate(inst); err != nil {
		t.Errorf("schema rejected a valid rule: %v", err)
	}
}

// TestGeneratedPathRulesInSync checks rules_gen.go (what Rules(),
// AncestorRule(), … return) against rules/paths.yaml; run
// `go generate ./internal/pathguard` after editing the file.
func TestGeneratedPathRulesInSync(t *testing.T) {
	single := map[string]Rule{
		"ancestor":          AncestorRule(),
		"symlink-loop":      unresolvableRule(),
		"unknown-link":      unknownLinkRule(),
		"unknown-directory": unknownDirRule(),
		"hook-wiring":       HookWiringRule(),
		"claude-config":     ClaudeConfigRule(),
		"git-config":        GitConfigRule(),
	}
	table := Rules()
	n := 0
	seen := map[string]bool{}
	for _, r := range LoadPathRules(t).Rules {
		want := Rule{ID: r.ID, Family: r.Family, Patterns: r.Patterns, ProjectFiles: r.ProjectFiles, HomeFiles: r.HomeFiles, Message: r.Message, Hint: r.Hint}
		var got Rule
		switch r.Kind {
		case "table":
			if n >= len(table) {
				t.Fatalf("rules/paths.yaml has more table rows than the %d the guard evaluates", len(table))
			}
			got = table[n]
			n++
		default:
			var ok bool
			if got, ok = single[r.Kind]; !ok || seen[r.Kind] {
				t.Errorf("rule %s: kind %q unknown or repeated", r.ID, r.Kind)
				continue
			}
			seen[r.Kind] = true
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("rules_gen.go is out of date for %s (%s) (run go generate ./internal/pathguard):\n got  %+v\n want %+v", r.ID, r.Kind, got, want)
		}
	}
	if n != len(table) || len(seen) != len(single) {
		t.Errorf("rules/paths.yaml has %d table rows and %d single rules, the guard %d and %d", n, len(seen), len(table), len(single))
	}
	// the rule-id registry lists the same ids, in the file's order
	var ids []string
	for _, r := range LoadPathRules(t).Rules {
		if !slices.Contains(ids, r.ID) {
			ids = append(ids, r.ID)
		}
	}
	if got := ruleid.Of(ruleid.Path); !slices.Equal(got, ids) {
		t.Errorf("internal/ruleid/path_gen.go is out of date (run go generate ./internal/pathguard):\n got  %v\n want %v", got, ids)
	}
	// the row order is the order classifyRel's index constants assume
	for idx, fam := range map[int]string{idxReadonlyDir: FamilyReadonlyDir, idxReadonlyFile: FamilyReadonlyFile,
		idxContract: FamilyContract, idxTooling: FamilyTooling, idxOtherFeature: FamilyOtherFeature, idxEvalLog: FamilyEvalLog,
		idxGeneratorLog: FamilyGeneratorLog, idxStateViaCLI: FamilyStateViaCLI, idxHookLog: FamilyHookLog} {
		if table[idx].Family != fam {
			t.Errorf("row %d is %s, the guard expects %s there", idx, table[idx].Family, fam)
		}
	}
	// a fresh copy each call: changing one does not change the next
	table[0].Patterns[0] = "changed"
	if Rules()[0].Patterns[0] == "changed" {
		t.Error("Rules() shares its pattern slices between calls")
	}
}
