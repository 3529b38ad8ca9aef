//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// maxRSS is the peak resident set size of the finished process, in bytes
// (getrusage ru_maxrss: KiB on Linux, bytes on macOS).
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}

// usage is the page faults (minor + major) and the user+system CPU time of
// the finished process (getrusage). Go starts children with vfork, so the
// few faults before exec count too; they are the same for every row.
func usage(ps *os.ProcessState) (faults int64, cpu time.Duration, ok bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, 0, false
	}
	return int64(ru.Minflt + ru.Majflt), time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
