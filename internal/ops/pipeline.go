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
	Change string // patch | minor | major (required when the pipeline exists)
	Home   string // Hermes home (default $HERMES_HOME, else ~/.hermes)
	DryRun bool
	Notes  []string // version_history changes
}

// PipelineSink abstracts a finished sprint into a pipeline (docs/protocol.md
// §9.3). It refuses unless `finalize --check` passes (Z6). A new pipeline gets
// version 1.0.0 and stats total_runs 1, success rate 1.0 (0 after a YOLO
// abort), current_version_runs 1, yolo_eligible false. An existing one needs
// --change: patch (x.y.z+1) and minor (x.y+1.0) inherit total_runs + 1 and
// recompute total_success_rate, resetting current_version_runs to 1; major
// (x+1.0.0) resets the stats. Every sink appends a version_history entry.
// Written under <home>/pipelines/<id>/ (atomic replaces): pipeline.yaml,
// feature_template.json (the DAG: ids, names, dependencies, reusable flag,
// checkpoint policy, acceptance count; no hashes, sessions or timestamps),
// tooling_template.md (tooling.md with its reasons), checkpoint_policy.yaml,
// runs/<sprint_id> (a symlink to the sprint's .harness, or a text file with
// its path where symlinks are unavailable). Then the contract status
// becomes sunk. --dry-run prints the plan and writes nothing.
func PipelineSink(env *Env, in SinkInput) (*Report, error) {
	rep := &Report{Command: "pipeline sink"}
	if err := env.hermesOnly(rep.Command); err != nil {
		return nil, err
	}
	if !rePipelineID.MatchString(in.ID) {
		return nil, usage("--id %q must be kebab-case (e.g. code-feature)", in.ID)
	}
	if in.Change != "" && !oneOf(in.Change, []string{"patch", "minor", "major"}) {
		return nil, usage("--change %q: patch, minor or major", in.Change)
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
	fl, err := env.loadFeatureList()
	if err != nil {
		return nil, err
	}
	home, err := env.PipelinesHome(in.Home)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(home, in.ID)
	now := env.stamp()
	ys, err := env.yoloStatus()
	if err != nil {
		return nil, err
	}
	success := !ys.aborted
	old, oldErr := readPipeline(filepath.Join(dir, "pipeline.yaml"))
	exists := oldErr == nil
	if !exists && fileExists(filepath.Join(dir, "pipeline.yaml")) {
		return nil, refuse("%s", oldErr)
	}

	version := "1.0.0"
	var history []any
	stats := yaml.MapSlice{}
	var inherited any
	changeType := in.Change
	name := in.ID
	if exists {
		if changeType == "" {
			return nil, usage("pipeline %s exists (version %v); pass --change patch|minor|major", in.ID, old["version"])
		}
		ov := fmt.Sprint(old["version"])
		m := reSemver.FindStringSubmatch(ov)
		if m == nil {
			return nil, refuse("pipeline %s has version %q, not semver x.y.z", in.ID, ov)
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
		if n, ok := old["name"].(string); ok && n != "" {
			name = n
		}
		if h, ok := old["version_history"].([]any); ok {
			history = h
		}
		ost, _ := old["stats"].(map[string]any)
		runs := toInt(ost["total_runs"])
		rate := toFloat(ost["total_success_rate"])
		if changeType == "major" {
			stats = newStats(success, now)
			inherited = nil
		} else {
			okRuns := rate*float64(runs) + b2f(success)
			runs++
			stats = yaml.MapSlice{
				{Key: "total_runs", Value: runs},
				{Key: "total_success_rate", Value: round3(okRuns / float64(runs))},
				{Key: "current_version_runs", Value: 1},
				{Key: "current_version_success_rate", Value: b2f(success)},
				{Key: "current_version_consecutive_failures", Value: 1 - int(b2f(success))},
				{Key: "yolo_eligible", Value: runs >= 3 && okRuns/float64(runs) >= 0.9},
				{Key: "last_run_at", Value: now},
			}
			inherited = ov
		}
	} else {
		if changeType != "" {
			return nil, usage("pipeline %s does not exist yet; a new pipeline starts at 1.0.0 without --change", in.ID)
		}
		stats = newStats(success, now)
	}
	changes := in.Notes
	if len(changes) == 0 {
		changes = []string{fmt.Sprintf("sunk from %s (%d features)", fl.sprint(), len(fl.features()))}
	}
	entry := yaml.MapSlice{{Key: "version", Value: version}, {Key: "created", Value: now}, {Key: "changes", Value: changes}, {Key: "inherited_from", Value: inherited}}
	if changeType != "" {
		entry = append(entry, yaml.MapItem{Key: "change_type", Value: changeType})
	}
	history = append(history, entry)

	// The DAG template and the checkpoint policy.
	var feats []any
	policy := yaml.MapSlice{}
	var templates []any
	for _, f := range fl.features() {
		var cps []any
		var pol []any
		for _, cp := range checkpointsOf(f) {
			p, _ := cp.Int("phase")
			o := NewObj().With("phase", num(p)).With("type", cp.Str("type"))
			if cp.Bool("external_irreversible") {
				o.With("external_irreversible", true)
			}
			cps = append(cps, o)
			pol = append(pol, yaml.MapSlice{{Key: "phase", Value: p}, {Key: "type", Value: cp.Str("type")}})
		}
		feats = append(feats, NewObj().With("id", f.Str("id")).With("name", f.Str("name")).
			With("depends_on", strsToAny(nonNil(f.Strs("depends_on")))).With("reusable", f.Str("status") == "completed").
			With("execution_path", firstNonEmpty(f.Str("execution_path"), "generator_cc")).
			With("verification_mode", firstNonEmpty(f.Str("verification_mode"), "hybrid")).
			With("acceptance_count", num(len(f.Strs("acceptance")))).With("checkpoints", nonNilAny(cps)))
		policy = append(policy, yaml.MapItem{Key: f.Str("id"), Value: nonNilAny(pol)})
		templates = append(templates, yaml.MapSlice{{Key: "id", Value: f.Str("id")}, {Key: "reusable", Value: f.Str("status") == "completed"}, {Key: "candidate_pipeline", Value: nil}})
	}
	ft, err := workspace.MarshalIndent(NewObj().With("pipeline_id", in.ID).With("version", version).With("features", nonNilAny(feats)))
	if err != nil {
		return nil, err
	}
	var desc any = fmt.Sprintf("abstracted from sprint %s", fl.sprint())
	if exists {
		if d, ok := old["description"]; ok {
			desc = d
		}
	}
	p := yaml.MapSlice{
		{Key: "id", Value: in.ID}, {Key: "version", Value: version}, {Key: "name", Value: name},
		{Key: "description", Value: desc},
		{Key: "feature_templates", Value: templates},
		{Key: "tooling_resolver", Value: "tooling_template.md"},
		{Key: "feature_template", Value: "feature_template.json"},
		{Key: "checkpoint_policy", Value: "checkpoint_policy.yaml"},
		{Key: "yolo", Value: yaml.MapSlice{
			{Key: "eligibility", Value: yaml.MapSlice{{Key: "min_total_runs", Value: 3}, {Key: "min_success_rate", Value: 0.9}}},
			{Key: "abort_policy", Value: "revoke_all"},
			{Key: "abort_triggers", Value: []string{"retry_count_in_sprint >= 2", "any_feature_fail", "external_irreversible"}},
		}},
		{Key: "stats", Value: stats},
		{Key: "version_history", Value: history},
	}
	if exists {
		for _, k := range []string{"trigger_keywords", "inputs", "required_capabilities"} {
			if v, ok := old[k]; ok {
				p = append(p, yaml.MapItem{Key: k, Value: v})
			}
		}
	}
	py, err := yaml.Marshal(p)
	if err != nil {
		return nil, err
	}
	pol, err := yaml.Marshal(yaml.MapSlice{{Key: "pipeline_id", Value: in.ID}, {Key: "version", Value: version}, {Key: "features", Value: policy}})
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
	files := []struct {
		name string
		data []byte
	}{
		{"feature_template.json", ft},
		{"tooling_template.md", tooling},
		{"checkpoint_policy.yaml", pol},
		{"pipeline.yaml", py}, // last: the pipeline exists only once everything it names is there
	}
	for _, f := range files {
		rep.did("%s %s (%d bytes)", map[bool]string{true: "would write", false: "wrote"}[in.DryRun], filepath.Join(dir, f.name), len(f.data))
	}
	if in.DryRun {
		rep.Notes = append(rep.Notes, string(py))
		rep.Data = map[string]any{"pipeline_id": in.ID, "version": version, "dir": dir, "dry_run": true}
		rep.OK = true
		return rep, nil
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
	if _, err := os.Lstat(link); err != nil {
		if err := os.Symlink(env.H(), link); err != nil {
			if err := fsutil.WriteFileAtomic(link+".txt", []byte(env.H()+"\n"), 0o644); err != nil {
				return nil, err
			}
			rep.did("wrote %s.txt (symlinks unavailable)", link)
		} else {
			rep.did("linked %s → %s", link, env.H())
		}
	}
	err = env.update(rep, func(tx *Tx) error {
		return env.setContractStatus(tx, rep, fl, "sunk")
	})
	if err != nil {
		return nil, err
	}
	rep.Data = map[string]any{"pipeline_id": in.ID, "version": version, "dir": dir, "success": success}
	rep.OK = true
	return rep, nil
}

func newStats(success bool, now string) yaml.MapSlice {
	return yaml.MapSlice{
		{Key: "total_runs", Value: 1},
		{Key: "total_success_rate", Value: b2f(success)},
		{Key: "current_version_runs", Value: 1},
		{Key: "current_version_success_rate", Value: b2f(success)},
		{Key: "current_version_consecutive_failures", Value: 1 - int(b2f(success))},
		{Key: "yolo_eligible", Value: false},
		{Key: "last_run_at", Value: now},
	}
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
