package hook

import (
	"fmt"
	"io"
	"os"
)

// maxContextFile is the most the hook reads of one workspace file (4 MiB);
// SessionStart injects at most contextBudget characters anyway.
const maxContextFile = 4 << 20

// readRegular reads at most max bytes of path when it is a regular file
// (symlinks followed). A FIFO, device, socket or directory is an error, and
// opening one never blocks: the Generator can create any file type in its
// own feature directory, and a hook that hangs is a hook that fails open.
func readRegular(path string, max int64) ([]byte, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// openRegular opens path for reading when it is a regular file, without
// blocking on a FIFO.
func openRegular(path string) (*os.File, os.FileInfo, error) {
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
		return nil, nil, fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	}
	return f, st, nil
}
