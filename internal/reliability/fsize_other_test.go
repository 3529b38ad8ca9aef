//go:build !linux

package reliability

// fsizeExec: the file-size-limit helper exists on Linux only.
func fsizeExec() {}
