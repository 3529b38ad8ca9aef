package launch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ops"
)

// proofPoll is how often launch looks for the hook record.
const proofPoll = 100 * time.Millisecond

// Start writes the plan's settings file, starts the client, waits for the
// proof that its hooks are live (a SessionStart record of hook.log for the
// session id, written after the start), then records the session (ops
// SessionStart with the launch object) and runs preflight --stage started.
// When the proof does not come within o.ProofTimeout, the client exits
// before it, or recording fails, the client is stopped and nothing is
// recorded (RefusedError). With o.Wait (always for an attached session)
// Start returns when the client exits.
//
// A failed launch removes the sandbox's temporary directory when it created
// it (no earlier session of the sprint made it), so a refused start leaves
// nothing in /tmp; a started session keeps it for the sprint's next sessions
// (ops.SandboxTempDir).
func Start(o *Options, p *Plan) (*Result, error) {
	created := false
	if p.TempDir != "" {
		_, err := os.Lstat(p.TempDir)
		created = errors.Is(err, fs.ErrNotExist)
	}
	res, err := start(o, p)
	if err != nil && created {
		_ = os.RemoveAll(p.TempDir) // the client is stopped by now
	}
	return res, err
}

func start(o *Options, p *Plan) (*Result, error) {
	res := &Result{Plan: *p, Actions: []string{}}
	if err := writePrivate(p); err != nil {
		return nil, err
	}
	t0 := time.Now()
	notBefore := t0.Add(-time.Second)

	var cmd *exec.Cmd
	exited := make(chan error, 1)
	switch {
	case p.Tmux != "":
		c := exec.Command(p.Argv[0], p.Argv[1:]...)
		c.Env = p.env
		if out, err := c.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("tmux new-session: %v: %s", err, strings.TrimSpace(string(out)))
		}
		if out, err := exec.Command("tmux", "display-message", "-p", "-t", p.Tmux, "#{pane_pid}").Output(); err == nil {
			res.PID, _ = strconv.Atoi(strings.TrimSpace(string(out)))
		}
	default:
		cmd = exec.Command(p.claudeArgv[0], p.claudeArgv[1:]...)
		cmd.Dir = p.Dir
		cmd.Env = p.env
		if p.Mode == ModePrint {
			out, err := os.OpenFile(p.Output, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			defer out.Close()
			cmd.Stdout, cmd.Stderr = out, out
			if !o.Wait {
				detach(cmd)
			}
		} else {
			cmd.Stdin, cmd.Stdout, cmd.Stderr = o.Stdin, o.Stdout, o.Stderr
			o.Wait = true
		}
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("start %s: %w", p.claudeArgv[0], err)
		}
		res.PID = cmd.Process.Pid
		go func() { exited <- cmd.Wait() }()
	}
	stop := func() {
		if p.Tmux != "" {
			_ = exec.Command("tmux", "kill-session", "-t", p.Tmux).Run()
			return
		}
		terminate(cmd, exited)
	}

	// The proof: the session's own SessionStart hook record.
	ctx, cancel := context.WithTimeout(context.Background(), o.ProofTimeout)
	defer cancel()
	var exitErr error
	gone := false
	for {
		rec, ok, err := ops.SessionStartRecord(o.Ops.Root, p.SessionID, notBefore)
		if err != nil {
			stop()
			return nil, fmt.Errorf("read hook.log: %w", err)
		}
		if ok {
			res.HookRecord = rec.Time
			break
		}
		if gone {
			return nil, refuse("claude exited (%s) before the session's SessionStart hook ran: its hooks never ran, so nothing was recorded; see %s", exitText(exitErr), orNone(p.Output))
		}
		select {
		case exitErr = <-exited:
			gone = true // look once more: the hook may have run just before the exit
			continue
		case <-ctx.Done():
			stop()
			return nil, refuse("no SessionStart record for session %s in .harness/logs/hook.log within %s of the start: the session's hooks are not proven live, so claude was stopped and nothing was recorded (see %s)", p.SessionID, o.ProofTimeout, orNone(p.Output))
		case <-time.After(proofPoll):
		}
	}

	// What `session start` and `preflight --stage started` do.
	info := &ops.LaunchInfo{Settings: rel(o.Ops.Root, p.SettingsFile), Sandbox: p.Sandbox, NoSandboxReason: p.NoSandboxReason,
		Mode: p.Mode, PID: res.PID, TempDir: p.TempDir}
	rep, err := ops.SessionStart(o.Ops, ops.SessionStartInput{Feature: p.Feature, SessionID: p.SessionID, Type: p.SessionType, Launch: info})
	if err != nil {
		stop()
		if r, ok := ops.IsRefusal(err); ok {
			return nil, refuse("session start refused, claude was stopped: %s", r.Error())
		}
		return nil, err
	}
	res.Actions = append(res.Actions, prefixed("session start", rep.Actions)...)
	pre, prep, err := ops.Preflight(o.Ops, "started", []string{p.Feature})
	if err != nil || !pre.OK {
		stop()
		if _, eerr := ops.SessionEnd(o.Ops, p.Feature); eerr != nil && err == nil {
			err = eerr
		}
		if err != nil {
			return nil, err
		}
		return nil, &RefusedError{Reason: "preflight --stage started " + p.Feature + " fails; claude was stopped and the session removed from the pool", Items: pre.Items}
	}
	res.Actions = append(res.Actions, prefixed("preflight", prep.Actions)...)
	res.ElapsedMS = time.Since(t0).Milliseconds()

	if o.Wait && cmd != nil {
		if !gone {
			exitErr = <-exited
		}
		code := exitCode(exitErr)
		res.ExitCode = &code
	}
	return res, nil
}

// writePrivate writes the settings file and creates the sandbox's
// temporary directory (0700, owned by this user) and its cache directories
// (the sandbox cannot create a directory it was told to allow).
func writePrivate(p *Plan) error {
	if err := os.MkdirAll(filepath.Dir(p.SettingsFile), 0o755); err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(p.SettingsFile, p.Settings, 0o644); err != nil {
		return err
	}
	for _, f := range p.lockFiles {
		// taking the lock creates the sidecar (a planted FIFO or link is
		// replaced, fsutil.LockWithin); a lock held by a running command
		// means the file exists already
		if unlock, err := fsutil.LockWithin(strings.TrimSuffix(f, ".lock"), 50*time.Millisecond); err == nil {
			unlock()
		} else if !errors.Is(err, fsutil.ErrLockTimeout) && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("create the lock file %s: %w", f, err)
		}
	}
	if p.TempDir == "" {
		return nil
	}
	if err := ensurePrivateDir(p.TempDir); err != nil {
		return err
	}
	for _, d := range p.cacheDirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// ensurePrivateDir creates dir with mode 0700, or checks that an existing
// one is a real directory (not a link) that only this user can use.
func ensurePrivateDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return refuse("the sandbox's temporary directory %s is not a directory (a link?); remove it", dir)
	}
	if err := ownedPrivate(st); err != nil {
		return refuse("the sandbox's temporary directory %s: %v; remove it or set TMPDIR elsewhere", dir, err)
	}
	return nil
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

func prefixed(cmd string, actions []string) []string {
	out := make([]string, 0, len(actions))
	for _, a := range actions {
		out = append(out, cmd+": "+a)
	}
	return out
}

func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}

func exitText(err error) string {
	if err == nil {
		return "exit 0"
	}
	return err.Error()
}

func orNone(s string) string {
	if s == "" {
		return "its terminal"
	}
	return s
}

// terminate stops a started client: SIGTERM to its process group (unix),
// then a kill after 5 s; exited receives cmd.Wait's result.
func terminate(cmd *exec.Cmd, exited chan error) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	signalGroup(cmd, false)
	select {
	case err := <-exited:
		exited <- err
	case <-time.After(5 * time.Second):
		signalGroup(cmd, true)
		exited <- <-exited
	}
}
