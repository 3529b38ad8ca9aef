package hook

import (
	"io"
	"os"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// maxContextFile is the most the hook reads of one workspace file (4 MiB);
// SessionStart injects at most contextBudget characters anyway.
const maxContextFile = 4 << 20

// readRegular reads at most max bytes of path (a longer file is cut, not
// refused: SessionStart only injects a prefix) when it is a regular file.
// A FIFO, device, socket or directory is an error, and opening one never
// blocks (fsutil.OpenRegular): the Generator can create any file type in its
// own feature directory, and a hook that hangs is a hook that fails open.
func readRegular(path string, max int64) ([]byte, error) {
	f, _, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// openRegular is fsutil.OpenRegular: path opened for reading when it is a
// regular file, without blocking on a FIFO.
func openRegular(path string) (*os.File, os.FileInfo, error) { return fsutil.OpenRegular(path) }
