package validate

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/schema"
	"github.com/superagent-harness/harness/internal/workspace"
)

func (c *checker) validateRules() {
	c.filesRequired()
	c.schemaRules()
	c.timeRules()
	c.idsSprintConsistent()
	c.featureRules()
	c.gatesApproved()
	c.gateCatchAll()
	c.layoutRules()
	c.filesRules()
	c.toolingSection6()
	c.poolConsistent()
	c.evalRules()
	c.rulesOverrides()
}

func (c *checker) exists(rel string, dir bool) bool {
	st := c.stat(c.ws.Path(filepath.FromSlash(rel)))
	return st.exists && st.dir == dir
}

// files.required
func (c *checker) filesRequired() {
	for _, f := range []string{relRuntimeState, relFeatureList, relSessionPool, relEvalLog, relHermesContext, relClaudeContext, relCurrentAgent} {
		if !c.exists(f, false) {
			c.rep.add(Finding{File: f, Rule: ruleid.FilesRequired, Message: "required file " + f + " is missing"})
		}
	}
	for _, d := range []string{relFeaturesDir, relContractsDir, relLogsDir} {
		if !c.exists(d, true) {
			c.rep.add(Finding{File: d, Rule: ruleid.FilesRequired, Message: "required directory " + d + "/ is missing"})
		}
	}
	if c.fl != nil && len(c.fl.Features) > 0 && c.relCT != "" {
		dir := relContractsDir + "/" + c.fl.Sprint
		for _, f := range []string{dir + "/contract.json", dir + "/tooling.md"} {
			if !c.exists(f, false) {
				c.rep.add(Finding{File: f, Rule: ruleid.FilesRequired,
					Message: fmt.Sprintf("%s is missing although feature_list has %d feature(s) (sprint %s); Hermes writes it when planning the sprint (docs/protocol.md §4.3–4.4, README walkthrough)", f, len(c.fl.Features), c.fl.Sprint)})
			}
		}
	}
}

// featureAt names the feature a /features/N/... pointer lies in.
func (c *checker) featureAt(ptr string) string {
	if !strings.HasPrefix(ptr, "/features/") {
		return ""
	}
	rest := strings.TrimPrefix(ptr, "/features/")
	idx, _, _ := strings.Cut(rest, "/")
	i, err := strconv.Atoi(idx)
	if err != nil {
		return ""
	}
	if doc, ok := c.docs[relFeatureList].(map[string]any); ok {
		if fs, ok := doc["features"].([]any); ok && i < len(fs) {
			if f, ok := fs[i].(map[string]any); ok {
				if id, ok := f["id"].(string); ok {
					return id
				}
			}
		}
	}
	return ""
}

var checkpointPtr = regexp.MustCompile(`^/(features/[0-9]+/checkpoints|sprint_checkpoints)/[0-9]+`)

// checkpointAt names the checkpoint a pointer lies in.
func (c *checker) checkpointAt(ptr string) string {
	m := checkpointPtr.FindString(ptr)
	if m == "" {
		return ""
	}
	doc := c.docs[relFeatureList]
	var cur any = doc
	for _, t := range strings.Split(strings.TrimPrefix(m, "/"), "/") {
		switch x := cur.(type) {
		case map[string]any:
			cur = x[t]
		case []any:
			i, _ := strconv.Atoi(t)
			if i < len(x) {
				cur = x[i]
			} else {
				return ""
			}
		}
	}
	if cp, ok := cur.(map[string]any); ok {
		if id, ok := cp["id"].(string); ok {
			return id
		}
	}
	return ""
}

func (c *checker) validateDoc(rel, name, rule string, line int) {
	doc, ok := c.docs[rel]
	if !ok {
		return
	}
	c.validateValue(rel, name, rule, line, doc)
}

func (c *checker) validateValue(rel, name, rule string, line int, doc any) {
	c.validateValueTo(c.rep, rel, name, rule, line, doc)
}

// validateValueTo is validateValue adding its findings to rep.
func (c *checker) validateValueTo(rep *Report, rel, name, rule string, line int, doc any) {
	vs, err := c.schemas.Validate(name, doc)
	if err != nil {
		rep.add(Finding{File: rel, Line: line, Rule: rule, Message: "cannot validate: " + err.Error()})
		return
	}
	for _, v := range vs {
		r := rule
		msg := v.String()
		if rel == relFeatureList {
			if cp := c.checkpointAt(v.Pointer); cp != "" {
				r = ruleid.SchemaCheckpoint
				msg += " (checkpoint " + cp + ")"
			}
			if f := c.featureAt(v.Pointer); f != "" {
				msg += " (feature " + f + ")"
			}
		}
		rep.add(Finding{File: rel, Line: line, Pointer: v.Pointer, Rule: r, Message: msg})
	}
}

// schema.* rules.
func (c *checker) schemaRules() {
	c.validateDoc(relRuntimeState, schema.RuntimeState, ruleid.SchemaRuntimeState, 0)
	c.validateDoc(relFeatureList, schema.FeatureList, ruleid.SchemaFeatureList, 0)
	c.validateDoc(relSessionPool, schema.SessionPool, ruleid.SchemaSessionPool, 0)
	if c.relCT != "" {
		c.validateDoc(c.relCT, schema.SprintContract, ruleid.SchemaSprintContract, 0)
	}
	c.validateDoc(relCurrentAgent, schema.CurrentAgent, ruleid.SchemaCurrentAgent, 0)
	c.validateDoc(relHermesContext, schema.HermesContextState, ruleid.SchemaCurrentAgent, 0)
	c.validateDoc(relClaudeContext, schema.ClaudeCodeContextState, ruleid.SchemaCurrentAgent, 0)
	// eval_log lines: schema.eval_log, time.*, eval.jsonl-parse and
	// ids.sprint-consistent, found while streaming the log (loadEvalLog)
	c.rep.Findings = append(c.rep.Findings, c.evalFound.first.Findings...)
}

// isTimeKey reports whether key names a timestamp (time.utc-z).
func isTimeKey(k string) bool {
	switch k {
	case "timestamp", "session_start", "last_heartbeat", "last_activity":
		return true
	}
	return strings.HasSuffix(k, "_at")
}

func escapePtr(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// walkTimes calls bad for every string under a time key that is not UTC-Z,
// with its JSON pointer (ptr, then the path below it), in sorted key order.
// The pointer is built only for a string reported: a state file holds
// thousands of members (the provenance ledger keeps one object per Hermes
// eval_log line) and almost none is reported.
func walkTimes(v any, ptr string, bad func(ptr, key, val string)) {
	var path []timeSeg
	walkTimesIn(v, ptr, &path, bad)
}

// timeSeg is one step of walkTimes' path: a member name or an array index.
type timeSeg struct {
	key   string
	idx   int
	isIdx bool
}

// timePtr is the JSON pointer of path below ptr.
func timePtr(ptr string, path []timeSeg) string {
	var b strings.Builder
	b.WriteString(ptr)
	for _, s := range path {
		b.WriteByte('/')
		if s.isIdx {
			b.WriteString(strconv.Itoa(s.idx))
		} else {
			b.WriteString(escapePtr(s.key))
		}
	}
	return b.String()
}

func walkTimesIn(v any, ptr string, path *[]timeSeg, bad func(ptr, key, val string)) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			*path = append(*path, timeSeg{key: k})
			val := x[k]
			if isTimeKey(k) {
				switch tv := val.(type) {
				case string:
					if !workspace.UTCZPattern.MatchString(tv) {
						bad(timePtr(ptr, *path), k, tv)
					}
					*path = (*path)[:len(*path)-1]
					continue
				case []any:
					for i, el := range tv {
						if s, ok := el.(string); ok && !workspace.UTCZPattern.MatchString(s) {
							*path = append(*path, timeSeg{idx: i, isIdx: true})
							bad(timePtr(ptr, *path), k, s)
							*path = (*path)[:len(*path)-1]
						}
					}
					*path = (*path)[:len(*path)-1]
					continue
				}
			}
			walkTimesIn(val, ptr, path, bad)
			*path = (*path)[:len(*path)-1]
		}
	case []any:
		for i, el := range x {
			*path = append(*path, timeSeg{idx: i, isIdx: true})
			walkTimesIn(el, ptr, path, bad)
			*path = (*path)[:len(*path)-1]
		}
	}
}

// time.utc-z and time.timestamp-field.
func (c *checker) timeRules() {
	files := make([]string, 0, len(c.docs))
	for rel := range c.docs {
		files = append(files, rel)
	}
	sort.Strings(files)
	for _, rel := range files {
		walkTimes(c.docs[rel], "", func(ptr, key, val string) {
			c.rep.add(Finding{File: rel, Pointer: ptr, Rule: ruleid.TimeUTCZ,
				Message: fmt.Sprintf("%s %q is not a UTC-Z timestamp (YYYY-MM-DDTHH:MM:SSZ, no offset)", key, val)})
		})
	}
	// A timestamp reported by time.utc-z need not be repeated as a schema
	// pattern failure at the same place.
	type loc struct {
		file string
		line int
		ptr  string
	}
	timeLocs := map[loc]bool{}
	for _, f := range c.rep.Findings {
		if f.Rule == ruleid.TimeUTCZ {
			timeLocs[loc{f.File, f.Line, f.Pointer}] = true
		}
	}
	kept := c.rep.Findings[:0]
	for _, f := range c.rep.Findings {
		if strings.HasPrefix(f.Rule, "schema.") && timeLocs[loc{f.File, f.Line, f.Pointer}] {
			continue
		}
		kept = append(kept, f)
	}
	c.rep.Findings = kept
}

// ids.sprint-consistent
func (c *checker) idsSprintConsistent() {
	if c.fl == nil {
		return
	}
	sp := c.fl.Sprint
	if !workspace.SprintIDPattern.MatchString(sp) {
		c.rep.add(Finding{File: relFeatureList, Pointer: "/sprint", Rule: ruleid.IDsSprintConsistent,
			Message: fmt.Sprintf("sprint %q does not match sprint_<YYYYMMDD>_<N>", sp)})
	}
	if c.rs != nil && c.rs.CurrentSprint != nil && *c.rs.CurrentSprint != sp {
		c.rep.add(Finding{File: relRuntimeState, Pointer: "/current_sprint", Rule: ruleid.IDsSprintConsistent,
			Message: fmt.Sprintf("current_sprint %q differs from feature_list sprint %q", *c.rs.CurrentSprint, sp)})
	}
	if c.ct != nil && c.ct.SprintID != sp {
		c.rep.add(Finding{File: c.relCT, Pointer: "/sprint_id", Rule: ruleid.IDsSprintConsistent,
			Message: fmt.Sprintf("sprint_id %q differs from feature_list sprint %q", c.ct.SprintID, sp)})
	}
	for i, f := range c.fl.Features {
		if f.SprintID != "" && f.SprintID != sp {
			c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/sprint_id", i), Rule: ruleid.IDsSprintConsistent,
				Message: fmt.Sprintf("feature %s sprint_id %q differs from sprint %q", f.ID, f.SprintID, sp)})
		}
	}
}

func (c *checker) started(f *workspace.Feature) bool { return workspace.Started(f, c.pool) }

func (c *checker) anyStarted() (string, bool) {
	if c.fl == nil {
		return "", false
	}
	for i := range c.fl.Features {
		if c.started(&c.fl.Features[i]) {
			return c.fl.Features[i].ID, true
		}
	}
	return "", false
}

// features.* rules.
func (c *checker) featureRules() {
	if c.fl == nil {
		return
	}
	ids := map[string]int{}
	for i, f := range c.fl.Features {
		if j, dup := ids[f.ID]; dup {
			c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/id", i), Rule: ruleid.FeaturesUniqueIDs,
				Message: fmt.Sprintf("feature id %s appears twice (features[%d] and features[%d])", f.ID, j, i)})
			continue
		}
		ids[f.ID] = i
	}
	for i, f := range c.fl.Features {
		for k, d := range f.DependsOn {
			if _, ok := ids[d]; !ok {
				c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/depends_on/%d", i, k), Rule: ruleid.FeaturesDependsOnExists,
					Message: fmt.Sprintf("feature %s depends_on %s, which is not a feature in feature_list", f.ID, d)})
			}
		}
	}
	c.dagAcyclic(ids)
	for i := range c.fl.Features {
		f := &c.fl.Features[i]
		if !c.started(f) {
			continue
		}
		for k, d := range f.DependsOn {
			j, ok := ids[d]
			if !ok {
				continue
			}
			if st := c.fl.Features[j].Status; st != workspace.StatusCompleted {
				c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/depends_on/%d", i, k), Rule: ruleid.FeaturesDepsCompletedBeforeStart,
					Message: fmt.Sprintf("feature %s has started (status %s, phase=%d) but depends_on lists %s, which is %s, not completed", f.ID, f.Status, f.Phase, d, st)})
			}
		}
	}
	for i := range c.fl.Features {
		c.nextPhases(i, &c.fl.Features[i])
	}
	if !c.fl.ToolingLocked {
		var started []string
		for i := range c.fl.Features {
			if c.started(&c.fl.Features[i]) {
				f := &c.fl.Features[i]
				started = append(started, fmt.Sprintf("%s (status %s, phase=%d)", f.ID, f.Status, f.Phase))
			}
		}
		if len(started) > 0 {
			c.rep.add(Finding{File: relFeatureList, Pointer: "/tooling_locked", Rule: ruleid.FeaturesToolingLocked,
				Message: "tooling_locked is false but features have started: " + strings.Join(started, ", ")})
		}
	}
}

func (c *checker) dagAcyclic(ids map[string]int) {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	reported := map[string]bool{}
	var visit func(id string)
	visit = func(id string) {
		color[id] = grey
		stack = append(stack, id)
		f := &c.fl.Features[ids[id]]
		for _, d := range f.DependsOn {
			if _, ok := ids[d]; !ok {
				continue
			}
			switch color[d] {
			case white:
				visit(d)
			case grey:
				k := len(stack) - 1
				for k >= 0 && stack[k] != d {
					k--
				}
				cyc := append(append([]string(nil), stack[k:]...), d)
				key := canonicalCycle(cyc[:len(cyc)-1])
				if !reported[key] {
					reported[key] = true
					c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("/features/%d/depends_on", ids[id]), Rule: ruleid.FeaturesDAGAcyclic,
						Message: "depends_on has a cycle: " + strings.Join(cyc, " → ")})
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[id] = black
	}
	for _, f := range c.fl.Features {
		if color[f.ID] == white {
			visit(f.ID)
		}
	}
}

func canonicalCycle(c []string) string {
	s := append([]string(nil), c...)
	sort.Strings(s)
	return strings.Join(s, ",")
}

// features.next-phases-consistent
func (c *checker) nextPhases(i int, f *workspace.Feature) {
	ptr := fmt.Sprintf("/features/%d", i)
	add := func(p, msg string) {
		c.rep.add(Finding{File: relFeatureList, Pointer: ptr + p, Rule: ruleid.FeaturesNextPhasesConsistent, Message: "feature " + f.ID + ": " + msg})
	}
	if f.Status == workspace.StatusCompleted {
		if !f.PhaseOK() || f.Phase != 4 {
			add("/phase", fmt.Sprintf("status completed requires phase 4, but phase is %s", rawField(f, "phase")))
		}
		for _, np := range f.NextPhases {
			if !np.Done {
				add("/next_phases", fmt.Sprintf("status completed requires every next_phases entry done, but phase=%d is not done", np.Phase))
			}
		}
	}
	if !f.PhaseOK() || f.Phase < 1 || f.Phase > 4 {
		return
	}
	p := f.Phase
	ok := len(f.NextPhases) == 4
	for k := 0; ok && k < 4; k++ {
		if f.NextPhases[k].Phase != k+1 || f.NextPhases[k].Action != workspace.PhaseAction(k+1) {
			ok = false
		}
	}
	if !ok {
		var got []string
		for _, np := range f.NextPhases {
			got = append(got, fmt.Sprintf("%d %s", np.Phase, np.Action))
		}
		add("/next_phases", fmt.Sprintf("next_phases must be [1 plan, 2 implement, 3 verify, 4 deliver], got [%s]", strings.Join(got, ", ")))
		return
	}
	currents := 0
	for k, np := range f.NextPhases {
		np := np
		switch {
		case np.Phase < p && !np.Done:
			add(fmt.Sprintf("/next_phases/%d/done", k), fmt.Sprintf("next_phases phase=%d is not done although the feature is at phase=%d", np.Phase, p))
		case np.Phase > p && np.Done:
			add(fmt.Sprintf("/next_phases/%d/done", k), fmt.Sprintf("next_phases phase=%d is done although the feature is only at phase=%d", np.Phase, p))
		}
		if np.Current {
			currents++
			if np.Phase != p {
				add(fmt.Sprintf("/next_phases/%d/current", k), fmt.Sprintf("next_phases phase=%d has current: true but the feature is at phase=%d", np.Phase, p))
			}
		}
	}
	if currents > 1 {
		add("/next_phases", fmt.Sprintf("%d next_phases entries have current: true (at most one)", currents))
	}
}

func rawField(f *workspace.Feature, key string) string {
	if r := f.Raw(); r != nil {
		if v, ok := r.Get(key); ok {
			return string(v)
		}
		return "missing"
	}
	return strconv.Itoa(f.Phase)
}

var gateApproved = map[string]bool{"approved": true, "approved_with_changes": true, "auto_approved_yolo": true, "auto_approved_yolo_task": true}

// gates.sprint-gates-approved
func (c *checker) gatesApproved() {
	id, ok := c.anyStarted()
	if !ok {
		return
	}
	for _, gate := range []string{"cp-sprint-tooling", "cp-sprint-dag"} {
		var last *workspace.EvalEntry
		for _, e := range c.entries {
			if !e.IsCorrection() && e.EventType() == workspace.EventCheckpoint && e.CheckpointID() == gate {
				last = e
			}
		}
		switch {
		case last == nil:
			c.rep.add(Finding{File: relEvalLog, Rule: ruleid.GatesSprintGatesApproved,
				Message: fmt.Sprintf("feature %s has started but %s has no checkpoint entry for the sprint gate %s; open it with `harness checkpoint open %s --blockers FILE` and record the user's answer with `harness checkpoint reply %s '1a 2a 3a'`", id, relEvalLog, gate, gate, gate)})
		case !gateApproved[last.Decision()]:
			d := "null"
			if v, ok := last.Fields["decision"]; ok {
				d = schema.Verbatim(v)
			} else {
				d = "missing"
			}
			c.rep.add(Finding{File: relEvalLog, Line: last.Line, Pointer: "/decision", Rule: ruleid.GatesSprintGatesApproved,
				Message: fmt.Sprintf("the last checkpoint entry of the sprint gate %s has decision %s, not approved/approved_with_changes/auto_approved_yolo/auto_approved_yolo_task (feature %s has started)", gate, d, id)})
		}
	}
}

// checkpoints.gate-catch-all
func (c *checker) gateCatchAll() {
	if c.fl == nil {
		return
	}
	check := func(ptr, owner string, cp *workspace.Checkpoint) {
		if cp.Type != "gate" {
			return
		}
		if len(cp.Blockers) == 0 {
			c.rep.add(Finding{File: relFeatureList, Pointer: ptr + "/blockers", Rule: ruleid.CheckpointsGateCatchAll,
				Message: fmt.Sprintf("gate checkpoint %s%s has no blockers; a gate ends with the catch_all blocker", cp.ID, owner)})
			return
		}
		if last := cp.Blockers[len(cp.Blockers)-1]; last.ID != "catch_all" {
			c.rep.add(Finding{File: relFeatureList, Pointer: fmt.Sprintf("%s/blockers/%d/id", ptr, len(cp.Blockers)-1), Rule: ruleid.CheckpointsGateCatchAll,
				Message: fmt.Sprintf("gate checkpoint %s%s: the last blocker is %q, not catch_all", cp.ID, owner, last.ID)})
		}
	}
	for i := range c.fl.Features {
		f := &c.fl.Features[i]
		for k := range f.Checkpoints {
			check(fmt.Sprintf("/features/%d/checkpoints/%d", i, k), " of feature "+f.ID, &f.Checkpoints[k])
		}
	}
	for k := range c.fl.SprintCheckpoints {
		check(fmt.Sprintf("/sprint_checkpoints/%d", k), "", &c.fl.SprintCheckpoints[k])
	}
}

var flattened = map[string]bool{"AGENTS.md": true, "index.md": true, "project.md": true, "checkpoint-qa.md": true, "yolo.md": true,
	"feature-isolation.md": true, "reset-mechanism.md": true, "process-protocol.md": true, "execution-paths.md": true, "pipeline.schema.yaml": true}

// layout.* rules.
func (c *checker) layoutRules() {
	// layout.feature-dir-location
	if ents, err := os.ReadDir(c.ws.Root); err == nil && !c.opts.HarnessOnly {
		for _, e := range ents {
			name := e.Name()
			if e.IsDir() && workspace.FeatureIDPattern.MatchString(name) {
				p := name
				if c.exists(name+"/.harness", true) {
					p = name + "/.harness"
				}
				c.rep.add(Finding{File: p, Rule: ruleid.LayoutFeatureDirLocation,
					Message: fmt.Sprintf("feature directory %s is misplaced: feature directories live only at .harness/features/%s/", p, name)})
			}
			if e.IsDir() && name == "features" {
				c.rep.add(Finding{File: "features", Rule: ruleid.LayoutFeatureDirLocation,
					Message: "directory features/ at the root is misplaced: feature directories live only at .harness/features/<id>/"})
			}
			// layout.no-flattened-readonly
			if e.Type().IsRegular() && (flattened[name] || strings.HasSuffix(name, ".schema.json") || strings.HasSuffix(name, ".template.md")) {
				c.rep.add(Finding{File: name, Rule: ruleid.LayoutNoFlattenedReadonly,
					Message: fmt.Sprintf("read-only resource %s is flattened into the sprint root; it belongs in its folder (spec/, protocols/, schemas/, templates/)", name)})
			}
		}
	}
	if ents, err := os.ReadDir(c.ws.H()); err == nil {
		for _, e := range ents {
			if e.IsDir() && workspace.FeatureIDPattern.MatchString(e.Name()) {
				p := relH + "/" + e.Name()
				c.rep.add(Finding{File: p, Rule: ruleid.LayoutFeatureDirLocation,
					Message: fmt.Sprintf("feature directory %s is misplaced: feature directories live only at .harness/features/%s/", p, e.Name())})
			}
		}
	}
	// layout.feature-dir-files
	if c.fl != nil {
		for i := range c.fl.Features {
			f := &c.fl.Features[i]
			if !c.started(f) || !workspace.FeatureIDPattern.MatchString(f.ID) {
				continue
			}
			dir := relFeaturesDir + "/" + f.ID
			if !c.exists(dir, true) {
				c.rep.add(Finding{File: dir, Rule: ruleid.LayoutFeatureDirFiles,
					Message: fmt.Sprintf("feature %s has started (status %s, phase=%d) but %s/ does not exist; run `harness init-feature %s`", f.ID, f.Status, f.Phase, dir, f.ID)})
				continue
			}
			for _, name := range []string{"context_snapshot.md", "AGENTS.md", "generator_log.md", "handoff.md", "session_id.txt"} {
				if !c.exists(dir+"/"+name, false) {
					c.rep.add(Finding{File: dir + "/" + name, Rule: ruleid.LayoutFeatureDirFiles,
						Message: fmt.Sprintf("feature %s has started but %s/%s is missing; `harness init-feature %s` creates it (existing records are kept)", f.ID, dir, name, f.ID)})
				}
			}
			if b, err := c.readFile(c.ws.SessionIDFile(f.ID)); err == nil && strings.TrimSpace(string(b)) == "" {
				c.rep.add(Finding{File: dir + "/session_id.txt", Rule: ruleid.LayoutFeatureDirFiles,
					Message: fmt.Sprintf("feature %s has started but %s/session_id.txt is empty; after launching its Generator run `harness session start %s --session-id ID` (or keep the feature pending until then)", f.ID, dir, f.ID)})
			}
			for _, name := range []string{"context_snapshot.md", "AGENTS.md", "generator_log.md", "handoff.md", "session_id.txt"} {
				// A FIFO or device here would hang every reader (hooks read
				// these files at SessionStart and Stop).
				if st := c.stat(filepath.Join(c.ws.FeatureDir(f.ID), name)); st.exists && st.mode&fs.ModeType != 0 && !st.dir {
					c.rep.add(Finding{File: dir + "/" + name, Rule: ruleid.LayoutFeatureDirFiles,
						Message: fmt.Sprintf("%s/%s is not a regular file (%s)", dir, name, st.mode)})
				}
			}
		}
	}
	// layout.session-pool-unique
	_ = filepath.WalkDir(c.walkRoot(), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return fs.SkipDir
		}
		if d.Name() == "session_pool.json" && !d.IsDir() && p != c.ws.SessionPool() {
			rel := c.ws.Rel(p)
			c.rep.add(Finding{File: rel, Rule: ruleid.LayoutSessionPoolUnique,
				Message: fmt.Sprintf("%s is a second session_pool.json; the only one is %s", rel, relSessionPool)})
		}
		// layout.stale-temp
		if target, ok := fsutil.TempTarget(d.Name()); ok && !d.IsDir() {
			rel := c.ws.Rel(p)
			age := ""
			if info, err := d.Info(); err == nil {
				age = fmt.Sprintf(", %s old", time.Since(info.ModTime()).Round(time.Second))
			}
			c.rep.add(Finding{File: rel, Rule: ruleid.LayoutStaleTemp, Severity: SeverityInfo,
				Message: fmt.Sprintf("%s is the temporary file of an interrupted atomic write of %s%s; "+
					"the target kept its old content; the next write of the target deletes it once it is %s old",
					rel, path.Join(path.Dir(rel), target), age, fsutil.StaleTempAge)})
		}
		return nil
	})
	// layout.current-agent-unique
	if c.exists(relCurrentAgentJS, false) {
		c.rep.add(Finding{File: relCurrentAgentJS, Rule: ruleid.LayoutCurrentAgentUnique,
			Message: relCurrentAgentJS + " exists; the current agent file is " + relCurrentAgent + " (no extension)"})
	}
}

// pool.active-consistent
func (c *checker) poolConsistent() {
	if c.pool == nil {
		return
	}
	for _, id := range c.pool.ActiveOrder {
		e := c.pool.Active[id]
		ptr := "/active/" + escapePtr(id)
		var f *workspace.Feature
		if c.fl != nil {
			f = c.fl.Feature(id)
		}
		if c.fl != nil && f == nil {
			c.rep.add(Finding{File: relSessionPool, Pointer: ptr, Rule: ruleid.PoolActiveConsistent,
				Message: fmt.Sprintf("active entry %s is not a feature in feature_list", id)})
		}
		if f != nil && (f.Status == workspace.StatusCompleted || f.Status == workspace.StatusCancelled) {
			c.rep.add(Finding{File: relSessionPool, Pointer: ptr, Rule: ruleid.PoolActiveConsistent,
				Message: fmt.Sprintf("active entry for feature %s, whose status is %s; finished features are removed from active", id, f.Status)})
		}
		if e.Status == "completed" {
			c.rep.add(Finding{File: relSessionPool, Pointer: ptr + "/status", Rule: ruleid.PoolActiveConsistent,
				Message: fmt.Sprintf("active entry %s has status completed; a finished session is deleted from active", id)})
		}
	}
	if c.fl != nil {
		for i := range c.fl.Features {
			f := &c.fl.Features[i]
			if f.Status == workspace.StatusInProgress {
				if _, ok := c.pool.Active[f.ID]; !ok {
					c.rep.add(Finding{File: relSessionPool, Pointer: "/active", Rule: ruleid.PoolActiveConsistent,
						Message: fmt.Sprintf("feature %s is in_progress but has no session_pool active entry; run `harness session start %s --session-id ID` once its Generator is launched, then `harness preflight --stage started %s` (or set the feature back to pending)", f.ID, f.ID, f.ID)})
				}
			}
		}
	}
	if c.pool.MaxConcurrent > 0 && len(c.pool.Active) > c.pool.MaxConcurrent {
		c.rep.add(Finding{File: relSessionPool, Pointer: "/active", Rule: ruleid.PoolActiveConsistent,
			Message: fmt.Sprintf("%d active entries exceed max_concurrent %d", len(c.pool.Active), c.pool.MaxConcurrent)})
	}
}

// eval.* rules (eval.superseded's own checks included), found while
// streaming the log (evalEntryRules).
func (c *checker) evalRules() {
	c.rep.Findings = append(c.rep.Findings, c.evalFound.rules.Findings...)
}

// applySuperseded turns every finding at a superseded eval_log line into
// info (eval.superseded).
func (c *checker) applySuperseded() {
	for i, f := range c.rep.Findings {
		if f.File != relEvalLog || f.Line == 0 {
			continue
		}
		if by, ok := c.supersededBy[f.Line]; ok && f.Severity != SeverityInfo {
			c.rep.Findings[i].Severity = SeverityInfo
			c.rep.Findings[i].Message = fmt.Sprintf("%s (was %s; superseded by the correction at %s)", f.Message, f.Rule, evalAt(by))
			c.rep.Findings[i].Rule = ruleid.EvalSuperseded
		}
	}
}
