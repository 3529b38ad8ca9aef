package workspace

import (
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/superagent-harness/harness/internal/digest"
)

// ledgerEnt is one entry of the Hermes ledger as Provenance keeps it: the
// byte offset of the recorded eval_log line and its LineHash, decoded. ok
// is false for a sha256 that is not LineHash-shaped (16 lower-case hex
// digits): such an entry matches no line, as its string never equalled a
// LineHash, but it still replaces an earlier entry at the same offset.
type ledgerEnt struct {
	at int64
	h  [8]byte
	ok bool
}

// newLedgerEnt is the entry {"at": at, "sha256": sha}.
func newLedgerEnt(at int64, sha []byte) ledgerEnt {
	e := ledgerEnt{at: at}
	if len(sha) != 16 {
		return e
	}
	for i := 0; i < 8; i++ {
		hi, ok1 := hexDigit(sha[2*i])
		lo, ok2 := hexDigit(sha[2*i+1])
		if !ok1 || !ok2 {
			return ledgerEnt{at: at} // h zero, as the cache and the key hold it
		}
		e.h[i] = hi<<4 | lo
	}
	e.ok = true
	return e
}

// hexDigit is the value of one lower-case hex digit (LineHash's alphabet).
func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// matches reports whether the entry records a line whose SHA-256 is sum.
func (e ledgerEnt) matches(sum *[32]byte) bool {
	return e.ok && [8]byte(sum[:8]) == e.h
}

// findEnt is the index of the entry at offset at in ents (sorted by at,
// unique), or -1.
func findEnt(ents []ledgerEnt, at int64) int {
	i, ok := slices.BinarySearchFunc(ents, at, func(e ledgerEnt, at int64) int {
		switch {
		case e.at < at:
			return -1
		case e.at > at:
			return 1
		}
		return 0
	})
	if !ok {
		return -1
	}
	return i
}

// countBefore is the number of entries of ents (sorted by at) whose offset
// is below off.
func countBefore(ents []ledgerEnt, off int64) int {
	i, _ := slices.BinarySearchFunc(ents, off, func(e ledgerEnt, off int64) int {
		if e.at < off {
			return -1
		}
		return 1
	})
	return i
}

// mergeEnts returns base (sorted by at, unique) with add applied in order,
// a later entry replacing an earlier one at the same offset (what loading
// the entries one by one into a map keyed by offset gives). changed is the
// index of the first entry of the result that differs from base's (len of
// the shorter when one is a prefix of the other). base may be reused.
func mergeEnts(base, add []ledgerEnt) (out []ledgerEnt, changed int) {
	if len(add) == 0 {
		return base, len(base)
	}
	inc := len(base) == 0 || add[0].at > base[len(base)-1].at
	for i := 1; inc && i < len(add); i++ {
		inc = add[i].at > add[i-1].at
	}
	if inc {
		// the shape harness writes: each entry after every earlier one
		return append(base, add...), len(base)
	}
	// the general case: the last entry per offset wins
	a := slices.Clone(add)
	slices.SortStableFunc(a, func(x, y ledgerEnt) int {
		switch {
		case x.at < y.at:
			return -1
		case x.at > y.at:
			return 1
		}
		return 0
	})
	w := 0
	for i := range a {
		if w > 0 && a[w-1].at == a[i].at {
			a[w-1] = a[i]
			continue
		}
		a[w] = a[i]
		w++
	}
	a = a[:w]
	changed = countBefore(base, a[0].at)
	out = make([]ledgerEnt, 0, len(base)+len(a))
	out = append(out, base[:changed]...)
	i, j := changed, 0
	for i < len(base) || j < len(a) {
		switch {
		case j == len(a) || i < len(base) && base[i].at < a[j].at:
			out = append(out, base[i])
			i++
		case i == len(base) || a[j].at < base[i].at:
			out = append(out, a[j])
			j++
		default: // the same offset: the added entry wins
			out = append(out, a[j])
			i++
			j++
		}
	}
	return out, changed
}

// keyChunk is how many Hermes entries one chained digest of KeyBefore
// covers.
const keyChunk = 64

// keyEntSize is the size of one entry in the bytes KeyBefore hashes: its
// offset (8 bytes, big endian), a byte 1 (LineHash-shaped) or 0, and the
// 8 bytes of the hash (zero when not LineHash-shaped).
const keyEntSize = 17

// appendKeyEnts appends the hashed form of ents to b.
func appendKeyEnts(b []byte, ents []ledgerEnt) []byte {
	for _, e := range ents {
		b = binary.BigEndian.AppendUint64(b, uint64(e.at))
		if e.ok {
			b = append(b, 1)
			b = append(b, e.h[:]...)
		} else {
			b = append(b, 0, 0, 0, 0, 0, 0, 0, 0, 0)
		}
	}
	return b
}

// keyHead is the chained digest before any Hermes entry: of
// "harness-provenance-key/2", Known and Since.
func keyHead(known bool, since int64) [32]byte {
	b := append([]byte("harness-provenance-key/2\x00"), strconv.FormatBool(known)...)
	b = append(b, 0)
	b = strconv.AppendInt(b, since, 10)
	return digest.Sum256(append(b, 0))
}

// extendChain returns cps (cps[j] the chained digest after the first j
// chunks of keyChunk entries of ents: cps[0] the head, cps[j+1] = SHA-256
// of cps[j] followed by chunk j's hashed entries) completed for every
// whole chunk of ents; the first valid elements of cps are kept.
func extendChain(cps [][32]byte, valid int, ents []ledgerEnt) [][32]byte {
	cps = cps[:valid]
	var buf []byte
	for j := valid - 1; (j+1)*keyChunk <= len(ents); j++ {
		buf = append(buf[:0], cps[j][:]...)
		buf = appendKeyEnts(buf, ents[j*keyChunk:(j+1)*keyChunk])
		cps = append(cps, digest.Sum256(buf))
	}
	return cps
}
