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

// ledgerPlan is the eval_log_ledger update of one commit: the step that
// rewrites hermes_context_state.json (the last step), the entries it adds
// and, for each, the append step whose line it records.
type ledgerPlan struct {
	step    int    // index of the hermes_context_state.json step
	doc     *Obj   // that file's content, ledger included
	entries []*Obj // the ledger entries added, in step order
	appends []int  // the append step of each entry
}

// addLedger records, in the same transaction, every eval_log line this
// commit appends on behalf of Hermes (workspace.Provenance): one ledger
// entry {at: byte offset where the line starts, sha256: LineHash} per line,
// written as the last step, a rewrite of hermes_context_state.json (after
// the commit's own change of that file, if any). In a Generator session
// nothing is recorded: its lines are evidence. A sprint whose
// hermes_context_state.json cannot be read as an object gets no record (the
// file's own findings are validate's); one without a ledger starts it at
// the current end of eval_log (earlier lines predate it).
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
	led := doc.ObjAt(workspace.LedgerKey)
	if led == nil {
		led = NewObj().With("since", num64(off)).With("lines", []any{})
	}
	plan := &ledgerPlan{doc: doc}
	for _, i := range appends {
		e := NewObj().With("at", num64(off)).With("sha256", workspace.LineHash(t.steps[i].data))
		plan.entries = append(plan.entries, e)
		plan.appends = append(plan.appends, i)
		off += int64(len(t.steps[i].data)) + 1
	}
	if prior, ok := rawArray(led); ok {
		// the entries already written stay the bytes they were read as:
		// decoding and encoding each again cost ~25 µs per entry on every
		// Hermes operation (docs/performance.md)
		led.With("lines", ledgerLines{prior: prior, added: plan.entries})
	} else {
		lines := led.Arr("lines")
		for _, e := range plan.entries {
			lines = append(lines, e)
		}
		led.With("lines", lines)
	}
	doc.With(workspace.LedgerKey, led)
	if err := t.WriteJSON(relHermesCtx, doc); err != nil {
		return err
	}
	plan.step = len(t.steps) - 1
	t.ledger = plan
	return nil
}

// rawArray returns the "lines" member of led as read, when it is an array
// not yet decoded (members of a parsed object are valid JSON), without its
// closing bracket.
func rawArray(led *Obj) ([]byte, bool) {
	raw, ok := led.Raw("lines")
	if !ok {
		return nil, false
	}
	t := bytes.TrimSpace(raw)
	if len(t) >= 2 && t[0] == '[' && t[len(t)-1] == ']' {
		return t[:len(t)-1], true
	}
	return nil, false
}

// ledgerLines is the "lines" array of a ledger extended by this commit:
// the earlier entries as read (prior, the array's bytes without its closing
// bracket) and the entries added, which appendEval may still correct.
type ledgerLines struct {
	prior []byte
	added []*Obj
}

// MarshalJSON writes prior's entries, then added's.
func (l ledgerLines) MarshalJSON() ([]byte, error) {
	b := append([]byte(nil), l.prior...)
	empty := len(bytes.TrimSpace(b[1:])) == 0
	for _, e := range l.added {
		eb, err := workspace.MarshalLine(e)
		if err != nil {
			return nil, err
		}
		if !empty {
			b = append(b, ',')
		}
		b, empty = append(b, eb...), false
	}
	return append(b, ']'), nil
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
// that takes no lock), the planned ledger is corrected before it is
// written.
func (t *Tx) appendEval(root string, i int, p string) error {
	at, err := fsutil.AppendLineAtWithin(p, t.steps[i].data, fsutil.LockTimeout)
	if err != nil || t.ledger == nil {
		return err
	}
	for k, a := range t.ledger.appends {
		if a != i {
			continue
		}
		if cur, _ := t.ledger.entries[k].Int("at"); int64(cur) != at {
			t.ledger.entries[k].With("at", num64(at))
			data, err := workspace.MarshalIndent(t.ledger.doc)
			if err != nil {
				return err
			}
			t.steps[t.ledger.step].data = data
		}
	}
	return nil
}

// num64 is an int64 as a JSON number.
func num64(i int64) json.Number { return json.Number(strconv.FormatInt(i, 10)) }
