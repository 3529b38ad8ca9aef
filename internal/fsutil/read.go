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

// Read caps, in bytes, per kind of workspace file. Every read is bounded:
// ReadRegular compares the size fstat reports on the open descriptor with
// the cap before it reads a byte, so a 50 GB sparse file costs one fstat,
// not 50 GB of memory. workspace.ReadCap maps a workspace path to its kind.
const (
	// CapSmall: ids and one-line files (session_id.txt, .current_agent,
	// the lock sidecars).
	CapSmall = 64 << 10
	// CapState: one JSON state file (feature_list.json, runtime_state.json,
	// session_pool.json, the context states, contract.json,
	// environment_probe.json, allow.jsonl).
	CapState = 16 << 20
	// CapRecord: one Markdown record (generator_log.md, handoff.md,
	// tooling.md, context_snapshot.md, AGENTS.md, hermes_handoff.md).
	CapRecord = 16 << 20
	// CapConfig: configuration and inputs (rules.yaml, settings.json,
	// schemas, pipeline.yaml, task files, prompt and blocker files).
	CapConfig = 1 << 20
	// CapLine: one line of a JSON Lines log (eval_log.jsonl, hook.log); a
	// longer line is skipped by the readers and reported by validate.
	CapLine = 1 << 20
	// CapLog: a whole JSON Lines log read as a stream (eval_log.jsonl):
	// about 3 million typical entries. Streaming it costs a 64 KB buffer
	// and, for the few readers that read it all, about half a second; a
	// larger log is refused from fstat.
	CapLog = 1 << 30
	// CapDefault applies when ReadRegular is given no cap.
	CapDefault = CapState
)

// NotRegularError is the error for path whose file type is mode; it wraps
// ErrNotRegular and reads "<path> is not a regular file (<type>)", e.g.
// "(named pipe (FIFO))". Cause, when set, is why harness could not replace
// it (a lock sidecar on a read-only mount: "read-only file system").
type NotRegularError struct {
	Path  string
	Mode  fs.FileMode
	Cause error
}

func (e *NotRegularError) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s is not a regular file (%s) and cannot be replaced: %v", e.Path, TypeName(e.Mode), e.Cause)
	}
	return fmt.Sprintf("%s is not a regular file (%s)", e.Path, TypeName(e.Mode))
}

// TypeName names the file type of m in words ("named pipe (FIFO)",
// "directory", "regular file"), for messages about a planted or unexpected
// entry where harness keeps a file.
func TypeName(m fs.FileMode) string {
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
	case m.IsRegular():
		return "regular file"
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
func OpenRegular(path string) (*os.File, fs.FileInfo, error) { return openRegular(path, true) }

// OpenRecord is OpenRegular for a file another, less trusted party writes
// (a Generator's generator_log.md and handoff.md, readable and writable in
// its sandbox, read by the hook outside it): a symbolic link at path is a
// *NotRegularError (mode fs.ModeSymlink) and is never followed, so a
// planted link cannot make the reader open a file the writer itself may
// not read.
func OpenRecord(path string) (*os.File, fs.FileInfo, error) { return openRegular(path, false) }

// ReadRecord is ReadRegular through OpenRecord.
func ReadRecord(path string, max int64) ([]byte, error) { return readRegular(path, max, false) }

func openRegular(path string, follow bool) (*os.File, fs.FileInfo, error) {
	open := openNoBlock
	if !follow {
		open = openNoBlockNoFollow
	}
	f, err := open(path)
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
// max bytes (max <= 0: CapDefault), without ever blocking on a FIFO (see
// OpenRegular). A larger file yields a *TooLargeError (wrapping ErrTooLarge)
// and no data, decided from fstat before reading; a missing file an error
// satisfying errors.Is(err, fs.ErrNotExist).
func ReadRegular(path string, max int64) ([]byte, error) { return readRegular(path, max, true) }

func readRegular(path string, max int64, follow bool) ([]byte, error) {
	if max <= 0 {
		max = CapDefault
	}
	f, st, err := openRegular(path, follow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, &TooLargeError{Path: path, Size: st.Size(), Cap: max}
	}
	var r io.Reader = io.LimitReader(f, max+1) // a file growing while read
	// Size the buffer from fstat, but never trust it for more than 1 MiB up
	// front: a sparse file can claim terabytes.
	buf := make([]byte, 0, min(st.Size(), 1<<20)+512)
	data, err := readAllInto(buf, r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Path: path, Size: int64(len(data)), Cap: max}
	}
	return data, nil
}

// TooLargeError is ErrTooLarge for one file: Size bytes (as fstat reported
// them, or as many as were read of a growing file) over the Cap.
type TooLargeError struct {
	Path      string
	Size, Cap int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %s, over the %s cap for this kind of file; it is not read (truncate or remove it)", e.Path, Bytes(e.Size), Bytes(e.Cap))
}

// Unwrap makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// Bytes formats n as "123 bytes", "64 KiB", "4.0 GiB".
func Bytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
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
// waiting for a FIFO reader and without following a symbolic link at path,
// and returns it only when it is a regular file (*NotRegularError
// otherwise: a link planted where a log is kept would send the line to any
// file the link names, docs/protocol.md §15).
func openAppend(path string) (*os.File, error) {
	f, err := openAppendNoBlock(path)
	if err != nil {
		var nr *NotRegularError
		if errors.As(err, &nr) {
			return nil, err
		}
		if st, serr := os.Lstat(path); serr == nil && !st.Mode().IsRegular() {
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
