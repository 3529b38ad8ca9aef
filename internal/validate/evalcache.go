package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/workspace"
)

// The eval_log cache of Options.EvalCache: what the eval_log pass of a
// validate run leaves behind after the last complete line of the log (the
// findings of the one-line rules, the kept entries, the corrections), so
// that the next run checks only the lines appended since. It is valid for
// one log prefix (records.EvalPrefix: offset, line count, FNV-1a checksums
// of its first and last 4 KB, the byte before the offset a '\n') and one context of the
// one-line rules (evalCacheKey: the schema set in force, the sprint id, the
// features' ids and acceptance lists) and the provenance of the prefix's
// lines (Prov: workspace.Provenance.KeyBefore(offset) — a ledger entry for a
// line appended later leaves it unchanged, so a Hermes append no longer
// invalidates the cache). A cache that does not fit is ignored
// and rewritten; it is never trusted for anything else.

// evalCacheVersion changes whenever the eval_log pass or the cached data
// change meaning.
const evalCacheVersion = 4 // 4: the prefix is a records.EvalPrefix

// maxCachedFindings bounds the cache: a log with more findings at its lines
// is validated in full every time (it is broken anyway).
const maxCachedFindings = 20000

type evalCacheDoc struct {
	records.EvalPrefix
	First      []Finding     `json:"first"`
	Rules      []Finding     `json:"rules"`
	Entries    []cachedEntry `json:"entries"`
	Superseded map[int]int   `json:"superseded"`
}

type cachedEntry struct {
	Line   int             `json:"line"`
	Fields json.RawMessage `json:"fields"`
}

// schemaKeyOf identifies a set of sprint schema copies (name → bytes).
func schemaKeyOf(own map[string][]byte) string {
	names := make([]string, 0, len(own))
	for n := range own {
		names = append(names, n)
	}
	sort.Strings(names)
	h := fnv.New64a()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(own[n]))
		h.Write(own[n])
	}
	return fmt.Sprintf("%d:%016x", len(own), h.Sum64())
}

// evalCachePath is H/logs/cache/validate-eval.json.
func (c *checker) evalCachePath() string {
	return filepath.Join(c.ws.LogsDir(), "cache", "validate-eval.json")
}

// evalCacheKey identifies the context the one-line rules of eval_log read:
// the schema set, the sprint id, and every feature's id and acceptance.
func (c *checker) evalCacheKey() string {
	h := fnv.New64a()
	fmt.Fprintf(h, "v%d\x00%s\x00", evalCacheVersion, c.schemaKey)
	if c.fl == nil {
		h.Write([]byte("no feature list"))
	} else {
		fmt.Fprintf(h, "%s\x00", c.fl.Sprint)
		for _, f := range c.fl.Features {
			fmt.Fprintf(h, "%s\x01", f.ID)
			for _, a := range f.Acceptance {
				fmt.Fprintf(h, "%s\x02", a)
			}
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// loadEvalCache returns the cache when it fits the log f of size bytes and
// key, else nil.
func (c *checker) loadEvalCache(f io.ReaderAt, size int64, key string) *evalCacheDoc {
	data, err := fsutil.ReadRegular(c.evalCachePath(), 64<<20)
	if err != nil {
		return nil
	}
	var d evalCacheDoc
	if json.Unmarshal(data, &d) != nil || !d.Fits(f, size, evalCacheVersion, key, c.prov) {
		return nil
	}
	return &d
}

// restore sets the checker's eval_log state from d.
func (c *checker) restore(d *evalCacheDoc) error {
	c.evalFound.first.Findings = append([]Finding(nil), d.First...)
	c.evalFound.rules.Findings = append([]Finding(nil), d.Rules...)
	c.supersededBy = map[int]int{}
	for k, v := range d.Superseded {
		c.supersededBy[k] = v
	}
	c.entries = nil
	for _, e := range d.Entries {
		dec := json.NewDecoder(bytes.NewReader(e.Fields))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return err
		}
		c.entries = append(c.entries, &workspace.EvalEntry{Line: e.Line, Fields: m})
	}
	return nil
}

// saveEvalCache writes the state after the first lines lines (offset bytes)
// of f; failures are ignored (the next run validates in full).
func (c *checker) saveEvalCache(f io.ReaderAt, key string, offset int64, lines int) {
	if len(c.evalFound.first.Findings)+len(c.evalFound.rules.Findings) > maxCachedFindings {
		return
	}
	d := evalCacheDoc{First: c.evalFound.first.Findings, Rules: c.evalFound.rules.Findings, Superseded: c.supersededBy}
	for _, e := range c.entries {
		if e == nil {
			continue
		}
		b, err := json.Marshal(e.Fields)
		if err != nil {
			return
		}
		d.Entries = append(d.Entries, cachedEntry{Line: e.Line, Fields: b})
	}
	sort.Slice(d.Entries, func(i, j int) bool { return d.Entries[i].Line < d.Entries[j].Line })
	var err error
	if d.EvalPrefix, err = records.NewEvalPrefix(f, evalCacheVersion, key, offset, lines, c.prov); err != nil {
		return
	}
	_ = records.WriteEvalCache(c.evalCachePath(), d)
}

// streamCached is the eval_log pass under Options.EvalCache: the cached
// state of the log's prefix, then the lines after it, then Appends; the
// cache is refreshed to the last complete line of the file on disk.
func (c *checker) streamCached(f *os.File, size int64) error {
	key := c.evalCacheKey()
	start, off := 0, int64(0)
	d := c.loadEvalCache(f, size, key)
	if d != nil {
		if err := c.restore(d); err != nil {
			d = nil
			c.evalFound, c.entries, c.supersededBy = evalFindings{}, nil, map[int]int{}
		} else {
			start, off = d.Lines, d.Offset
		}
	}
	lines, complete, terminated := start, off, true
	pos := off
	step := func(n int, raw int, term bool) {
		pos += int64(raw)
		lines, terminated = start+n, term
		if term {
			complete = pos
		}
	}
	err := workspace.EachEvalLineFull(io.NewSectionReader(f, off, size-off), fsutil.CapLine, func(n int, at int64, line []byte, raw int, term bool) {
		c.checkEvalLine(start+n, off+at, line)
		step(n, raw, term)
	}, func(n int, at, body int64, raw int, term bool) {
		c.evalLineTooLong(start+n, body)
		step(n, raw, term)
	})
	if err != nil {
		return err
	}
	app := c.opts.Appends[relEvalLog]
	appAt := size // where the appended bytes start
	if terminated {
		if complete > off || d == nil {
			c.saveEvalCache(f, key, complete, lines)
		}
	} else if len(app) > 0 && app[0] == '\n' {
		app = app[1:] // the append's '\n' ends the torn last line, which was checked as it is
		appAt++
	} else if len(app) > 0 {
		// the append continues the torn line: check the whole log with it
		c.evalFound, c.entries, c.supersededBy = evalFindings{}, nil, map[int]int{}
		c.lastRollback = map[rollbackKey]int{}
		return workspace.EachEvalLineAt(io.MultiReader(io.NewSectionReader(f, 0, size), bytes.NewReader(c.opts.Appends[relEvalLog])), fsutil.CapLine,
			c.checkEvalLine, func(n int, _, body int64) { c.evalLineTooLong(n, body) })
	}
	if len(app) == 0 {
		return nil
	}
	return workspace.EachEvalLineAt(bytes.NewReader(app), fsutil.CapLine, func(n int, at int64, line []byte) { c.checkEvalLine(lines+n, appAt+at, line) },
		func(n int, _, body int64) { c.evalLineTooLong(lines+n, body) })
}
