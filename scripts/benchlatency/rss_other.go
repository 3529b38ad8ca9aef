//go:build !unix

package main

import (
	"os"
	"time"
)

// maxRSS is not available from os.ProcessState on this OS.
func maxRSS(*os.ProcessState) int64 { return 0 }

// usage is not available from os.ProcessState on this OS.
func usage(*os.ProcessState) (int64, time.Duration, bool) { return 0, 0, false }
