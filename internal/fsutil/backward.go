package fsutil

import (
	"bytes"
	"io"
)

// BackwardOptions bound a backward read (EachLineBackward).
type BackwardOptions struct {
	// MaxBytes stops the read after that many bytes from the end (0: no
	// bound); the partial line where it stops is not visited.
	MaxBytes int64
	// MaxLine is the longest line kept for visit (0: no bound); a longer
	// line is skipped without being held in memory (visit never sees it)
	// and Skipped counts it.
	MaxLine int
	// FirstChunk is the size of the first read (0: 64 KB); each later read
	// doubles it up to 64 KB. A small first read suits a caller that
	// usually stops within the last few lines.
	FirstChunk int
}

// BackwardStats says what a backward read did.
type BackwardStats struct {
	// Read is the number of bytes read.
	Read int64
	// Skipped counts lines longer than MaxLine that were passed over.
	Skipped int
	// Truncated is true when MaxBytes stopped the read before the start.
	Truncated bool
}

// backwardChunk is the size of one read.
const backwardChunk = 64 << 10

// EachLineBackward calls visit for each '\n'-separated line of r (size
// bytes), last line first, without its '\n' (a trailing '\r' is kept), until
// visit returns false or the start is reached. It reads 64 KB chunks from the
// end, so the cost is the bytes behind the line where visit stops, not the
// file's size; opts bound it further. line is only valid during the call.
// The error is the reader's.
func EachLineBackward(r io.ReaderAt, size int64, opts BackwardOptions, visit func(line []byte) bool) (BackwardStats, error) {
	var st BackwardStats
	var carry []byte  // the end of a line whose start lies in an earlier chunk
	skipping := false // the line being assembled is longer than MaxLine
	off := size
	next := backwardChunk
	if opts.FirstChunk > 0 && opts.FirstChunk < backwardChunk {
		next = opts.FirstChunk
	}
	buf := make([]byte, next)
	for off > 0 {
		if opts.MaxBytes > 0 && st.Read >= opts.MaxBytes {
			st.Truncated = true
			return st, nil
		}
		n := int64(next)
		if off < n {
			n = off
		}
		if int(n) > len(buf) {
			buf = make([]byte, n)
		}
		next = min(2*next, backwardChunk)
		off -= n
		chunk := buf[:n]
		if _, err := r.ReadAt(chunk, off); err != nil && err != io.EOF {
			return st, err
		}
		st.Read += n
		end := len(chunk)
		for {
			i := bytes.LastIndexByte(chunk[:end], '\n')
			if i < 0 {
				break
			}
			piece := chunk[i+1 : end]
			end = i
			var line []byte
			switch {
			case skipping:
				skipping = false
				carry = carry[:0]
				st.Skipped++
				continue
			case len(carry) > 0:
				line = append(append(make([]byte, 0, len(piece)+len(carry)), piece...), carry...)
				carry = carry[:0]
			default:
				line = piece
			}
			if opts.MaxLine > 0 && len(line) > opts.MaxLine {
				st.Skipped++
				continue
			}
			if !visit(line) {
				return st, nil
			}
		}
		// chunk[:end] is the end part of a line that starts further back
		if !skipping {
			if opts.MaxLine > 0 && len(carry)+end > opts.MaxLine {
				skipping = true
				carry = carry[:0]
			} else {
				carry = append(append(make([]byte, 0, end+len(carry)), chunk[:end]...), carry...)
			}
		}
	}
	if skipping {
		st.Skipped++
		return st, nil
	}
	if len(carry) > 0 {
		visit(carry)
	}
	return st, nil
}
