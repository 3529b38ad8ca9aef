package ops

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// A pipeline's feature_template.json is what `harness init --from-pipeline`
// instantiates (docs/protocol.md §9.3, "Sprints from a pipeline"):
//
//	{"pipeline_id", "version",
//	 "features": [{"id", "name", "depends_on", "reusable", "priority",
//	   "execution_path", "verification_mode", "acceptance": [text],
//	   "acceptance_count", "checkpoints": [{"phase", "type", "prompt"?,
//	   "blockers": [{"id", "question", "options"}], "external_irreversible"?}]}],
//	 "contract": {"generator_contract"?, "evaluator_criteria"?, "max_iterations"}}
//
// Texts (names, acceptance items, prompts, blocker questions and options,
// the generator contract, tooling_template.md) are de-named: every value of
// a sink variable (--var name=value, and the pipeline_vars the sprint was
// instantiated with) becomes the placeholder {name}; init --var name=value
// puts the values back. The catch-all question is not stored (plan appends
// it to every gate again); statuses, decisions, feedback, commits, sessions
// and timestamps are dropped.

// reVarName is a placeholder name: {product_name}, {deploy_target}.
var reVarName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// reVarRef finds the placeholders of a de-named text.
var reVarRef = regexp.MustCompile(`\{([a-z][a-z0-9_]*)\}`)

// ParseVars reads --var name=value pairs (names: lowercase letters, digits
// and underscores, starting with a letter; values non-empty).
func ParseVars(pairs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || !reVarName.MatchString(k) || strings.TrimSpace(v) == "" {
			return nil, usage("--var %q: give name=value (name: a-z, 0-9, _, starting with a letter; value non-empty)", p)
		}
		if _, dup := out[k]; dup {
			return nil, usage("--var %s given twice", k)
		}
		out[k] = v
	}
	return out, nil
}

// denamer replaces every variable value in a text by its placeholder,
// longest value first (so "CC Switch Pro" wins over "CC Switch").
func denamer(vars map[string]string) func(string) string {
	type kv struct{ k, v string }
	var l []kv
	for k, v := range vars {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(i, j int) bool {
		if len(l[i].v) != len(l[j].v) {
			return len(l[i].v) > len(l[j].v)
		}
		return l[i].k < l[j].k
	})
	var pairs []string
	for _, p := range l {
		pairs = append(pairs, p.v, "{"+p.k+"}")
	}
	if len(pairs) == 0 {
		return func(s string) string { return s }
	}
	r := strings.NewReplacer(pairs...)
	return r.Replace
}

// filler puts variable values back into a de-named text.
func filler(vars map[string]string) func(string) string {
	return func(s string) string {
		return reVarRef.ReplaceAllStringFunc(s, func(m string) string {
			if v, ok := vars[m[1:len(m)-1]]; ok {
				return v
			}
			return m
		})
	}
}

// placeholders lists the placeholder names used in texts, sorted.
func placeholders(texts ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range texts {
		for _, m := range reVarRef.FindAllStringSubmatch(t, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				out = append(out, m[1])
			}
		}
	}
	sort.Strings(out)
	return out
}

// sprintTemplate abstracts the sprint's features and contract into the
// feature_template.json object (see above), de-naming texts with dn.
func sprintTemplate(fl featureList, contract *Obj, id, version string, dn func(string) string) *Obj {
	var feats []any
	for _, f := range fl.features() {
		var cps []any
		for _, cp := range checkpointsOf(f) {
			p, _ := cp.Int("phase")
			o := NewObj().With("phase", num(p)).With("type", cp.Str("type"))
			if s := cp.Str("prompt"); s != "" {
				o.With("prompt", dn(s))
			}
			var bl []any
			for _, v := range cp.Arr("blockers") {
				b, ok := v.(*Obj)
				if !ok || b.Str("id") == "catch_all" {
					continue
				}
				var opts []string
				for _, s := range b.Strs("options") {
					opts = append(opts, dn(s))
				}
				bl = append(bl, NewObj().With("id", b.Str("id")).With("question", dn(b.Str("question"))).With("options", strsToAny(opts)))
			}
			if len(bl) > 0 {
				o.With("blockers", bl)
			}
			if cp.Bool("external_irreversible") {
				o.With("external_irreversible", true)
			}
			cps = append(cps, o)
		}
		var acc []string
		for _, a := range f.Strs("acceptance") {
			acc = append(acc, dn(a))
		}
		feats = append(feats, NewObj().With("id", f.Str("id")).With("name", dn(f.Str("name"))).
			With("depends_on", strsToAny(nonNil(f.Strs("depends_on")))).With("reusable", f.Str("status") == "completed").
			With("priority", firstNonEmpty(f.Str("priority"), "P1")).
			With("execution_path", firstNonEmpty(f.Str("execution_path"), "generator_cc")).
			With("verification_mode", firstNonEmpty(f.Str("verification_mode"), "hybrid")).
			With("acceptance", strsToAny(nonNil(acc))).With("acceptance_count", num(len(acc))).
			With("checkpoints", nonNilAny(cps)))
	}
	c := NewObj()
	if contract != nil {
		if s := contract.Str("generator_contract"); s != "" {
			c.With("generator_contract", dn(s))
		}
		if crit := contract.ObjAt("evaluator_criteria"); crit != nil {
			out := NewObj()
			for _, k := range crit.Keys() {
				out.With(k, dn(crit.Str(k)))
			}
			c.With("evaluator_criteria", out)
		}
		if m, ok := contract.Int("max_iterations"); ok {
			c.With("max_iterations", num(m))
		}
	}
	return NewObj().With("pipeline_id", id).With("version", version).With("features", nonNilAny(feats)).With("contract", c)
}

// Change levels of a sink against the pipeline's current template
// (docs/protocol.md §9.3 versions): none = another run of the same version.
const (
	changeNone = iota
	changePatch
	changeMinor
	changeMajor
)

var changeNames = []string{"", "patch", "minor", "major"}

func changeRank(s string) int { return indexOf(changeNames, s) }

// templateChange says how a sprint's template differs from the pipeline's
// current one, and why: the feature DAG (feature ids or dependencies) →
// major; the checkpoint policy (which phase has a gate, review or notify,
// and which are external irreversible) → minor; texts (names, acceptance
// items, prompts, blockers, contract) → patch; nothing → none. A tooling
// change is not structural: pass --change patch to record it as a version.
// A pipeline without a template needs an explicit --change (any level).
func templateChange(old, cur *Obj) (int, string) {
	if old == nil {
		// nothing to compare with (a pipeline written by hand): any
		// explicit --change is taken as the user's word
		return changePatch, "the pipeline has no feature_template.json to compare the sprint with"
	}
	dag := func(t *Obj) string {
		var l []string
		for _, v := range t.Arr("features") {
			if f, ok := v.(*Obj); ok {
				d := f.Strs("depends_on")
				sort.Strings(d)
				l = append(l, f.Str("id")+"←"+strings.Join(d, ","))
			}
		}
		sort.Strings(l)
		return strings.Join(l, " ")
	}
	if a, b := dag(old), dag(cur); a != b {
		return changeMajor, fmt.Sprintf("the feature DAG changed (%s → %s)", a, b)
	}
	policy := func(t *Obj) map[string]string {
		m := map[string]string{}
		for _, v := range t.Arr("features") {
			f, _ := v.(*Obj)
			var l []string
			for _, c := range f.Arr("checkpoints") {
				cp, _ := c.(*Obj)
				p, _ := cp.Int("phase")
				s := fmt.Sprintf("%d:%s", p, cp.Str("type"))
				if cp.Bool("external_irreversible") {
					s += ":irreversible"
				}
				l = append(l, s)
			}
			m[f.Str("id")] = strings.Join(l, ",")
		}
		return m
	}
	po, pc := policy(old), policy(cur)
	var ids []string
	for id := range pc {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if po[id] != pc[id] {
			return changeMinor, fmt.Sprintf("the checkpoint policy of %s changed (%s → %s)", id, po[id], pc[id])
		}
	}
	strip := func(t *Obj) string {
		c := NewObj().With("features", t.Value("features")).With("contract", t.Value("contract"))
		b, _ := workspace.MarshalIndent(c)
		return string(b)
	}
	if strip(old) != strip(cur) {
		return changePatch, "texts changed (names, acceptance items, prompts, blockers or the contract)"
	}
	return changeNone, "the same DAG, checkpoint policy and texts"
}

// loadTemplate reads a pipeline's feature_template.json (nil when absent).
func loadTemplate(dir string) (*Obj, error) {
	data, err := fsutil.ReadRegular(filepath.Join(dir, "feature_template.json"), fsutil.CapState)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	o, err := parseObj(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "feature_template.json"), err)
	}
	return o, nil
}

// PipelinePlan turns a pipeline into the plan of a new sprint (the input of
// ApplyPlan): its features with the variables filled in, its contract, and
// tooling.md sections 1–5 from tooling_template.md. Every placeholder the
// pipeline uses needs a value (--var name=value); an unknown --var is
// refused too, so a typo does not leave a placeholder in the sprint.
func PipelinePlan(home, id string, vars map[string]string) (*Obj, *PlanSource, error) {
	if !rePipelineID.MatchString(id) {
		return nil, nil, usage("pipeline id %q must be kebab-case", id)
	}
	dir := filepath.Join(home, id)
	p, err := loadPipeline(dir)
	if err != nil {
		return nil, nil, refuse("pipeline %s: %v", id, err)
	}
	t, err := loadTemplate(dir)
	if err != nil {
		return nil, nil, refuse("pipeline %s: %v", id, err)
	}
	if t == nil {
		return nil, nil, refuse("pipeline %s has no feature_template.json: sink a sprint into it first", id)
	}
	tooling, err := fsutil.ReadRegular(filepath.Join(dir, "tooling_template.md"), 0)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	tb, _ := workspace.MarshalIndent(t)
	used := placeholders(string(tb), string(tooling))
	var missing, unknown []string
	for _, k := range used {
		if _, ok := vars[k]; !ok {
			missing = append(missing, k)
		}
	}
	for k := range vars {
		if indexOf(used, k) < 0 {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(missing) > 0 {
		return nil, nil, usage("pipeline %s needs --var %s (its inputs: %s)", id, strings.Join(missing, "=… --var "), strings.Join(used, ", "))
	}
	if len(unknown) > 0 {
		return nil, nil, usage("pipeline %s has no input %s (its inputs: %s)", id, strings.Join(unknown, ", "), firstNonEmpty(strings.Join(used, ", "), "none"))
	}
	fill := filler(vars)
	filled, err := parseObj([]byte(fill(string(tb))))
	if err != nil {
		return nil, nil, fmt.Errorf("pipeline %s: the filled template does not parse (a --var value breaks the JSON?): %v", id, err)
	}
	plan := NewObj()
	var feats []any
	for _, v := range filled.Arr("features") {
		f, _ := v.(*Obj)
		o := NewObj()
		for _, k := range []string{"id", "name", "depends_on", "priority", "execution_path", "verification_mode", "acceptance", "checkpoints"} {
			if f.Has(k) {
				o.With(k, f.Value(k))
			}
		}
		feats = append(feats, o)
	}
	plan.With("features", feats)
	if c := filled.ObjAt("contract"); c != nil && len(c.Keys()) > 0 {
		plan.With("contract", c)
	}
	if len(tooling) > 0 {
		secs := toolingSections(fill(string(tooling)))
		tl := NewObj()
		for i, k := range toolingKeys {
			if s := stripGuidance(secs[i+1]); s != "" {
				tl.With(k, s)
			}
		}
		if len(tl.Keys()) > 0 {
			plan.With("tooling", tl)
		}
	}
	return plan, &PlanSource{PipelineID: id, Version: fmt.Sprint(p["version"]), Vars: vars}, nil
}

// stripGuidance drops the template's HTML guidance comments from a section.
func stripGuidance(s string) string {
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "-->")
		if j < 0 {
			break
		}
		s = s[:i] + s[i+j+3:]
	}
	return strings.TrimSpace(s)
}
