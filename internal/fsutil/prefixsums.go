package fsutil

import (
	"fmt"
	"hash/fnv"
	"io"
)

// PrefixSumSpan is how many bytes at the start of a file and before an
// offset PrefixSums covers.
const PrefixSumSpan = 4096

// PrefixSums fingerprints the prefix [0, off) of an append-only file f for
// a cache of what was read from it: the FNV-1a checksums of its first and
// last min(PrefixSumSpan, off) bytes, each as "%016x:<bytes covered>". Every
// eval_log cache (the Stop hook's and the operations' folds, validate's
// pass) checks its prefix with it through records.EvalPrefix
// (docs/performance.md). A checksum, not a signature: the caches are never
// authority. Errors are f's read errors (io.EOF excepted).
func PrefixSums(f io.ReaderAt, off int64) (head, tail string, err error) {
	n := int64(PrefixSumSpan)
	if off < n {
		n = off
	}
	buf := make([]byte, n)
	sum := func(at int64) (string, error) {
		if _, err := f.ReadAt(buf, at); err != nil && err != io.EOF {
			return "", err
		}
		h := fnv.New64a()
		h.Write(buf)
		return fmt.Sprintf("%016x:%d", h.Sum64(), n), nil
	}
	if head, err = sum(0); err != nil {
		return "", "", err
	}
	tail, err = sum(off - n)
	return head, tail, err
}
