//go:build !unix

package hook

import "os"

// openNoBlock opens path read-only (no FIFOs to fear on these systems).
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
