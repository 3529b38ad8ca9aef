//go:build unix

package pathguard

import (
	"os"
	"syscall"
)

// linkCount is the number of hard links of the file fi describes (0 when
// the platform does not say).
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}
