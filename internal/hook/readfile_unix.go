//go:build unix

package hook

import (
	"os"
	"syscall"
)

// openNoBlock opens path read-only with O_NONBLOCK, so that opening a FIFO
// with no writer returns at once instead of waiting (regular files are not
// affected by the flag).
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
