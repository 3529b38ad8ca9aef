package ops

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/gitrepo"
	"github.com/superagent-harness/harness/internal/pathguard"
	"github.com/superagent-harness/harness/internal/safetext"
	"github.com/superagent-harness/harness/internal/workspace"
)

// FeatureStatus is one feature row of `harness status`.
type FeatureStatus struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Status     string   `json:"status"`
	Phase      int      `json:"phase"`
	DonePhases []int    `json:"done_phases"`
	DependsOn  []string `json:"depends_on"`
	Session    string   `json:"session,omitempty"` // pool status and id
	// Unguarded marks a running session without a SessionStart hook record
	// (its hooks are not proven live; docs/sandbox.md §4).
	Unguarded bool `json:"unguarded,omitempty"`
	// Sandbox is "on", "off" (harness launch --no-sandbox) or "unknown" (not
	// started by harness launch) for a running session; "" without one.
	Sandbox string `json:"sandbox,omitempty"`
	// Exited marks a session the pool still lists as running whose client
	// (the pid harness launch recorded) is no longer running.
	Exited  bool `json:"exited,omitempty"`
	Retries int  `json:"retries"` // eval entries with result retry (§3.6)
}

// CheckpointStatus is one checkpoint waiting for the user.
type CheckpointStatus struct {
	ID        string `json:"id"`
	Feature   string `json:"feature,omitempty"`
	Type      string `json:"type"`
	Status    string `json:"status"`
	CreatedAt string `json:"created_at,omitempty"`
}

// Denial is one hook.log record whose verdict is block or
// stop_forced_incomplete.
type Denial struct {
	Time    string `json:"time"`
	Event   string `json:"event"`
	Feature string `json:"feature,omitempty"`
	Verdict string `json:"verdict"`
	Rule    string `json:"rule,omitempty"`
	Subject string `json:"subject,omitempty"`
}

// StatusResult is the envelope data of `harness status --json`.
type StatusResult struct {
	Sprint      string             `json:"sprint"`
	Mode        string             `json:"mode"`
	Contract    string             `json:"contract_status,omitempty"`
	Tooling     bool               `json:"tooling_locked"`
	Features    []FeatureStatus    `json:"features"`
	Checkpoints []CheckpointStatus `json:"pending_checkpoints"`
	Sessions    map[string]string  `json:"active_sessions"`
	Denials     []Denial           `json:"last_denials"`
	Yolo        string             `json:"yolo"` // off | active | aborted
	PendingEval bool               `json:"pending_eval"`
	// Warnings name every running session that is unguarded or runs
	// without the sandbox, on every run (docs/sandbox.md §3, §4).
	Warnings []string `json:"warnings"`
	// IgnoredEval names the eval_log lines no Hermes-side record backs and
	// no Generator may write (workspace.Provenance): left out of every count.
	IgnoredEval []string `json:"ignored_eval_lines,omitempty"`
	// Resets are the features whose Reset is due, overdue or under way, or
	// whose session is stale (ResetView.Attention); HermesReset is Hermes'
	// own (docs/protocol.md §8).
	Resets      []FeatureReset `json:"resets"`
	HermesReset HermesReset    `json:"hermes_reset"`
}

// MaxDenials is how many hook.log denials status shows.
const MaxDenials = 10

// ProbeSessionPrefix starts the session id of every hook call `harness
// doctor` makes to test the wiring; status does not count them as denials.
const ProbeSessionPrefix = "harness-doctor"

// Status gathers the sprint overview: features with phases and
// dependencies, checkpoints waiting for the user (pending or revoked, plus
// pending_user_replies), active sessions, and the last hook denials from
// H/logs/hook.log (JSON lines only; legacy text lines are skipped, D34). It
// changes nothing.
func Status(env *Env) (*StatusResult, error) {
	fl, err := env.loadFeatureList()
	if err != nil {
		return nil, err
	}
	res := &StatusResult{Sprint: fl.sprint(), Tooling: fl.Bool("tooling_locked"), Sessions: map[string]string{},
		Features: []FeatureStatus{}, Checkpoints: []CheckpointStatus{}, Denials: []Denial{}, Warnings: []string{}}
	// status shows what the state files say and judges nothing (that is
	// validate's job), but a file it reads that is missing or does not
	// parse would show as "nothing there": an error instead (exit 2).
	rt, err := env.readObj("runtime_state.json")
	if err != nil {
		return nil, err
	}
	res.Mode = rt.Str("mode")
	if c, _, err := env.loadContract(fl); err == nil && c != nil {
		res.Contract = c.Str("status")
	}
	pool, err := env.readObj("session_pool.json")
	if err != nil {
		return nil, err
	}
	active := pool.ObjAt("active")
	exited := map[string]bool{}
	for _, k := range active.Keys() {
		e := active.ObjAt(k)
		p, _ := e.Int("current_phase")
		st := e.Str("status")
		if pid, gone := clientGone(e); gone {
			exited[k] = true
			output := "read its output"
			if e.ObjAt("launch").Str("mode") == "print" {
				output += " (.harness/features/" + k + "/" + workspace.GeneratorOutputName + ")"
			}
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: session %s has ended: its client (pid %d) is no longer running, but session_pool.json still lists it as %s; %s, then run `harness session end %s`", k, e.Str("session_id"), pid, st, output, k))
			st = "exited"
		}
		res.Sessions[k] = fmt.Sprintf("%s %s phase=%d", st, e.Str("session_id"), p)
	}
	log, err := env.loadEvalLog()
	if err != nil {
		return nil, err
	}
	res.IgnoredEval = log.Ignored
	res.Yolo = "off"
	if ys, err := env.yoloStatus(); err == nil && ys.active {
		res.Yolo = "active"
	} else if err == nil && ys.aborted {
		res.Yolo = "aborted"
	}
	if hc, err := env.readObj("hermes_context_state.json"); err == nil {
		res.PendingEval = hc.ObjAt("pending_eval") != nil
	}
	seen := map[string]bool{}
	addCP := func(cp *Obj, fid string) {
		st := cp.Str("status")
		if (st == "pending" && cp.Str("created_at") != "") || st == "revoked" {
			res.Checkpoints = append(res.Checkpoints, CheckpointStatus{ID: cp.Str("id"), Feature: fid, Type: cp.Str("type"), Status: st, CreatedAt: cp.Str("created_at")})
			seen[cp.Str("id")] = true
		}
	}
	for _, v := range fl.Arr("sprint_checkpoints") {
		if o, ok := v.(*Obj); ok {
			addCP(o, "")
		}
	}
	for _, f := range fl.features() {
		fs := FeatureStatus{ID: f.Str("id"), Name: firstNonEmpty(f.Str("name"), f.Str("title")), Status: f.Str("status"),
			DependsOn: nonNil(f.Strs("depends_on")), DonePhases: []int{}}
		fs.Phase, _ = f.Int("phase")
		for p := 1; p <= 4; p++ {
			if np := nextPhase(f, p); np != nil && np.Bool("done") {
				fs.DonePhases = append(fs.DonePhases, p)
			}
		}
		fs.Session, fs.Exited = res.Sessions[fs.ID], exited[fs.ID]
		if e := active.ObjAt(fs.ID); e != nil {
			fs.Unguarded, fs.Sandbox = env.sessionGuard(fs.ID, e, &res.Warnings)
		}
		fs.Retries = log.retryCount(fs.ID)
		res.Features = append(res.Features, fs)
		for _, cp := range checkpointsOf(f) {
			addCP(cp, fs.ID)
		}
	}
	for _, id := range rt.Strs("pending_user_replies") {
		if !seen[id] {
			res.Checkpoints = append(res.Checkpoints, CheckpointStatus{ID: id, Status: "pending (pending_user_replies)"})
		}
	}
	res.Denials = lastDenials(env.H("logs", "hook.log"), MaxDenials)
	rv, err := Resets(env)
	if err != nil {
		return nil, err
	}
	res.Resets, res.HermesReset = nonNilResets(rv.Attention()), rv.Hermes
	res.Warnings = append(res.Warnings, NestedRepositoryWarnings(env.Root)...)
	return res, nil
}

// NestedRepositoryWarnings are the warnings status and doctor give for the
// repositories nested in the product tree whose settings or hooks a git
// run at the root would execute outside the sandbox (gitrepo.Risky,
// docs/sandbox.md §6), one line each; an index that cannot be read is a
// warning too, never silence. They also name the protected paths whose
// content in HEAD or the index differs from the work tree
// (gitrepo.ProtectedChanges, round 16 #13).
func NestedRepositoryWarnings(root string) []string {
	nested, err := gitrepo.Risky(root)
	if err != nil {
		return []string{"the root repository's index could not be read to look for nested repositories that run code (" + err.Error() + "): run git at the root only with --ignore-submodules=all (docs/sandbox.md §6)"}
	}
	var out []string
	for _, n := range nested {
		out = append(out, n.Describe())
	}
	changed, err := gitrepo.ProtectedChanges(root, pathguard.GitPathspecs())
	switch {
	case err != nil:
		out = append(out, "git could not be asked whether HEAD or the index carries changes to protected paths ("+err.Error()+"): before a git checkout/restore/reset/stash at the root, compare git diff HEAD with the commit Hermes recorded (docs/sandbox.md §6)")
	case len(changed) > 0:
		out = append(out, gitrepo.DescribeProtectedChanges(changed))
	}
	return out
}

// clientGone reports whether the client of a pool entry listed as running
// (or waiting_human) is known to have exited: harness launch recorded its pid
// (launch.pid) and no process has it now. Without a recorded pid nothing is
// known, and the entry is taken as it says.
// ClientGone is clientGone for other packages (launch).
func ClientGone(e *Obj) (pid int, gone bool) { return clientGone(e) }

func clientGone(e *Obj) (int, bool) {
	if st := e.Str("status"); st != "running" && st != "waiting_human" {
		return 0, false
	}
	pid, ok := e.ObjAt("launch").Int("pid")
	if !ok || pid <= 0 {
		return 0, false
	}
	return pid, processGone(pid)
}

// sessionGuard judges one pool entry of a running session: unguarded when
// hook.log holds no SessionStart record for it (SessionStartRecord, not older
// than started_at minus HookProofWindow); sandbox "on"/"off" from the
// entry's launch object, "unknown" without one. Each problem adds a line to
// warnings. Entries that are not running (resetting, failed, suspended) are
// not judged.
func (env *Env) sessionGuard(fid string, e *Obj, warnings *[]string) (unguarded bool, sandbox string) {
	if st := e.Str("status"); st != "running" && st != "waiting_human" {
		return false, ""
	}
	sid := e.Str("session_id")
	started, err := time.Parse(time.RFC3339, e.Str("started_at"))
	if err == nil {
		_, ok, rerr := SessionStartRecord(env.Root, sid, started.Add(-HookProofWindow))
		unguarded = rerr != nil || !ok
	} else {
		unguarded = true
	}
	if unguarded {
		*warnings = append(*warnings, fmt.Sprintf("%s: session %s is UNGUARDED: hook.log has no SessionStart record for it, so its hooks are not proven live (start Generators with `harness launch`)", fid, sid))
	}
	l := e.ObjAt("launch")
	switch {
	case l == nil:
		sandbox = "unknown"
		*warnings = append(*warnings, fmt.Sprintf("%s: session %s was not started by `harness launch`: no sandbox on record", fid, sid))
	case l.Bool("sandbox"):
		sandbox = "on"
	default:
		sandbox = "off"
		*warnings = append(*warnings, fmt.Sprintf("%s: session %s runs WITHOUT the sandbox (harness launch --no-sandbox: %s); only the hook guards it", fid, sid, l.Str("no_sandbox_reason")))
	}
	return unguarded, sandbox
}

func nonNilResets(r []FeatureReset) []FeatureReset {
	if r == nil {
		return []FeatureReset{}
	}
	return r
}

// maxDenialScan bounds how much of the hook logs lastDenials reads, from
// their end (hook.log, then its rotated files newest first).
const maxDenialScan = 8 << 20

// lastDenials returns the last n block / stop_forced_incomplete records of
// hook.log, oldest first, reading backwards from the end of hook.log and, when
// it holds fewer, of the rotated files (hookLogFiles), at most maxDenialScan
// bytes in all: a status costs the same with a 140 MB log as with a small one.
func lastDenials(path string, n int) []Denial {
	var rev []Denial
	budget := int64(maxDenialScan)
	for _, p := range hookLogFiles(path) {
		if len(rev) >= n || budget <= 0 {
			break
		}
		f, st, err := fsutil.OpenRegular(p)
		if err != nil {
			continue
		}
		stats, _ := fsutil.EachLineBackward(f, st.Size(), fsutil.BackwardOptions{MaxBytes: budget, MaxLine: 1 << 20}, func(raw []byte) bool {
			line := bytes.TrimSpace(raw)
			if len(line) == 0 || line[0] != '{' || !(bytes.Contains(line, []byte(`"block"`)) || bytes.Contains(line, []byte(`stop_forced_incomplete`))) {
				return true
			}
			o, err := parseObj(line)
			if err != nil {
				return true
			}
			v := o.Str("verdict")
			if v != "block" && v != "stop_forced_incomplete" {
				return true
			}
			if probe, _ := o.Value("probe").(bool); probe || strings.HasPrefix(o.Str("session"), ProbeSessionPrefix) {
				return true // harness doctor's probe, not a decision about the Generator
			}
			subj := firstNonEmpty(o.Str("command"), o.Str("path"), strings.Join(o.Strs("failing"), ","))
			rev = append(rev, Denial{Time: o.Str("time"), Event: o.Str("event"), Feature: o.Str("feature"), Verdict: v, Rule: o.Str("rule"), Subject: subj})
			return len(rev) < n
		})
		f.Close()
		budget -= stats.Read
	}
	out := make([]Denial, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return out
}

// Text renders the status for a terminal.
func (s *StatusResult) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sprint %s  mode %s", s.Sprint, s.Mode)
	if s.Contract != "" {
		fmt.Fprintf(&b, "  contract %s", s.Contract)
	}
	fmt.Fprintf(&b, "  tooling_locked %v  yolo %s", s.Tooling, s.Yolo)
	if s.PendingEval {
		b.WriteString("  PENDING EVAL (run `harness reset resume`)")
	}
	b.WriteString("\n")
	for _, w := range s.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	b.WriteString("\nfeatures:\n")
	if len(s.Features) == 0 {
		b.WriteString("  (none: feature_list.json has no feature yet; write the plan with `harness plan FILE`)\n")
	}
	for _, f := range s.Features {
		deps := "-"
		if len(f.DependsOn) > 0 {
			deps = strings.Join(f.DependsOn, ",")
		}
		done := make([]string, 0, len(f.DonePhases))
		for _, p := range f.DonePhases {
			done = append(done, fmt.Sprint(p))
		}
		fmt.Fprintf(&b, "  %-8s %-14s phase=%d done=[%s] deps=%s", f.ID, f.Status, f.Phase, strings.Join(done, ","), deps)
		if f.Retries > 0 {
			fmt.Fprintf(&b, " retries=%d", f.Retries)
		}
		if f.Session != "" {
			fmt.Fprintf(&b, " session=%s", safetext.Line(f.Session))
		}
		if f.Unguarded {
			b.WriteString(" UNGUARDED")
		}
		if f.Sandbox == "off" {
			b.WriteString(" NO-SANDBOX")
		}
		if f.Exited {
			b.WriteString(" EXITED")
		}
		fmt.Fprintf(&b, "  %s\n", safetext.Line(f.Name))
	}
	b.WriteString("\npending checkpoints:\n")
	if len(s.Checkpoints) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, c := range s.Checkpoints {
		fmt.Fprintf(&b, "  %s\n", safetext.Line(joinNonEmpty(c.ID, c.Type, c.Status, c.Feature, c.CreatedAt)))
	}
	if lines := (&ResetView{Features: s.Resets, Hermes: s.HermesReset}).ResetLines(); len(lines) > 0 {
		b.WriteString("\nresets:\n")
		for _, l := range lines {
			b.WriteString("  " + l + "\n")
		}
	}
	b.WriteString("\nlast hook denials:\n")
	if len(s.Denials) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, d := range s.Denials {
		fmt.Fprintf(&b, "  %s\n", safetext.Line(joinNonEmpty(d.Time, d.Event, d.Feature, d.Verdict, d.Rule, oneLine(d.Subject))))
	}
	if len(s.IgnoredEval) > 0 {
		b.WriteString("\nignored eval_log lines (no Hermes-side record, not a Generator's entry; eval.provenance):\n")
		for _, l := range s.IgnoredEval {
			fmt.Fprintf(&b, "  %s\n", safetext.Line(l))
		}
	}
	return b.String()
}

// Mermaid renders the feature DAG as a Mermaid flowchart, one node per
// feature labelled with id, status and phase, an edge dependency → dependant,
// and a class per status (completed green, in_progress blue, waiting_human
// amber, blocked red, pending/planning grey, cancelled struck).
func (s *StatusResult) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for _, f := range s.Features {
		label := fmt.Sprintf("%s %s<br/>%s phase=%d", f.ID, mermaidEscape(f.Name), f.Status, f.Phase)
		fmt.Fprintf(&b, "  %s[\"%s\"]:::%s\n", mermaidID(f.ID), label, mermaidClass(f.Status))
	}
	for _, f := range s.Features {
		for _, d := range f.DependsOn {
			fmt.Fprintf(&b, "  %s --> %s\n", mermaidID(d), mermaidID(f.ID))
		}
	}
	b.WriteString("  classDef completed fill:#c8e6c9,stroke:#2e7d32\n")
	b.WriteString("  classDef in_progress fill:#bbdefb,stroke:#1565c0\n")
	b.WriteString("  classDef waiting_human fill:#ffe0b2,stroke:#ef6c00\n")
	b.WriteString("  classDef blocked fill:#ffcdd2,stroke:#c62828\n")
	b.WriteString("  classDef pending fill:#eeeeee,stroke:#757575\n")
	b.WriteString("  classDef cancelled fill:#fafafa,stroke:#bdbdbd,stroke-dasharray:4\n")
	return b.String()
}

func mermaidID(id string) string { return strings.ReplaceAll(id, "-", "_") }

func mermaidClass(status string) string {
	switch status {
	case "completed", "in_progress", "waiting_human", "blocked", "cancelled":
		return status
	}
	return "pending"
}

func mermaidEscape(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ")
	return r.Replace(s)
}

func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, " ")
}

// oneLine keeps a denial on its line in the text view: a multi-line command
// (heredocs, scripts) shows its newlines and tabs escaped as \n and \t, and
// is cut to 160 characters with "…". The JSON view keeps the subject as logged.
func oneLine(s string) string {
	s = strings.NewReplacer("\r", `\r`, "\n", `\n`, "\t", `\t`).Replace(s)
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return s
}

// hookLogFiles is hook.log and its rotated files, newest first.
func hookLogFiles(path string) []string { return workspace.HookLogFiles(path) }
