// Package demo is `harness demo`: a self-contained tour of the harness on a
// throw-away sprint. It writes a one-feature sprint workspace (embedded
// under workspace/) into a temporary folder, drives harness-hook in-process
// (hook.Run) with real Claude Code payloads, appends the phase records the
// way `harness eval append` and `harness phase complete` do (ops.EvalAppend,
// records.CompletePhase), runs `harness validate` and `finalize --check`
// (internal/validate), and prints a readable transcript.
//
// The workspace is built here rather than with `harness init` /
// `init-feature` because package cli imports this package (cli → demo → cli
// would be a cycle).
package demo

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/hook"
	"github.com/superagent-harness/harness/internal/ops"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/safetext"
	"github.com/superagent-harness/harness/internal/validate"
	"github.com/superagent-harness/harness/internal/workspace"
)

//go:embed all:workspace
var seed embed.FS

// Names of the demo sprint.
const (
	SprintID  = "sprint_20260421_1"
	FeatureID = "f001"
	sessionID = "demo-session"
)

// Transcript is what the demo did, step by step (`harness demo --json`).
type Transcript struct {
	Sprint  string `json:"sprint"`
	Feature string `json:"feature"`
	// Root is the demo sprint's folder; it is removed afterwards unless Kept.
	Root  string `json:"root"`
	Kept  bool   `json:"kept"`
	Steps []Step `json:"steps"`
	// HookLog is hook.log at the end, one entry per hook call.
	HookLog []HookLogEntry `json:"hook_log"`
	// Checks counts the checks made, Failed those that did not behave as
	// expected.
	Checks int `json:"checks"`
	Failed int `json:"failed"`
}

// Step is one numbered step of the demo.
type Step struct {
	Title  string  `json:"title"`
	Checks []Check `json:"checks"`
	// Details are the texts the step showed (a deny reason, findings).
	Details []string `json:"details,omitempty"`
}

// Check is one expectation of a step and whether it held.
type Check struct {
	OK   bool   `json:"ok"`
	Text string `json:"text"`
}

// HookLogEntry is one hook.log record as the demo prints it.
type HookLogEntry struct {
	Event   string `json:"event"`
	Verdict string `json:"verdict"`
	Rule    string `json:"rule,omitempty"`
	Subject string `json:"subject,omitempty"`
}

// Run builds the demo sprint under a new temporary folder (in env["TMPDIR"]
// when set), runs every step and prints the transcript on stdout. It returns
// 0 when every decision was the expected one, 1 when one was not, 2 when the
// sprint could not be built. With env["HARNESS_DEMO_KEEP"] non-empty the
// folder is kept and its path printed; otherwise it is removed.
func Run(stdout io.Writer, env map[string]string) int {
	_, code := RunTranscript(stdout, env)
	return code
}

// RunTranscript is Run that also returns the transcript (nil when the sprint
// could not be built). stdout may be io.Discard.
func RunTranscript(stdout io.Writer, env map[string]string) (*Transcript, int) {
	base, err := os.MkdirTemp(env["TMPDIR"], "harness-demo-")
	if err != nil {
		fmt.Fprintf(stdout, "harness demo: cannot create a temporary folder: %v\n", err)
		return nil, 2
	}
	keep := env["HARNESS_DEMO_KEEP"] != ""
	if !keep {
		defer os.RemoveAll(base)
	}
	root := filepath.Join(base, SprintID)
	if err := writeSeed(root); err != nil {
		fmt.Fprintf(stdout, "harness demo: cannot write the demo sprint: %v\n", err)
		return nil, 2
	}
	d := &driver{out: stdout, root: root, now: time.Now,
		tr: &Transcript{Sprint: SprintID, Feature: FeatureID, Root: root, Kept: keep, Steps: []Step{}, HookLog: []HookLogEntry{}}}
	d.run()
	d.tr.Checks, d.tr.Failed = d.steps, d.failed
	if keep {
		fmt.Fprintf(stdout, "\nThe sprint is kept in %s\n", root)
	}
	if d.failed > 0 {
		fmt.Fprintf(stdout, "\nResult: %d of %d checks did NOT behave as expected.\n", d.failed, d.steps)
		return d.tr, 1
	}
	fmt.Fprintf(stdout, "\nResult: all %d checks behaved as expected.\n", d.steps)
	return d.tr, 0
}

// writeSeed copies the embedded workspace to root.
func writeSeed(root string) error {
	return fs.WalkDir(seed, "workspace", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "workspace"), "/")
		target := filepath.Join(root, filepath.FromSlash(rel))
		if e.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := seed.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// driver runs the steps and keeps score.
type driver struct {
	out    io.Writer
	root   string
	now    func() time.Time
	steps  int
	failed int
	tr     *Transcript
}

// answer is a decoded hook answer.
type answer struct {
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	SystemMessage      string `json:"systemMessage"`
	HookSpecificOutput *struct {
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		AdditionalContext        string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// hook runs harness-hook in-process for event with payload fields.
func (d *driver) hook(event string, fields map[string]any) (answer, string) {
	p := map[string]any{"hook_event_name": event, "session_id": sessionID, "cwd": d.root,
		"transcript_path": filepath.Join(d.root, "transcript.jsonl")}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	var out, errb bytes.Buffer
	args := []string{"--event", event, "--root", d.root, "--feature", FeatureID, "--sprint", SprintID}
	code := hook.Run(args, bytes.NewReader(append(payload, '\n')), &out, &errb, map[string]string{})
	var a answer
	if err := json.Unmarshal(out.Bytes(), &a); err != nil || code != 0 {
		return a, fmt.Sprintf("unexpected hook answer (exit %d): %q %s", code, out.String(), errb.String())
	}
	return a, ""
}

// check prints one step's outcome.
func (d *driver) check(ok bool, format string, args ...any) {
	d.steps++
	mark := "ok  "
	if !ok {
		mark = "FAIL"
		d.failed++
	}
	text := strings.TrimSpace(fmt.Sprintf(format, args...))
	fmt.Fprintf(d.out, "   [%s] %s\n", mark, text)
	if n := len(d.tr.Steps); n > 0 {
		d.tr.Steps[n-1].Checks = append(d.tr.Steps[n-1].Checks, Check{OK: ok, Text: text})
	}
}

// detail shows text (a reason, findings) under the current step.
func (d *driver) detail(text string) {
	fmt.Fprintln(d.out, indent(text, "         "))
	if n := len(d.tr.Steps); n > 0 {
		d.tr.Steps[n-1].Details = append(d.tr.Steps[n-1].Details, strings.TrimRight(text, "\n"))
	}
}

func (d *driver) title(format string, args ...any) {
	t := fmt.Sprintf(format, args...)
	fmt.Fprintf(d.out, "\n%s\n", t)
	d.tr.Steps = append(d.tr.Steps, Step{Title: t, Checks: []Check{}})
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func (d *driver) run() {
	fmt.Fprintf(d.out, "harness demo: a throw-away sprint with one feature (%s, phase=1) in\n  %s\n", FeatureID, d.root)
	fmt.Fprintf(d.out, "harness-hook runs in-process with the arguments init-feature registers:\n  --event <Event> --root <root> --feature %s --sprint %s\n", FeatureID, SprintID)

	d.title("1. SessionStart: the Generator session begins")
	a, bad := d.hook("SessionStart", map[string]any{"source": "startup"})
	ctx := ""
	if a.HookSpecificOutput != nil {
		ctx = a.HookSpecificOutput.AdditionalContext
	}
	d.check(bad == "" && strings.Contains(ctx, "harness phase complete "+FeatureID),
		"context injected: %d characters (feature, sprint, AGENTS.md, context_snapshot.md, tooling.md, guard rules) %s", len([]rune(ctx)), bad)
	sid, _ := os.ReadFile(filepath.Join(d.root, ".harness", "features", FeatureID, "session_id.txt"))
	d.check(strings.TrimSpace(string(sid)) == sessionID, "session_id.txt filled with the payload's session_id: %q", strings.TrimSpace(string(sid)))

	d.title("2. PreToolUse Bash: rm -rf build")
	d.expectDeny(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf build", "description": "clean"}})

	d.title("3. PreToolUse Bash: go test ./...")
	d.expectAllow(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "go test ./..."}})

	d.title("4. PreToolUse Edit of schemas/feature_list.schema.json (read-only protocol folder)")
	d.expectDeny(map[string]any{"tool_name": "Edit", "tool_input": map[string]any{
		"file_path":  filepath.Join(d.root, "schemas", "feature_list.schema.json"),
		"old_string": `"const": "1.2"`, "new_string": `"const": "1.3"`}})

	d.title("5. PreToolUse Bash: echo '{}' > .harness/eval_log.jsonl (a Bash write that would erase the eval log)")
	d.expectDeny(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "echo '{}' > .harness/eval_log.jsonl"}})

	d.title("6. Stop before the phase=1 records exist")
	a, bad = d.hook("Stop", map[string]any{"stop_hook_active": false})
	d.check(bad == "" && a.Decision == "block", "Stop blocked")
	if a.Reason != "" {
		d.detail(a.Reason)
	}

	d.title("7. The Generator writes its phase=1 records")
	d.appendRecords()

	d.title("8. Stop after the records are complete")
	a, bad = d.hook("Stop", map[string]any{"stop_hook_active": false})
	d.check(bad == "" && a.Decision == "", "Stop allowed %s", bad)

	d.title("9. Reset: a trigger is on record, the Generator writes handoff.md and stops")
	// what the hook's context measurement records when the token ratio
	// passes 0.70 (docs/protocol.md §8.1)
	ws := &workspace.Workspace{Root: d.root}
	if _, err := ws.UpdateContextState(FeatureID, func(cs *workspace.ContextState) error {
		cs.SessionID, cs.TokenUsageRatio, cs.UpdatedAt = sessionID, 0.74, d.stamp()
		cs.ResetTrigger = &workspace.ResetTrigger{Kind: workspace.TriggerContext, Detail: "token_usage_ratio 0.74 > 0.70", At: d.stamp(), SessionID: sessionID}
		return nil
	}); err != nil {
		d.check(false, "record the trigger: %v", err)
	}
	handoff, err := render.Render(render.HandoffFile, render.Handoff{FeatureID: FeatureID, Sprint: SprintID, GeneratedAt: d.stamp(),
		TriggerReason: "token_usage_ratio 0.74 > 0.70", Phase: 2, PhaseAction: "implement", PercentDone: 10,
		LastWork: "read the phase=1 plan", CurrentFiles: "(none yet)", Blockers: "none",
		Done: []string{"phase=1 plan"}, NextSteps: []string{"implement the link extractor"}})
	if err != nil {
		d.check(false, "render handoff.md: %v", err)
	}
	if err := fsutil.WriteFileAtomic(filepath.Join(d.root, ".harness", "features", FeatureID, "handoff.md"), []byte(handoff), 0o644); err != nil {
		d.check(false, "write handoff.md: %v", err)
	}
	a, bad = d.hook("Stop", map[string]any{"stop_hook_active": false})
	d.check(bad == "" && a.Decision == "", "Stop allowed under the Reset exception %s", bad)
	pool, _ := os.ReadFile(filepath.Join(d.root, ".harness", "session_pool.json"))
	d.check(strings.Contains(string(pool), `"resetting"`), "the hook recorded the Reset: session_pool.active.f001.status = resetting")
	ev, _ := os.ReadFile(filepath.Join(d.root, ".harness", "eval_log.jsonl"))
	d.check(strings.Contains(string(ev), `"reset"`) && strings.Contains(string(ev), "token_usage_ratio 0.74"),
		"and one eval_log reset entry with the handoff's trigger reason")

	d.title("10. harness validate")
	rep, err := validate.Validate(d.root)
	if err != nil {
		d.check(false, "validate: %v", err)
	} else {
		d.check(rep.Valid(), "validate: %d error finding(s)", rep.Errors())
		if !rep.Valid() {
			d.detail(rep.String())
		}
	}

	d.title("11. harness finalize --check (the sprint is not finished: it must refuse)")
	rep, err = validate.FinalizeCheck(d.root)
	if err != nil {
		d.check(false, "finalize --check: %v", err)
	} else {
		d.check(!rep.Valid(), "finalize --check refused with %d finding(s), e.g.:", rep.Errors())
		lines := strings.Split(strings.TrimSpace(rep.String()), "\n")
		if len(lines) > 3 {
			lines = lines[:3]
		}
		d.detail(strings.Join(lines, "\n"))
	}

	fmt.Fprintf(d.out, "\nhook.log (one JSON line per hook call)\n")
	recs, _ := os.ReadFile(filepath.Join(d.root, ".harness", "logs", "hook.log"))
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(recs)), "\n") {
		var r hook.Record
		if json.Unmarshal([]byte(line), &r) == nil {
			subj := r.Command
			if subj == "" {
				subj = r.Path
			}
			rows = append(rows, []string{r.Event, r.Verdict, r.Rule, subj})
			d.tr.HookLog = append(d.tr.HookLog, HookLogEntry{Event: r.Event, Verdict: r.Verdict, Rule: r.Rule, Subject: subj})
		}
	}
	safetext.Table(d.out, "   ", rows)
}

func (d *driver) stamp() string { return d.now().UTC().Format("2006-01-02T15:04:05Z") }

func (d *driver) expectDeny(fields map[string]any) {
	a, bad := d.hook("PreToolUse", fields)
	ok := bad == "" && a.HookSpecificOutput != nil && a.HookSpecificOutput.PermissionDecision == "deny"
	reason := bad
	if a.HookSpecificOutput != nil {
		reason = a.HookSpecificOutput.PermissionDecisionReason
	}
	d.check(ok, "denied")
	if reason != "" {
		d.detail(reason)
	}
}

func (d *driver) expectAllow(fields map[string]any) {
	a, bad := d.hook("PreToolUse", fields)
	d.check(bad == "" && a.HookSpecificOutput == nil && a.Decision == "", "allowed (no decision: the normal permission flow runs) %s", bad)
}

// appendRecords writes the phase=1 section (an append, as the Generator
// does), the phase_evaluation entry (ops.EvalAppend, i.e. `harness eval
// append`) and marks the phase done (records.CompletePhase, i.e. `harness
// phase complete f001`).
func (d *driver) appendRecords() {
	gl := filepath.Join(d.root, ".harness", "features", FeatureID, "generator_log.md")
	section := "\n## phase=1 plan — " + d.stamp() + "\n\n### 做了什么\n\nSplit the work into a flag-parsing main package and a pure Greeting(name) function with table tests.\n\n" +
		"### 关键决策\n\nUse the standard flag package (tooling.md section 3); no third-party dependency.\n\n### 产出物\n\n- plan in this section\n"
	old, _ := os.ReadFile(gl)
	err := fsutil.WriteFileAtomic(gl, append(old, []byte(section)...), 0o644)
	d.check(err == nil, "appended `## phase=1 plan — …` with ### 关键决策 to generator_log.md %v", errText(err))

	env := &ops.Env{Root: d.root, Now: d.now, Validate: ops.EngineValidate}
	_, err = ops.EvalAppend(env, ops.EvalAppendInput{Feature: FeatureID, Phase: 1, Event: "phase_evaluation", Result: "pass",
		Reason: "plan covers both acceptance items: Greeting(name) with table tests, flag parsing in cmd/greet"})
	d.check(err == nil, "harness eval append --feature f001 --phase 1 --event phase_evaluation --result pass --reason '…' %v", errText(err))

	_, err = records.CompletePhase(&workspace.Workspace{Root: d.root}, FeatureID)
	d.check(err == nil, "harness phase complete f001 (next_phases[phase==1].done = true) %v", errText(err))
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "— " + err.Error()
}
