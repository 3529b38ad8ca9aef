//go:build linux

package fsutil

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockHolder names the process holding a flock on side, from the kernel's
// lock table (/proc/locks lists "N: FLOCK ADVISORY WRITE <pid>
// <major>:<minor>:<inode> …"): "pid 123 (flock .harness/state.lock sleep
// 1e9)". "" when side cannot be stat'ed or no holder is listed.
func lockHolder(side string) string {
	st, err := os.Stat(side)
	if err != nil {
		return ""
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	dev := uint64(sys.Dev)
	major, minor := (dev>>8)&0xfff|(dev>>32)&^0xfff, dev&0xff|(dev>>12)&^0xff
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, sys.Ino)
	f, _, err := OpenRegular("/proc/locks")
	if err != nil {
		// procfs files report size 0 and are not S_IFREG on every kernel
		if f, err = os.Open("/proc/locks"); err != nil {
			return ""
		}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	var pids []string
	for n := 0; sc.Scan() && n < 1<<16; n++ {
		fields := strings.Fields(sc.Text())
		// "1: FLOCK ADVISORY WRITE 123 00:2e:99 0 EOF"; waiters have "->" after the number
		if len(fields) < 6 || fields[1] == "->" || fields[1] != "FLOCK" || fields[5] != want {
			continue
		}
		pids = append(pids, fields[4])
	}
	if len(pids) == 0 {
		return ""
	}
	var who []string
	for _, p := range pids {
		if _, err := strconv.Atoi(p); err != nil {
			continue
		}
		who = append(who, "pid "+p+procCommand(p))
	}
	return strings.Join(who, ", ")
}

// procCommand returns " (<command line>)" of pid from /proc, control
// characters escaped, at most 200 bytes; "" when unreadable.
func procCommand(pid string) string {
	f, err := os.Open("/proc/" + pid + "/cmdline")
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	cmd := bytes.TrimRight(buf[:n], "\x00")
	cmd = bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})
	if len(cmd) == 0 {
		return ""
	}
	s := strconv.Quote(string(cmd))
	s = s[1 : len(s)-1]
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return " (" + s + ")"
}
