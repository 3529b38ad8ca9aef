package ops

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// step is one staged write: an atomic replace of a file under .harness, or a
// whole-line append to one.
type step struct {
	rel    string // slash path relative to the root, e.g. ".harness/feature_list.json"
	data   []byte
	append bool
	remove bool
}

// Tx stages the writes of one operation. Steps run in the order they were
// staged (e.g. the Hermes Reset order handoff → context state → runtime
// state, Z9). Nothing is written until commit, and commit writes nothing when
// the change would add validate findings.
type Tx struct {
	env    *Env
	steps  []step
	ledger *ledgerPlan // the eval_log_ledger update (addLedger), nil when none
	// objs keeps the last object staged per state file, so a later part of
	// the same operation (a YOLO abort a retry triggers) reads what the
	// earlier part wrote instead of the file on disk (Tx.readObj).
	objs map[string]*Obj
	// evals are the eval_log entries staged so far, in order.
	evals []*Obj
	// evalSize is eval_log.jsonl's size as taken once at the start of
	// commit (snapshotEvalLog; 0 when missing), and evalEnd the offset its
	// next appended line starts at (one more after a torn last line): the
	// dry run validates that snapshot before and after, and the ledger
	// counts offsets from it, so a line appended meanwhile by a writer
	// without the workspace lock is not taken for part of the change.
	evalSize, evalEnd int64
	snapped           bool
	// prov is eval_log's provenance as loaded once for this transaction
	// (Tx.provenance): the operation's view of the log and the dry run's
	// two validate runs all judge by it.
	prov *workspace.Provenance
}

// provenance loads eval_log's provenance from the files on disk the first
// time the transaction needs it (workspace.LoadProvenance, under the
// workspace lock the operation holds, before anything is written) and
// returns the same value after.
func (t *Tx) provenance() (*workspace.Provenance, error) {
	if t.prov == nil {
		p, err := (&workspace.Workspace{Root: t.env.Root}).LoadProvenance()
		if err != nil {
			return nil, err
		}
		t.prov = p
	}
	return t.prov, nil
}

// Write stages an atomic replace of rel (relative to the root).
func (t *Tx) Write(rel string, data []byte) {
	t.steps = append(t.steps, step{rel: filepath.ToSlash(rel), data: data})
}

// WriteJSON stages a state file rewrite with the harness's formatting.
func (t *Tx) WriteJSON(rel string, v any) error {
	data, err := workspace.MarshalIndent(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", rel, err)
	}
	t.Write(rel, data)
	if o, ok := v.(*Obj); ok {
		if t.objs == nil {
			t.objs = map[string]*Obj{}
		}
		t.objs[filepath.ToSlash(rel)] = o
	}
	return nil
}

// readObj is Env.readObj seen through the transaction: the object staged
// for that file by this operation, if any, else the file.
func (t *Tx) readObj(parts ...string) (*Obj, error) {
	if o := t.objs[relH(parts...)]; o != nil {
		return o, nil
	}
	return t.env.readObj(parts...)
}

// AppendEval stages one eval_log line.
func (t *Tx) AppendEval(entry *Obj) error {
	line, err := workspace.MarshalLine(entry)
	if err != nil {
		return err
	}
	t.steps = append(t.steps, step{rel: ".harness/eval_log.jsonl", data: line, append: true})
	t.evals = append(t.evals, entry)
	return nil
}

// Remove stages the removal of rel (a stray file such as .current_agent.json).
func (t *Tx) Remove(rel string) {
	t.steps = append(t.steps, step{rel: filepath.ToSlash(rel), remove: true})
}

// Empty reports whether nothing was staged.
func (t *Tx) Empty() bool { return len(t.steps) == 0 }

// StateLockPath is the workspace lock every state read-modify-write takes.
func (e *Env) StateLockPath() string { return e.H("state") }

// update runs fn under the workspace lock and commits what it staged.
func (e *Env) update(rep *Report, fn func(tx *Tx) error) error {
	if rep.Command != "eval append" {
		if err := e.hermesOnly(rep.Command); err != nil {
			return err
		}
	}
	if err := workspace.Check(e.Root); err != nil {
		return usage("%v", err)
	}
	unlock, err := fsutil.Lock(e.StateLockPath())
	if err != nil {
		return err
	}
	defer unlock()
	if err := e.clearPlantedState(rep); err != nil {
		return err
	}
	if err := e.recoverJournal(rep); err != nil {
		return err
	}
	if err := e.pendingEvalGate(rep.Command); err != nil {
		return err
	}
	tx := &Tx{env: e}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.commit(rep)
}

// run is update for an operation whose report is complete when the
// transaction commits: it returns rep with OK set, or the error.
func (e *Env) run(rep *Report, fn func(tx *Tx) error) (*Report, error) {
	if err := e.update(rep, fn); err != nil {
		return nil, err
	}
	rep.OK = true
	return rep, nil
}

// commit validates the staged change on a scratch copy of .harness and, when
// it adds no error finding, applies it to the workspace.
func (t *Tx) commit(rep *Report) error {
	if t.Empty() {
		return nil
	}
	if err := t.snapshotEvalLog(); err != nil {
		return err
	}
	if err := t.addLedger(); err != nil {
		return err
	}
	if err := t.prepareTargets(rep); err != nil {
		return err
	}
	if t.env.Validate != nil {
		before, after, err := t.dryRun()
		if err != nil {
			return err
		}
		rep.Warnings = errorsOnly(before)
		if added := addedFindings(before, after); len(added) > 0 {
			return &Refusal{
				Reason:   fmt.Sprintf("refused: the change would add %d validate finding(s); nothing was written", len(added)),
				Findings: added,
			}
		}
	}
	if len(t.steps) == 1 {
		// One atomic replace or one locked append is already all-or-nothing.
		return t.apply(t.env.Root, crashAfter(t.env.Root))
	}
	if err := t.writeJournal(rep.Command); err != nil {
		return fmt.Errorf("write %s: %w", relJournal, err)
	}
	if err := t.apply(t.env.Root, crashAfter(t.env.Root)); err != nil {
		return err // the journal stays; the next command completes the change
	}
	return t.env.removeJournal()
}

// errCrash is the simulated crash of a test failpoint.
var errCrash = errors.New("simulated crash")

// testHookCrashAfter is the crash failpoint, a test-only seam (the standard
// library's testHook pattern: nil outside tests, set only by this package's
// tests): for the workspace root of a commit it returns after how many
// writes the commit stops as a killed process would (0: never). It is not
// part of Env, so no caller of the package can make a commit stop halfway.
var testHookCrashAfter func(root string) int

// crashAfter is testHookCrashAfter(root), 0 without the hook.
func crashAfter(root string) int {
	if testHookCrashAfter == nil {
		return 0
	}
	return testHookCrashAfter(root)
}

// apply performs the steps on root; stopAfter > 0 stops after that many
// steps (a test failpoint standing in for a killed process).
func (t *Tx) apply(root string, stopAfter int) error {
	for i, s := range t.steps {
		if stopAfter > 0 && i == stopAfter {
			return errCrash
		}
		p := filepath.Join(root, filepath.FromSlash(s.rel))
		if s.remove {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", s.rel, err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		var err error
		if s.append && s.rel == relEvalLog {
			err = t.appendEval(root, i, p)
		} else if s.append {
			err = fsutil.AppendLine(p, s.data)
		} else {
			err = fsutil.WriteFileAtomic(p, s.data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", s.rel, err)
		}
	}
	return nil
}

// dryRun copies what validate reads (scratchCopy) to a scratch root,
// validates it, applies the steps there and validates again. Both runs see
// the same scratch tree, so a file left out changes both alike and never
// shows up as an added finding.
func (t *Tx) dryRun() (before, after []Finding, err error) {
	if v := t.env.ValidateOverlay; v != nil {
		// Both runs read one snapshot of eval_log (its size at the start of
		// commit): a line appended meanwhile by a writer that does not take
		// the workspace lock must not count as a finding added by the change.
		size := t.evalSize
		if !t.snapped {
			var err error
			if size, err = evalLogSize(filepath.Join(t.env.Root, filepath.FromSlash(relEvalLog))); err != nil {
				return nil, nil, fmt.Errorf("stage change: %w", err)
			}
		}
		ov, app, err := t.overlay(size)
		if err != nil {
			return nil, nil, fmt.Errorf("stage change: %w", err)
		}
		// the ledger read once for the operation and both runs (an
		// unreadable one: each run reads it itself and reports what it
		// finds)
		ledger, lerr := t.provenance()
		if lerr != nil {
			ledger = nil
		}
		if before, err = v(t.env.Root, nil, nil, size, ledger); err != nil {
			return nil, nil, fmt.Errorf("validate before: %w", err)
		}
		if after, err = v(t.env.Root, ov, app, size, ledger); err != nil {
			return nil, nil, fmt.Errorf("validate after: %w", err)
		}
		return before, after, nil
	}
	tmp, err := os.MkdirTemp("", "harness-tx-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	if err := scratchCopy(t.env.Root, tmp); err != nil {
		return nil, nil, fmt.Errorf("stage change: %w", err)
	}
	before, err = t.env.Validate(tmp)
	if err != nil {
		return nil, nil, fmt.Errorf("validate before: %w", err)
	}
	if err := t.applyScratch(tmp); err != nil {
		return nil, nil, fmt.Errorf("stage change: %w", err)
	}
	after, err = t.env.Validate(tmp)
	if err != nil {
		return nil, nil, fmt.Errorf("validate after: %w", err)
	}
	return before, after, nil
}

// snapshotEvalLog takes eval_log.jsonl's size once for the commit
// (Tx.evalSize, Tx.evalEnd), reading only its last byte.
func (t *Tx) snapshotEvalLog() error {
	p := t.env.H("eval_log.jsonl")
	size, err := evalLogSize(p)
	if err != nil {
		return fmt.Errorf("read eval_log: %w", err)
	}
	torn, err := tornLastLine(p, size)
	if err != nil {
		return fmt.Errorf("read eval_log: %w", err)
	}
	t.evalSize, t.evalEnd, t.snapped = size, size, true
	if torn {
		t.evalEnd++ // the append writes a '\n' first
	}
	return nil
}

// overlay is what every file the steps touch would hold after apply: ov
// maps a replaced or removed file (slash path relative to the root → bytes,
// nil = removed) to its content, app maps a file that is only appended to
// (eval_log.jsonl) to the bytes fsutil.AppendLine would add (a '\n' before
// the first line when the file ends in a torn line, and after each line
// missing one), so the dry run never copies the log. A file that is both
// replaced and appended to is computed whole into ov. evalSize is the
// dry run's eval_log snapshot (its appends follow byte evalSize).
func (t *Tx) overlay(evalSize int64) (ov, app map[string][]byte, err error) {
	ov = map[string][]byte{}
	app = map[string][]byte{}
	for _, s := range t.steps {
		switch {
		case s.remove:
			ov[s.rel] = nil
			delete(app, s.rel)
		case !s.append:
			ov[s.rel] = s.data
			delete(app, s.rel)
		default:
			if base, ok := ov[s.rel]; ok {
				ov[s.rel] = appendLine(base, s.data)
				continue
			}
			pending, ok := app[s.rel]
			if !ok {
				size := int64(-1)
				if s.rel == relEvalLog {
					size = evalSize
				}
				torn, err := tornLastLine(filepath.Join(t.env.Root, filepath.FromSlash(s.rel)), size)
				if err != nil {
					return nil, nil, err
				}
				if torn {
					pending = []byte{'\n'}
				}
			}
			app[s.rel] = appendLine(pending, s.data)
		}
	}
	return ov, app, nil
}

// evalLogSize is the size of the eval_log at p now (0 when missing): the
// dry run's snapshot of the log.
func evalLogSize(p string) (int64, error) {
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// appendLine returns base with line appended as fsutil.AppendLine writes it
// (a '\n' first when base does not end in one, a '\n' after the line).
func appendLine(base, line []byte) []byte {
	out := make([]byte, 0, len(base)+len(line)+2)
	out = append(out, base...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, line...)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// tornLastLine reports whether the file at p (its first size bytes; all of
// it when size < 0) exists, is not empty and does not end in '\n' (reading
// only its last byte).
func tornLastLine(p string, size int64) (bool, error) {
	f, st, err := fsutil.OpenRegular(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if size < 0 || size > st.Size() {
		size = st.Size()
	}
	if size == 0 {
		return false, nil
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, size-1); err != nil {
		return false, err
	}
	return b[0] != '\n', nil
}

// applyScratch performs the steps on the throw-away scratch root with plain
// writes: nothing there must survive a crash, so the fsyncs of
// WriteFileAtomic/AppendLine would only cost time.
func (t *Tx) applyScratch(root string) error {
	for _, s := range t.steps {
		p := filepath.Join(root, filepath.FromSlash(s.rel))
		if s.remove {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", s.rel, err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if !s.append {
			if err := os.WriteFile(p, s.data, 0o644); err != nil {
				return fmt.Errorf("write %s: %w", s.rel, err)
			}
			continue
		}
		line := s.data
		if len(line) == 0 || line[len(line)-1] != '\n' {
			line = append(append([]byte{}, line...), '\n')
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("write %s: %w", s.rel, err)
		}
		_, werr := f.Write(line)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return fmt.Errorf("write %s: %w", s.rel, werr)
		}
	}
	return nil
}

// featureRecords are the files of .harness/features/<fid>/ that validate
// and finalize --check read or stat (testdata/sprints/README.md §5 layout.feature-dir-files,
// §6 generator_log).
var featureRecords = []string{"context_snapshot.md", "AGENTS.md", "generator_log.md", "handoff.md", "session_id.txt"}

// scratchCopy copies to dst what `harness validate` and `finalize --check`
// read of the sprint at root, and nothing else:
//   - the regular files directly in .harness/ (state files, eval_log.jsonl,
//     .current_agent, rules.yaml) except lock sidecars, temp files and
//     allow.jsonl;
//   - .harness/logs/ with only the provenance ledger's file (eval_ledger.jsonl)
//     and .harness/features/ as folders, with each feature
//     folder's record files (featureRecords);
//   - every regular file of .harness/sprint_contracts/<sprint>/ (contract.json,
//     tooling.md);
//   - the sprint's own schemas/*.json copies, so the scratch validation makes
//     the same schema choice as `harness validate` on the sprint.
//
// Folders whose names matter to the layout rules (.harness/<fid>/) are made
// empty. Hook logs, feature .claude/ folders and the project files are left
// out: at tens of files this keeps `harness eval append` to a few
// milliseconds instead of copying every log of the sprint.
func scratchCopy(root, dst string) error {
	src := filepath.Join(root, ".harness")
	h := filepath.Join(dst, ".harness")
	for _, d := range []string{"logs", "features", "sprint_contracts"} {
		if err := os.MkdirAll(filepath.Join(h, d), 0o755); err != nil {
			return err
		}
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		switch {
		case e.IsDir():
			if name != "logs" && name != "features" && name != "sprint_contracts" {
				// a misplaced feature folder (.harness/f001/) is a layout finding
				if err := os.MkdirAll(filepath.Join(h, name), 0o755); err != nil {
					return err
				}
			}
		case e.Type().IsRegular() && !skipScratch(name) && name != "allow.jsonl":
			if err := scratchFile(filepath.Join(src, name), filepath.Join(h, name)); err != nil {
				return err
			}
		}
	}
	// the provenance ledger's file is what eval.provenance judges by
	if err := copyIfRegular(filepath.Join(root, filepath.FromSlash(relLedgerFile)), filepath.Join(dst, filepath.FromSlash(relLedgerFile))); err != nil {
		return err
	}
	features, _ := os.ReadDir(filepath.Join(src, "features"))
	for _, f := range features {
		if !f.IsDir() {
			continue
		}
		fsrc, fdst := filepath.Join(src, "features", f.Name()), filepath.Join(h, "features", f.Name())
		if err := os.MkdirAll(fdst, 0o755); err != nil {
			return err
		}
		for _, name := range featureRecords {
			if err := copyIfRegular(filepath.Join(fsrc, name), filepath.Join(fdst, name)); err != nil {
				return err
			}
		}
	}
	contracts, _ := os.ReadDir(filepath.Join(src, "sprint_contracts"))
	for _, c := range contracts {
		if !c.IsDir() {
			continue
		}
		if err := copyDirFiles(filepath.Join(src, "sprint_contracts", c.Name()), filepath.Join(h, "sprint_contracts", c.Name()), nil); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(root, "schemas")); err == nil {
		return copyDirFiles(filepath.Join(root, "schemas"), filepath.Join(dst, "schemas"), func(name string) bool {
			return strings.HasSuffix(name, ".json")
		})
	}
	return nil
}

// skipScratch reports the names never copied: lock sidecars and temp files.
func skipScratch(name string) bool {
	return strings.HasSuffix(name, ".lock") || strings.Contains(name, ".tmp-")
}

// copyDirFiles copies the regular files directly in src that keep accepts
// (nil: all) to dst, creating dst. A missing src is nothing to copy.
func copyDirFiles(src, dst string, keep func(name string) bool) error {
	ents, err := os.ReadDir(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || skipScratch(name) || (keep != nil && !keep(name)) {
			continue
		}
		if err := scratchFile(filepath.Join(src, name), filepath.Join(dst, name)); err != nil {
			return err
		}
	}
	return nil
}

// copyIfRegular copies src when it is a regular file; a missing file or any
// other kind (a FIFO the Generator planted) is left out, as in the folder
// copies.
func copyIfRegular(src, dst string) error {
	err := scratchFile(src, dst)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fsutil.ErrNotRegular) {
		return nil
	}
	return err
}

// scratchFile copies the regular file src to dst for a dry run: read once
// through fsutil.ReadRegular (a FIFO is refused, never waited on), written
// without fsync or timestamps, which no validate rule on these files reads.
func scratchFile(src, dst string) error {
	data, err := workspace.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

func copyFile(src, dst string) error {
	in, _, err := fsutil.OpenRegular(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(dst, st.ModTime(), st.ModTime())
}

func errorsOnly(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Severity != "info" {
			out = append(out, f)
		}
	}
	return out
}

// addedFindings returns the error findings of after that before does not
// have (as a multiset keyed by rule, file, line, pointer and message).
func addedFindings(before, after []Finding) []Finding {
	count := map[string]int{}
	for _, f := range before {
		count[f.key()]++
	}
	var out []Finding
	for _, f := range after {
		if f.Severity == "info" {
			continue
		}
		if count[f.key()] > 0 {
			count[f.key()]--
			continue
		}
		out = append(out, f)
	}
	return out
}

// pendingEvalGate refuses a Hermes state change while
// hermes_context_state.pending_eval is set (docs/protocol.md §8.2: after a
// Hermes Reset the pending verdict is applied first): only `harness reset
// resume`, which applies it to the phase it was meant for, runs. A
// Generator's own eval append is not Hermes's and is not held back.
func (e *Env) pendingEvalGate(cmd string) error {
	if cmd == "reset resume" || e.inGenerator() {
		return nil
	}
	hc, err := e.readObj("hermes_context_state.json")
	if err != nil {
		return nil // validate reports a missing or broken state file
	}
	pe := hc.ObjAt("pending_eval")
	if pe == nil {
		return nil
	}
	at := ""
	if p, ok := pe.Int("phase"); ok {
		at = fmt.Sprintf(" phase=%d", p)
	}
	return refuse("refused: a Hermes Reset left a pending verdict (hermes_context_state.pending_eval: %s%s %s); run `harness reset resume` first, which applies it, before `harness %s`",
		pe.Str("feature_id"), at, pe.Str("eval_decision"), cmd)
}

// readObj reads and parses one JSON state file under .harness.
func (e *Env) readObj(parts ...string) (*Obj, error) {
	p := e.H(parts...)
	data, err := workspace.ReadFile(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, refuse("%s is missing", relH(parts...))
		}
		return nil, err
	}
	o, err := parseObj(data)
	if err != nil {
		return nil, refuse("%s does not parse: %v", relH(parts...), err)
	}
	return o, nil
}

func relH(parts ...string) string { return ".harness/" + strings.Join(parts, "/") }

// hermesOnly refuses a state-changing command in a Generator session
// (Env.Feature set): defense in depth behind the hook's harness_admin family
// (§1.1). A Generator changes no state but its own eval entries (and phase
// complete, which is not an ops command).
func (e *Env) hermesOnly(cmd string) error {
	if e == nil || !e.inGenerator() {
		return nil
	}
	who := "FEATURE_ID=" + e.Feature
	if e.Feature == "" {
		who = "CLAUDECODE=1"
	}
	return refuse("refused: `harness %s` is Hermes's; this is a Generator session (%s), which may only run eval append and phase complete (docs/protocol.md §1.1)", cmd, who)
}

// inGenerator reports whether the command runs in a Generator session.
func (e *Env) inGenerator() bool { return e.Feature != "" || e.Generator }
