//go:build unix

package testutil

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startWithGrandchild starts `sh -c 'sleep 600 & echo $!; …'` under
// OwnGroup and returns the background sleep's pid.
func startWithGrandchild(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	OwnGroup(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		t.Fatalf("the grandchild's pid: %q %v %v", line, err, perr)
	}
	return pid
}

// waitGone polls until pid no longer runs (gone, or a zombie waiting for
// its reaper), failing the test after a deadline.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			if syscall.Kill(pid, 0) != nil {
				return
			}
		} else if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestOwnGroupKillsTheGroupOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", "sleep 600 & echo $!; wait")
	cmd.WaitDelay = time.Second // sh is killed even when the group is not
	pid := startWithGrandchild(t, cmd)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	cancel()
	_ = cmd.Wait()
	waitGone(t, pid)
}

func TestKillGroupEndsWhatTheLeaderLeft(t *testing.T) {
	cmd := exec.CommandContext(context.Background(), "sh", "-c", "sleep 600 & echo $!")
	pid := startWithGrandchild(t, cmd)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	KillGroup(cmd)
	waitGone(t, pid)
}
