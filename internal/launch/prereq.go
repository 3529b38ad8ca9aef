package launch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Prereq is one sandbox prerequisite of the host.
type Prereq struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Missing returns the prerequisites that fail.
func Missing(ps []Prereq) []Prereq {
	var out []Prereq
	for _, p := range ps {
		if !p.OK {
			out = append(out, p)
		}
	}
	return out
}

// CheckSandbox checks what Claude Code's sandbox needs on this host, for
// real: on Linux bubblewrap (bwrap), found on PATH and able to create its
// namespaces (it runs /bin/true in new user, pid, network and mount
// namespaces), and socat (the sandbox's network proxy); on macOS
// sandbox-exec, able to apply a profile. Other systems have no sandbox
// Claude Code can use here (docs/sandbox.md §5).
func CheckSandbox(env map[string]string) []Prereq {
	switch runtime.GOOS {
	case "linux":
		ps := []Prereq{tryRun("bubblewrap", "bwrap", env,
			[]string{"--ro-bind", "/", "/", "--dev", "/dev", "--unshare-user", "--unshare-pid", "--unshare-net", "--die-with-parent", "--", "/bin/true"},
			"install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ an AppArmor profile for bwrap)")}
		if p, err := lookPath("socat", env); err == nil {
			ps = append(ps, Prereq{Name: "socat", OK: true, Detail: p})
		} else {
			ps = append(ps, Prereq{Name: "socat", Detail: "socat not found on PATH (the sandbox's network proxy)", Fix: "apt-get install socat"})
		}
		return ps
	case "darwin":
		return []Prereq{tryRun("sandbox-exec", "/usr/bin/sandbox-exec", env,
			[]string{"-p", "(version 1)(allow default)", "/usr/bin/true"}, "sandbox-exec ships with macOS; check that the system is not restricted by a profile")}
	}
	return []Prereq{{Name: "sandbox", Detail: "Claude Code's sandbox (bubblewrap, Seatbelt) is not available on " + runtime.GOOS,
		Fix: "run the Generator on Linux or macOS, or launch it with --no-sandbox --reason TEXT (the hook is then the only guard)"}}
}

// tryRun finds prog and runs it with args (5 s at most).
func tryRun(name, prog string, env map[string]string, args []string, fix string) Prereq {
	path := prog
	if !filepath.IsAbs(prog) {
		p, err := lookPath(prog, env)
		if err != nil {
			return Prereq{Name: name, Detail: prog + " not found on PATH", Fix: fix}
		}
		path = p
	} else if _, err := os.Stat(prog); err != nil {
		return Prereq{Name: name, Detail: err.Error(), Fix: fix}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return Prereq{Name: name, Detail: path + " cannot create its sandbox: " + err.Error() + ": " + msg, Fix: fix}
	}
	return Prereq{Name: name, OK: true, Detail: path + " creates its sandbox (namespaces or profile) — checked by running /bin/true in one"}
}

// lookPath finds an executable in env's PATH (not the process's).
func lookPath(name string, env map[string]string) (string, error) {
	for _, dir := range filepath.SplitList(env["PATH"]) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}
