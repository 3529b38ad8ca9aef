package workspace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// Event types of eval_log (docs/protocol.md §3.6).
const (
	EventPhaseEvaluation = "phase_evaluation"
	EventCheckpoint      = "checkpoint"
	EventRetry           = "retry"
	EventFail            = "fail"
	EventYoloEnter       = "yolo_enter"
	EventYoloAbort       = "yolo_abort"
	EventReset           = "reset"
)

// EvalEntry is one eval_log.jsonl object (docs/protocol.md §3.6), kept as the
// decoded map (numbers as json.Number) so that nothing is lost, with typed
// accessors for the fields the rules read.
type EvalEntry struct {
	// Line is the 1-based physical line number in eval_log.jsonl.
	Line int
	// At is the byte offset of the line's first byte in eval_log.jsonl
	// (what the provenance ledgers record; -1 when unknown).
	At int64
	// Fields is the decoded object; numbers are json.Number.
	Fields map[string]any
}

// Has reports whether key is present (even when null).
func (e *EvalEntry) Has(key string) bool { _, ok := e.Fields[key]; return ok }

// Str returns the value of key when it is a JSON string.
func (e *EvalEntry) Str(key string) (string, bool) {
	s, ok := e.Fields[key].(string)
	return s, ok
}

// S returns the string value of key, or "" when absent or not a string.
func (e *EvalEntry) S(key string) string { s, _ := e.Str(key); return s }

// Int returns the value of key when it is a JSON number with an integral
// value (1 and 1.0 both count; "1" does not).
func (e *EvalEntry) Int(key string) (int, bool) {
	n, ok := e.Fields[key].(json.Number)
	if !ok {
		return 0, false
	}
	return NumberInt(n)
}

// NumberInt is the value of the JSON number n when it is integral (1 and
// 1.0 both count), as EvalEntry.Int reads it.
func NumberInt(n json.Number) (int, bool) {
	if i, err := n.Int64(); err == nil {
		return int(i), true
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return 0, false
	}
	return int(f), true
}

// Timestamp is the `timestamp` string ("" when missing).
func (e *EvalEntry) Timestamp() string { return e.S("timestamp") }

// SprintID is `sprint_id`.
func (e *EvalEntry) SprintID() string { return e.S("sprint_id") }

// EventType is `event_type`.
func (e *EvalEntry) EventType() string { return e.S("event_type") }

// FeatureID is `feature_id`.
func (e *EvalEntry) FeatureID() string { return e.S("feature_id") }

// Phase is `phase` when it is a JSON integer.
func (e *EvalEntry) Phase() (int, bool) { return e.Int("phase") }

// Result is `result`.
func (e *EvalEntry) Result() string { return e.S("result") }

// Reason returns `reason` and whether it is present as a string.
func (e *EvalEntry) Reason() (string, bool) { return e.Str("reason") }

// Decision is `decision` ("" when null or missing).
func (e *EvalEntry) Decision() string { return e.S("decision") }

// CheckpointID is `checkpoint_id`.
func (e *EvalEntry) CheckpointID() string { return e.S("checkpoint_id") }

// CheckpointType is `checkpoint_type`.
func (e *EvalEntry) CheckpointType() string { return e.S("checkpoint_type") }

// Commit is `commit` ("" when null or missing).
func (e *EvalEntry) Commit() string { return e.S("commit") }

// SupersedesLine is `supersedes_line` when it is a JSON integer (proposed
// field, testdata/sprints/README.md §4 "Correction").
func (e *EvalEntry) SupersedesLine() (int, bool) { return e.Int("supersedes_line") }

// IsCorrection reports whether the entry is a valid correction (补录) of an
// earlier line: integer supersedes_line N with 1 ≤ N < Line, and a reason
// starting (after trimming) with "补录:" or "补录：" (testdata/sprints/README.md §4).
func (e *EvalEntry) IsCorrection() bool {
	n, ok := e.SupersedesLine()
	if !ok || n < 1 || n >= e.Line {
		return false
	}
	r, _ := e.Reason()
	r = strings.TrimSpace(r)
	return strings.HasPrefix(r, "补录:") || strings.HasPrefix(r, "补录：")
}

// AcceptanceResults returns the acceptance_results array, whether present
// and an array.
func (e *EvalEntry) AcceptanceResults() ([]any, bool) {
	a, ok := e.Fields["acceptance_results"].([]any)
	return a, ok
}

// EvalLine is one physical line of eval_log.jsonl.
type EvalLine struct {
	// Line is the 1-based physical line number.
	Line int
	// At is the byte offset of the line's first byte.
	At int64
	// Text is the line without its line terminator.
	Text string
	// Blank is true for an empty or whitespace-only line (ignored, D26).
	Blank bool
	// Entry is the decoded object, nil when blank or unparsable.
	Entry *EvalEntry
	// Err says why a non-blank line is not one JSON object.
	Err error
}

// ReadEvalLog reads eval_log.jsonl keeping every physical line with its
// number; a parse failure is recorded on the line, not returned. The error is
// only for I/O (fs.ErrNotExist, wrapped, when the file is missing;
// *fsutil.NotRegularError when it is a FIFO, directory or device).
func ReadEvalLog(path string) ([]EvalLine, error) {
	data, err := fsutil.ReadRegular(path, fsutil.CapLog)
	if err != nil {
		return nil, err
	}
	return ParseEvalLog(data), nil
}

// ParseEvalLog splits data into physical lines ('\n'; a trailing '\r' is
// dropped) and decodes each non-blank one. A final line without '\n' counts.
func ParseEvalLog(data []byte) []EvalLine { return ParseEvalLogFunc(data, nil) }

// ParseEvalLogFunc is ParseEvalLog that decodes only the non-blank lines for
// which want returns true (want nil: all); the others are kept with Entry
// nil and Err nil, so line numbers stay physical. Stop uses it to skip the
// lines that cannot concern its feature.
func ParseEvalLogFunc(data []byte, want func(line []byte) bool) []EvalLine {
	var out []EvalLine
	n := 0
	var pos int64
	for len(data) > 0 {
		n++
		at := pos
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
			pos += int64(i) + 1
		} else {
			line, data = data, nil
			pos += int64(len(line))
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		l := EvalLine{Line: n, Text: string(line)}
		if len(bytes.TrimSpace(line)) == 0 {
			l.Blank = true
		} else if len(line) > fsutil.CapLine {
			l.Text = ""
			l.Err = fmt.Errorf("line of %s, over the %s cap of one eval_log line; not read", fsutil.Bytes(int64(len(line))), fsutil.Bytes(fsutil.CapLine))
		} else if want != nil && !want(line) {
			// skipped by the caller's filter
		} else if m, err := decodeObject(line); err != nil {
			l.Err = err
		} else {
			l.Entry = &EvalEntry{Line: n, At: at, Fields: m}
		}
		l.At = at
		out = append(out, l)
	}
	return out
}

// ScanEvalLog streams the eval_log.jsonl at path through a 64 KB buffer and
// returns, in file order, the decoded entries of the non-blank lines for
// which want returns true (want nil: all), each with its physical line
// number. It equals Entries(ParseEvalLogFunc(data, want)) on the file's
// bytes without holding the file or a copy of every line in memory: skipped,
// blank and undecodable lines leave nothing behind (the Stop hook reads a
// 100,000-line eval_log in a few MB). want sees the line without its '\n'
// and trailing '\r' and must not keep it. The error is from opening or
// reading the file (wrapping fs.ErrNotExist when it is missing,
// fsutil.ErrNotRegular when it is not a regular file; opening never blocks).
func ScanEvalLog(path string, want func(line []byte) bool) ([]*EvalEntry, error) {
	return ScanEvalLogTrusted(path, want, nil, nil)
}

// ScanEvalLogTrusted is ScanEvalLog leaving out the entries prov says are
// Forged (prov nil: none); each one left out is appended to *ignored when
// ignored is not nil, so the caller can say what it ignored.
func ScanEvalLogTrusted(path string, want func(line []byte) bool, prov *Provenance, ignored *[]*EvalEntry) ([]*EvalEntry, error) {
	f, st, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > fsutil.CapLog {
		return nil, &fsutil.TooLargeError{Path: path, Size: st.Size(), Cap: fsutil.CapLog}
	}
	var out []*EvalEntry
	err = EachEvalLineAt(f, fsutil.CapLine, func(n int, at int64, line []byte) {
		if len(bytes.TrimSpace(line)) > 0 && (want == nil || want(line)) {
			if m, derr := decodeObject(line); derr == nil {
				e := &EvalEntry{Line: n, At: at, Fields: m}
				if prov == nil || prov.Trusted(at, line, e) {
					out = append(out, e)
				} else if ignored != nil {
					*ignored = append(*ignored, e)
				}
			}
		}
	}, nil)
	return out, err
}

// EachEvalLine streams r through a 64 KB buffer and calls fn with every
// physical line of eval_log.jsonl as ParseEvalLog splits them: 1-based
// number n, the line without its '\n' and one trailing '\r' (a final line
// without '\n' counts). line is only valid during the call. A line longer
// than fsutil.CapLine is never assembled in memory: fn is not called for it
// (its number still counts; EachEvalLineCapped reports it). The error is
// the reader's (io.EOF is not an error).
func EachEvalLine(r io.Reader, fn func(n int, line []byte)) error {
	return EachEvalLineCapped(r, fsutil.CapLine, fn, nil)
}

// EachEvalLineCapped is EachEvalLine with the line cap max: for a line of
// more than max bytes (terminator excluded) tooLong(n, size) is called
// instead of fn (tooLong nil: the line is skipped), after reading past it
// with no more than the 64 KB buffer in memory.
func EachEvalLineCapped(r io.Reader, max int, fn func(n int, line []byte), tooLong func(n int, size int64)) error {
	var over func(n int, at, size int64)
	if tooLong != nil {
		over = func(n int, _, size int64) { tooLong(n, size) }
	}
	return EachEvalLineAt(r, max, func(n int, _ int64, line []byte) { fn(n, line) }, over)
}

// EachEvalLineAt is EachEvalLineCapped that also passes the byte offset at
// which each line starts (what the provenance ledgers record).
func EachEvalLineAt(r io.Reader, max int, fn func(n int, at int64, line []byte), tooLong func(n int, at, size int64)) error {
	return EachEvalLineFull(r, max, func(n int, at int64, line []byte, _ int, _ bool) { fn(n, at, line) },
		func(n int, at, size int64, _ int, _ bool) {
			if tooLong != nil {
				tooLong(n, at, size)
			}
		})
}

// EachEvalLineRaw is EachEvalLine that also reports, for each line, how
// many bytes of r it took (rawLen: the line, its '\r' and its '\n') and
// whether it ended with '\n' (terminated is false only for a final line
// without one), so that a caller can remember the offset of the last
// complete line (records.FeatureState). A line over fsutil.CapLine is
// passed as nil (never assembled), with its true rawLen.
func EachEvalLineRaw(r io.Reader, fn func(n int, line []byte, rawLen int, terminated bool)) error {
	return EachEvalLineFull(r, fsutil.CapLine, func(n int, _ int64, line []byte, raw int, term bool) { fn(n, line, raw, term) },
		func(n int, _, _ int64, raw int, term bool) { fn(n, nil, raw, term) })
}

// EachEvalLineFull is the one line splitter under the others: fn gets every
// line of at most max bytes with its number, start offset, raw length and
// whether it ended in '\n'; tooLong gets a longer one (size: its bytes
// without the '\n'), which is read past with no more than the 64 KB buffer
// in memory.
func EachEvalLineFull(r io.Reader, max int, fn func(n int, at int64, line []byte, rawLen int, terminated bool), tooLong func(n int, at, size int64, rawLen int, terminated bool)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than the buffer, assembled
	var size int64  // bytes of the current line so far
	var pos int64   // offset of the current line's first byte
	over := false   // the current line passed max: no longer assembled
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			size += int64(len(chunk))
			if !over && size > int64(max) {
				over, long = true, long[:0]
			}
			if !over {
				long = append(long, chunk...)
			}
			continue
		}
		size += int64(len(chunk))
		line := chunk
		if len(long) > 0 && !over {
			long = append(long, chunk...)
			line = long
		}
		if size > 0 {
			n++
			raw := int(size)
			terminated := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
			line = bytes.TrimSuffix(line, []byte("\n"))
			line = bytes.TrimSuffix(line, []byte("\r"))
			body := size // the line's bytes without its '\n'
			if terminated {
				body--
			}
			switch {
			case over || body > int64(max):
				tooLong(n, pos, body, raw, terminated)
			default:
				fn(n, pos, line, raw, terminated)
			}
		}
		pos += size
		long, size, over = long[:0], 0, false
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// DecodeEvalLine decodes one non-blank eval_log line (as EachEvalLine
// yields it) into its object, numbers as json.Number; the error says why
// the line is not one JSON object (the EvalLine.Err of ParseEvalLog).
func DecodeEvalLine(line []byte) (map[string]any, error) { return decodeObject(line) }

// Entries returns the decoded entries of lines in file order.
func Entries(lines []EvalLine) []*EvalEntry {
	var out []*EvalEntry
	for _, l := range lines {
		if l.Entry != nil {
			out = append(out, l.Entry)
		}
	}
	return out
}

func decodeObject(b []byte) (map[string]any, error) {
	if m, ok := decodeFast(b); ok {
		return m, nil
	}
	return decodeJSON(b)
}

// decodeJSON is decodeObject through encoding/json (the reference decodeFast
// must agree with, and the words of every error).
func decodeJSON(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("trailing data after the JSON object")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return m, nil
}
