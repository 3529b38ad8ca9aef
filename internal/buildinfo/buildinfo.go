// Package buildinfo formats the --version line of the harness binaries:
//
//	harness v1.2.3 (commit abcdef1, built 2026-12-01T20:00:00Z)
//
// install.sh stamps version, commit and date with -ldflags "-X main.version=…
// -X main.commit=… -X main.date=…". A build without them (go build, go
// install, go run) says "dev" and takes the commit and its time from the
// VCS stamp Go records in the binary, when there is one.
package buildinfo

import (
	"fmt"
	"runtime/debug"
)

// Info is what a binary knows about its build.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	// Date is when the binary was built (install.sh) or, for a dev build,
	// the time of the commit it was built from; "" when unknown.
	Date string `json:"date"`
	// Modified is true for a dev build from a work tree with uncommitted
	// changes.
	Modified bool `json:"modified,omitempty"`
}

// Get returns the build information from the stamped values (any may be
// empty), completed from the Go VCS stamp for dev builds.
func Get(version, commit, date string) Info {
	in := Info{Version: version, Commit: commit, Date: date}
	if in.Version == "" {
		in.Version = "dev"
	}
	if bi, ok := debug.ReadBuildInfo(); ok && (in.Commit == "" || in.Date == "") {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if in.Commit == "" {
					in.Commit = s.Value
				}
			case "vcs.time":
				if in.Date == "" {
					in.Date = s.Value
				}
			case "vcs.modified":
				in.Modified = in.Modified || s.Value == "true"
			}
		}
	}
	if len(in.Commit) > 7 {
		in.Commit = in.Commit[:7]
	}
	return in
}

// Line is the --version line of program: "harness v1.2.3 (commit abcdef1,
// built 2026-…)"; unknown parts say so.
func (in Info) Line(program string) string {
	commit := in.Commit
	if commit == "" {
		commit = "unknown"
	}
	if in.Modified {
		commit += ", modified"
	}
	built := "built " + in.Date
	if in.Date == "" {
		built = "build date unknown"
	}
	kind := ""
	if in.Version == "dev" {
		kind = ", a development build"
	}
	return fmt.Sprintf("%s %s (commit %s, %s%s)", program, in.Version, commit, built, kind)
}
