package workspace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// LedgerCacheFile is the cache of the ledger file's prefix, relative to
// .harness/ (docs/performance.md "Scaling with the sprint's history"):
// the entries of LedgerFile's first bytes, sorted, and KeyBefore's chain
// values over them, so that a load parses only the lines appended since.
// It lives in logs/cache/, which only harness and harness-hook write, and
// is never authority: a cache that does not fit is rebuilt.
const LedgerCacheFile = "logs/cache/ledger.bin"

// ledgerCacheMagic and ledgerCacheVersion open the cache file; another
// version is rebuilt.
const (
	ledgerCacheMagic   = "harness ledger cache\n"
	ledgerCacheVersion = 1
)

// ledgerCacheEvery is how many lines past the cached prefix a writing load
// lets accumulate before it rewrites the cache (its write is amortized over
// them; a load parses at most about as many lines).
const ledgerCacheEvery = 256

// ReadLedgerFile adds the entries of the ledger file to a ledger of the
// file format (InFile), as SetLedgerFile does with its bytes: f holds the
// file (size bytes; a file missing is size 0), app bytes appended after
// them (the dry run's, or nil). cache is the ledger cache's path ("" none):
// when it fits the file (ledgerCache.fits) only the bytes after its prefix
// are parsed; write lets the load rewrite it once ledgerCacheEvery lines
// follow that prefix (a cache that does not fit counts as none). The entries
// and KeyBefore are exactly SetLedgerFile's over the same bytes
// (TestReadLedgerFileEqualsSetLedgerFile); the error is f's.
func (p *Provenance) ReadLedgerFile(f io.ReaderAt, size int64, app []byte, cache string, write bool) error {
	if !p.Known {
		return nil
	}
	if len(p.hermes) > 0 || cache == "" {
		// inline entries as well (a move between the formats): read whole
		data := make([]byte, size, size+int64(len(app)))
		n, err := f.ReadAt(data, 0)
		if err != nil && err != io.EOF {
			return err
		}
		p.SetLedgerFile(append(data[:n], app...))
		p.torn = n > 0 && data[n-1] != '\n'
		return nil
	}
	c, ok := readLedgerCache(cache, f, size, p.Since)
	if !ok {
		c = ledgerCache{}
	}
	tail := make([]byte, size-c.size)
	n, err := f.ReadAt(tail, c.size)
	if err != nil && err != io.EOF {
		return err // p unchanged
	}
	tail = tail[:n]
	from := c.size
	p.hermes, p.chain, p.chainValid, p.sorted = c.ents, c.chain, len(c.chain), nil
	end := bytes.LastIndexByte(tail, '\n') + 1 // the terminated lines
	p.torn = end < len(tail)                   // (a cached prefix ends in '\n')
	ents := parseLedgerEnts(tail[:end], nil)
	p.addHermes(ents)
	if write && bytes.Count(tail[:end], []byte{'\n'}) >= ledgerCacheEvery && ascending(c.ents, ents) {
		p.KeyBefore(1 << 62) // the chain over every entry
		_ = writeLedgerCache(cache, f, ledgerCache{since: p.Since, size: from + int64(end), ents: p.hermes, chain: p.chain[:p.chainValid]})
	}
	p.addHermes(parseLedgerEnts(append(tail[end:], app...), nil)) // a torn line and app are one line, as in the file
	return nil
}

// ShareLedger gives p (a ledger of the file format, read from the same
// hermes_context_state.json member as base) base's entries of the ledger
// file, which base read (LoadProvenance) from the file as it still is,
// followed by app (bytes appended to the file, as fsutil.AppendLine writes
// them): the dry run's two validate runs read the ledger once. base is not
// changed by p afterwards. It reports false, and leaves p as it was, when
// base is not such a ledger (another since, not the file format) or app
// would continue base's torn last line.
func (p *Provenance) ShareLedger(base *Provenance, app []byte) bool {
	if base == nil || !base.Known || !base.InFile || !p.Known || !p.InFile || base.Since != p.Since || base.torn && len(app) > 0 && app[0] != '\n' {
		return false
	}
	base.KeyBefore(1 << 62)                                                                                                                // its chain, computed once for all who share it
	p.hermes, p.chain, p.chainValid, p.sorted = slices.Clip(base.hermes), slices.Clone(base.chain[:base.chainValid]), base.chainValid, nil // the chain is rewritten in place from a change on (extendChain)
	p.torn = base.torn
	p.addHermes(parseLedgerEnts(app, nil))
	return true
}

// ascending reports whether the entries of a ledger prefix (cached: the
// cache's, in file order too) followed by ents (in file order) increase
// strictly: the only prefixes a cache is written for, so that its entries
// are the file's in file order and the last lines can be checked against
// them (readLedgerCache). A ledger that is not (a line recorded again at an
// earlier offset: only a foreign writer does that) keeps its last cache,
// and loads parse what follows it.
func ascending(cached, ents []ledgerEnt) bool {
	for i := range ents {
		if i == 0 && len(cached) > 0 && ents[0].at <= cached[len(cached)-1].at || i > 0 && ents[i].at <= ents[i-1].at {
			return false
		}
	}
	return true
}

// ledgerCache is the content of LedgerCacheFile: the ledger's since (the
// chain's head depends on it), the prefix of LedgerFile it was made from
// (size bytes, ending in '\n', fingerprinted by fsutil.PrefixSums as the
// eval_log caches are), its entries as SetLedgerFile resolves them (sorted
// by offset, unique) and the chain values over them (extendChain).
type ledgerCache struct {
	since      int64
	size       int64
	head, tail string
	ents       []ledgerEnt
	chain      [][32]byte
}

// encode is the file's bytes: the magic, version (uint32), since, size
// (int64), head and tail (uint16 length and bytes), the number of entries
// (uint64) and each in KeyBefore's hashed form (appendKeyEnts), the chain
// values (32 bytes each, len(ents)/keyChunk+1 of them), and the CRC-32C
// of everything before it (uint32, a file damaged on disk; the hardware
// CRC keeps the check far below the cost of the decode); big endian.
func (c ledgerCache) encode() []byte {
	b := make([]byte, 0, 128+len(c.ents)*keyEntSize+len(c.chain)*32)
	b = append(b, ledgerCacheMagic...)
	b = binary.BigEndian.AppendUint32(b, ledgerCacheVersion)
	b = binary.BigEndian.AppendUint64(b, uint64(c.since))
	b = binary.BigEndian.AppendUint64(b, uint64(c.size))
	for _, s := range []string{c.head, c.tail} {
		b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
		b = append(b, s...)
	}
	b = binary.BigEndian.AppendUint64(b, uint64(len(c.ents)))
	b = appendKeyEnts(b, c.ents)
	for _, v := range c.chain {
		b = append(b, v[:]...)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// castagnoli is the CRC-32C table of the cache's checksum (made once by
// hash/crc32 on first use, not at start-up: the hook links this package).
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

// errLedgerCache is any cache file that does not decode.
var errLedgerCache = errors.New("not a ledger cache")

// decodeLedgerCache reads encode's bytes; every count is checked against
// the data's length before anything is allocated by it.
func decodeLedgerCache(b []byte) (ledgerCache, error) {
	var c ledgerCache
	if len(b) < len(ledgerCacheMagic)+4 || !bytes.HasPrefix(b, []byte(ledgerCacheMagic)) {
		return c, errLedgerCache
	}
	if crc32.Checksum(b[:len(b)-4], castagnoli()) != binary.BigEndian.Uint32(b[len(b)-4:]) {
		return c, errLedgerCache
	}
	r := b[len(ledgerCacheMagic) : len(b)-4]
	take := func(n int) []byte {
		if n < 0 || len(r) < n {
			r = nil
			return nil
		}
		out := r[:n]
		r = r[n:]
		return out
	}
	if v := take(4); v == nil || binary.BigEndian.Uint32(v) != ledgerCacheVersion {
		return c, errLedgerCache
	}
	fixed := take(16)
	if fixed == nil {
		return c, errLedgerCache
	}
	c.since, c.size = int64(binary.BigEndian.Uint64(fixed)), int64(binary.BigEndian.Uint64(fixed[8:]))
	for _, s := range []*string{&c.head, &c.tail} {
		l := take(2)
		if l == nil {
			return c, errLedgerCache
		}
		v := take(int(binary.BigEndian.Uint16(l)))
		if v == nil {
			return c, errLedgerCache
		}
		*s = string(v)
	}
	nb := take(8)
	if nb == nil {
		return c, errLedgerCache
	}
	n := binary.BigEndian.Uint64(nb)
	if n > uint64(len(r)/keyEntSize) || uint64(len(r)) != n*keyEntSize+(n/keyChunk+1)*32 {
		return c, errLedgerCache
	}
	c.ents = make([]ledgerEnt, n, n+ledgerCacheEvery) // room for the lines a load adds before the next rewrite
	for i := range c.ents {
		e := take(keyEntSize)
		c.ents[i].at = int64(binary.BigEndian.Uint64(e))
		switch e[8] {
		case 1:
			c.ents[i].ok = true
			copy(c.ents[i].h[:], e[9:])
		case 0:
			if [8]byte(e[9:]) != [8]byte{} {
				return c, errLedgerCache
			}
		default:
			return c, errLedgerCache
		}
		if i > 0 && c.ents[i].at <= c.ents[i-1].at {
			return c, errLedgerCache // not the sorted, unique entries
		}
	}
	c.chain = make([][32]byte, n/keyChunk+1)
	for i := range c.chain {
		copy(c.chain[i][:], take(32))
	}
	return c, nil
}

// readLedgerCache returns the cache at path when it fits the ledger file f
// (size bytes) of a ledger starting at since: it decodes, its prefix lies
// within the file and ends in '\n', the prefix's PrefixSums are the file's,
// its chain starts at this ledger's head, and the entries of the prefix's
// last lines (the whole lines in the span PrefixSums' tail covers, parsed
// again from the file; at least one) are the cache's last entries. Like
// every eval_log cache it notices a file rewritten other than by appending
// when the change touches those spans or the length, and it is not a
// signature: H/logs/ is protected (docs/protocol.md §3.7). The read is bounded by what a file of size
// bytes can need (one entry per 9 bytes, "{"at":0}\n").
func readLedgerCache(path string, f io.ReaderAt, size, since int64) (ledgerCache, bool) {
	maxEnts := size/9 + 1
	cf, st, err := fsutil.OpenRegular(path)
	if err != nil {
		return ledgerCache{}, false
	}
	defer cf.Close()
	if st.Size() > 256+maxEnts*keyEntSize+(maxEnts/keyChunk+1)*32 {
		return ledgerCache{}, false
	}
	// one buffer of the size fstat gives (the file is replaced, never
	// appended to: a short read fails the checksum)
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(cf, data); err != nil {
		return ledgerCache{}, false
	}
	c, err := decodeLedgerCache(data)
	if err != nil || c.since != since || c.size <= 0 || c.size > size || c.chain[0] != keyHead(true, since) {
		return ledgerCache{}, false
	}
	head, tail, err := fsutil.PrefixSums(f, c.size)
	if err != nil || head != c.head || tail != c.tail {
		return ledgerCache{}, false
	}
	span := min(c.size, fsutil.PrefixSumSpan)
	last := make([]byte, span)
	if _, err := f.ReadAt(last, c.size-span); err != nil && err != io.EOF || last[span-1] != '\n' {
		return ledgerCache{}, false
	}
	if span < c.size {
		// the first whole line of the span
		i := bytes.IndexByte(last, '\n')
		last = last[i+1:]
	}
	// the prefix ascends (ascending), so the entries of its last lines are
	// the cache's last ones, one for one
	recent := parseLedgerEnts(last, nil)
	if len(recent) == 0 && len(c.ents) > 0 || len(recent) > len(c.ents) || !slices.Equal(recent, c.ents[len(c.ents)-len(recent):]) {
		return ledgerCache{}, false
	}
	return c, true
}

// writeLedgerCache writes c for the ledger file f (PrefixSums of its first
// c.size bytes) atomically; failures are ignored by the caller (the next
// load parses more lines, or rebuilds).
func writeLedgerCache(path string, f io.ReaderAt, c ledgerCache) error {
	var err error
	if c.head, c.tail, err = fsutil.PrefixSums(f, c.size); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, c.encode(), 0o644)
}
