package workspace

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/superagent-harness/harness/internal/digest"
	"github.com/superagent-harness/harness/internal/fsutil"
)

// HermesOnlyFields are the eval_log fields only Hermes writes (docs/protocol.md
// §3.6, §1): a Generator's entry never carries them.
var HermesOnlyFields = []string{"decision", "checkpoint_id", "checkpoint_type", "blockers_resolved", "user_reply_raw",
	"supersedes_line", "yolo_context", "revoked_from", "revoke_reason", "task_id", "agent", "pending_eval_recovered",
	"pending_checkpoints_recovered"}

// GeneratorEvents are the event types a Generator may append (through
// `harness eval append` in its session): the end of a phase and a retry
// asking for a new tool (§4.7, §7).
var GeneratorEvents = []string{EventPhaseEvaluation, EventRetry}

// LedgerKey is the member of hermes_context_state.json that holds the
// ledger (proposed, docs/protocol.md §3.7).
const LedgerKey = "eval_log_ledger"

// LedgerFile is the provenance ledger's append-only file, relative to
// .harness/ (docs/protocol.md §3.7): one {"at": offset, "sha256": LineHash}
// per line, in the order the eval_log lines were appended. It is used when
// eval_log_ledger carries "format": LedgerFormatFile; without it the entries
// are eval_log_ledger.lines (the inline format, still read; the next Hermes
// operation moves them to the file).
const LedgerFile = "logs/eval_ledger.jsonl"

// LedgerFormatFile is eval_log_ledger.format of a ledger kept in LedgerFile.
const LedgerFormatFile = 2

// LineHash is the record of one eval_log line kept by the ledgers: the
// first 8 bytes of the SHA-256 of the line without its '\n', in hex.
func LineHash(line []byte) string {
	return digest.Hex(digest.Sum256(bytes.TrimSuffix(line, []byte("\n"))), 8)
}

// Provenance says who may have written each line of eval_log.jsonl, from
// Hermes-side state only (docs/protocol.md §16 "Authority"):
//
//   - hermes_context_state.json eval_log_ledger {"since": N, "format": 2}
//     and .harness/logs/eval_ledger.jsonl (LedgerFile), one {"at": offset,
//     "sha256": LineHash} per line (or, inline format, eval_log_ledger
//     "lines": [those entries]): every line a Hermes-side harness command
//     appended, written in the same transaction as the line;
//   - claude_code_context_state.json <fid>.resets[].eval_at/eval_sha256:
//     the reset entries the Stop hook appended for an accepted Reset.
//
// A line recorded in either is Hermes's (its decisions count). Any other
// line starting at or after "since" was appended by something else, so it
// can only be a Generator's entry, which `harness eval append` restricts to
// its own phase_evaluation or retry without Hermes-only fields
// (GeneratorShaped): a line that does not fit is forged and every reader
// ignores it (validate reports eval.provenance). Lines before "since"
// predate the ledger (a sprint written before harness kept one) and are
// taken as written; so is every line of a sprint without a ledger.
type Provenance struct {
	// Known is true when the sprint keeps a ledger.
	Known bool
	// Since is the byte offset from which lines are recorded.
	Since int64
	// InFile is true when the ledger's entries are kept in LedgerFile
	// (eval_log_ledger.format LedgerFormatFile): SetLedgerFile loads them.
	InFile bool
	// hermes holds the Hermes ledger's entries sorted by offset, one per
	// offset (the last one read of an offset wins).
	hermes []ledgerEnt
	hook   map[int64]string
	// sorted is KeyBefore's layout of the entries (keyBase); nil until it
	// first runs after a change.
	sorted *keyBase
	// chain holds KeyBefore's chained digests of the Hermes entries
	// (extendChain): chain[j] covers the first j*keyChunk entries. Only
	// its first chainValid elements are current.
	chain      [][32]byte
	chainValid int
	// torn is true when the ledger file read last (ReadLedgerFile) ended
	// in a line without '\n'.
	torn bool
}

// Verdict is what Provenance says of one line.
type Verdict int

// The verdicts of Provenance.Of.
const (
	// Legacy: the sprint keeps no ledger, or the line predates it.
	Legacy Verdict = iota
	// Hermes: the line is in a ledger (written by a Hermes-side command or
	// by the Stop hook's Reset bookkeeping).
	Hermes
	// Generator: not in a ledger, and shaped as a Generator may write it:
	// evidence, never a Hermes decision.
	Generator
	// Forged: not in a ledger, and not something a Generator may write.
	Forged
)

// Of returns the verdict on the line starting at byte offset at (line
// without its '\n', e its decoded entry or nil when it is not JSON) and,
// for Forged, why.
func (p *Provenance) Of(at int64, line []byte, e *EvalEntry) (Verdict, string) {
	if p == nil || !p.Known || at < p.Since {
		return Legacy, ""
	}
	if p.ledgered(at, line) {
		return Hermes, ""
	}
	if e == nil {
		return Generator, "" // not an entry at all: eval.jsonl-parse reports it
	}
	if ok, why := GeneratorShaped(e); !ok {
		return Forged, why
	}
	return Generator, ""
}

// OfFlat is Of for a line of the fixed shape (DecodeEvalFlat into f).
func (p *Provenance) OfFlat(at int64, line []byte, f *FlatEntry) (Verdict, string) {
	if p == nil || !p.Known || at < p.Since {
		return Legacy, ""
	}
	if p.ledgered(at, line) {
		return Hermes, ""
	}
	var gen any
	if g, ok := f.Str(FlatGenerator); ok {
		gen = g
	}
	if ok, why := generatorShaped(f.Val[FlatEventType], f.Val[FlatFeatureID], f.HasName, f.Has(FlatGenerator), gen); !ok {
		return Forged, why
	}
	return Generator, ""
}

// ledgered reports whether a ledger records the line at offset at.
func (p *Provenance) ledgered(at int64, line []byte) bool {
	i := findEnt(p.hermes, at)
	hk, inHook := p.hook[at]
	if i < 0 && !inHook {
		return false
	}
	sum := digest.Sum256(bytes.TrimSuffix(line, []byte("\n")))
	if i >= 0 && p.hermes[i].matches(&sum) {
		return true
	}
	return inHook && hk == digest.Hex(sum, 8)
}

// setHermes replaces the Hermes entries with ents (in the order read).
func (p *Provenance) setHermes(ents []ledgerEnt) {
	p.hermes, _ = mergeEnts(nil, ents)
	p.sorted, p.chainValid = nil, 0
}

// addHermes adds ents (in the order read) to the Hermes entries, each
// replacing an earlier one at its offset.
func (p *Provenance) addHermes(ents []ledgerEnt) {
	var changed int
	p.hermes, changed = mergeEnts(p.hermes, ents)
	p.sorted = nil
	p.chainValid = min(p.chainValid, changed/keyChunk+1)
}

// Trusted reports whether a reader may use the line: not Forged.
func (p *Provenance) Trusted(at int64, line []byte, e *EvalEntry) bool {
	v, _ := p.Of(at, line, e)
	return v != Forged
}

// GeneratorShaped reports whether e is an entry a Generator may append:
// event_type phase_evaluation or retry, its feature_id set, no Hermes-only
// field, and generator absent or "claude-code". why names the first
// mismatch.
func GeneratorShaped(e *EvalEntry) (bool, string) {
	g, hasGen := e.Fields["generator"]
	return generatorShaped(e.EventType(), e.FeatureID(), e.Has, hasGen, g)
}

// generatorShaped is GeneratorShaped of an entry with event_type ev,
// feature_id fid ("" when absent or not a string), has telling which
// members are present, and generator gen when hasGen.
func generatorShaped(ev, fid string, has func(string) bool, hasGen bool, gen any) (bool, string) {
	if ev != EventPhaseEvaluation && ev != EventRetry {
		return false, fmt.Sprintf("event_type %q is Hermes's (a Generator appends only phase_evaluation and retry)", ev)
	}
	if fid == "" {
		return false, "a sprint-level entry (no feature_id) is Hermes's"
	}
	for _, k := range HermesOnlyFields {
		if has(k) {
			return false, k + " is written by Hermes only"
		}
	}
	if hasGen {
		if s, _ := gen.(string); s != "claude-code" {
			return false, fmt.Sprintf("generator %v claims a writer other than the feature's Generator (claude-code)", gen)
		}
	}
	return true, ""
}

// LoadProvenance reads the two ledgers (hermes_context_state.json and
// claude_code_context_state.json). A missing or unparsable
// hermes_context_state.json, or one without eval_log_ledger, is a sprint
// without a ledger (Known false; validate reports the file's own problems).
func (w *Workspace) LoadProvenance() (*Provenance, error) {
	p := &Provenance{}
	data, err := fsutil.ReadRegular(w.HermesContext(), fsutil.CapState)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err == nil {
		// the members are split, not decoded: the ledger is the file's
		// bulk, and SetLedger decodes it once
		if hc, perr := ParseObject(data); perr == nil {
			raw, _ := hc.Raw(LedgerKey)
			p.SetLedger(raw)
		}
	}
	if !p.Known {
		return p, nil
	}
	if p.InFile {
		if err := w.ReadLedger(p, nil, true); err != nil {
			return nil, err
		}
	}
	if all, err := w.LoadContextStates(); err == nil {
		for _, cs := range all.Entries {
			p.AddResets(cs.Resets)
		}
	}
	return p, nil
}

// ReadLedger reads the workspace's LedgerFile into p (InFile) through its
// cache (Provenance.ReadLedgerFile, LedgerCacheFile; write: the cache may
// be rewritten), app appended after the file's bytes: LoadProvenance's
// read, and validate's of the dry run's ledger. A missing file has no
// entries; one over fsutil.CapLog, a FIFO or a read error is the error.
func (w *Workspace) ReadLedger(p *Provenance, app []byte, write bool) error {
	f, st, err := fsutil.OpenRegular(w.h(filepath.FromSlash(LedgerFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return p.ReadLedgerFile(bytes.NewReader(nil), 0, app, "", false)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if st.Size() > fsutil.CapLog {
		return &fsutil.TooLargeError{Path: f.Name(), Size: st.Size(), Cap: fsutil.CapLog}
	}
	return p.ReadLedgerFile(f, st.Size(), app, w.h(filepath.FromSlash(LedgerCacheFile)), write)
}

// SetLedger loads the eval_log_ledger member (raw JSON; nil or malformed:
// no ledger).
func (p *Provenance) SetLedger(raw json.RawMessage) {
	var led struct {
		Since  *int64           `json:"since"`
		Format *json.RawMessage `json:"format"`
		Lines  []struct {
			At     int64  `json:"at"`
			SHA256 string `json:"sha256"`
		} `json:"lines"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &led) != nil || led.Since == nil || *led.Since < 0 {
		return
	}
	p.Known, p.Since = true, *led.Since
	p.InFile = led.Format != nil && string(bytes.TrimSpace(*led.Format)) == strconv.Itoa(LedgerFormatFile)
	ents := make([]ledgerEnt, len(led.Lines))
	for i, l := range led.Lines {
		ents[i] = newLedgerEnt(l.At, []byte(l.SHA256))
	}
	p.setHermes(ents)
}

// SetLedgerValue is SetLedger of the member already decoded (v made of
// map[string]any, []any, json.Number, string, bool and nil, as
// encoding/json decodes with UseNumber): the ledger as harness writes it
// ({"since": N, "lines": [{"at": N, "sha256": "…"}]}) is read from v
// directly; any other shape is encoded again and read by SetLedger, so the
// two agree on every value (TestSetLedgerValueAgreesWithSetLedger).
func (p *Provenance) SetLedgerValue(v any) {
	if v == nil {
		return
	}
	if since, lines, inFile, ok := ledgerValue(v); ok {
		if since < 0 {
			return
		}
		p.Known, p.Since, p.InFile = true, since, inFile
		ents := make([]ledgerEnt, len(lines))
		for i, l := range lines {
			ents[i] = newLedgerEnt(l.at, []byte(l.sha))
		}
		p.setHermes(ents)
		return
	}
	if raw, err := json.Marshal(v); err == nil {
		p.SetLedger(raw)
	}
}

type ledgerEntry struct {
	at  int64
	sha string
}

// ledgerValue reads v as SetLedger's struct would be filled, when v has
// the plain shape: an object whose members named like since/lines
// (encoding/json matches names case-insensitively) are exactly "since", an
// integer, and "lines", an array (or null) of objects whose "at" is an
// integer and "sha256" a string, and "format", when present, an integer
// (inFile: it is LedgerFormatFile). ok false: not that shape (SetLedger
// decides).
func ledgerValue(v any) (since int64, lines []ledgerEntry, inFile, ok bool) {
	m, isObj := v.(map[string]any)
	if !isObj {
		return 0, nil, false, false
	}
	haveSince := false
	for k, x := range m {
		switch {
		case k == "since":
			n, isNum := x.(json.Number)
			if !isNum {
				return 0, nil, false, false
			}
			i, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil {
				return 0, nil, false, false
			}
			since, haveSince = i, true
		case k == "format":
			n, isNum := x.(json.Number)
			if !isNum {
				return 0, nil, false, false
			}
			inFile = string(n) == strconv.Itoa(LedgerFormatFile)
		case k == "lines":
			if x == nil {
				continue
			}
			arr, isArr := x.([]any)
			if !isArr {
				return 0, nil, false, false
			}
			lines = make([]ledgerEntry, 0, len(arr))
			for _, it := range arr {
				e, ok := ledgerEntryValue(it)
				if !ok {
					return 0, nil, false, false
				}
				lines = append(lines, e)
			}
		case strings.EqualFold(k, "since"), strings.EqualFold(k, "lines"), strings.EqualFold(k, "format"):
			return 0, nil, false, false
		}
	}
	return since, lines, inFile, haveSince
}

// ledgerEntryValue is one element of ledgerValue's lines.
func ledgerEntryValue(it any) (ledgerEntry, bool) {
	m, ok := it.(map[string]any)
	if !ok {
		return ledgerEntry{}, false
	}
	var e ledgerEntry
	for k, x := range m {
		switch {
		case k == "at":
			n, isNum := x.(json.Number)
			if !isNum {
				return e, false
			}
			i, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil {
				return e, false
			}
			e.at = i
		case k == "sha256":
			s, isStr := x.(string)
			if !isStr {
				return e, false
			}
			e.sha = s
		case strings.EqualFold(k, "at"), strings.EqualFold(k, "sha256"):
			return e, false
		}
	}
	return e, true
}

// SetLedgerFile adds the entries of the ledger file (LedgerFile's bytes,
// nil when it is missing) to a ledger of the file format (InFile): one JSON
// object {"at": offset, "sha256": LineHash} per line. A line that is not
// such an object (torn by a crash, or foreign) records nothing, so it can
// only make a line less trusted. An inline "lines" array read before is
// kept: both are read, as during the move from one format to the other.
func (p *Provenance) SetLedgerFile(data []byte) {
	if !p.Known {
		return
	}
	p.addHermes(parseLedgerEnts(data, nil))
}

// parseLedgerEnts appends to ents the entries of the ledger file's bytes
// data, in file order (ParseLedgerLine; a line that is no entry adds
// nothing).
func parseLedgerEnts(data []byte, ents []ledgerEnt) []ledgerEnt {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if at, sha, ok := parseLedgerLine(line); ok {
			ents = append(ents, newLedgerEnt(at, sha))
		}
	}
	return ents
}

// ParseLedgerLine reads one line of LedgerFile (without its '\n'): the
// shape harness writes ({"at":N,"sha256":"…"}) is read directly, any other
// is decoded as SetLedger decodes an inline entry. ok false: not an object
// with an integer "at".
func ParseLedgerLine(line []byte) (at int64, sha string, ok bool) {
	at, h, ok := parseLedgerLine(line)
	return at, string(h), ok
}

// parseLedgerLine is ParseLedgerLine with the hash as bytes (a slice of
// line for the plain shape).
func parseLedgerLine(line []byte) (at int64, sha []byte, ok bool) {
	line = bytes.TrimSpace(line)
	const pre, mid = `{"at":`, `,"sha256":"`
	if bytes.HasPrefix(line, []byte(pre)) && bytes.HasSuffix(line, []byte(`"}`)) {
		rest := line[len(pre) : len(line)-2]
		if i := bytes.Index(rest, []byte(mid)); i > 0 {
			num, h := rest[:i], rest[i+len(mid):]
			plain := len(num) <= 18 && (num[0] != '0' || len(num) == 1)
			for _, c := range num {
				plain = plain && c >= '0' && c <= '9'
			}
			for _, c := range h {
				plain = plain && c != '"' && c != '\\' && c >= 0x20
			}
			if plain {
				var n int64
				for _, c := range num {
					n = n*10 + int64(c-'0') // at most 18 digits: no overflow
				}
				return n, h, true
			}
		}
	}
	if len(line) == 0 || line[0] != '{' {
		return 0, nil, false
	}
	var e struct {
		At     *int64 `json:"at"`
		SHA256 string `json:"sha256"`
	}
	if json.Unmarshal(line, &e) != nil || e.At == nil {
		return 0, nil, false
	}
	return *e.At, []byte(e.SHA256), true
}

// LedgerLine is the LedgerFile line (without '\n') recording the eval_log
// line that starts at byte offset at with hash sha (LineHash).
func LedgerLine(at int64, sha string) []byte {
	b := append([]byte(`{"at":`), strconv.FormatInt(at, 10)...)
	b = append(b, `,"sha256":"`...)
	b = append(b, sha...)
	return append(b, `"}`...)
}

// AddResets adds the reset eval lines the Stop hook recorded.
func (p *Provenance) AddResets(rs []ResetRecord) {
	if p.hook == nil {
		p.hook = map[int64]string{}
	}
	p.sorted = nil
	for _, r := range rs {
		if r.EvalAt >= 0 && r.EvalSHA256 != "" {
			p.hook[r.EvalAt] = r.EvalSHA256
		}
	}
}

// Key is a fingerprint of everything Of decides by (whether the sprint
// keeps a ledger, its start, the ledgered lines and the hook's Reset
// lines), for a cache of per-line verdicts: it changes whenever one of them
// does. A nil Provenance has the key of an empty one.
func (p *Provenance) Key() string { return p.KeyBefore(1 << 62) }

// KeyBefore is Key over the lines that start before byte off only: what a
// cache of the log's first off bytes depends on (a line appended later
// adds ledger entries at or after off, which leave it unchanged). It is 16
// hex digits of a SHA-256.
//
// What is hashed: the Hermes entries below off in offset order, each as
// keyEntSize bytes (appendKeyEnts), chained by chunks of keyChunk entries
// from a head of Known and Since (extendChain); the last digest is of the
// chain value of the whole chunks, the number of entries, the rest of
// them, a NUL, the hook's entries below off ("at=sha256\x01" in offset
// order) and a NUL. The chain values are computed once per change (and
// kept by the ledger cache, LoadProvenance), so that a call costs a
// binary search and at most one chunk, not a pass over every entry: the
// folds call it several times per operation.
func (p *Provenance) KeyBefore(off int64) string {
	if p == nil {
		p = &Provenance{}
	}
	kb := p.sorted
	if kb == nil || kb.known != p.Known || kb.since != p.Since {
		kb = p.keyBase()
		p.sorted = kb
	}
	head := keyHead(p.Known, p.Since)
	if p.chainValid == 0 || p.chain[0] != head {
		p.chain, p.chainValid = append(p.chain[:0], head), 1
	}
	if need := len(p.hermes)/keyChunk + 1; p.chainValid < need {
		p.chain = extendChain(p.chain, p.chainValid, p.hermes)
		p.chainValid = len(p.chain)
	}
	k := countBefore(p.hermes, off)
	j := k / keyChunk
	b := make([]byte, 0, 32+8+keyChunk*keyEntSize+2+len(kb.hook))
	b = append(b, p.chain[j][:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(k))
	b = appendKeyEnts(b, p.hermes[j*keyChunk:k])
	b = append(b, 0)
	b = append(b, kb.hook[:ends(kb.hookAt, kb.hookEnd, off)]...)
	return digest.Hex(digest.Sum256(append(b, 0)), 16)
}

// keyBase is KeyBefore's layout of the hook's entries for one state of a
// Provenance: their bytes and the end of each, with their offsets in
// increasing order.
type keyBase struct {
	known   bool
	since   int64
	hook    []byte
	hookAt  []int64
	hookEnd []int
}

func (p *Provenance) keyBase() *keyBase {
	kb := &keyBase{known: p.Known, since: p.Since}
	at := make([]int64, 0, len(p.hook))
	for k := range p.hook {
		at = append(at, k)
	}
	slices.Sort(at)
	end := make([]int, len(at))
	for j, k := range at {
		kb.hook = strconv.AppendInt(kb.hook, k, 10)
		kb.hook = append(kb.hook, '=')
		kb.hook = append(kb.hook, p.hook[k]...)
		kb.hook = append(kb.hook, 1)
		end[j] = len(kb.hook)
	}
	kb.hookAt, kb.hookEnd = at, end
	return kb
}

// ends is the length of the entries (end[i] the end of entry i) whose
// offsets (at, increasing) are below off.
func ends(at []int64, end []int, off int64) int {
	i, _ := slices.BinarySearch(at, off)
	if i == 0 {
		return 0
	}
	return end[i-1]
}
