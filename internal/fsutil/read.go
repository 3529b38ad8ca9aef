package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the errors of OpenRegular, ReadRegular and the
// append functions when the path exists but is not a regular file (a FIFO,
// socket, device or directory, symlinks followed).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error of ReadRegular when the file holds more
// than the allowed number of bytes.
var ErrTooLarge = errors.New("file too large")

// NotRegularError is the error for path whose file type is mode; it wraps
// ErrNotRegular and reads "<path> is not a regular file (<type>)", e.g.
// "(named pipe (FIFO))".
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s)", e.Path, typeName(e.Mode))
}

// typeName names the file type of m in words ("named pipe (FIFO)").
func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeIrregular != 0:
		return "irregular file"
	}
	return m.Type().String()
}

// Unwrap makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// OpenRegular opens path read-only when it is a regular file (symlinks
// followed) and returns the open file with its fstat result. Opening never
// blocks: on Unix the file is opened with O_NONBLOCK (a FIFO without a writer
// opens at once) and checked with fstat on the open descriptor, so a file
// swapped after a Stat cannot slip through. A non-regular file yields a
// *NotRegularError; a missing file an error satisfying errors.Is(err,
// fs.ErrNotExist). Every reader of workspace files must use it (or
// ReadRegular): the Generator can create a FIFO in its own feature
// directory, and a hook that hangs until its timeout fails open.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, st, nil
}

// ReadRegular reads the whole of path when it is a regular file of at most
// max bytes (max <= 0: no limit), without ever blocking on a FIFO (see
// OpenRegular). A larger file yields an error wrapping ErrTooLarge and no
// data; a missing file an error satisfying errors.Is(err, fs.ErrNotExist).
func ReadRegular(path string, max int64) ([]byte, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max > 0 && st.Size() > max {
		return nil, fmt.Errorf("%s: %w (%d bytes, limit %d)", path, ErrTooLarge, st.Size(), max)
	}
	var r io.Reader = f
	if max > 0 {
		r = io.LimitReader(f, max+1) // a file growing while read
	}
	// Size the buffer from fstat, but never trust it for more than 1 MiB up
	// front: a sparse file can claim terabytes.
	buf := make([]byte, 0, min(st.Size(), 1<<20)+512)
	data, err := readAllInto(buf, r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if max > 0 && int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w (limit %d)", path, ErrTooLarge, max)
	}
	return data, nil
}

// readAllInto is io.ReadAll appending to buf (sized from the fstat result).
func readAllInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				return b, nil
			}
			return b, err
		}
	}
}

// CheckAppendable opens path the way AppendLine does (created 0644 when
// missing, never waiting for a FIFO reader), checks that it is a regular
// file, and closes it without writing. `harness doctor` uses it to tell
// whether the hook can log.
func CheckAppendable(path string) error {
	f, err := openAppend(path)
	if err != nil {
		return err
	}
	return f.Close()
}

// openAppend opens path for appending (created 0644 when missing) without
// waiting for a FIFO reader, and returns it only when it is a regular file
// (*NotRegularError otherwise).
func openAppend(path string) (*os.File, error) {
	f, err := openAppendNoBlock(path)
	if err != nil {
		if st, serr := os.Stat(path); serr == nil && !st.Mode().IsRegular() {
			return nil, &NotRegularError{Path: path, Mode: st.Mode()}
		}
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}
