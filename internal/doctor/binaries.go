package doctor

import (
	"context"
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/launch"
)

// hookName is the file name of the hook binary on this OS.
func hookName() string {
	if runtime.GOOS == "windows" {
		return "harness-hook.exe"
	}
	return "harness-hook"
}

// systemFacts reports the Go/OS facts (info lines).
func systemFacts(o Options) []Check {
	cs := []Check{{Name: "system", Status: StatusInfo,
		Detail: fmt.Sprintf("%s/%s, %d CPUs, harness built with %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())}}
	// the client harness launch would start: $CLAUDE_BIN, else claude on PATH
	p, from := launch.FindClaude(o.Env), "on PATH"
	if bin := o.Env["CLAUDE_BIN"]; bin != "" {
		from = "$CLAUDE_BIN"
		if p == "" || !isExecutable(p) {
			return append(cs, Check{Name: "claude", Status: StatusWarn,
				Detail: fmt.Sprintf("CLAUDE_BIN=%s is not an executable file: harness launch cannot start the Generator", bin),
				Fix:    "point CLAUDE_BIN at the claude binary, or unset it to use claude on PATH"})
		}
	}
	if p == "" {
		return append(cs, Check{Name: "claude", Status: StatusInfo, Detail: "no claude on PATH and no $CLAUDE_BIN (only harness launch needs it)"})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, p, "--version").Output()
	v := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	return append(cs, Check{Name: "claude", Status: StatusInfo, Detail: fmt.Sprintf("%s (%s, %s); the harness is verified against 2.1.332", p, from, orUnknown(v))})
}

func orUnknown(s string) string {
	if s == "" {
		return "version unknown"
	}
	return s
}

// checkBinaries checks harness and harness-hook: present, executable,
// statically linked, same build. It returns the hook path to expect in
// settings ("" when none was found).
func checkBinaries(o Options) (string, []Check) {
	var cs []Check
	hook := o.HookBin
	how := "--hook-bin"
	if hook == "" && o.HarnessBin != "" {
		if p := filepath.Join(filepath.Dir(o.HarnessBin), hookName()); isFile(p) {
			hook, how = p, "beside harness"
		}
	}
	if hook == "" {
		if p, err := lookPath("harness-hook", o.Env); err == nil {
			hook, how = p, "on PATH"
		}
	}
	if o.HarnessBin != "" {
		cs = append(cs, binaryCheck("binary harness", o.HarnessBin, "")...)
	}
	if hook == "" {
		cs = append(cs, Check{Name: "binary harness-hook", Status: StatusFail,
			Detail: "not found beside harness nor on PATH",
			Fix:    "build it (CGO_ENABLED=0 go build -o <dir>/harness-hook ./cmd/harness-hook) next to harness, or pass --hook-bin"})
		return "", cs
	}
	if abs, err := filepath.Abs(hook); err == nil {
		hook = abs
	}
	cs = append(cs, binaryCheck("binary harness-hook", hook, how)...)
	// same build?
	if o.HarnessBin != "" {
		a, b := revision(o.HarnessBin), revision(hook)
		if a != "" && b != "" && a != b {
			cs = append(cs, Check{Name: "binaries match", Status: StatusWarn,
				Detail: fmt.Sprintf("harness is %s but harness-hook is %s", a, b),
				Fix:    "rebuild both from the same commit so the CLI and the hook apply the same rules"})
		}
	}
	return hook, cs
}

// binaryCheck checks one executable.
func binaryCheck(name, path, how string) []Check {
	fi, err := os.Stat(path)
	if err != nil {
		return []Check{{Name: name, Status: StatusFail, Detail: err.Error(), Fix: "build and install it"}}
	}
	if fi.IsDir() || (runtime.GOOS != "windows" && fi.Mode()&0o111 == 0) {
		return []Check{{Name: name, Status: StatusFail, Detail: path + " is not executable", Fix: "chmod +x " + path}}
	}
	detail := path
	if how != "" {
		detail += " (" + how + ")"
	}
	var notes []string
	if bi, err := buildinfo.ReadFile(path); err == nil {
		notes = append(notes, bi.GoVersion)
		for _, s := range bi.Settings {
			if s.Key == "CGO_ENABLED" && s.Value == "1" {
				notes = append(notes, "CGO_ENABLED=1")
			}
		}
	}
	st, staticErr := isStatic(path)
	switch {
	case staticErr != nil:
		notes = append(notes, "linking not checked: "+staticErr.Error())
	case st:
		notes = append(notes, "static")
	default:
		return []Check{{Name: name, Status: StatusFail, Detail: detail + ": dynamically linked (needs a loader and libc at run time)",
			Fix: "rebuild with CGO_ENABLED=0 go build -trimpath"}}
	}
	if len(notes) > 0 {
		detail += ", " + strings.Join(notes, ", ")
	}
	return []Check{{Name: name, Status: StatusOK, Detail: detail}}
}

// isStatic reports whether an ELF binary has no program interpreter. Other
// formats (Mach-O always links libSystem, PE) return an error: not checked.
func isStatic(path string) (bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return false, fmt.Errorf("not an ELF file (%s)", runtime.GOOS)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return false, nil
		}
	}
	return true, nil
}

// revision is the vcs.revision (+ "-dirty") recorded in a Go binary.
func revision(path string) string {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return ""
	}
	rev, dirty := "", ""
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return rev + dirty
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// lookPath finds name in env's PATH (not the process's).
func lookPath(name string, env map[string]string) (string, error) {
	path := env["PATH"]
	if path == "" {
		path = env["Path"]
	}
	exts := []string{""}
	if runtime.GOOS == "windows" && filepath.Ext(name) == "" {
		exts = []string{".exe", ".cmd", ".bat", ""}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		for _, ext := range exts {
			p := filepath.Join(dir, name+ext)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && (runtime.GOOS == "windows" || fi.Mode()&0o111 != 0) {
				return p, nil
			}
		}
	}
	return "", exec.ErrNotFound
}
