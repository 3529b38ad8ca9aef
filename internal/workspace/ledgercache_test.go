package workspace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// loadLedgerBoth loads the ledger file at path (since, plus app) through
// the cache at cache (writing it) and by SetLedgerFile over the whole
// bytes, and fails unless the two agree on every entry and on KeyBefore
// at offs.
func loadLedgerBoth(t *testing.T, what, path, cache string, since int64, app []byte, offs []int64) *Provenance {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := &Provenance{Known: true, Since: since, InFile: true}
	want.SetLedgerFile(append(append([]byte(nil), data...), app...))
	got := &Provenance{Known: true, Since: since, InFile: true}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := got.ReadLedgerFile(f, int64(len(data)), app, cache, true); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.hermes, want.hermes) {
		d := firstDiff(got.hermes, want.hermes)
		t.Fatalf("%s: the cached load has %d entries, the full load %d (first difference at %d: %+v, %+v)", what, len(got.hermes), len(want.hermes), d, got.hermes[min(d, len(got.hermes)-1)], want.hermes[min(d, len(want.hermes)-1)])
	}
	for _, off := range offs {
		if g, w := got.KeyBefore(off), want.KeyBefore(off); g != w {
			t.Fatalf("%s: KeyBefore(%d) %s through the cache, %s in full", what, off, g, w)
		}
	}
	return got
}

func firstDiff(a, b []ledgerEnt) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestReadLedgerFileEqualsSetLedgerFile: the ledger read through its cache
// (LedgerCacheFile) has exactly the entries and the KeyBefore of the whole
// file parsed, on random ledger files appended in batches (mostly in
// offset order, as harness writes them; sometimes an earlier offset again,
// a foreign line, a torn last line, a dry run's appended bytes), rewritten,
// truncated, with entries dropped, and with the cache file corrupted,
// truncated, foreign (another ledger's valid cache) or of another since.
// It also checks that the cache is used.
func TestReadLedgerFileEqualsSetLedgerFile(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 13))
	dir := t.TempDir()
	path, cache, other := filepath.Join(dir, "eval_ledger.jsonl"), filepath.Join(dir, "cache", "ledger.bin"), filepath.Join(dir, "other.bin")
	warm, loads := 0, 0
	for trial := 0; trial < 40; trial++ {
		os.Remove(cache)
		since := int64(r.IntN(3) * 100)
		var file []byte
		at := since
		line := func() []byte {
			switch r.IntN(40) {
			case 0:
				return []byte(`{"note":"foreign"}`)
			case 1:
				if trial%2 == 1 || r.IntN(100) == 0 { // not the shape harness writes
					return LedgerLine(r.Int64N(at+1), fmt.Sprintf("%016x", r.Uint64())) // an earlier offset again
				}
			case 2:
				at += 7
				return LedgerLine(at, "NOT-A-HASH")
			}
			at += 50 + r.Int64N(400)
			return LedgerLine(at, fmt.Sprintf("%016x", r.Uint64()))
		}
		for step := 0; step < 30; step++ {
			switch k := r.IntN(20); {
			case k == 0 && len(file) > 0: // truncated mid-line
				file = file[:r.IntN(len(file))]
			case k == 1 && len(file) > 0: // rewritten: a byte flipped in the spans the prefix checksums cover
				i := r.IntN(min(len(file), 4096))
				if r.IntN(2) == 0 {
					i = len(file) - 1 - i
				}
				file[i] ^= 0x20
			case k == 2 && len(file) > 0: // an entry dropped
				lines := bytes.SplitAfter(file, []byte("\n"))
				i := r.IntN(len(lines))
				file = slices.Concat(slices.Concat(lines[:i]...), slices.Concat(lines[i+1:]...))
			case k == 3: // the cache corrupted
				if c, err := os.ReadFile(cache); err == nil && len(c) > 0 {
					c[r.IntN(len(c))] ^= byte(1 + r.IntN(255))
					os.WriteFile(cache, c, 0o644)
				}
			case k == 4: // the cache truncated
				if c, err := os.ReadFile(cache); err == nil && len(c) > 0 {
					os.WriteFile(cache, c[:r.IntN(len(c))], 0o644)
				}
			case k == 5: // another ledger's cache, valid for it
				if c, err := os.ReadFile(other); err == nil {
					os.WriteFile(cache, c, 0o644)
				}
			default:
				n := r.IntN(ledgerCacheEvery * 2)
				if r.IntN(4) == 0 {
					n = r.IntN(5)
				}
				for i := 0; i < n; i++ {
					file = append(append(file, line()...), '\n')
				}
				if r.IntN(8) == 0 {
					file = append(file, `{"at":12,"sha2`...) // a torn last line
				}
			}
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
			var app []byte
			if r.IntN(3) == 0 {
				app = append(LedgerLine(at+1, fmt.Sprintf("%016x", r.Uint64())), '\n')
			}
			if f, err := os.Open(path); err == nil {
				if _, ok := readLedgerCache(cache, f, int64(len(file)), since); ok {
					warm++
				}
				f.Close()
			}
			loads++
			offs := []int64{0, since, at / 2, at, at + 1, 1 << 62}
			loadLedgerBoth(t, fmt.Sprintf("trial %d step %d", trial, step), path, cache, since, app, offs)
			// a load under another since must not take this cache
			loadLedgerBoth(t, fmt.Sprintf("trial %d step %d (since+1)", trial, step), path, cache+".x", since+1, nil, offs)
			if c, err := os.ReadFile(cache); err == nil && r.IntN(3) == 0 {
				os.WriteFile(other, c, 0o644)
			}
		}
	}
	// (the odd trials write ledgers no cache is written for, ascending)
	if warm < loads/6 {
		t.Fatalf("only %d of %d loads started from the cache", warm, loads)
	}
	t.Logf("%d of %d loads started from the cache", warm, loads)
}

// TestLedgerCacheForgedCostsARebuild: a cache file planted in logs/cache/
// that does not describe the ledger file — another ledger's, one whose
// recent entries were edited (its checksum recomputed, as a forger would),
// one claiming a longer prefix, a shorter one ending mid-line, another
// version — is not used: the load reads the whole file and its verdicts are
// the full load's.
func TestLedgerCacheForgedCostsARebuild(t *testing.T) {
	dir := t.TempDir()
	path, cache := filepath.Join(dir, "eval_ledger.jsonl"), filepath.Join(dir, "ledger.bin")
	var file []byte
	for i := 0; i < 3*ledgerCacheEvery; i++ {
		file = append(append(file, LedgerLine(int64(i)*100, fmt.Sprintf("%016x", uint64(i)*7919))...), '\n')
	}
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	loadLedgerBoth(t, "first load", path, cache, 0, nil, nil) // writes the cache
	genuine, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	c, err := decodeLedgerCache(genuine)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	if _, ok := readLedgerCache(cache, f, int64(len(file)), 0); !ok {
		t.Fatal("the genuine cache does not fit its own ledger")
	}
	reseal := func(b []byte) []byte {
		return binary.BigEndian.AppendUint32(b[:len(b)-4], crc32.Checksum(b[:len(b)-4], castagnoli()))
	}
	edit := func(fn func(*ledgerCache)) []byte {
		d := c
		d.ents = slices.Clone(c.ents)
		fn(&d)
		d.chain = extendChain([][32]byte{keyHead(true, 0)}, 1, d.ents) // consistent, as a forger would make it
		return d.encode()
	}
	last := len(c.ents) - 1
	forged := map[string][]byte{
		"the last entry's hash changed": edit(func(d *ledgerCache) { d.ents[last].h[0] ^= 1 }),
		"the last entry dropped":        edit(func(d *ledgerCache) { d.ents = d.ents[:last] }),
		"an entry added at the end":     edit(func(d *ledgerCache) { d.ents = append(d.ents, ledgerEnt{at: 1 << 40, ok: true}) }),
		"a longer prefix claimed":       edit(func(d *ledgerCache) { d.size += 10 }),
		"a prefix ending mid-line":      edit(func(d *ledgerCache) { d.size -= 3 }),
		"another version":               reseal(append([]byte(nil), bytes.Replace(genuine, []byte(ledgerCacheMagic+"\x00\x00\x00\x01"), []byte(ledgerCacheMagic+"\x00\x00\x00\x02"), 1)...)),
		"a flipped byte":                append(append([]byte(nil), genuine[:40]...), append([]byte{genuine[40] ^ 4}, genuine[41:]...)...),
	}
	for what, b := range forged {
		if err := os.WriteFile(cache, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := readLedgerCache(cache, f, int64(len(file)), 0); ok {
			t.Errorf("%s: the forged cache is used", what)
		}
		p := loadLedgerBoth(t, what, path, cache, 0, nil, []int64{100, 1 << 62})
		// the line recorded last is Hermes's by the ledger, as in the file
		i := findEnt(p.hermes, int64(last)*100)
		if i < 0 || p.hermes[i].h != c.ents[last].h {
			t.Errorf("%s: the last line's entry is not the file's", what)
		}
	}
}

// TestShareLedgerEqualsReadingTheFile: a ledger given the entries another
// load read of the same file (ShareLedger, the dry run's) plus appended
// bytes has exactly the entries and KeyBefore of reading the file and those
// bytes, leaves the other load as it was, and refuses bytes that would
// continue a torn last line.
func TestShareLedgerEqualsReadingTheFile(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 13))
	dir := t.TempDir()
	path, cache := filepath.Join(dir, "eval_ledger.jsonl"), filepath.Join(dir, "ledger.bin")
	for trial := 0; trial < 30; trial++ {
		var file []byte
		at := int64(0)
		for i, n := 0, r.IntN(3*ledgerCacheEvery); i < n; i++ {
			at += 1 + r.Int64N(300)
			if r.IntN(30) == 0 {
				at -= r.Int64N(at) // an earlier offset again
			}
			file = append(append(file, LedgerLine(at, fmt.Sprintf("%016x", r.Uint64()))...), '\n')
		}
		torn := r.IntN(4) == 0
		if torn {
			file = append(file, `{"at":7,"sha256":"00000000000000aa"}`...) // an entry without its '\n'
		}
		os.WriteFile(path, file, 0o644)
		base := loadLedgerBoth(t, fmt.Sprintf("trial %d base", trial), path, cache, 0, nil, nil)
		before := slices.Clone(base.hermes)
		baseKey := base.Key()
		for round := 0; round < 2; round++ {
			var app []byte
			if torn {
				app = []byte("\n") // fsutil.AppendLine ends the torn line first
			}
			for i, n := 0, r.IntN(4); i < n; i++ {
				app = append(append(app, LedgerLine(at+int64(r.IntN(3)), fmt.Sprintf("%016x", r.Uint64()))...), '\n')
			}
			got := &Provenance{Known: true, InFile: true}
			if !got.ShareLedger(base, app) {
				t.Fatalf("trial %d: ShareLedger refused", trial)
			}
			want := &Provenance{Known: true, InFile: true}
			want.SetLedgerFile(append(append([]byte(nil), file...), app...))
			if !slices.Equal(got.hermes, want.hermes) || got.Key() != want.Key() || got.KeyBefore(at) != want.KeyBefore(at) {
				t.Fatalf("trial %d round %d: the shared ledger is not the file's", trial, round)
			}
			if !slices.Equal(base.hermes, before) || base.Key() != baseKey {
				t.Fatalf("trial %d round %d: sharing changed the base", trial, round)
			}
		}
		if torn && (&Provenance{Known: true, InFile: true}).ShareLedger(base, []byte(`x"}`+"\n")) {
			t.Fatalf("trial %d: bytes continuing the torn line were shared", trial)
		}
		if (&Provenance{Known: true, InFile: true, Since: 1}).ShareLedger(base, nil) {
			t.Fatalf("trial %d: a ledger of another since shared", trial)
		}
	}
}
