package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Binaries are the paths of freshly built harness executables.
type Binaries struct {
	// Harness is the CLI (cmd/harness); "" when it did not build.
	Harness string
	// Hook is the hook (cmd/harness-hook); "" when it did not build.
	Hook string
	// HarnessErr and HookErr hold the build error of each ("" when built).
	HarnessErr, HookErr string
}

// ModuleRoot returns the directory of the go.mod governing the current
// directory (the repository root), found with `go env GOMOD`.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// BuildBinaries builds cmd/harness and cmd/harness-hook as static binaries
// (CGO_ENABLED=0) into dir. A package that does not build yet is reported in
// HarnessErr/HookErr, not as an error; err is only for a missing toolchain or
// module.
func BuildBinaries(dir string) (Binaries, error) {
	root, err := ModuleRoot()
	if err != nil {
		return Binaries{}, err
	}
	var b Binaries
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	build := func(pkg, name string) (string, string) {
		out := filepath.Join(dir, name+exe)
		cmd := exec.Command("go", "build", "-trimpath", "-o", out, "./"+pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			return "", strings.TrimSpace(string(msg) + " " + err.Error())
		}
		return out, ""
	}
	b.Hook, b.HookErr = build("cmd/harness-hook", "harness-hook")
	b.Harness, b.HarnessErr = build("cmd/harness", "harness")
	return b, nil
}
