// Package doctor checks that a machine and a sprint workspace really enforce
// the harness: the binaries are there, static and executable; every Claude
// Code settings.json that should wire harness-hook does so for the needed
// events with a command that exists (a missing command exits 127, which
// Claude Code treats as allow); the wired command lines answer a known deny
// and a known allow payload correctly; the rules override file and the
// embedded schemas are valid; hook.log is writable. `harness doctor` prints
// one line per check (ok / warn / fail / info) with the fix for each
// problem, and exits 1 when any check fails.
//
// Sources: docs/hooks.md §2 (exit codes, fail-open), §7 (settings
// shape, matcher syntax, exec form), docs/protocol.md §4.6 (what init-feature
// writes), and what the real CLI 2.1.332 did in internal/e2e (settings are
// read from <cwd>/.claude/settings.json only; an invalid settings file is
// silently ignored in -p mode; `"onFailure": "block"` makes a missing or
// failing PreToolUse hook block).
package doctor

import (
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
)

// Status of one check.
type Status string

// The statuses, in increasing severity. Only StatusFail makes the report
// fail (exit 1).
const (
	StatusInfo Status = "info"
	StatusOK   Status = "ok"
	StatusWarn Status = "warn"
	StatusFail Status = "fail"
)

// Check is one line of the report.
type Check struct {
	// Name says what was checked, e.g. "settings .harness/features/f001/.claude/settings.json".
	Name   string `json:"name"`
	Status Status `json:"status"`
	// Detail is what was found.
	Detail string `json:"detail"`
	// Fix is how to repair a warn or fail ("" otherwise).
	Fix string `json:"fix,omitempty"`
}

// Report is the outcome of Run.
type Report struct {
	// OK is false when any check failed.
	OK     bool    `json:"ok"`
	Checks []Check `json:"checks"`
}

// Options configure Run. Every field may be empty.
type Options struct {
	// Root is the sprint root; "" when none was found (the workspace checks
	// are then skipped).
	Root string
	// Home is the user's home directory, for ~/.claude/settings.json.
	Home string
	// Cwd is the working directory: outside a sprint its
	// .claude/settings.json and settings.local.json are the project's
	// settings (what Claude Code started there reads).
	Cwd string
	// HarnessBin is the running harness executable.
	HarnessBin string
	// HookBin is the harness-hook binary that should be wired; "" = beside
	// HarnessBin, else on PATH.
	HookBin string
	// Env is the process environment (PATH is used to find binaries and is
	// passed to the probes).
	Env map[string]string
	// Assets is the embedded data (harness.Assets()), for the schema check.
	Assets fs.FS
	// ProbeTimeout bounds each probe run when the handler has no timeout
	// (default 10 s).
	ProbeTimeout time.Duration
	// NoProbe skips running the configured hook command lines.
	NoProbe bool
}

// Run performs every check and returns the report.
func Run(o Options) Report {
	if o.ProbeTimeout <= 0 {
		o.ProbeTimeout = 10 * time.Second
	}
	var r Report
	add := func(cs ...Check) { r.Checks = append(r.Checks, cs...) }
	add(systemFacts(o)...)
	hookBin, cs := checkBinaries(o)
	add(cs...)
	add(checkSandboxHost(o)...)
	add(checkSkill(o)...)
	if o.Root == "" {
		add(Check{Name: "workspace", Status: StatusInfo,
			Detail: "no sprint root (--root, HARNESS_ROOT, or a folder above holding .harness/): checking the project and user settings"})
		add(checkProject(o, hookBin)...)
	} else {
		add(checkUserSettings(o.Home, o.Env)...)
		add(checkWorkspace(o, hookBin)...)
	}
	r.OK = true
	for _, c := range r.Checks {
		if c.Status == StatusFail {
			r.OK = false
		}
	}
	return r
}

// WriteText prints the report, one line per check plus its fix, and a summary.
func (r Report) WriteText(w io.Writer) error {
	counts := map[Status]int{}
	for _, c := range r.Checks {
		counts[c.Status]++
		if _, err := fmt.Fprintf(w, "%-4s  %s: %s\n", strings.ToUpper(string(c.Status)), c.Name, c.Detail); err != nil {
			return err
		}
		if c.Fix != "" {
			fmt.Fprintf(w, "      fix: %s\n", c.Fix)
		}
	}
	verdict := "all checks passed"
	if !r.OK {
		verdict = "the harness is NOT fully enforced"
	}
	_, err := fmt.Fprintf(w, "doctor: %d ok, %d warn, %d fail, %d info — %s\n",
		counts[StatusOK], counts[StatusWarn], counts[StatusFail], counts[StatusInfo], verdict)
	return err
}
