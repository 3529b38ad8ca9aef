//go:build !unix

package pathguard

import "os"

// linkCount is the number of hard links of the file fi describes: 0 here
// (os.FileInfo does not carry it on this platform, so hard links to
// protected files are not searched for; the write is judged by its name).
func linkCount(os.FileInfo) uint64 { return 0 }
