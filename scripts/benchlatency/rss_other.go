//go:build !unix

package main

import "os"

// maxRSS is not available from os.ProcessState on this OS.
func maxRSS(*os.ProcessState) int64 { return 0 }
