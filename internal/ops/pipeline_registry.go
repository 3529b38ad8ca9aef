package ops

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/schema"
	"github.com/superagent-harness/harness/internal/validate"
)

// registryFile is the index of a pipelines folder (schemas/pipeline_registry.schema.json).
const registryFile = "registry.json"

// checkPipelineYAML checks a pipeline.yaml text against schemas/pipeline.schema.json.
func checkPipelineYAML(data []byte) error {
	doc, err := schema.DecodeYAML(data)
	if err != nil {
		return fmt.Errorf("does not parse: %v", err)
	}
	vs, err := validate.Document(schema.Pipeline, doc)
	if err != nil {
		return err
	}
	if len(vs) > 0 {
		return fmt.Errorf("breaks schemas/pipeline.schema.json: %s", strings.Join(vs, "; "))
	}
	return nil
}

// loadPipeline reads dir/pipeline.yaml and checks it against its schema: a
// pipeline that breaks it is refused by every command that reads it (yolo
// check, sink, init --from-pipeline, pipeline show), never half-used.
func loadPipeline(dir string) (map[string]any, error) {
	path := filepath.Join(dir, "pipeline.yaml")
	data, err := fsutil.ReadRegular(path, fsutil.CapConfig)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no pipeline.yaml at %s", path)
		}
		return nil, err
	}
	if err := checkPipelineYAML(data); err != nil {
		return nil, fmt.Errorf("%s %v", path, err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s does not parse: %v", path, err)
	}
	return m, nil
}

// PipelineSummary is one pipeline of registry.json and `pipeline list`.
type PipelineSummary struct {
	ID                  string   `json:"id"`
	Version             string   `json:"version"`
	Name                string   `json:"name"`
	Description         string   `json:"description,omitempty"`
	TriggerKeywords     []string `json:"trigger_keywords,omitempty"`
	Inputs              []string `json:"inputs"`
	Features            int      `json:"features"`
	TotalRuns           int      `json:"total_runs"`
	TotalSuccessRate    float64  `json:"total_success_rate"`
	CurrentVersionRuns  int      `json:"current_version_runs"`
	ConsecutiveFailures int      `json:"current_version_consecutive_failures"`
	YoloEligible        bool     `json:"yolo_eligible"`
	LastRunAt           *string  `json:"last_run_at"`
}

// Registry is registry.json.
type Registry struct {
	Version   int               `json:"version"`
	UpdatedAt string            `json:"updated_at"`
	Pipelines []PipelineSummary `json:"pipelines"`
}

func summarise(id string, p map[string]any) PipelineSummary {
	st, _ := p["stats"].(map[string]any)
	s := PipelineSummary{ID: id, Version: fmt.Sprint(p["version"]), Inputs: []string{},
		TotalRuns: toInt(st["total_runs"]), TotalSuccessRate: toFloat(st["total_success_rate"]),
		CurrentVersionRuns: toInt(st["current_version_runs"]), ConsecutiveFailures: toInt(st["current_version_consecutive_failures"])}
	s.Name, _ = p["name"].(string)
	s.Description, _ = p["description"].(string)
	s.TriggerKeywords = anyStrings(p["trigger_keywords"])
	if b, ok := st["yolo_eligible"].(bool); ok {
		s.YoloEligible = b
	}
	if t, ok := st["last_run_at"].(string); ok {
		s.LastRunAt = &t
	}
	if in, ok := p["inputs"].([]any); ok {
		for _, v := range in {
			if m, ok := v.(map[string]any); ok {
				if n, ok := m["name"].(string); ok {
					s.Inputs = append(s.Inputs, n)
				}
			}
		}
	}
	if ft, ok := p["feature_templates"].([]any); ok {
		s.Features = len(ft)
	}
	return s
}

// scanPipelines reads every <home>/<id>/pipeline.yaml. A pipeline that
// does not load is reported in bad, not summarised.
func scanPipelines(home string) (list []PipelineSummary, bad []string, err error) {
	ents, err := os.ReadDir(home)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, en := range ents {
		if !en.IsDir() || !rePipelineID.MatchString(en.Name()) || !fileExists(filepath.Join(home, en.Name(), "pipeline.yaml")) {
			continue
		}
		p, err := loadPipeline(filepath.Join(home, en.Name()))
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		list = append(list, summarise(en.Name(), p))
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	return list, bad, nil
}

// rebuildRegistry rewrites <home>/registry.json from the pipelines on disk
// (under the registry's lock, atomically), so it never drifts from them;
// pipelines that do not load are left out. It returns how many it lists.
func rebuildRegistry(home, now string) (int, error) {
	path := filepath.Join(home, registryFile)
	unlock, err := fsutil.Lock(path + ".lock")
	if err != nil {
		return 0, err
	}
	defer unlock()
	list, _, err := scanPipelines(home)
	if err != nil {
		return 0, err
	}
	reg := Registry{Version: 1, UpdatedAt: now, Pipelines: list}
	if reg.Pipelines == nil {
		reg.Pipelines = []PipelineSummary{}
	}
	data, err := json.MarshalIndent(reg, "", "  ")
	if err != nil {
		return 0, err
	}
	if err := checkRegistry(data); err != nil {
		return 0, fmt.Errorf("the registry.json to write breaks its schema (a bug): %v", err)
	}
	return len(list), fsutil.WriteFileAtomic(path, append(data, '\n'), 0o644)
}

func checkRegistry(data []byte) error {
	doc, err := schema.Decode(data)
	if err != nil {
		return fmt.Errorf("does not parse: %v", err)
	}
	vs, err := validate.Document(schema.PipelineRegistry, doc)
	if err != nil {
		return err
	}
	if len(vs) > 0 {
		return fmt.Errorf("breaks schemas/pipeline_registry.schema.json: %s", strings.Join(vs, "; "))
	}
	return nil
}

// PipelineList is `harness pipeline list`: registry.json of the pipelines
// folder (checked against its schema); when it is missing or stale (a
// pipeline folder it does not list), the pipelines are read directly and a
// note says so. bad lists pipeline.yaml files that do not load.
func PipelineList(env *Env, home string) (*Registry, []string, error) {
	dir, err := env.PipelinesHome(home)
	if err != nil {
		return nil, nil, err
	}
	list, bad, err := scanPipelines(dir)
	if err != nil {
		return nil, nil, err
	}
	data, err := fsutil.ReadRegular(filepath.Join(dir, registryFile), 0)
	var notes []string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if len(list) > 0 {
			notes = append(notes, "no registry.json: listed from the pipeline folders")
		}
	case err != nil:
		return nil, nil, err
	default:
		if err := checkRegistry(data); err != nil {
			notes = append(notes, "registry.json "+err.Error()+": listed from the pipeline folders")
		} else {
			var reg Registry
			if json.Unmarshal(data, &reg) == nil && registryMatches(reg.Pipelines, list) {
				return &reg, append(notes, bad...), nil
			}
			notes = append(notes, "registry.json is stale (a pipeline changed after the last sink): listed from the pipeline folders")
		}
	}
	if list == nil {
		list = []PipelineSummary{}
	}
	return &Registry{Version: 1, UpdatedAt: env.stamp(), Pipelines: list}, append(notes, bad...), nil
}

func registryMatches(a, b []PipelineSummary) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Version != b[i].Version || a[i].TotalRuns != b[i].TotalRuns {
			return false
		}
	}
	return true
}

// PipelineDetail is `harness pipeline show ID`.
type PipelineDetail struct {
	Summary  PipelineSummary `json:"summary"`
	Dir      string          `json:"dir"`
	Pipeline map[string]any  `json:"pipeline"`
	Template *Obj            `json:"feature_template"`
}

// PipelineShow reads one pipeline (pipeline.yaml checked against its
// schema, and feature_template.json).
func PipelineShow(env *Env, home, id string) (*PipelineDetail, error) {
	if !rePipelineID.MatchString(id) {
		return nil, usage("pipeline id %q must be kebab-case", id)
	}
	dir, err := env.PipelinesHome(home)
	if err != nil {
		return nil, err
	}
	pdir := filepath.Join(dir, id)
	if !fileExists(filepath.Join(pdir, "pipeline.yaml")) {
		return nil, refuse("no pipeline %s in %s", id, dir)
	}
	p, err := loadPipeline(pdir)
	if err != nil {
		return nil, refuse("%s", err)
	}
	t, err := loadTemplate(pdir)
	if err != nil {
		return nil, refuse("%s", err)
	}
	return &PipelineDetail{Summary: summarise(id, p), Dir: pdir, Pipeline: p, Template: t}, nil
}
