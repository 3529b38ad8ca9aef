package ops

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/workspace"
)

// PlanSource says where a plan came from when it was instantiated from a
// pipeline (`harness init --from-pipeline`): feature_list records
// pipeline_id, pipeline_version and pipeline_vars (the placeholder values,
// so a later sink can de-name the sprint again, docs/protocol.md §9.3).
type PlanSource struct {
	PipelineID string
	Version    string
	Vars       map[string]string
}

// ParsePlan reads a plan file: one YAML or JSON object (JSON is YAML) with
// the keys features, contract and tooling (see Plan). Unknown top-level keys
// are refused, so a misspelt key is not silently dropped.
func ParsePlan(data []byte) (*Obj, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, usage("the plan is neither YAML nor JSON: %v", err)
	}
	o, err := parseObj(js)
	if err != nil {
		return nil, usage("the plan must be one object with features, contract and tooling: %v", err)
	}
	for _, k := range o.Keys() {
		if !oneOf(k, []string{"features", "contract", "tooling"}) {
			return nil, usage("the plan has an unknown key %q (features, contract, tooling)", k)
		}
	}
	return o, nil
}

// planDefaults are the feature fields a plan may leave out.
var planDefaults = []struct{ key, value string }{
	{"assignee", "claude-code"}, {"priority", "P1"}, {"execution_path", "generator_cc"}, {"verification_mode", "hybrid"},
}

// toolingKeys maps a plan's tooling keys to the tooling.md sections 1–5
// (docs/protocol.md §3.5); section 6 stays empty at planning.
var toolingKeys = []string{"capabilities", "mapping", "decisions", "forbidden", "constraints"}

// Plan is `harness plan FILE` (docs/protocol.md §4.4 phase 0 and 1 as one
// step): from one plan object it writes the features (status pending, phase
// 1, the four next_phases, defaults assignee claude-code, priority P1,
// execution_path generator_cc, verification_mode hybrid), their checkpoints
// (ids cp-<fid>-<n> unless given; every gate gets catch_all appended, 2–4
// drafted blockers; a review at least one; a notify none), the contract
// (status planning, generator_contract, evaluator_criteria, max_iterations
// default 3) and, while the tooling gate is not approved, tooling.md
// rendered from templates/tooling.template.md with the plan's sections 1–5.
// It checks the DAG (unique f<NNN> ids, known dependencies, no cycle, at
// least one entry feature) and 1–7 acceptance items per feature, and refuses
// once the DAG gate was approved (the plan is then fixed). src, when set,
// records the pipeline the plan was instantiated from.
func ApplyPlan(env *Env, plan *Obj, src *PlanSource) (*Report, error) {
	rep := &Report{Command: "plan"}
	return env.run(rep, func(tx *Tx) error {
		fl, err := env.loadFeatureList()
		if err != nil {
			return err
		}
		contract, rel, err := env.loadContract(fl)
		if err != nil {
			return err
		}
		if contract != nil && !oneOf(firstNonEmpty(contract.Str("status"), "planning"), []string{"planning", "tooling", "planned"}) {
			return refuse("the contract is %s: the DAG gate was approved, the plan is fixed (a replan goes through a rejected cp-sprint-dag)", contract.Str("status"))
		}
		for _, f := range fl.features() {
			if st := f.Str("status"); st != "pending" && st != "planning" {
				return refuse("%s is %s: a plan replaces only features that have not started", f.Str("id"), st)
			}
		}
		now := env.stamp()
		feats, err := planFeatures(fl.sprint(), now, plan.Arr("features"))
		if err != nil {
			return err
		}
		fl.With("features", feats)
		if src != nil {
			vars := NewObj()
			keys := make([]string, 0, len(src.Vars))
			for k := range src.Vars {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				vars.With(k, src.Vars[k])
			}
			fl.With("pipeline_id", src.PipelineID).With("pipeline_version", src.Version).With("pipeline_vars", vars)
		}
		fl.touch(now)
		if !fl.Has("blocked") {
			fl.With("blocked", []any{})
		}
		if err := tx.WriteJSON(relFeatureList, fl.Obj); err != nil {
			return err
		}
		var ids []string
		for _, v := range feats {
			ids = append(ids, v.(*Obj).Str("id"))
		}
		rep.did("wrote %d features to .harness/feature_list.json: %s", len(ids), strings.Join(ids, ", "))

		c := plan.ObjAt("contract")
		if c == nil {
			c = NewObj()
		}
		if contract == nil {
			contract = NewObj().With("sprint_id", fl.sprint()).With("created_at", now).With("created_by", "hermes")
		}
		contract.With("generator_contract", firstNonEmpty(c.Str("generator_contract"),
			fmt.Sprintf("完成 feature_list 中 %s 的全部 4 个 phase;每个 phase 结束写 generator_log 段落与 phase_evaluation,phase=3 逐条给出 acceptance_results。", strings.Join(ids, "、"))))
		contract.With("features", strsToAny(ids)).With("tooling_locked", fl.Bool("tooling_locked")).
			With("tooling_doc", ".harness/sprint_contracts/"+fl.sprint()+"/tooling.md")
		crit := c.ObjAt("evaluator_criteria")
		if crit == nil {
			crit = contract.ObjAt("evaluator_criteria")
		}
		if crit == nil {
			crit = NewObj().With("pass", "本 phase 完成标志全部满足;phase=3 的每条 acceptance 都有可复现的证据").
				With("retry", "测试失败或 acceptance 未满足,但修正方向明确,且未超过 max_iterations").
				With("fail", "方向性错误、越权操作或 retry 超过 max_iterations")
		}
		contract.With("evaluator_criteria", crit).With("human_checkpoint", true)
		maxIter := 3
		if m, ok := c.Int("max_iterations"); ok {
			if m < 1 {
				return usage("contract.max_iterations %d: at least 1", m)
			}
			maxIter = m
		}
		contract.With("max_iterations", num(maxIter))
		if !contract.Has("iteration_history") {
			contract.With("iteration_history", []any{})
		}
		if !contract.Has("status") {
			contract.With("status", "planning")
		}
		if err := tx.WriteJSON(rel, contract); err != nil {
			return err
		}
		rep.did("wrote %s (status %s)", rel, contract.Str("status"))

		tooling := plan.ObjAt("tooling")
		toolingRel := ".harness/sprint_contracts/" + fl.sprint() + "/tooling.md"
		switch {
		case fl.Bool("tooling_locked"):
			if tooling != nil {
				rep.Notes = append(rep.Notes, "tooling.md was left as it is: the tooling gate is approved (tooling_locked)")
			}
		default:
			bodies := map[int]string{}
			if tooling != nil {
				for _, k := range tooling.Keys() {
					i := indexOf(toolingKeys, k)
					if i < 0 {
						return usage("tooling.%s: the sections are %s", k, strings.Join(toolingKeys, ", "))
					}
					bodies[i+1] = tooling.Str(k)
				}
			}
			text, err := renderTooling(fl.sprint(), now, bodies, src)
			if err != nil {
				return err
			}
			tx.Write(toolingRel, []byte(text))
			rep.did("rendered %s from templates/tooling.template.md (sections %s)", toolingRel, sectionList(bodies))
		}
		rep.Notes = append(rep.Notes, "next: `harness checkpoint open cp-sprint-tooling --blockers FILE` (phase 0), then cp-sprint-dag")
		rep.Data = map[string]any{"features": nonNil(ids), "contract": rel, "tooling": toolingRel}
		return nil
	})
}

func indexOf(l []string, s string) int {
	for i, v := range l {
		if v == s {
			return i
		}
	}
	return -1
}

func sectionList(b map[int]string) string {
	var n []string
	for i := 1; i <= 5; i++ {
		if strings.TrimSpace(b[i]) != "" {
			n = append(n, fmt.Sprint(i))
		}
	}
	if len(n) == 0 {
		return "none filled"
	}
	return strings.Join(n, ", ") + " filled"
}

// planFeatures builds and checks the feature objects of a plan.
func planFeatures(sprint, now string, in []any) ([]any, error) {
	if len(in) == 0 {
		return nil, usage("the plan has no features")
	}
	var out []any
	var feats []*Obj
	seen := map[string]bool{}
	for i, v := range in {
		p, ok := v.(*Obj)
		if !ok {
			return nil, usage("features[%d] is not an object", i)
		}
		id := p.Str("id")
		if !reFeatureID.MatchString(id) {
			return nil, usage("features[%d].id %q is not a feature id (f001, f002, …)", i, id)
		}
		if seen[id] {
			return nil, usage("feature id %s appears twice", id)
		}
		seen[id] = true
		if strings.TrimSpace(p.Str("name")) == "" {
			return nil, usage("%s has no name", id)
		}
		acc := p.Strs("acceptance")
		if len(acc) < 1 || len(acc) > 7 || len(acc) != len(p.Arr("acceptance")) {
			return nil, refuse("%s has %d acceptance items; a feature has 1–7 checkable items (strings, docs/protocol.md §4.4)", id, len(p.Arr("acceptance")))
		}
		for k, a := range acc {
			if strings.TrimSpace(a) == "" || lazyValue(a) {
				return nil, refuse("%s acceptance[%d] %q is not checkable", id, k, a)
			}
		}
		f := NewObj().With("id", id).With("name", p.Str("name")).With("status", "pending")
		for _, d := range planDefaults {
			f.With(d.key, firstNonEmpty(p.Str(d.key), d.value))
		}
		f.With("phase", num(1)).With("next_phases", []any{
			NewObj().With("phase", num(1)).With("action", "plan").With("done", false).With("current", true),
			NewObj().With("phase", num(2)).With("action", "implement").With("done", false).With("current", false),
			NewObj().With("phase", num(3)).With("action", "verify").With("done", false).With("current", false),
			NewObj().With("phase", num(4)).With("action", "deliver").With("done", false).With("current", false),
		})
		f.With("acceptance", strsToAny(acc)).With("depends_on", strsToAny(nonNil(p.Strs("depends_on")))).
			With("parent_id", nil).With("commit", nil).With("created_at", now).With("completed_at", nil).With("sprint_id", sprint)
		cps, err := planCheckpoints(id, p.Arr("checkpoints"))
		if err != nil {
			return nil, err
		}
		f.With("checkpoints", cps)
		out = append(out, f)
		feats = append(feats, f)
	}
	entry := false
	for _, f := range feats {
		deps := f.Strs("depends_on")
		if len(deps) == 0 {
			entry = true
		}
		for _, d := range deps {
			if !seen[d] {
				return nil, refuse("%s depends on %s, which is not in the plan", f.Str("id"), d)
			}
			if d == f.Str("id") {
				return nil, refuse("%s depends on itself", d)
			}
		}
	}
	if c := findCycles(feats); len(c) > 0 {
		return nil, refuse("the DAG has a cycle: %s", strings.Join(append(c[0], c[0][0]), " → "))
	}
	if !entry {
		return nil, refuse("the DAG has no entry feature (one without depends_on)")
	}
	return out, nil
}

// planCheckpoints checks a feature's planned checkpoints (checkBlockers:
// catch_all appended to every gate) and gives them ids and status pending.
func planCheckpoints(fid string, in []any) ([]any, error) {
	if len(in) == 0 {
		return nil, refuse("%s has no checkpoint; every feature has at least one (one at phase 3 is recommended, docs/protocol.md §4.4)", fid)
	}
	var out []any
	ids := map[string]bool{}
	for i, v := range in {
		p, ok := v.(*Obj)
		if !ok {
			return nil, usage("%s checkpoints[%d] is not an object", fid, i)
		}
		id := firstNonEmpty(p.Str("id"), fmt.Sprintf("cp-%s-%d", fid, i+1))
		if !workspace.CheckpointIDPattern.MatchString(id) || isSprintGate(id) || ids[id] {
			return nil, usage("%s checkpoint id %q: cp-<fid>-<n>, unique", fid, id)
		}
		ids[id] = true
		ph, ok := p.Int("phase")
		if !ok || ph < 1 || ph > 4 {
			return nil, usage("%s phase %v: 1..4", id, p.Value("phase"))
		}
		typ := firstNonEmpty(p.Str("type"), "gate")
		if !oneOf(typ, checkpointTypes) {
			return nil, usage("%s type %q: gate, review or notify", id, typ)
		}
		blockers, err := checkBlockers(id, typ, p.Arr("blockers"))
		if err != nil {
			return nil, err
		}
		cp := NewObj().With("id", id).With("phase", num(ph)).With("type", typ)
		if s := p.Str("prompt"); s != "" {
			cp.With("prompt", s)
		}
		if blockers != nil {
			cp.With("blockers", blockers)
		}
		if p.Bool("external_irreversible") {
			cp.With("external_irreversible", true)
		}
		if a := p.Strs("artifacts"); len(a) > 0 {
			cp.With("artifacts", strsToAny(a))
		}
		cp.With("status", "pending").With("responded_at", nil).With("decision", nil).With("feedback", nil)
		out = append(out, cp)
	}
	return out, nil
}

var reToolingHeading = regexp.MustCompile(`^##[ \t]+([0-9]+)\.[ \t]`)

// renderTooling renders tooling.md for a new plan: the template's header
// (templates/tooling.template.md with this sprint's id and time; from a
// pipeline, one more line naming it) and its six sections, sections 1–5
// holding the given bodies in place of the template's guidance comments.
func renderTooling(sprint, now string, bodies map[int]string, src *PlanSource) (string, error) {
	text, err := render.Render(render.ToolingFile, render.Tooling{Sprint: sprint, GeneratedBy: "Hermes", GeneratedAt: now})
	if err != nil {
		return "", err
	}
	if src != nil {
		text = strings.Replace(text, "**Generated at**: "+now+"\n",
			"**Generated at**: "+now+"\n**Pipeline**: "+src.PipelineID+" v"+src.Version+"\n", 1)
	}
	return fillSections(text, bodies), nil
}

// fillSections replaces the body of each `## N.` section of a tooling.md
// text whose number has a non-empty entry in bodies (up to the next `## `
// heading or `---` rule).
func fillSections(text string, bodies map[int]string) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	skip := false
	for _, l := range lines {
		t := strings.TrimRight(l, "\r\n")
		if strings.HasPrefix(t, "## ") || t == "---" {
			skip = false
		}
		if skip {
			continue
		}
		b.WriteString(l)
		if m := reToolingHeading.FindStringSubmatch(t); m != nil {
			var n int
			fmt.Sscanf(m[1], "%d", &n)
			if body := strings.TrimSpace(bodies[n]); body != "" {
				b.WriteString("\n" + body + "\n\n")
				skip = true
			}
		}
	}
	return b.String()
}

// toolingSections returns the bodies of sections 1–5 of a tooling.md text.
func toolingSections(text string) map[int]string {
	out := map[int]string{}
	cur := 0
	var b strings.Builder
	flush := func() {
		if cur >= 1 && cur <= 5 {
			out[cur] = strings.TrimSpace(b.String())
		}
		b.Reset()
	}
	for _, l := range strings.SplitAfter(text, "\n") {
		t := strings.TrimRight(l, "\r\n")
		if m := reToolingHeading.FindStringSubmatch(t); m != nil {
			flush()
			fmt.Sscanf(m[1], "%d", &cur)
			continue
		}
		if strings.HasPrefix(t, "## ") || t == "---" {
			flush()
			cur = 0
			continue
		}
		b.WriteString(l)
	}
	flush()
	return out
}
