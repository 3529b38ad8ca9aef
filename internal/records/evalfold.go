package records

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// EvalFold is one incremental fold of eval_log.jsonl into a state S: the
// one way the harness keeps what it reads of the append-only log instead
// of reading the whole file on every call (docs/performance.md "Scaling
// with the sprint's history"). The Stop hook's per-feature state
// (FeatureState) and the operations' view of the log (internal/ops) are
// both folds run by it.
//
// The state after the last complete line is cached in one JSON file
// (Cache) with the log prefix it was folded from: the offset and line
// count, the FNV-1a checksums of the prefix's first and last 4 KB
// (fsutil.PrefixSums), the byte before the offset a '\n', and the
// provenance of the prefix's lines (workspace.Provenance.KeyBefore(offset):
// a ledger entry for a line appended later leaves it unchanged). A call
// folds only the bytes after the cached offset; a cache that does not fit
// (missing, unreadable, another Version or Key, a log rewritten or
// truncated, another provenance) is ignored, the state rebuilt by one full
// scan and the cache rewritten. A final line without '\n' is folded but
// not cached (a writer may be in the middle of it). The cache lives in
// H/logs/cache/, which only harness and harness-hook write; it is never
// authority beyond what the log and the ledgers it is keyed by say.
type EvalFold[S any] struct {
	// Cache is the cache file; "" keeps none.
	Cache string
	// Version changes whenever S or Line change meaning, so that an old
	// cache is rebuilt instead of trusted.
	Version int
	// Key names the context the fold depends on beyond the log prefix and
	// its provenance (e.g. the feature): a cache of another key is rebuilt.
	Key string
	// MaxCache bounds the read of the cache file (bytes).
	MaxCache int64
	// Provenance loads the provenance the lines are judged by, after the
	// log was opened (so a missing log is reported as such first).
	Provenance func() (*workspace.Provenance, error)
	// Clone returns a copy of s that shares nothing Line modifies.
	Clone func(s S) S
	// Line folds physical line n (1-based) starting at byte at into s;
	// line is without its '\n' and one trailing '\r', nil for a line over
	// fsutil.CapLine (never assembled), and only valid during the call.
	// prov is what Provenance returned.
	Line func(s *S, prov *workspace.Provenance, n int, at int64, line []byte)
	// NoCache reads the whole log and neither reads nor writes the cache
	// (the reference the cached path is proven equal to).
	NoCache bool
	// ReadOnly uses a valid cache but never writes one.
	ReadOnly bool
}

// EvalPrefix names the prefix of eval_log.jsonl a cache was made from: the
// one validity check of every eval_log cache (EvalFold's, and validate's
// Options.EvalCache). Version and Key are the cache's own (what it holds
// and the context it was made in), Prov the provenance of the prefix's
// lines (workspace.Provenance.KeyBefore(Offset)), Offset and Lines the
// prefix's bytes (ending in '\n') and physical lines, Head and Tail the
// FNV-1a checksums of its first and last 4 KB (fsutil.PrefixSums), by
// which a log rewritten or truncated instead of appended to is noticed.
type EvalPrefix struct {
	Version int    `json:"version"`
	Key     string `json:"key"`
	Prov    string `json:"provenance"`
	Offset  int64  `json:"offset"`
	Lines   int    `json:"lines"`
	Head    string `json:"head_fnv64a"`
	Tail    string `json:"tail_fnv64a"`
}

// NewEvalPrefix describes the first offset bytes (lines lines) of the log
// f for a cache of the given version and key under prov. The error is f's.
func NewEvalPrefix(f io.ReaderAt, version int, key string, offset int64, lines int, prov *workspace.Provenance) (EvalPrefix, error) {
	p := EvalPrefix{Version: version, Key: key, Prov: prov.KeyBefore(offset), Offset: offset, Lines: lines}
	var err error
	p.Head, p.Tail, err = fsutil.PrefixSums(f, offset)
	return p, err
}

// Fits reports whether p still describes a prefix of the log f of size
// bytes, for a cache of version and key under prov: a non-empty prefix
// within the file, ending in '\n', with the same checksums and the same
// provenance of its lines.
func (p EvalPrefix) Fits(f io.ReaderAt, size int64, version int, key string, prov *workspace.Provenance) bool {
	if p.Version != version || p.Key != key || p.Offset <= 0 || p.Offset > size || p.Lines <= 0 || p.Prov != prov.KeyBefore(p.Offset) {
		return false
	}
	head, tail, err := fsutil.PrefixSums(f, p.Offset)
	if err != nil || head != p.Head || tail != p.Tail {
		return false
	}
	last := make([]byte, 1)
	_, err = f.ReadAt(last, p.Offset-1)
	return err == nil && last[0] == '\n'
}

// WriteEvalCache writes doc as JSON to path atomically
// (fsutil.WriteFileAtomic), creating its directory.
func WriteEvalCache(path string, doc any) error {
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, append(data, '\n'), 0o644)
}

// evalFoldDoc is the cache file of an EvalFold.
type evalFoldDoc[S any] struct {
	EvalPrefix
	State S `json:"state"`
}

// Run folds the eval_log.jsonl at path (its size as of opening; at most
// fsutil.CapLog) and returns the state after every line and the number of
// physical lines (a final line without '\n' counts). The error is from
// opening or reading the log (wrapping fs.ErrNotExist when it is missing,
// fsutil.ErrNotRegular for a FIFO or device, *fsutil.TooLargeError over the
// cap) or from Provenance; a cache that cannot be read or written is
// rebuilt or skipped silently (it is only a cache).
func (fd *EvalFold[S]) Run(path string) (S, int, error) {
	var zero S
	f, st, err := fsutil.OpenRegular(path)
	if err != nil {
		return zero, 0, err
	}
	defer f.Close()
	size := st.Size()
	if size > fsutil.CapLog {
		return zero, 0, &fsutil.TooLargeError{Path: path, Size: size, Cap: fsutil.CapLog}
	}
	prov, err := fd.Provenance()
	if err != nil {
		return zero, 0, err
	}
	var c evalFoldDoc[S]
	if !fd.NoCache && fd.Cache != "" {
		c = fd.load(f, size, prov)
	}
	if c.Offset == 0 {
		c = evalFoldDoc[S]{}
	}
	state := fd.Clone(c.State)
	lines, complete, end := c.Lines, c.Offset, c.Offset
	err = fd.fold(&state, prov, f, c.Offset, size, c.Lines, func(n int, pos int64, terminated bool) {
		lines, end = n, pos
		if terminated {
			complete = pos
		}
	})
	if err != nil {
		return zero, 0, err
	}
	if !fd.NoCache && !fd.ReadOnly && fd.Cache != "" && complete > c.Offset {
		cached, completeLines := state, lines
		if complete != end {
			// a partial line followed: fold the cached state again up to
			// the last '\n' (rare: a writer in the middle of an append)
			cached = fd.Clone(c.State)
			err = fd.fold(&cached, prov, f, c.Offset, complete, c.Lines, func(n int, _ int64, _ bool) { completeLines = n })
		}
		if err == nil {
			fd.save(f, prov, complete, completeLines, cached)
		}
	}
	return state, lines, nil
}

// fold applies the lines of f in [from, to) to s, numbering them after
// the first `before` lines; after each line step gets its number, the
// offset after it and whether it ended in '\n'.
func (fd *EvalFold[S]) fold(s *S, prov *workspace.Provenance, f io.ReaderAt, from, to int64, before int, step func(n int, pos int64, terminated bool)) error {
	return workspace.EachEvalLineFull(io.NewSectionReader(f, from, to-from), fsutil.CapLine,
		func(n int, at int64, line []byte, raw int, term bool) {
			fd.Line(s, prov, before+n, from+at, line)
			step(before+n, from+at+int64(raw), term)
		}, func(n int, at, _ int64, raw int, term bool) {
			fd.Line(s, prov, before+n, from+at, nil)
			step(before+n, from+at+int64(raw), term)
		})
}

// load returns the cache when it is valid for the log f of size bytes
// under prov, else the zero document.
func (fd *EvalFold[S]) load(f io.ReaderAt, size int64, prov *workspace.Provenance) evalFoldDoc[S] {
	data, err := fsutil.ReadRegular(fd.Cache, fd.MaxCache)
	if err != nil {
		return evalFoldDoc[S]{}
	}
	var c evalFoldDoc[S]
	if json.Unmarshal(data, &c) != nil || !c.Fits(f, size, fd.Version, fd.Key, prov) {
		return evalFoldDoc[S]{}
	}
	return c
}

// save writes the state after the first offset bytes (lines lines) of f;
// failures are ignored: the next call rebuilds the state.
func (fd *EvalFold[S]) save(f io.ReaderAt, prov *workspace.Provenance, offset int64, lines int, state S) {
	p, err := NewEvalPrefix(f, fd.Version, fd.Key, offset, lines, prov)
	if err != nil {
		return
	}
	_ = WriteEvalCache(fd.Cache, evalFoldDoc[S]{EvalPrefix: p, State: state})
}
