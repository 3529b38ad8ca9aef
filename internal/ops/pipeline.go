package ops

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/safetext"
	"github.com/superagent-harness/harness/internal/workspace"
)

var (
	rePipelineID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	reSemver     = regexp.MustCompile(`^([0-9]+)\.([0-9]+)\.([0-9]+)$`)
)

// SinkInput is `harness pipeline sink`.
type SinkInput struct {
	ID     string
	Change string // "" (another run of the current version) | patch | minor | major
	Home   string // Hermes home (default $HERMES_HOME, else ~/.hermes)
	DryRun bool
	Notes  []string          // version_history changes
	Vars   map[string]string // de-naming: each value becomes {name} in the templates
}

// PipelineSink abstracts a finished sprint into a pipeline (docs/protocol.md
// §9.3) and counts it as one run. It refuses unless `finalize --check`
// passes (Z6), and refuses a sprint already counted (contract status sunk
// or closed, or the sprint id in the pipeline's stats.counted_runs or
// runs/): a sprint is counted once.
//
// Versions: a new pipeline is 1.0.0. For an existing one the sprint's
// template is compared with the pipeline's (templateChange): a changed
// feature DAG needs --change major, a changed checkpoint policy at least
// minor, changed texts at least patch; with nothing changed and no
// --change the sprint is another run of the current version. A lower
// --change than needed is refused.
//
// Stats (§6.1, §9.3): every run adds 1 to total_runs and recomputes
// total_success_rate (success = completed without a YOLO abort); a run of
// the current version adds 1 to current_version_runs and recomputes its
// rate; current_version_consecutive_failures counts failed runs of the
// current version in a row (across runs, 0 after a success); patch and
// minor inherit the totals and start the current-version counters at this
// run; major starts over (total_runs 1, inherited_from null). yolo_eligible
// = total_runs ≥ min_total_runs, total_success_rate ≥ min_success_rate and
// fewer than 2 consecutive failures. A new version appends a version_history
// entry; another run of the same version does not (the runs are runs/ and
// stats.counted_runs).
//
// Written under <home>/pipelines/<id>/ (atomic replaces): feature_template.json
// (see pipeline_template.go), tooling_template.md (tooling.md de-named),
// checkpoint_policy.yaml, pipeline.yaml (checked against its schema before it
// is written; last, so the pipeline exists only once everything it names is
// there), runs/<sprint_id>; then registry.json is rebuilt and the contract
// status becomes sunk. --dry-run prints the plan and writes nothing.
func PipelineSink(env *Env, in SinkInput) (*Report, error) {
	rep := &Report{Command: "pipeline sink"}
	if err := env.hermesOnly(rep.Command); err != nil {
		return nil, err
	}
	if err := env.pendingEvalGate(rep.Command); err != nil {
		return nil, err
	}
	out, err := sinkPipeline(env, in, rep)
	if err != nil {
		return nil, err
	}
	if in.DryRun {
		rep.OK = true
		return rep, nil
	}
	err = env.update(rep, func(tx *Tx) error {
		return env.setContractStatus(tx, rep, out.fl, "sunk")
	})
	if err != nil {
		return nil, err
	}
	env.removeSandboxTempDir(rep) // the sprint is over (sunk): its sessions' caches go
	rep.OK = true
	return rep, nil
}

// sinkOutcome is what sinkPipeline did.
type sinkOutcome struct {
	fl      featureList
	version string
}

// sinkPipeline writes the pipeline files of PipelineSink (everything but
// the contract status) and fills rep.Data.
func sinkPipeline(env *Env, in SinkInput, rep *Report) (*sinkOutcome, error) {
	if !rePipelineID.MatchString(in.ID) {
		return nil, usage("--id %q must be kebab-case (e.g. code-feature)", in.ID)
	}
	if in.Change != "" && !oneOf(in.Change, []string{"patch", "minor", "major"}) {
		return nil, usage("--change %q: patch, minor or major", in.Change)
	}
	fl, err := env.loadFeatureList()
	if err != nil {
		return nil, err
	}
	contract, _, err := env.loadContract(fl)
	if err != nil {
		return nil, err
	}
	if st := contract.Str("status"); st == "sunk" || st == "closed" {
		return nil, refuse("sprint %s is already %s: a sprint is counted once (its stats were taken when it was sunk or closed)", fl.sprint(), st)
	}
	if env.Finalize == nil {
		return nil, refuse("finalize --check is not available in this build; refusing to sink unchecked records (Z6)")
	}
	fins, err := env.Finalize(env.Root)
	if err != nil {
		return nil, err
	}
	if errs := errorsOnly(fins); len(errs) > 0 {
		return nil, &Refusal{Reason: fmt.Sprintf("refused: finalize --check has %d finding(s); fix or 补录 them first (the sprint is incomplete_for_abstraction)", len(errs)), Findings: errs}
	}
	ys, err := env.yoloStatus()
	if err != nil {
		return nil, err
	}
	home, err := env.PipelinesHome(in.Home)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(home, in.ID)
	now := env.stamp()
	success := !ys.aborted

	// de-naming: the sprint's own pipeline_vars, then --var
	vars := map[string]string{}
	if pv := fl.ObjAt("pipeline_vars"); pv != nil {
		for _, k := range pv.Keys() {
			if v := pv.Str(k); v != "" {
				vars[k] = v
			}
		}
	}
	for k, v := range in.Vars {
		vars[k] = v
	}
	dn := denamer(vars)

	var old map[string]any
	exists := fileExists(filepath.Join(dir, "pipeline.yaml"))
	if exists {
		if old, err = loadPipeline(dir); err != nil {
			return nil, refuse("%s", err)
		}
	}
	ost, _ := old["stats"].(map[string]any)
	counted := anyStrings(ost["counted_runs"])
	if indexOf(counted, fl.sprint()) >= 0 || fileExists(filepath.Join(dir, "runs", fl.sprint())) || fileExists(filepath.Join(dir, "runs", fl.sprint()+".txt")) {
		return nil, refuse("sprint %s was already counted in pipeline %s: a sprint is counted once", fl.sprint(), in.ID)
	}

	oldVersion := fmt.Sprint(old["version"])
	version := "1.0.0"
	need, why := changeMajor, "a new pipeline"
	cur := sprintTemplate(fl, contract, in.ID, version, dn)
	changeType := in.Change
	if exists {
		m := reSemver.FindStringSubmatch(oldVersion)
		if m == nil {
			return nil, refuse("pipeline %s has version %q, not semver x.y.z", in.ID, oldVersion)
		}
		ot, err := loadTemplate(dir)
		if err != nil {
			return nil, refuse("%s", err)
		}
		need, why = templateChange(ot, cur)
		if changeType == "" && need > changeNone {
			return nil, refuse("pipeline %s v%s: %s; pass --change %s (or higher) to make a new version", in.ID, oldVersion, why, changeNames[need])
		}
		if changeType != "" && changeRank(changeType) < need {
			return nil, refuse("pipeline %s v%s: %s, which needs --change %s, not %s", in.ID, oldVersion, why, changeNames[need], changeType)
		}
		var x, y, z int
		fmt.Sscanf(m[1]+" "+m[2]+" "+m[3], "%d %d %d", &x, &y, &z)
		switch changeType {
		case "patch":
			z++
		case "minor":
			y, z = y+1, 0
		case "major":
			x, y, z = x+1, 0, 0
		}
		version = fmt.Sprintf("%d.%d.%d", x, y, z)
		cur.With("version", version)
	} else if changeType != "" {
		return nil, usage("pipeline %s does not exist yet; a new pipeline starts at 1.0.0 without --change", in.ID)
	}

	minRuns, minRate := 3, 0.9
	if y, ok := old["yolo"].(map[string]any); ok {
		if el, ok := y["eligibility"].(map[string]any); ok {
			if v, ok := el["min_total_runs"]; ok {
				minRuns = toInt(v)
			}
			if v, ok := el["min_success_rate"]; ok {
				minRate = toFloat(v)
			}
		}
	}
	var stats yaml.MapSlice
	var inherited any
	switch {
	case !exists || changeType == "major":
		stats = runStats(0, 0, 0, 0, 0, success, now, minRuns, minRate, nil, fl.sprint())
	case changeType == "":
		stats = runStats(toInt(ost["total_runs"]), toFloat(ost["total_success_rate"]), toInt(ost["current_version_runs"]),
			toFloat(ost["current_version_success_rate"]), toInt(ost["current_version_consecutive_failures"]), success, now, minRuns, minRate, counted, fl.sprint())
	default: // patch, minor: inherit the totals
		stats = runStats(toInt(ost["total_runs"]), toFloat(ost["total_success_rate"]), 0, 0, 0, success, now, minRuns, minRate, counted, fl.sprint())
		inherited = oldVersion
	}

	name := in.ID
	if n, ok := old["name"].(string); ok && n != "" {
		name = n
	}
	history, _ := old["version_history"].([]any)
	if !exists || changeType != "" {
		changes := in.Notes
		if len(changes) == 0 {
			changes = []string{fmt.Sprintf("sunk from %s (%d features): %s", fl.sprint(), len(fl.features()), why)}
		}
		entry := yaml.MapSlice{{Key: "version", Value: version}, {Key: "created", Value: now}, {Key: "changes", Value: changes}, {Key: "inherited_from", Value: inherited}}
		if changeType != "" {
			entry = append(entry, yaml.MapItem{Key: "change_type", Value: changeType})
		}
		history = append(history, entry)
	}

	var templates []any
	policy := yaml.MapSlice{}
	for _, v := range cur.Arr("features") {
		f := v.(*Obj)
		var pol []any
		for _, c := range f.Arr("checkpoints") {
			cp := c.(*Obj)
			p, _ := cp.Int("phase")
			item := yaml.MapSlice{{Key: "phase", Value: p}, {Key: "type", Value: cp.Str("type")}}
			if cp.Bool("external_irreversible") {
				item = append(item, yaml.MapItem{Key: "external_irreversible", Value: true})
			}
			pol = append(pol, item)
		}
		policy = append(policy, yaml.MapItem{Key: f.Str("id"), Value: nonNilAny(pol)})
		templates = append(templates, yaml.MapSlice{{Key: "id", Value: f.Str("id")}, {Key: "reusable", Value: f.Bool("reusable")}, {Key: "candidate_pipeline", Value: nil}})
	}
	ft, err := workspace.MarshalIndent(cur)
	if err != nil {
		return nil, err
	}
	tooling, err := fsutil.ReadRegular(env.H("sprint_contracts", fl.sprint(), "tooling.md"), fsutil.CapRecord)
	if err != nil {
		return nil, refuse("tooling.md of %s is missing: %v", fl.sprint(), err)
	}
	// Section 6 is the part a Generator may append to: only runtime
	// additions (list lines) may travel into the pipeline's template, and
	// each is marked there as one sprint's addition, never as a decision.
	bad, adds, _ := records.ToolingSection6(string(tooling))
	if len(bad) > 0 {
		return nil, refuse("refused: tooling.md has %d line(s) below `%s` that are not runtime additions (line %d: %q); they would enter every later sprint's tooling through tooling_template.md. Remove them (harness validate: tooling.section6-list-only); nothing was written",
			len(bad), records.Section6Prefix, bad[0].Line, safetext.Line(bad[0].Text))
	}
	tooling = markAdditions(tooling, adds, fl.sprint())
	toolingTpl := []byte(dn(string(tooling)))
	var inputs []any
	for _, k := range placeholders(string(ft), string(toolingTpl)) {
		inputs = append(inputs, yaml.MapSlice{{Key: "name", Value: k}, {Key: "type", Value: "string"}, {Key: "required", Value: true}})
	}
	var desc any = fmt.Sprintf("abstracted from sprint %s", fl.sprint())
	if d, ok := old["description"]; ok {
		desc = d
	}
	p := yaml.MapSlice{
		{Key: "id", Value: in.ID}, {Key: "version", Value: version}, {Key: "name", Value: name},
		{Key: "description", Value: desc},
	}
	for _, k := range []string{"trigger_keywords", "required_capabilities"} {
		if v, ok := old[k]; ok {
			p = append(p, yaml.MapItem{Key: k, Value: v})
		}
	}
	p = append(p,
		yaml.MapItem{Key: "inputs", Value: nonNilAny(inputs)},
		yaml.MapItem{Key: "feature_templates", Value: templates},
		yaml.MapItem{Key: "tooling_resolver", Value: "tooling_template.md"},
		yaml.MapItem{Key: "feature_template", Value: "feature_template.json"},
		yaml.MapItem{Key: "checkpoint_policy", Value: "checkpoint_policy.yaml"},
		yaml.MapItem{Key: "yolo", Value: yaml.MapSlice{
			{Key: "eligibility", Value: yaml.MapSlice{{Key: "min_total_runs", Value: minRuns}, {Key: "min_success_rate", Value: minRate}}},
			{Key: "abort_policy", Value: "revoke_all"},
			{Key: "abort_triggers", Value: []string{"retry_count_in_sprint >= 2", "any_feature_fail", "external_irreversible"}},
		}},
		yaml.MapItem{Key: "stats", Value: stats},
		yaml.MapItem{Key: "version_history", Value: history},
	)
	py, err := yaml.Marshal(p)
	if err != nil {
		return nil, err
	}
	if err := checkPipelineYAML(py); err != nil {
		return nil, fmt.Errorf("the pipeline.yaml to write breaks its schema (a bug): %v", err)
	}
	pol, err := yaml.Marshal(yaml.MapSlice{{Key: "pipeline_id", Value: in.ID}, {Key: "version", Value: version}, {Key: "features", Value: policy}})
	if err != nil {
		return nil, err
	}
	files := []struct {
		name string
		data []byte
	}{
		{"feature_template.json", ft},
		{"tooling_template.md", toolingTpl},
		{"checkpoint_policy.yaml", pol},
		{"pipeline.yaml", py}, // last: the pipeline exists only once everything it names is there
	}
	verb := map[bool]string{true: "would write", false: "wrote"}[in.DryRun]
	for _, f := range files {
		rep.did("%s %s (%d bytes)", verb, filepath.Join(dir, f.name), len(f.data))
	}
	kind := "new pipeline"
	switch {
	case exists && changeType == "":
		kind = "another run of v" + version
	case exists:
		kind = changeType + " " + oldVersion + " → " + version
	}
	data := map[string]any{"pipeline_id": in.ID, "version": version, "dir": dir, "success": success, "change": firstNonEmpty(changeType, map[bool]string{true: "run", false: "new"}[exists]),
		"why": why, "total_runs": stats[0].Value, "yolo_eligible": mapSliceValue(stats, "yolo_eligible")}
	rep.Data = data
	if exists { // a new pipeline's why only repeats its kind
		kind += " (" + why + ")"
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("pipeline %s v%s: %s; total_runs %v, yolo_eligible %v", in.ID, version, kind, stats[0].Value, mapSliceValue(stats, "yolo_eligible")))
	if in.DryRun {
		rep.Notes = append(rep.Notes, string(py))
		data["dry_run"] = true
		return &sinkOutcome{fl: fl, version: version}, nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "runs"), 0o755); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := fsutil.WriteFileAtomic(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return nil, err
		}
	}
	link := filepath.Join(dir, "runs", fl.sprint())
	if err := os.Symlink(env.H(), link); err != nil {
		if err := fsutil.WriteFileAtomic(link+".txt", []byte(env.H()+"\n"), 0o644); err != nil {
			return nil, err
		}
		rep.did("wrote %s.txt (symlinks unavailable)", link)
	} else {
		rep.did("linked %s → %s", link, env.H())
	}
	n, err := rebuildRegistry(home, now)
	if err != nil {
		return nil, err
	}
	rep.did("rebuilt %s (%d pipeline%s)", filepath.Join(home, registryFile), n, map[bool]string{true: "", false: "s"}[n == 1])
	return &sinkOutcome{fl: fl, version: version}, nil
}

// runStats are the stats after one more run: the previous totals (0 for a
// new pipeline or a major) and current-version counters (0 for a new
// version), the run's outcome, and the eligibility thresholds.
func runStats(runs int, rate float64, curRuns int, curRate float64, consec int, success bool, now string, minRuns int, minRate float64, counted []string, sprint string) yaml.MapSlice {
	okRuns := rate*float64(runs) + b2f(success)
	runs++
	curOK := curRate*float64(curRuns) + b2f(success)
	curRuns++
	if success {
		consec = 0
	} else {
		consec++
	}
	total := round3(okRuns / float64(runs))
	return yaml.MapSlice{
		{Key: "total_runs", Value: runs},
		{Key: "total_success_rate", Value: total},
		{Key: "current_version_runs", Value: curRuns},
		{Key: "current_version_success_rate", Value: round3(curOK / float64(curRuns))},
		{Key: "current_version_consecutive_failures", Value: consec},
		{Key: "yolo_eligible", Value: runs >= minRuns && total >= minRate && consec < 2},
		{Key: "last_run_at", Value: now},
		{Key: "counted_runs", Value: append(append([]string{}, counted...), sprint)},
	}
}

func mapSliceValue(m yaml.MapSlice, k string) any {
	for _, it := range m {
		if it.Key == k {
			return it.Value
		}
	}
	return nil
}

func anyStrings(v any) []string {
	var out []string
	if l, ok := v.([]any); ok {
		for _, x := range l {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func nonNilAny(a []any) []any {
	if a == nil {
		return []any{}
	}
	return a
}

// markAdditions prefixes each runtime addition of section 6 (adds, by line)
// with a mark naming the sprint it came from, so a later sprint reads it as
// that sprint's addition to review, not as a tooling decision.
func markAdditions(tooling []byte, adds []records.ToolingLine, sprint string) []byte {
	if len(adds) == 0 {
		return tooling
	}
	lines := strings.Split(string(tooling), "\n")
	for _, a := range adds {
		i := a.Line - 1
		if i < 0 || i >= len(lines) {
			continue
		}
		t := strings.TrimLeft(lines[i], " \t")
		lines[i] = lines[i][:len(lines[i])-len(t)] + t[:2] + "[runtime addition of " + sprint + ", review before reuse] " + t[2:]
	}
	return []byte(strings.Join(lines, "\n"))
}
