package ops

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"strconv"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// relLedgerFile is the provenance ledger's file (workspace.LedgerFile).
const relLedgerFile = ".harness/" + workspace.LedgerFile

// ledgerPlan is the provenance ledger update of one commit: per eval_log
// line appended on behalf of Hermes, its planned offset and hash, the append
// step of the line, and the step that records it: an append of one line to
// the ledger file (lineSteps), or, when this commit starts the file or moves
// an inline ledger into it, one atomic write of the whole file (fileStep:
// prior, the earlier entries, then every added entry).
type ledgerPlan struct {
	ats       []int64
	shas      []string
	appends   []int
	lineSteps []int
	fileStep  int
	prior     []byte
}

// addLedger records, in the same transaction, every eval_log line this
// commit appends on behalf of Hermes (workspace.Provenance): one line
// {"at": byte offset where the line starts, "sha256": LineHash} per line,
// appended to .harness/logs/eval_ledger.jsonl after the eval_log appends
// (docs/protocol.md §3.7), so a Hermes operation's cost does not grow with
// the number of lines already recorded. In a Generator session nothing is
// recorded: its lines are evidence. A sprint whose
// hermes_context_state.json cannot be read as an object gets no record (the
// file's own findings are validate's). One without a ledger starts one at
// the current end of eval_log (earlier lines predate it), in the file
// format; one whose ledger is inline (eval_log_ledger.lines) has it moved
// to the file: the file is written whole (earlier entries, then the new
// ones), then eval_log_ledger becomes {"since", "format": 2, "lines": []}.
func (t *Tx) addLedger() error {
	if t.env.inGenerator() {
		return nil
	}
	var appends []int
	var base []byte
	haveBase := false
	for i, s := range t.steps {
		switch {
		case s.rel == relEvalLog && s.append:
			appends = append(appends, i)
		case s.rel == relHermesCtx && !s.remove && !s.append:
			base, haveBase = s.data, true
		}
	}
	if len(appends) == 0 {
		return nil
	}
	if !haveBase {
		data, err := fsutil.ReadRegular(t.env.H("hermes_context_state.json"), fsutil.CapState)
		if err != nil {
			return nil // missing or unreadable: no ledger in this sprint
		}
		base = data
	}
	doc, err := parseObj(base)
	if err != nil {
		return nil
	}
	off := t.evalEnd
	if !t.snapped {
		var err error
		if off, err = evalLogEnd(t.env.H("eval_log.jsonl")); err != nil {
			return err
		}
	}
	plan := &ledgerPlan{fileStep: -1}
	for _, i := range appends {
		plan.ats = append(plan.ats, off)
		plan.shas = append(plan.shas, workspace.LineHash(t.steps[i].data))
		plan.appends = append(plan.appends, i)
		off += int64(len(t.steps[i].data)) + 1
	}
	raw, _ := doc.Raw(workspace.LedgerKey)
	var cur workspace.Provenance
	cur.SetLedger(raw)
	if cur.Known && cur.InFile {
		for k := range plan.ats {
			t.steps = append(t.steps, step{rel: relLedgerFile, data: workspace.LedgerLine(plan.ats[k], plan.shas[k]), append: true})
			plan.lineSteps = append(plan.lineSteps, len(t.steps)-1)
		}
		t.ledger = plan
		return nil
	}
	since := plan.ats[0]
	if cur.Known {
		since = cur.Since
		prior, err := inlineAsFile(doc.ObjAt(workspace.LedgerKey))
		if err != nil {
			return err
		}
		plan.prior = prior
	}
	t.Write(relLedgerFile, plan.file())
	plan.fileStep = len(t.steps) - 1
	// an empty "lines" stays: a sprint's own copy of the schema from before
	// format 2 requires it (schema.SprintCopies), and readers read both
	doc.With(workspace.LedgerKey, NewObj().With("since", num64(since)).With("format", workspace.LedgerFormatFile).With("lines", []any{}))
	if err := t.WriteJSON(relHermesCtx, doc); err != nil {
		return err
	}
	t.ledger = plan
	return nil
}

// inlineAsFile is the inline ledger's entries (led's "lines") as ledger-file
// lines, each entry compacted as written, in order; nothing when led has no
// array of entries.
func inlineAsFile(led *Obj) ([]byte, error) {
	if led == nil {
		return nil, nil
	}
	raw, ok := led.Raw("lines")
	if !ok {
		return nil, nil
	}
	var entries []json.RawMessage
	if json.Unmarshal(raw, &entries) != nil {
		return nil, nil
	}
	var b bytes.Buffer
	for _, e := range entries {
		if err := json.Compact(&b, e); err != nil {
			return nil, err
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// file is the whole ledger file a fileStep writes: prior, then a line per
// added entry.
func (l *ledgerPlan) file() []byte {
	b := append([]byte(nil), l.prior...)
	for k := range l.ats {
		b = append(append(b, workspace.LedgerLine(l.ats[k], l.shas[k])...), '\n')
	}
	return b
}

// evalLogEnd is the offset at which the next appended eval_log line will
// start: the file's size, plus one when its last byte is not '\n' (the
// append writes one first).
func evalLogEnd(path string) (int64, error) {
	f, st, err := fsutil.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if st.Size() == 0 {
		return 0, nil
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, st.Size()-1); err != nil {
		return 0, err
	}
	if b[0] != '\n' {
		return st.Size() + 1, nil
	}
	return st.Size(), nil
}

// appendEval performs append step i of apply: the line goes to eval_log
// under its lock, and when this commit records it in the ledger at an
// offset other than where it went (a line appended meanwhile by something
// that takes no lock), the planned ledger step is corrected before it is
// written (the ledger steps come after every eval_log append).
func (t *Tx) appendEval(root string, i int, p string) error {
	at, err := fsutil.AppendLineAtWithin(p, t.steps[i].data, fsutil.LockTimeout)
	if err != nil || t.ledger == nil {
		return err
	}
	l := t.ledger
	for k, a := range l.appends {
		if a != i || l.ats[k] == at {
			continue
		}
		l.ats[k] = at
		if l.fileStep >= 0 {
			t.steps[l.fileStep].data = l.file()
		} else {
			t.steps[l.lineSteps[k]].data = workspace.LedgerLine(at, l.shas[k])
		}
	}
	return nil
}

// num64 is an int64 as a JSON number.
func num64(i int64) json.Number { return json.Number(strconv.FormatInt(i, 10)) }
