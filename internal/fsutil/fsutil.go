// Package fsutil holds the only ways harness writes files: atomic replace
// (temp file + fsync + rename) for state files, and locked whole-line appends
// for the shared JSON Lines logs (.harness/eval_log.jsonl, .harness/logs/hook.log).
//
// Locks are advisory (github.com/gofrs/flock: flock(2) on Unix, LockFileEx on
// Windows) and live in a sidecar file "<name>.lock" beside the file they guard,
// so the guarded file itself is never opened by the lock and a Windows byte-range
// lock can never collide with the data being written.
package fsutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// AppendLine appends line to path as one write(2) under the file's lock,
// adding a trailing '\n' when line lacks one. The file is created (0644) when
// missing; a path that is not a regular file (FIFO, directory, device, a
// symbolic link, which is never followed) is a *NotRegularError, and opening
// never waits for a FIFO reader. If the file
// does not end in '\n' (a torn last line left by a crash of a foreign
// writer), a '\n' is written first so the new line stays whole; the torn
// line itself is kept for `harness validate` to report.
// line must not contain a '\n' except as its last byte.
func AppendLine(path string, line []byte) error { return AppendLineWithin(path, line, LockTimeout) }

// AppendLineWithin is AppendLine waiting at most timeout for the file's lock
// (the hook, whose every answer has a deadline, waits less than a command).
func AppendLineWithin(path string, line []byte, timeout time.Duration) error {
	if i := bytes.IndexByte(line, '\n'); i >= 0 && i != len(line)-1 {
		return fmt.Errorf("append %s: line contains a newline at byte %d", path, i)
	}
	unlock, err := LockWithin(path, timeout)
	if err != nil {
		return err
	}
	defer unlock()
	return appendLocked(path, line)
}

// AppendLineAtWithin is AppendLineWithin that also returns the byte offset at
// which the line starts in the file (after the '\n' written first to end a
// torn last line), for a caller that records where its line went.
func AppendLineAtWithin(path string, line []byte, timeout time.Duration) (int64, error) {
	if i := bytes.IndexByte(line, '\n'); i >= 0 && i != len(line)-1 {
		return -1, fmt.Errorf("append %s: line contains a newline at byte %d", path, i)
	}
	unlock, err := LockWithin(path, timeout)
	if err != nil {
		return -1, err
	}
	defer unlock()
	var at int64 = -1
	err = appendLockedAt(path, line, (*os.File).Write, &at)
	return at, err
}

// AppendLineLocked is AppendLine for a caller that already holds Lock(path).
func AppendLineLocked(path string, line []byte) error { return appendLocked(path, line) }

func appendLocked(path string, line []byte) error {
	return appendLockedWith(path, line, (*os.File).Write)
}

// appendLockedWith is appendLocked writing through write (tests pass a
// writer that fails part-way, as a full disk does). The line goes out in
// one write; when that fails after writing part of it (ENOSPC, EIO, EFBIG),
// the file is truncated back to its length before the append, so a reader
// sees the line whole or not at all. The caller holds the file's lock, so no
// other harness writer appended in between.
func appendLockedWith(path string, line []byte, write func(*os.File, []byte) (int, error)) error {
	return appendLockedAt(path, line, write, nil)
}

// appendLockedAt is appendLockedWith that stores in *at (when at is not nil)
// the offset where the line starts.
func appendLockedAt(path string, line []byte, write func(*os.File, []byte) (int, error), at *int64) error {
	f, err := openAppend(path)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("append %s: %w", path, err)
	}
	before := st.Size()
	buf := make([]byte, 0, len(line)+2)
	if needsLeadingNewline(f) {
		buf = append(buf, '\n')
	}
	if at != nil {
		*at = before + int64(len(buf))
	}
	buf = append(buf, line...)
	if len(buf) == 0 || buf[len(buf)-1] != '\n' {
		buf = append(buf, '\n')
	}
	n, err := write(f, buf)
	if err == nil && n < len(buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if n > 0 {
			if terr := f.Truncate(before); terr != nil {
				f.Close()
				return fmt.Errorf("append %s: %w; %d of %d bytes were written and truncating them back failed: %v", path, err, n, len(buf), terr)
			}
			_ = f.Sync()
		}
		f.Close()
		return fmt.Errorf("append %s: %w (nothing was appended)", path, err)
	}
	return f.Close()
}

// needsLeadingNewline reports whether the open file is non-empty and its last
// byte is not '\n'.
func needsLeadingNewline(f *os.File) bool {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, st.Size()-1); err != nil {
		// O_WRONLY handles cannot be read on every OS; reopen read-only.
		rf, err2 := os.Open(f.Name())
		if err2 != nil {
			return false
		}
		defer rf.Close()
		if _, err2 = rf.ReadAt(b, st.Size()-1); err2 != nil {
			return false
		}
	}
	return b[0] != '\n'
}

// WriteFileAtomic replaces path with data so that a reader, or a crash at any
// point, sees either the old content or the new one, never a mix: it writes a
// temporary file in the same directory, fsyncs it, renames it over path and
// (on Unix) fsyncs the directory. perm applies to a newly created file; an
// existing file keeps its mode. The temporary file is ".<base>.tmp-<digits>";
// after a successful replace, temps of the same target older than
// StaleTempAge (left by a writer killed before its rename) are deleted.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, tempPrefix+filepath.Base(path)+tempInfix+"*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	cleanup := func() { tmp.Close(); os.Remove(name) }
	if _, err := tmp.Write(data); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		cleanup()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		cleanup()
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("replace %s: %w", path, err)
	}
	syncDir(dir)
	sweepStaleTemps(path, time.Now())
	return nil
}

// UpdateFile performs a locked read-modify-write of path: under Lock(path) it
// reads the current content (nil when the file does not exist; a file that is
// not regular is a *NotRegularError, see ReadRegular), calls fn, and
// atomically replaces the file with fn's result. If fn returns an error
// nothing is written.
func UpdateFile(path string, perm fs.FileMode, fn func(old []byte) ([]byte, error)) error {
	unlock, err := Lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	old, err := ReadRegular(path, CapState)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	data, err := fn(old)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, data, perm)
}
